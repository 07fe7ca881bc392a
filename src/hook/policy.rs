//! The two lists the hook compares with, taken from the compiled policy:
//! srt's `filesystem.denyRead` and the compiled `filesystem.denyWrite`
//! (which already holds every denyRead entry and the policy files). Each
//! entry is spelled as written (for the reason shown), and as an absolute
//! path split into segments, once as written and once with its existing
//! symlinks followed, so an entry that is itself a link is still caught.

use std::path::{Path, PathBuf};

use crate::compile::Compiled;
use crate::paths::{absolute_normalised, resolve_symlinks};
use crate::rules::{Action, Scope, select};

use super::matcher;

/// One policy entry.
#[derive(Debug, Clone)]
pub struct Entry {
    written: String,
    spellings: Vec<Vec<String>>,
}

impl Entry {
    fn new(written: &str, cwd: &Path, home: &Path) -> Entry {
        let text = expand_home(written, home);
        let spellings = if text.starts_with("**") {
            // srt matches a leading `**` anywhere, whatever the directory.
            vec![split_owned(&text)]
        } else {
            let lexical = absolute_normalised(Path::new(&text), cwd);
            let real = resolve_symlinks(&lexical);
            let mut out = vec![split_owned(&lexical.to_string_lossy())];
            if real != lexical {
                out.push(split_owned(&real.to_string_lossy()));
            }
            out
        };
        Entry {
            written: written.to_string(),
            spellings,
        }
    }

    pub fn written(&self) -> &str {
        &self.written
    }

    /// The entry's spellings, each as absolute segments (or `**` first).
    pub fn segments(&self) -> &[Vec<String>] {
        &self.spellings
    }

    /// `path` (segments of an absolute path) is this entry or below it.
    pub fn covers(&self, path: &[&str]) -> bool {
        self.spellings.iter().any(|s| matcher::covers(s, path))
    }

    /// This entry lies strictly below `path`. An entry that starts with
    /// `**` names files anywhere: every directory could hold one, so it
    /// would make every recursive command ask; it is checked on the files
    /// a command names, not on the walks.
    pub fn below(&self, path: &[&str]) -> bool {
        self.spellings
            .iter()
            .filter(|s| s.first().is_none_or(|f| f != "**"))
            .any(|s| matcher::below(s, path))
    }
}

/// The policy as the hook reads it, for one event's working directory.
#[derive(Debug, Clone)]
pub struct Policy {
    home: PathBuf,
    deny_read: Vec<Entry>,
    deny_write: Vec<Entry>,
}

impl Policy {
    /// The entries of `compiled`, relative ones taken from `cwd`.
    pub fn new(compiled: &Compiled, home: &Path, cwd: &Path) -> Policy {
        let rules = compiled.rules();
        let entries = |scope| {
            select(&rules, scope, Action::Deny)
                .map(|r| Entry::new(r.pattern, cwd, home))
                .collect()
        };
        Policy {
            home: home.to_path_buf(),
            deny_read: entries(Scope::Read),
            deny_write: entries(Scope::Write),
        }
    }

    /// A policy from lists (tests).
    #[cfg(test)]
    pub fn from_lists(home: &Path, cwd: &Path, read: &[&str], write: &[&str]) -> Policy {
        let all = |list: &[&str]| list.iter().map(|p| Entry::new(p, cwd, home)).collect();
        let mut write: Vec<&str> = write.to_vec();
        write.extend_from_slice(read);
        Policy {
            home: home.to_path_buf(),
            deny_read: all(read),
            deny_write: all(&write),
        }
    }

    pub fn home(&self) -> &Path {
        &self.home
    }

    pub fn deny_read(&self) -> &[Entry] {
        &self.deny_read
    }

    pub fn deny_write(&self) -> &[Entry] {
        &self.deny_write
    }
}

/// An operand as the command will open it: absolute, and with its existing
/// symlinks followed.
pub struct Resolved {
    lexical: String,
    real: String,
}

impl Resolved {
    /// Both spellings, as segments.
    pub fn spellings(&self) -> impl Iterator<Item = Vec<&str>> {
        [split(&self.lexical), split(&self.real)].into_iter()
    }

    /// It is an existing directory (links followed).
    pub fn is_dir(&self) -> bool {
        Path::new(&self.real).is_dir()
    }
}

/// `text` (a literal operand, `~` and `~/` still unexpanded) against `cwd`.
pub fn resolve(text: &str, cwd: &Path, home: &Path) -> Resolved {
    let expanded = expand_home(text, home);
    let lexical = absolute_normalised(Path::new(&expanded), cwd);
    // Following links before removing `..` is what the kernel does; the
    // lexical spelling is kept too, for a path the text names directly.
    let real = resolve_symlinks(&cwd.join(&expanded));
    Resolved {
        lexical: lexical.to_string_lossy().into_owned(),
        real: real.to_string_lossy().into_owned(),
    }
}

/// `~` and `~/...` with the home directory, as the shell expands them.
fn expand_home(text: &str, home: &Path) -> String {
    let home = home.to_string_lossy();
    if text == "~" {
        return home.into_owned();
    }
    match text.strip_prefix("~/") {
        Some(rest) => format!("{}/{rest}", home.trim_end_matches('/')),
        None => text.to_string(),
    }
}

fn split(path: &str) -> Vec<&str> {
    path.split('/').filter(|s| !s.is_empty()).collect()
}

fn split_owned(path: &str) -> Vec<String> {
    split(path).into_iter().map(String::from).collect()
}
