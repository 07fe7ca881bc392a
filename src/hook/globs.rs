//! A glob whose fixed part cannot reach a protected path is no unknown:
//! `ls *.txt` in the project names only files in the project. A word is
//! taken as a glob only when it is plain text (no expansion, no quote, no
//! brace or extended pattern); its literal directory is resolved like any
//! path, and each pattern segment is matched against the denied entries'
//! segments below it, with bash's rules (`*`, `?` and `[...]` do not match
//! a leading `.` unless `dotglob` or `GLOBIGNORE` appears in the command),
//! through srt's glob matcher with bash's classes
//! ([`crate::srt::glob::Classes::Bash`]).

use std::path::Path;

use crate::srt::glob::{self, Classes};

use super::operands::Access;
use super::policy::{self, Policy};

/// A plain glob: its literal directory and its pattern segments.
#[derive(Debug, PartialEq, Eq)]
pub struct Glob {
    prefix: String,
    patterns: Vec<String>,
}

impl Glob {
    pub fn parse(written: &str) -> Option<Glob> {
        if written.contains(['$', '`', '\'', '"', '\\', '{', '}', '(', ')', '<', '>']) {
            return None;
        }
        if written.starts_with('~') && written != "~" && !written.starts_with("~/") {
            return None;
        }
        let segments: Vec<&str> = written.split('/').collect();
        let first = segments.iter().position(|s| is_pattern(s))?;
        let patterns: Vec<String> = segments[first..]
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| s.to_string())
            .collect();
        // `**` (globstar), `..` and `.` after a pattern: not worth modelling.
        if patterns
            .iter()
            .any(|p| p.contains("**") || p == ".." || p == ".")
        {
            return None;
        }
        let prefix = match segments[..first].join("/") {
            p if p.is_empty() && written.starts_with('/') => "/".to_string(),
            p if p.is_empty() => ".".to_string(),
            p => p,
        };
        Some(Glob { prefix, patterns })
    }

    /// The glob could name `entry` (absolute segments) or a path below it;
    /// with `recursive`, also a directory above it.
    fn reaches(&self, prefix: &[&str], entry: &[String], recursive: bool, rules: Rules) -> bool {
        if entry.first().is_some_and(|e| e == "**") {
            // `**/name`: any of the glob's segments could be that name.
            return match entry.get(1) {
                Some(name) => self.patterns.iter().any(|p| rules.matches(p, name)),
                None => true,
            };
        }
        if entry.len() <= prefix.len() {
            return entry.iter().zip(prefix).all(|(e, p)| segment_equal(e, p));
        }
        if !entry.iter().zip(prefix).all(|(e, p)| segment_equal(e, p)) {
            return false;
        }
        let below = &entry[prefix.len()..];
        for (i, pattern) in self.patterns.iter().enumerate() {
            match below.get(i) {
                None => return true,
                Some(e) if !rules.matches(pattern, e) => return false,
                Some(_) => {}
            }
        }
        self.patterns.len() >= below.len() || recursive
    }
}

/// An entry segment that is itself a pattern could be anything.
fn segment_equal(entry: &str, path: &str) -> bool {
    entry == path || is_pattern(entry)
}

fn is_pattern(text: &str) -> bool {
    text.contains(['*', '?', '['])
}

/// The shell options that change what a pattern matches.
#[derive(Clone, Copy)]
struct Rules {
    dotglob: bool,
    nocase: bool,
}

impl Rules {
    fn matches(self, pattern: &str, name: &str) -> bool {
        if is_pattern(name) {
            return true;
        }
        if name.starts_with('.') && !pattern.starts_with('.') && !self.dotglob {
            return false;
        }
        let lower = |s: &str| {
            if self.nocase {
                s.to_lowercase()
            } else {
                s.to_string()
            }
        };
        let (p, n) = (lower(pattern), lower(name));
        glob::segment_matches(&p, &n, Classes::Bash)
    }
}

/// `written` is a plain glob that, from `cwd`, can name no path the
/// policy denies for `access`: it needs no asking.
pub fn cannot_reach(
    written: &str,
    access: Access,
    command: &str,
    cwd: &Path,
    policy: &Policy,
) -> bool {
    let Some(glob) = Glob::parse(written) else {
        return false;
    };
    let rules = Rules {
        dotglob: command.contains("dotglob") || command.contains("GLOBIGNORE"),
        nocase: command.contains("nocaseglob"),
    };
    let entries = match access {
        Access::Read | Access::RecursiveRead => policy.deny_read(),
        _ => policy.deny_write(),
    };
    let prefix = policy::resolve(&glob.prefix, cwd, policy.home());
    !prefix.spellings().any(|p| {
        entries.iter().any(|e| {
            e.segments()
                .iter()
                .any(|s| glob.reaches(&p, s, access.recursive(), rules))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bash_pattern_rules() {
        let rules = Rules {
            dotglob: false,
            nocase: false,
        };
        for (pattern, name, want) in [
            ("*.txt", "a.txt", true),
            ("*.txt", "a.rs", false),
            ("*", ".ssh", false),
            (".*", ".ssh", true),
            ("?ssh", ".ssh", false),
            ("[.]ssh", ".ssh", false),
            (".s[sx]h", ".ssh", true),
            (".s[!s]h", ".ssh", false),
            ("id_*", "id_rsa", true),
            ("*a*b", "xaxxb", true),
        ] {
            assert_eq!(rules.matches(pattern, name), want, "{pattern} {name}");
        }
    }

    #[test]
    fn only_plain_globs_are_read() {
        assert_eq!(
            Glob::parse("~/.ssh/*"),
            Some(Glob {
                prefix: "~/.ssh".into(),
                patterns: vec!["*".into()]
            })
        );
        for word in [
            "$X*", "\"$X\"*", "~root/*", "{a,b}*", "**/x", "@(a|b)", "plain",
        ] {
            assert_eq!(Glob::parse(word), None, "{word}");
        }
    }
}
