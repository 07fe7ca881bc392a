//! The commands the sandbox mode leaves outside srt: a closed set proven
//! inert, whatever their operands name (the analysis has checked those).
//! Each program here has a closed option grammar and takes no code, no
//! file and no configuration beyond the named operands:
//!
//! - `cd`, `pwd`, `echo`, `true`, `false`, `:`: bash builtins. `cd` must
//!   stay outside srt, since a directory change inside srt would not reach
//!   the agent's shell; it opens no file. `pwd -L`/`-P` and `echo` print
//!   their words; `echo -e` decodes escapes into its own output only.
//! - `ls` (short options without `-R`) lists the names its operands name;
//!   `wc` (`-l -w -c -m -L`) reads the files its operands name, which the
//!   analysis has checked. Both only where the hook's `PATH` finds them in
//!   `/usr/bin` or `/bin`, which no policy makes writable: a program of the
//!   same name a wrapped command wrote earlier elsewhere is not run outside
//!   srt.
//!
//! Not here: `git status` (the repository's `.git/config` may set
//! `core.fsmonitor`, a program git runs), and any program with a config
//! file, a plugin or an option that names code or a file list
//! (`wc --files0-from`).
//!
//! The text must be plain: words of letters, digits and `_ . / , : = + @ %
//! -`, quoted or not, joined by blanks, `&&`, `||` or `;`. Any expansion
//! (`$`, backquotes, globs, braces, `~`), redirection, pipe, background,
//! subshell, comment or backslash makes the line not inert.

use std::path::Path;

/// Whether `command` is inert (see the module docs), external programs
/// looked up on `path`.
pub fn inert(command: &str, path: Option<&str>) -> bool {
    let Some(commands) = plain_commands(command) else {
        return false;
    };
    !commands.is_empty()
        && commands
            .iter()
            .all(|words| !words.is_empty() && inert_command(words, path))
}

fn inert_command(words: &[String], path: Option<&str>) -> bool {
    let (name, args) = (words[0].as_str(), &words[1..]);
    match name {
        "true" | "false" | ":" | "echo" => true,
        "pwd" => args.iter().all(|a| a == "-L" || a == "-P"),
        "cd" => {
            let operands: Vec<&String> = args.iter().filter(|a| !is_flag(a, "LPe@")).collect();
            operands.len() <= 1
                && operands
                    .iter()
                    .all(|o| o.as_str() == "-" || !o.starts_with('-'))
        }
        "ls" => system_program("ls", path) && flags_within(args, "aAlhtrS1dFinsgoGpXUcuCmxQbBkL"),
        "wc" => system_program("wc", path) && flags_within(args, "lwcmL"),
        _ => false,
    }
}

/// Every word starting with `-` is a cluster of short flags from `allowed`
/// (`--` ends the options; no long option).
fn flags_within(args: &[String], allowed: &str) -> bool {
    let mut options = true;
    for arg in args {
        if options && arg == "--" {
            options = false;
        } else if options && arg.starts_with('-') && !is_flag(arg, allowed) {
            return false;
        }
    }
    true
}

fn is_flag(arg: &str, allowed: &str) -> bool {
    arg.len() > 1 && arg.starts_with('-') && arg[1..].chars().all(|c| allowed.contains(c))
}

/// The first executable `name` on `path` is in `/usr/bin` or `/bin`.
fn system_program(name: &str, path: Option<&str>) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let found = path
        .into_iter()
        .flat_map(|p| p.split(':'))
        .filter(|dir| dir.starts_with('/'))
        .map(|dir| Path::new(dir).join(name))
        .find(|p| {
            std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        });
    found.is_some_and(|p| {
        let dir = p.parent().map(Path::to_path_buf).unwrap_or_default();
        dir == Path::new("/usr/bin") || dir == Path::new("/bin")
    })
}

/// The simple commands of a plain `text` (as word lists), or `None` when
/// it is not plain.
fn plain_commands(text: &str) -> Option<Vec<Vec<String>>> {
    const WORD: &str = "_./,:=+@%-";
    let mut commands = vec![Vec::new()];
    let mut word: Option<String> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => end_word(&mut word, &mut commands),
            ';' => {
                end_word(&mut word, &mut commands);
                commands.push(Vec::new());
            }
            '&' | '|' if chars.peek() == Some(&c) => {
                chars.next();
                end_word(&mut word, &mut commands);
                commands.push(Vec::new());
            }
            '\'' | '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some(q) if q == c => break,
                        Some('$' | '`' | '\\' | '!') if c == '"' => return None,
                        Some(q) => w.push(q),
                        None => return None,
                    }
                }
            }
            c if c.is_ascii_alphanumeric() || WORD.contains(c) => {
                word.get_or_insert_with(String::new).push(c);
            }
            _ => return None,
        }
    }
    end_word(&mut word, &mut commands);
    // An empty command between separators (`a;;b`, a trailing `&&`) is
    // not plain; one trailing `;` is.
    if commands.last().is_some_and(Vec::is_empty) && text.trim_end().ends_with(';') {
        commands.pop();
    }
    Some(commands)
}

fn end_word(word: &mut Option<String>, commands: &mut [Vec<String>]) {
    if let (Some(w), Some(last)) = (word.take(), commands.last_mut()) {
        last.push(w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_lines_of_inert_commands_are_inert() {
        let path = Some("/usr/bin:/bin");
        for command in [
            "pwd",
            "cd sub",
            "cd ..",
            "cd - ; pwd",
            "cd src && ls -la",
            "echo 'a b;c' \"d|e\"",
            "ls -1 docs",
            "wc -l notes.txt README.md",
            "true || false",
            ":",
            "echo done;",
        ] {
            assert!(inert(command, path), "{command}");
        }
        for command in [
            "",
            "cat notes.txt",
            "ls -R ~",
            "ls --color=always",
            "ls *.c",
            "ls ~",
            "echo $HOME",
            "echo \"$(id)\"",
            "echo `id`",
            "echo x > f",
            "echo x | wc",
            "echo x &",
            "(cd sub)",
            "wc --files0-from=list",
            "wc -l a\\ b",
            "git status",
            "X=1 ls",
            "/bin/ls",
            "cd a b",
            "pwd -x",
            "echo a;;echo b",
            "echo a &&",
            "echo 'unterminated",
            "ls # comment",
            "echo {a,b}",
            "echo \"!x\"",
            "echo a\necho b",
        ] {
            assert!(!inert(command, path), "{command}");
        }
        // External programs only from the system directories.
        assert!(!inert("ls", Some("/nonexistent")));
        assert!(!inert("wc -l x", None));
        assert!(inert("echo x", None));
    }
}
