//! Starting the user's `$EDITOR` (`config`, `edit`): one call, the files
//! last, and the editor's exit status as the command's.

use std::path::PathBuf;
use std::process::Command;

use crate::error::{Error, Result};

/// Editors that open several files in tabs with `-p`; given bare (no
/// arguments of their own in `$EDITOR`), `edit` adds it.
const TABBED: [&str; 4] = ["vim", "nvim", "gvim", "mvim"];

/// Editors that run in the terminal they are started from (`vi`, the
/// default, among them): without a terminal on stdin they cannot be used,
/// so they are not started.
const IN_TERMINAL: [&str; 12] = [
    "vi", "vim", "nvim", "nano", "pico", "micro", "hx", "helix", "kak", "joe", "mg", "ne",
];

/// `$EDITOR` split into words (`vi` when unset or blank).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Editor {
    words: Vec<String>,
}

impl Editor {
    /// `$EDITOR` may carry arguments (`code -w`) and quotes (a program whose
    /// path holds a space); it is split into words as a shell would split it.
    pub fn from_env() -> Result<Editor> {
        let text = std::env::var("EDITOR")
            .ok()
            .filter(|e| !e.trim().is_empty())
            .unwrap_or_else(|| "vi".to_string());
        Editor::parse(&text)
    }

    fn parse(text: &str) -> Result<Editor> {
        let words = crate::shellwords::split(text).map_err(|e| {
            Error::Editor(format!(
                "$EDITOR cannot be split into words: {}",
                e.describe()
            ))
        })?;
        if words.is_empty() {
            return Err(no_program());
        }
        Ok(Editor { words })
    }

    /// The program and its arguments, before the files; with `tabs`, a
    /// bare vim-like editor (in any directory, matched on the program's
    /// file name) gets `-p`.
    pub fn command(&self, tabs: bool) -> Vec<String> {
        let mut argv = self.words.clone();
        let bare_vim = argv.len() == 1
            && std::path::Path::new(&argv[0])
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| TABBED.contains(&n));
        if tabs && bare_vim {
            argv.push("-p".into());
        }
        argv
    }

    /// Whether a person is there to use an editor: stdin and stdout are
    /// both terminals. A script (a dotfiles bootstrap, CI) has neither.
    pub fn interactive() -> bool {
        use std::io::IsTerminal;
        std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
    }

    /// Run the editor on `files` and wait; its exit status is the value
    /// (1 when a signal ended it). An editor that cannot be started is an
    /// error (exit 1) naming the program.
    pub fn open(&self, files: &[PathBuf], tabs: bool) -> Result<i32> {
        let argv = self.command(tabs);
        let Some((program, args)) = argv.split_first() else {
            return Err(no_program());
        };
        if in_terminal(program) && !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
            return Err(Error::Editor(format!(
                "stdin is not a terminal, and the editor '{program}' runs in one: run this \
                 command from a terminal, or set EDITOR to an editor that opens a window of \
                 its own (`code -w`)"
            )));
        }
        let status = Command::new(program)
            .args(args)
            .args(files)
            .status()
            .map_err(|e| Error::Editor(format!("could not start the editor '{program}': {e}")))?;
        Ok(status.code().unwrap_or(1))
    }
}

/// Whether `program` (matched on its file name) is a terminal editor.
fn in_terminal(program: &str) -> bool {
    std::path::Path::new(program)
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| IN_TERMINAL.contains(&n))
}

fn no_program() -> Error {
    Error::Editor("$EDITOR names no program".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(editor: &str, tabs: bool) -> Vec<String> {
        Editor::parse(editor).unwrap().command(tabs)
    }

    #[test]
    fn a_bare_vim_like_editor_opens_tabs() {
        for vim in ["vim", "nvim", "gvim", "mvim", "/opt/bin/nvim"] {
            assert_eq!(argv(vim, true), [vim, "-p"]);
        }
    }

    #[test]
    fn an_editor_with_arguments_or_another_name_is_left_alone() {
        assert_eq!(argv("vim -O", true), ["vim", "-O"]);
        assert_eq!(argv("'my vim'", true), ["my vim"]);
        assert_eq!(argv("vi", true), ["vi"]);
        assert_eq!(argv("vim", false), ["vim"]);
    }

    #[test]
    fn terminal_editors_are_known_by_their_file_name() {
        for editor in ["vi", "/usr/bin/vim", "nano"] {
            assert!(in_terminal(editor), "{editor}");
        }
        for editor in ["code", "true", "/opt/vim-gui/gvim"] {
            assert!(!in_terminal(editor), "{editor}");
        }
    }

    #[test]
    fn an_editor_that_is_not_words_is_an_error() {
        for bad in ["'open", "   "] {
            let err = Editor::parse(bad).unwrap_err();
            assert_eq!(err.exit_code(), 1, "{bad}");
        }
    }
}
