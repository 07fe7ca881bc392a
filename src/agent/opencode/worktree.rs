//! The policy paths inside the launch's git worktree, which OpenCode's
//! read and edit rules do not reach by twsrt's entries (doc/clients.md
//! "OpenCode: permissions"): OpenCode matches a file by its path relative
//! to the worktree, and asks `external_directory` only for a file outside
//! it, while twsrt names each path by its tail below home (or /). So a
//! denyRead or denyWrite path inside the repository OpenCode is started in
//! (`/repo/secrets.txt`, a policy file kept in the repository) is matched
//! by no entry: the launch says so, as an error.

use std::path::{Path, PathBuf};

use super::mapping::Entry;
use super::pattern;

/// The worktree OpenCode takes from `cwd`: the nearest directory holding
/// `.git`; `None` without one (OpenCode then matches from `/`, which the
/// tails cover).
pub fn worktree(cwd: &Path) -> Option<PathBuf> {
    cwd.ancestors()
        .find(|dir| dir.join(".git").exists())
        .map(Path::to_path_buf)
}

/// Each (key, policy path, path relative to `worktree`) of a read or edit
/// deny whose path lies inside `worktree` and which none of the entries of
/// its key match.
pub fn unmatched(entries: &[Entry], worktree: &Path, home: &Path) -> Vec<(String, String, String)> {
    let mut out: Vec<(String, String, String)> = Vec::new();
    for entry in entries
        .iter()
        .filter(|e| e.key == "read" || e.key == "edit")
    {
        let rule = entry.origin.rule.trim_end_matches('/');
        let absolute = match rule.strip_prefix("~/") {
            Some(rest) => home.join(rest),
            None if rule.starts_with('/') => PathBuf::from(rule),
            None => continue,
        };
        // A glob's fixed directories decide where it is; what it matches
        // below them is never named relative to the worktree.
        let fixed: PathBuf = absolute
            .components()
            .take_while(|c| !c.as_os_str().to_string_lossy().contains(['*', '?', '[']))
            .collect();
        let glob = fixed != absolute;
        let Ok(relative) = absolute.strip_prefix(worktree) else {
            continue;
        };
        if !fixed.starts_with(worktree) {
            continue;
        }
        let relative = relative.to_string_lossy().to_string();
        if relative.is_empty() {
            continue;
        }
        let below = format!("{relative}/x");
        let held = !glob
            && entries.iter().any(|e| {
                e.key == entry.key
                    && (pattern::matches(&relative, &e.pattern)
                        || pattern::matches(&below, &e.pattern))
            });
        let found = (entry.key.to_string(), rule.to_string(), relative);
        if !held && !out.contains(&found) {
            out.push(found);
        }
    }
    out
}
