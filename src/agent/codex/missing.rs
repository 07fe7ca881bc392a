//! Profile entries under a directory that does not exist, made startable.
//!
//! Contract (measured with Codex 0.171.0 on Linux, bubblewrap; doc/clients.md
//! "Codex: rules under a missing directory, measured"): inside a place a
//! command may write (its workspace, a workspace root, /tmp), Codex refuses
//! to start any command when two or more `"read"` or `"deny"` entries lie
//! under one missing directory; one entry there starts, and Codex holds it by
//! putting a placeholder at the missing directory, so nothing can be created
//! below it. So every group of two or more such home or absolute entries
//! becomes one entry for their topmost missing directory, with the strictest
//! access of the group: startable, and it keeps every path of the group
//! unwritable (and unreadable for a deny) while the directory is missing.
//! Workspace-relative rules depend on the workspace and are left as they are
//! (the `codex-missing-parent` warning names them), as is a directory that
//! holds or is a workspace root (it must stay writable). A directory the
//! caller names as one twsrt's own writes create counts as existing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::codes;
use super::pathshape::has_codex_wildcard;
use super::policy::{Access, OrderedMap, Profile};
use crate::agent::Warnings;

/// Merge each group of two or more entries under one missing directory into
/// one entry for that directory ([module docs](self)), said once.
/// A directory in `made` (or above one) counts as existing: this run
/// creates it.
pub fn lift(profile: &mut Profile, home: &Path, made: &[PathBuf], warnings: &mut Warnings) {
    let mut lookup = Exists {
        known: HashMap::new(),
        made,
    };
    let tops: Vec<Option<String>> = profile
        .filesystem
        .entries()
        .iter()
        .map(|(key, _)| topmost_missing(key, home, &mut lookup))
        .collect();
    let mut count: HashMap<&str, usize> = HashMap::new();
    for top in tops.iter().flatten() {
        *count.entry(top.as_str()).or_default() += 1;
    }
    let roots: Vec<&str> = profile
        .workspace_roots
        .entries()
        .iter()
        .map(|(root, _)| root.as_str())
        .collect();
    let lifted =
        |top: &str| count.get(top).is_some_and(|&n| n >= 2) && !roots.iter().any(|r| holds(top, r));
    let mut merged: OrderedMap<Access> = OrderedMap::default();
    let mut said: Vec<String> = Vec::new();
    for ((key, access), top) in profile.filesystem.entries().iter().zip(&tops) {
        match top.as_deref().filter(|t| lifted(t)) {
            Some(top) => {
                if merged.get(top).is_none_or(|&old| *access > old) {
                    merged.set(top, *access);
                }
                if !said.iter().any(|s| s == top) {
                    said.push(top.to_string());
                }
            }
            None => {
                if merged.get(key).is_none_or(|&old| *access > old) {
                    merged.set(key, *access);
                }
            }
        }
    }
    if said.is_empty() {
        return;
    }
    profile.filesystem = merged;
    warnings.push(crate::agent::warning(
        "codex",
        codes::MISSING_DIR_LIFTED,
        format!(
            "Codex (measured with 0.171) starts no command when two or more rules lie under one \
             missing directory, so each such directory is one entry of the strictest access \
             until it exists (nothing can be created in it inside Codex's sandbox); run `twsrt \
             generate -w` again once it does: {}",
            said.join(", ")
        ),
    ));
}

/// What `diff` compares with once a lifted directory exists: for each
/// home or absolute entry of the profile on disk (`existing`, config.toml's
/// text) that the policy's `profile` lacks but holds entries below, and
/// whose access is at least as strict as each of them (the entry
/// [`lift`] wrote while the directory was missing), those entries are
/// replaced by it. Codex starts with it (the directory is held read-only
/// or denied whole) and nothing is let through that the policy denies, so
/// it is no drift; the note returned names each one and the write that
/// puts the rules back one by one. A file that does not parse changes
/// nothing.
pub fn keep_written(profile: &mut Profile, existing: &str) -> Vec<String> {
    let disk = on_disk_entries(existing);
    let mut notes = Vec::new();
    for (dir, access) in disk {
        if has_codex_wildcard(&dir) || profile.filesystem.contains(&dir) {
            continue;
        }
        let prefix = format!("{dir}/");
        let below: Vec<Access> = profile
            .filesystem
            .entries()
            .iter()
            .filter(|(key, _)| key.starts_with(&prefix))
            .map(|(_, a)| *a)
            .collect();
        if below.is_empty() || below.iter().any(|a| *a > access) {
            continue;
        }
        let mut kept: OrderedMap<Access> = OrderedMap::default();
        for (key, a) in profile.filesystem.entries() {
            if key.starts_with(&prefix) {
                kept.set(&dir, access);
            } else {
                kept.set(key, *a);
            }
        }
        profile.filesystem = kept;
        notes.push(format!(
            "the profile holds \"{dir}\" = \"{}\", written while {dir} was missing; it \
             is as strict as the policy's {} rule(s) below it, and now that the directory exists \
             `twsrt generate -w codex` writes them one by one",
            access.as_str(),
            below.len()
        ));
    }
    notes
}

/// The `[permissions.twsrt.filesystem]` entries of config.toml's text
/// whose value is an access twsrt writes, in file order.
fn on_disk_entries(existing: &str) -> Vec<(String, Access)> {
    let Ok(doc) = existing.parse::<toml_edit::DocumentMut>() else {
        return Vec::new();
    };
    let table = doc
        .get("permissions")
        .and_then(|p| p.get("twsrt"))
        .and_then(|t| t.get("filesystem"))
        .and_then(toml_edit::Item::as_table_like);
    let Some(table) = table else {
        return Vec::new();
    };
    table
        .iter()
        .filter_map(|(key, item)| {
            let access = match item.as_str()? {
                "read" => Access::Read,
                "deny" => Access::Deny,
                _ => return None,
            };
            (key.starts_with("~/") || key.starts_with('/')).then(|| (key.to_string(), access))
        })
        .collect()
}

/// Whether the directory `dir` is `root` or holds it (both as written).
fn holds(dir: &str, root: &str) -> bool {
    root == dir
        || root
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// The topmost missing directory above `key` (a `~/` or absolute entry, no
/// glob), spelt as `key` is (`~/x` for a home entry); `None` when its parent
/// exists or the key is of another shape.
fn topmost_missing(key: &str, home: &Path, lookup: &mut Exists) -> Option<String> {
    if has_codex_wildcard(key) {
        return None;
    }
    let (path, in_home) = match key.strip_prefix("~/") {
        Some(rest) => (home.join(rest), true),
        None if key.starts_with('/') => (PathBuf::from(key), false),
        None => return None,
    };
    let top = path
        .ancestors()
        .skip(1)
        .take_while(|dir| !dir.as_os_str().is_empty() && !lookup.is_dir(dir))
        .last()?;
    match top.strip_prefix(home) {
        Ok(rest) if in_home => Some(format!("~/{}", rest.display())),
        _ => Some(top.display().to_string()),
    }
}

/// Directory lookups, each path once (rules share directories); a
/// directory this run creates (in `made` or above one) exists.
struct Exists<'m> {
    known: HashMap<PathBuf, bool>,
    made: &'m [PathBuf],
}

impl Exists<'_> {
    fn is_dir(&mut self, dir: &Path) -> bool {
        let made = self.made;
        *self
            .known
            .entry(dir.to_path_buf())
            .or_insert_with(|| made.iter().any(|m| m.starts_with(dir)) || dir.exists())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(entries: &[(&str, Access)], roots: &[&str]) -> Profile {
        let mut p = Profile::default();
        for (k, a) in entries {
            p.filesystem.set(k, *a);
        }
        for r in roots {
            p.workspace_roots.set(r, ());
        }
        p
    }

    fn entries(p: &Profile) -> Vec<(String, Access)> {
        p.filesystem.entries().to_vec()
    }

    #[test]
    fn two_entries_under_a_missing_directory_become_one_for_it() {
        let home = tempfile::tempdir().unwrap();
        let mut p = profile(
            &[
                ("~/.ssh", Access::Deny),
                ("~/.tool/a.json", Access::Read),
                ("~/.bashrc", Access::Read),
                ("~/.tool/b.json", Access::Read),
                ("~/.x/a/b", Access::Read),
                ("~/.x/c", Access::Deny),
            ],
            &[],
        );
        let mut w = Vec::new();
        lift(&mut p, home.path(), &[], &mut w);
        assert_eq!(
            entries(&p),
            vec![
                ("~/.ssh".into(), Access::Deny),
                ("~/.tool".into(), Access::Read),
                ("~/.bashrc".into(), Access::Read),
                ("~/.x".into(), Access::Deny),
            ]
        );
        assert_eq!(w.len(), 1);
        assert!(
            w[0].message.ends_with(": ~/.tool, ~/.x"),
            "{}",
            w[0].message
        );
    }

    #[test]
    fn an_existing_directory_one_entry_or_a_root_keeps_the_entries() {
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir(home.path().join(".tool")).unwrap();
        let abs = home.path().join("gone/x").display().to_string();
        let keep = [
            ("~/.tool/a", Access::Read),
            ("~/.tool/b", Access::Read),
            ("~/.one/a", Access::Read),
            ("~/dev/p/a", Access::Read),
            ("~/dev/p/b", Access::Read),
            (abs.as_str(), Access::Read),
            ("~/.g/*.pem", Access::Deny),
            ("~/.g/*.key", Access::Deny),
        ];
        let mut p = profile(&keep, &["~/dev/p"]);
        let mut w = Vec::new();
        lift(&mut p, home.path(), &[], &mut w);
        let want: Vec<(String, Access)> = keep.iter().map(|(k, a)| (k.to_string(), *a)).collect();
        assert_eq!(entries(&p), want);
        assert!(w.is_empty());
    }

    #[test]
    fn absolute_entries_are_lifted_as_written() {
        let root = tempfile::tempdir().unwrap();
        let a = root.path().join("gone/deeper/a").display().to_string();
        let b = root.path().join("gone/b").display().to_string();
        let mut p = profile(&[(&a, Access::Read), (&b, Access::Read)], &[]);
        lift(&mut p, Path::new("/nonexistent-home"), &[], &mut Vec::new());
        let top = root.path().join("gone").display().to_string();
        assert_eq!(entries(&p), vec![(top, Access::Read)]);
    }

    #[test]
    fn a_directory_this_run_creates_counts_as_existing() {
        let home = tempfile::tempdir().unwrap();
        let keep = [("~/.tool/a", Access::Read), ("~/.tool/b", Access::Read)];
        let mut p = profile(&keep, &[]);
        let made = [home.path().join(".tool")];
        let mut w = Vec::new();
        lift(&mut p, home.path(), &made, &mut w);
        assert_eq!(entries(&p).len(), 2);
        assert!(w.is_empty());
    }

    #[test]
    fn diff_keeps_a_written_directory_entry_only_when_it_is_as_strict() {
        let mut p = profile(
            &[
                ("~/.ssh", Access::Deny),
                ("~/.tool/a", Access::Read),
                ("~/.tool/b", Access::Read),
                ("~/.g/a", Access::Deny),
                ("~/.g/b", Access::Read),
            ],
            &[],
        );
        let disk = "[permissions.twsrt.filesystem]\n\"~/.ssh\" = \"deny\"\n\
                    \"~/.tool\" = \"read\"\n\"~/.g\" = \"read\"\n\"~/.n\" = \"deny\"\n";
        let notes = keep_written(&mut p, disk);
        assert_eq!(
            entries(&p),
            vec![
                ("~/.ssh".into(), Access::Deny),
                ("~/.tool".into(), Access::Read),
                ("~/.g/a".into(), Access::Deny),
                ("~/.g/b".into(), Access::Read),
            ]
        );
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("\"~/.tool\" = \"read\""), "{}", notes[0]);
        assert!(keep_written(&mut p, "not toml =").is_empty());
    }
}
