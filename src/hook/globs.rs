//! Globs, as the shell and Claude Code's Glob tool expand them. A word is
//! taken as a glob only when it is plain text (no expansion, no quote, no
//! brace or extended pattern). It is expanded against the file system the
//! way bash does it ([`expand`]: `*`, `?` and `[...]` do not match a
//! leading `.` unless `dotglob` or `GLOBIGNORE` appears in the command,
//! nullglob off), through srt's glob matcher with bash's classes
//! ([`crate::srt::glob::Classes::Bash`]); each match is then checked as
//! the path it is, its links followed. [`cannot_reach`] is the lexical
//! test of the pattern against the entries, for the glob whose expansion
//! the hook cannot see (a glob below a link the same line makes).

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

/// How a glob is expanded.
#[derive(Debug, Clone, Copy, Default)]
pub struct Style {
    /// Patterns match a leading `.` (bash `dotglob`, ripgrep `--hidden`).
    pub dotglob: bool,
    pub nocase: bool,
    /// `**` is any run of directories (bash `globstar`, ripgrep).
    pub globstar: bool,
    /// `**` walks through links to directories (ripgrep with `--follow`;
    /// taken as so, which can only find more).
    pub follow: bool,
}

impl Style {
    /// bash's options as the command text sets them.
    pub fn bash(command: &str) -> Style {
        Style {
            dotglob: command.contains("dotglob") || command.contains("GLOBIGNORE"),
            nocase: command.contains("nocaseglob"),
            globstar: false,
            follow: false,
        }
    }

    fn matches(self, pattern: &str, name: &str) -> bool {
        if name.starts_with('.') && !pattern.starts_with('.') && !self.dotglob {
            return false;
        }
        if self.nocase {
            let (p, n) = (pattern.to_lowercase(), name.to_lowercase());
            return glob::segment_matches(&p, &n, Classes::Bash);
        }
        glob::segment_matches(pattern, name, Classes::Bash)
    }
}

/// How many directory entries one event's glob expansions list at most,
/// and how many matches one glob may have, before the glob counts as
/// undetermined.
pub const MAX_LISTED: usize = 50_000;
pub const MAX_MATCHES: usize = 5_000;

/// The existing paths the absolute pattern `pattern` names, as bash or
/// ripgrep spell them (below the pattern's literal directory, links in it
/// kept), or why the hook cannot tell (past [`MAX_LISTED`] entries or
/// [`MAX_MATCHES`] matches). `budget` is shared by the event's globs.
pub fn expand(pattern: &str, style: Style, budget: &mut usize) -> Result<Vec<String>, String> {
    let too_many = || format!("`{pattern}` reaches more than {MAX_LISTED} entries");
    let mut found: Vec<String> = vec![String::new()];
    let mut patterned = false;
    for seg in pattern.split('/').filter(|s| !s.is_empty()) {
        let mut next = Vec::new();
        if seg == "**" && style.globstar {
            patterned = true;
            for base in &found {
                next.push(base.clone());
                below(base, style, budget, &mut next).ok_or_else(too_many)?;
            }
        } else if is_pattern(seg) {
            patterned = true;
            for base in &found {
                list(base, seg, style, budget, &mut next).ok_or_else(too_many)?;
            }
        } else {
            next = found.iter().map(|b| format!("{b}/{seg}")).collect();
        }
        if next.len() > MAX_MATCHES {
            return Err(format!("`{pattern}` has more than {MAX_MATCHES} matches"));
        }
        found = next;
    }
    if !patterned {
        return Ok(vec![pattern.to_string()]);
    }
    found.retain(|p| std::fs::symlink_metadata(p).is_ok());
    found.sort();
    found.dedup();
    Ok(found)
}

/// The names in `dir` that `seg` matches, appended to `out`. A pattern
/// starting with `.` also matches `.` and `..` (bash before 5.2 and with
/// `globskipdots` off).
fn list(
    dir: &str,
    seg: &str,
    style: Style,
    budget: &mut usize,
    out: &mut Vec<String>,
) -> Option<()> {
    let shown = if dir.is_empty() { "/" } else { dir };
    let Ok(entries) = std::fs::read_dir(shown) else {
        return Some(());
    };
    if seg.starts_with('.') {
        for dots in [".", ".."] {
            if glob::segment_matches(seg, dots, Classes::Bash) {
                out.push(format!("{dir}/{dots}"));
            }
        }
    }
    for entry in entries.flatten() {
        *budget = budget.checked_sub(1)?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if style.matches(seg, &name) {
            out.push(format!("{dir}/{name}"));
        }
    }
    Some(())
}

/// Every directory below `dir` (`**`), hidden ones only with `dotglob`;
/// links to directories only with `follow`, each real directory once.
fn below(dir: &str, style: Style, budget: &mut usize, out: &mut Vec<String>) -> Option<()> {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![dir.to_string()];
    while let Some(d) = stack.pop() {
        let shown = if d.is_empty() {
            "/".to_string()
        } else {
            d.clone()
        };
        if let Ok(real) = std::fs::canonicalize(&shown)
            && !seen.insert(real)
        {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&shown) else {
            continue;
        };
        for entry in entries.flatten() {
            *budget = budget.checked_sub(1)?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') && !style.dotglob {
                continue;
            }
            let is_dir = match entry.file_type() {
                Ok(t) if t.is_dir() => true,
                Ok(t) if t.is_symlink() => style.follow && entry.path().is_dir(),
                _ => false,
            };
            if is_dir {
                let path = format!("{d}/{name}");
                out.push(path.clone());
                stack.push(path);
            }
        }
    }
    Some(())
}

/// `text` with its brace alternatives expanded (`{a,b}c` is `ac bc`),
/// nested ones too, or `None` past `limit` words.
pub fn braces(text: &str, limit: usize) -> Option<Vec<String>> {
    let Some((open, close)) = first_group(text) else {
        return Some(vec![text.to_string()]);
    };
    let (head, body, tail) = (&text[..open], &text[open + 1..close], &text[close + 1..]);
    let mut out = Vec::new();
    for alt in split_top(body) {
        for word in braces(&format!("{head}{alt}{tail}"), limit)? {
            out.push(word);
            if out.len() > limit {
                return None;
            }
        }
    }
    Some(out)
}

/// The first `{...}` holding a top-level `,`.
fn first_group(text: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    for (open, _) in text.match_indices('{') {
        let mut depth = 0;
        let mut comma = false;
        for (i, b) in bytes.iter().enumerate().skip(open) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        if comma {
                            return Some((open, i));
                        }
                        break;
                    }
                }
                b',' if depth == 1 => comma = true,
                _ => {}
            }
        }
    }
    None
}

fn split_top(body: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, b) in body.bytes().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' => depth -= 1,
            b',' if depth == 0 => {
                out.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&body[start..]);
    out
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
