//! The files a probe works on: the write-glob forms a witness file can be
//! made for, and the file a directory probe reads. What counts as a glob is
//! srt's test on a spelling
//! ([`crate::srt::glob::has_glob_chars`]).

use std::fs;
use std::path::{Path, PathBuf};

use crate::srt::glob::has_glob_chars;

/// How deep the walk for a directory's first regular file goes.
const MAX_DEPTH: usize = 4;

/// The first regular file under `dir`: a directory's files (sorted) before
/// its subdirectories (sorted, symlinks not followed), at most `MAX_DEPTH`
/// directories down.
pub fn first_file(dir: &Path) -> Option<PathBuf> {
    first_file_at(dir, 0)
}

fn first_file_at(dir: &Path, depth: usize) -> Option<PathBuf> {
    let mut entries: Vec<(PathBuf, bool)> = fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter_map(|e| {
            let kind = e.file_type().ok()?;
            let path = e.path();
            if kind.is_dir() {
                Some((path, true))
            } else if fs::metadata(&path).is_ok_and(|m| m.is_file()) {
                Some((path, false))
            } else {
                None
            }
        })
        .collect();
    entries.sort();
    if let Some((file, _)) = entries.iter().find(|(_, is_dir)| !is_dir) {
        return Some(file.clone());
    }
    if depth >= MAX_DEPTH {
        return None;
    }
    entries
        .iter()
        .filter(|(_, is_dir)| *is_dir)
        .find_map(|(sub, _)| first_file_at(sub, depth + 1))
}

/// A write glob a witness file can be made for: `**/TAIL` (placed under a
/// writable directory) or `PREFIX/**/TAIL` with a literal PREFIX starting at
/// `~` or `/`. TAIL's directories are literal; in its last segment `*`
/// becomes `probe` and `?` becomes `x`, and a last segment `**` is `probe`.
/// Returns the prefix as written (None for `**/TAIL`) and TAIL's segments.
pub fn witness(rule: &str) -> Option<(Option<String>, Vec<String>)> {
    let (prefix, tail) = if let Some(tail) = rule.strip_prefix("**/") {
        (None, tail)
    } else {
        let (prefix, tail) = rule.split_once("/**/")?;
        let rooted = prefix == "~" || prefix.starts_with("~/") || prefix.starts_with('/');
        if !rooted || has_glob_chars(prefix) {
            return None;
        }
        (Some(prefix.to_string()), tail)
    };
    let segments: Vec<&str> = tail.split('/').collect();
    let (last, dirs) = segments.split_last()?;
    if dirs
        .iter()
        .any(|d| d.is_empty() || has_glob_chars(d) || *d == "." || *d == "..")
    {
        return None;
    }
    let last = match *last {
        "**" => "probe".to_string(),
        "" => return None,
        l if l.contains(['[', ']']) || l.contains("**") => return None,
        l => l.replace('*', "probe").replace('?', "x"),
    };
    let mut out: Vec<String> = dirs.iter().map(|d| d.to_string()).collect();
    out.push(last);
    Some((prefix, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn witness_forms() {
        let w = |r: &str| witness(r).map(|(p, t)| (p.unwrap_or_default(), t.join("/")));
        assert_eq!(w("**/.env"), Some(("".into(), ".env".into())));
        assert_eq!(w("**/*.pem"), Some(("".into(), "probe.pem".into())));
        assert_eq!(w("**/id_?sa"), Some(("".into(), "id_xsa".into())));
        assert_eq!(w("**/*"), Some(("".into(), "probe".into())));
        assert_eq!(
            w("**/.git/hooks/**"),
            Some(("".into(), ".git/hooks/probe".into()))
        );
        assert_eq!(
            w("~/work/**/deep/name.txt"),
            Some(("~/work".into(), "deep/name.txt".into()))
        );
        assert_eq!(w("/abs/**/x"), Some(("/abs".into(), "x".into())));
        assert_eq!(w("~/**/k.pem"), Some(("~".into(), "k.pem".into())));
        for skipped in [
            "/etc/*.conf",
            "~/work/**",
            "**/a*/b",
            "**/c[ab]",
            "~/x?y/**/z",
            "./rel/**/x",
            "**/**/x",
        ] {
            assert_eq!(witness(skipped), None, "{skipped}");
        }
    }

    #[test]
    fn first_file_prefers_files_then_sorted_subdirectories() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("a/b/c/d/e")).unwrap();
        fs::create_dir_all(root.join("z")).unwrap();
        fs::write(root.join("a/b/c/d/e/too-deep"), "x").unwrap();
        fs::write(root.join("z/f"), "x").unwrap();
        assert_eq!(first_file(root), Some(root.join("z/f")));
        fs::write(root.join("a/b/c/d/four"), "x").unwrap();
        assert_eq!(first_file(root), Some(root.join("a/b/c/d/four")));
        fs::write(root.join("top"), "").unwrap();
        assert_eq!(first_file(root), Some(root.join("top")));
        let empty = tempfile::tempdir().unwrap();
        assert_eq!(first_file(empty.path()), None);
    }
}
