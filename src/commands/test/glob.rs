//! Just enough globbing to find a file a rule covers: srt's glob characters
//! (`*`, `?`, `[...]`, and `**` as a whole path component), a bounded walk, and
//! the two glob forms a probe file can be planted for.

use std::fs;
use std::path::{Component, Path, PathBuf};

/// The walk gives up after this many directory entries...
const MAX_ENTRIES: usize = 20_000;
/// ...or this many directories deep.
const MAX_DEPTH: usize = 12;

/// srt treats a spelling holding any of these as a glob (on Linux and macOS).
pub fn is_glob(text: &str) -> bool {
    text.contains(['*', '?', '[', ']'])
}

/// Match one path component against one glob component.
pub fn match_component(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    match_from(&p, &n)
}

fn match_from(p: &[char], n: &[char]) -> bool {
    match p.first() {
        None => n.is_empty(),
        Some('*') => (0..=n.len()).any(|i| match_from(&p[1..], &n[i..])),
        Some('?') => !n.is_empty() && match_from(&p[1..], &n[1..]),
        Some('[') => match class(&p[1..]) {
            Some((set, rest)) => {
                !n.is_empty() && set.contains(n[0]) && match_from(&p[rest + 2..], &n[1..])
            }
            // An unclosed `[` is a literal.
            None => n.first() == Some(&'[') && match_from(&p[1..], &n[1..]),
        },
        Some(c) => n.first() == Some(c) && match_from(&p[1..], &n[1..]),
    }
}

struct Class {
    negated: bool,
    items: Vec<(char, char)>,
}

impl Class {
    fn contains(&self, c: char) -> bool {
        self.items.iter().any(|&(lo, hi)| lo <= c && c <= hi) != self.negated
    }
}

/// Parse a bracket expression after its `[`; returns the class and the index
/// (into the slice after `[`) of the closing `]`.
fn class(p: &[char]) -> Option<(Class, usize)> {
    let mut i = 0;
    let negated = matches!(p.first(), Some('!') | Some('^'));
    if negated {
        i += 1;
    }
    let start = i;
    let mut items = Vec::new();
    while i < p.len() {
        if p[i] == ']' && i > start {
            return Some((Class { negated, items }, i));
        }
        if i + 2 < p.len() && p[i + 1] == '-' && p[i + 2] != ']' {
            items.push((p[i], p[i + 2]));
            i += 3;
        } else {
            items.push((p[i], p[i]));
            i += 1;
        }
    }
    None
}

/// The components of an absolute glob path, after its literal prefix.
pub fn split_literal_prefix(pattern: &Path) -> (PathBuf, Vec<String>) {
    let mut base = PathBuf::new();
    let mut rest = Vec::new();
    for component in pattern.components() {
        let text = component.as_os_str().to_string_lossy().into_owned();
        if rest.is_empty() && !is_glob(&text) {
            base.push(component);
        } else if !matches!(component, Component::RootDir) {
            rest.push(text);
        }
    }
    (base, rest)
}

/// The first file (in sorted order) that matches an absolute glob and
/// satisfies `want`; a bounded walk that never follows a symlinked directory.
pub fn first_match(pattern: &Path, want: &dyn Fn(&Path) -> bool) -> Walk {
    let (base, rest) = split_literal_prefix(pattern);
    let mut walker = Walker {
        budget: MAX_ENTRIES,
        want,
    };
    match walker.walk(&base, &rest, 0) {
        Some(found) => Walk::Found(found),
        None if walker.budget == 0 => Walk::GaveUp,
        None => Walk::None,
    }
}

/// The first file under a directory that satisfies `want`.
pub fn first_file_under(dir: &Path, want: &dyn Fn(&Path) -> bool) -> Walk {
    let mut walker = Walker {
        budget: MAX_ENTRIES,
        want,
    };
    match walker.walk(dir, &["**".to_string()], 0) {
        Some(found) => Walk::Found(found),
        None if walker.budget == 0 => Walk::GaveUp,
        None => Walk::None,
    }
}

#[derive(Debug, PartialEq, Eq)]
pub enum Walk {
    Found(PathBuf),
    None,
    /// The walk hit its entry budget before finding anything.
    GaveUp,
}

struct Walker<'a> {
    budget: usize,
    want: &'a dyn Fn(&Path) -> bool,
}

impl Walker<'_> {
    /// Sorted entries of a directory, each with whether it is a real
    /// (not symlinked) directory.
    fn entries(&mut self, dir: &Path) -> Vec<(String, PathBuf, bool)> {
        let Ok(read) = fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for entry in read.flatten() {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            let is_dir = entry.file_type().map(|t| t.is_dir()).unwrap_or(false);
            out.push((
                entry.file_name().to_string_lossy().into_owned(),
                entry.path(),
                is_dir,
            ));
        }
        out.sort();
        out
    }

    fn walk(&mut self, dir: &Path, rest: &[String], depth: usize) -> Option<PathBuf> {
        if depth > MAX_DEPTH || self.budget == 0 {
            return None;
        }
        let (first, tail) = rest.split_first()?;
        if first == "**" {
            // Zero directories...
            if tail.is_empty() {
                // `dir/**`: any file beneath.
                for (_, path, is_dir) in self.entries(dir) {
                    if is_dir {
                        if let Some(found) = self.walk(&path, rest, depth + 1) {
                            return Some(found);
                        }
                    } else if (self.want)(&path) {
                        return Some(path);
                    }
                }
                return None;
            }
            if let Some(found) = self.walk(dir, tail, depth) {
                return Some(found);
            }
            // ...or one more, and `**` again.
            for (_, path, is_dir) in self.entries(dir) {
                if is_dir && let Some(found) = self.walk(&path, rest, depth + 1) {
                    return Some(found);
                }
            }
            return None;
        }
        for (name, path, is_dir) in self.entries(dir) {
            if !match_component(first, &name) {
                continue;
            }
            if tail.is_empty() {
                if (self.want)(&path) {
                    return Some(path);
                }
            } else if is_dir && let Some(found) = self.walk(&path, tail, depth + 1) {
                return Some(found);
            }
        }
        None
    }
}

/// A write glob twsrt can plant a probe file for: `PREFIX/**/NAME` (PREFIX
/// literal, possibly empty before expansion) where NAME uses no glob
/// character but `*`. Returns PREFIX and the file name to plant (each `*`
/// becomes `twsrt-probe`).
pub fn plantable(pattern: &Path) -> Option<(PathBuf, String)> {
    let (base, rest) = split_literal_prefix(pattern);
    match rest.as_slice() {
        [stars, name] if stars == "**" && !name.contains(['?', '[', ']']) && name != "**" => {
            Some((base, name.replace('*', "twsrt-probe")))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_match_like_shell_globs() {
        assert!(match_component("*.pem", "key.pem"));
        assert!(match_component("*", ".hidden"));
        assert!(!match_component("*.pem", "key.pem.bak"));
        assert!(match_component("id_?sa", "id_rsa"));
        assert!(match_component("[a-c]x", "bx"));
        assert!(!match_component("[!a-c]x", "bx"));
        assert!(match_component("[x", "[x"));
        assert!(match_component(".env*", ".env.local"));
    }

    #[test]
    fn literal_prefix_and_plantable_forms() {
        let (base, rest) = split_literal_prefix(Path::new("/h/a/**/x.txt"));
        assert_eq!(base, PathBuf::from("/h/a"));
        assert_eq!(rest, vec!["**", "x.txt"]);
        assert_eq!(
            plantable(Path::new("/cwd/**/.env")),
            Some((PathBuf::from("/cwd"), ".env".into()))
        );
        assert_eq!(
            plantable(Path::new("/h/**/*.pem")),
            Some((PathBuf::from("/h"), "twsrt-probe.pem".into()))
        );
        assert_eq!(plantable(Path::new("/h/*.pem")), None);
        assert_eq!(plantable(Path::new("/h/**/a/b")), None);
        assert_eq!(plantable(Path::new("/h/**/id_?sa")), None);
    }

    #[test]
    fn walk_finds_the_first_sorted_match() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("a/deep/er")).unwrap();
        fs::create_dir_all(root.join("b")).unwrap();
        fs::write(root.join("b/.env"), "x").unwrap();
        fs::write(root.join("a/deep/er/.env"), "y").unwrap();
        fs::write(root.join("a/empty.pem"), "").unwrap();
        fs::write(root.join("a/deep/k.pem"), "k").unwrap();
        let any = |_: &Path| true;
        let non_empty = |p: &Path| fs::metadata(p).map(|m| m.len() > 0).unwrap_or(false);
        assert_eq!(
            first_match(&root.join("**/.env"), &any),
            Walk::Found(root.join("a/deep/er/.env"))
        );
        assert_eq!(
            first_match(&root.join("**/*.pem"), &non_empty),
            Walk::Found(root.join("a/deep/k.pem"))
        );
        assert_eq!(
            first_match(&root.join("b/*"), &any),
            Walk::Found(root.join("b/.env"))
        );
        assert_eq!(first_match(&root.join("c/**/x"), &any), Walk::None);
        assert_eq!(
            first_file_under(root, &non_empty),
            Walk::Found(root.join("a/deep/er/.env"))
        );
    }
}
