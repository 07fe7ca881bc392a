//! What a recursive command reaches below the paths it names: `grep -r`,
//! `rg`, `tar`, `zip -r`, `cp -r`, `rsync -a`, `find ... -exec`, `chmod
//! -R`, Claude Code's Grep. The entries a policy lists below the operand
//! are asked about lexically ([`super::policy::Entry::below`]); the walk
//! finds what no path shows: a symlink inside that leads to a protected
//! path (followed as `-R`, `-L`, `-h`, `-rL`, `-aL` do; taken as followed
//! for every walking program, which can only find more), a hard link to a
//! protected file (by device and inode), and a file a `**/name` entry
//! covers. The walk is bounded by [`MAX_WALKED`] entries per event; past
//! it the hook cannot tell.

use std::collections::HashSet;
use std::os::unix::fs::{DirEntryExt, MetadataExt};
use std::path::{Path, PathBuf};

use crate::paths::resolve_symlinks;

use super::operands::{Access, Arg};
use super::policy::{Entry, Policy};

/// How many directory entries one event's walks visit at most.
pub const MAX_WALKED: usize = 100_000;

/// What a walk found first.
#[derive(Debug, PartialEq, Eq)]
pub enum Found {
    Nothing,
    /// `path` leads to `to`, which `entry` covers.
    Protected {
        path: PathBuf,
        to: PathBuf,
        entry: String,
    },
    /// The walk cannot tell: why.
    Unknown(String),
}

/// Programs that walk a tree for names only (their output is names and
/// sizes, never a file's content) and never write through a link: no walk.
const NAMES_ONLY: &[&str] = &[
    "ls", "dir", "tree", "du", "find", "Glob", "rm", "rmdir", "mv",
];

/// Whether `by` (a program or tool) with `access` needs the walk.
pub fn walks(by: &str, access: Access) -> bool {
    access.recursive() && !NAMES_ONLY.contains(&by)
}

/// Which symlinks below its operands a walking program opens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Follow {
    /// Walks into a link to a directory.
    pub descend: bool,
    /// Opens the file a link leads to.
    pub leaves: bool,
    /// Only files whose name matches all of these are opened (find's
    /// `-name`/`-iname` in an expression of `-a` only, lower-cased for
    /// `-iname`); directories are walked all the same.
    pub names: Vec<(String, bool)>,
}

/// How `by` follows links in `command` (every simple command of that name
/// in the line counts: one that follows makes all follow). Known: grep
/// `-R`, rg `-L`, tar `-h`, cp `-L`, rsync `-L`/`-k`/`--copy-unsafe-links`,
/// find `-L`/`-follow` (its `-exec` program opens a link it is given), zip
/// unless `-y`, scp always. Writes, and programs not listed, follow every
/// link, which can only find more.
pub fn follow(by: &str, access: Access, command: &str) -> Follow {
    let all = Follow {
        descend: true,
        leaves: true,
        names: Vec::new(),
    };
    let (short, long): (&[char], &[&str]) = match by {
        _ if access != Access::RecursiveRead => return all,
        "grep" | "egrep" | "fgrep" => (&['R'], &["--dereference-recursive"]),
        "rg" => (&['L'], &["--follow"]),
        "tar" => (&['h'], &["--dereference"]),
        "cp" => (&['L'], &["--dereference"]),
        "rsync" => (
            &['L', 'k'],
            &["--copy-links", "--copy-dirlinks", "--copy-unsafe-links"],
        ),
        "find -exec" => (&['L'], &["-follow"]),
        "zip" => {
            let keeps = any_option(by, command, &['y'], &["--symlinks"]);
            return Follow {
                descend: !keeps,
                leaves: !keeps,
                names: Vec::new(),
            };
        }
        "Grep" => (&[], &[]),
        _ => return all,
    };
    let follows = any_option(by, command, short, long);
    if by == "find -exec" {
        return find_filter(command, follows);
    }
    Follow {
        descend: follows,
        leaves: follows,
        names: Vec::new(),
    }
}

/// find's `-exec` program opens what the expression selects: with one find
/// in the line and an expression without `-o`, `!`, `-not` or `,`, only
/// names its `-name`/`-iname` match, and with `-type f` (no `-L`) no link.
fn find_filter(command: &str, follows: bool) -> Follow {
    let finds: Vec<Vec<Arg>> = super::bash::simple_commands(command)
        .into_iter()
        .filter(|w| matches!(w.first(), Some(Arg::Lit(n)) if n.rsplit('/').next() == Some("find")))
        .collect();
    let mut out = Follow {
        descend: follows,
        leaves: true,
        names: Vec::new(),
    };
    let [words] = &finds[..] else { return out };
    let lit = |a: &Arg| match a {
        Arg::Lit(t) => Some(t.clone()),
        Arg::Unknown(_) => None,
    };
    let texts: Vec<Option<String>> = words.iter().map(lit).collect();
    let branches = ["-o", "-or", "!", "-not", ","];
    if texts
        .iter()
        .any(|t| t.as_deref().is_some_and(|t| branches.contains(&t)))
    {
        return out;
    }
    for pair in texts.windows(2) {
        match (pair[0].as_deref(), &pair[1]) {
            (Some("-name"), Some(p)) => out.names.push((p.clone(), false)),
            (Some("-iname"), Some(p)) => out.names.push((p.to_lowercase(), true)),
            (Some("-type"), Some(t)) if t == "f" && !follows => out.leaves = false,
            _ => {}
        }
    }
    out
}

/// `path`'s name is one `follow` selects.
fn selected(follow: &Follow, path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    follow.names.iter().all(|(p, nocase)| {
        let name = if *nocase {
            name.to_lowercase()
        } else {
            name.clone()
        };
        crate::srt::glob::segment_matches(p, &name, crate::srt::glob::Classes::Bash)
    })
}

/// Some simple command `by` names in `command` has one of these options
/// (a short one inside a cluster too; tar's first word is a cluster).
fn any_option(by: &str, command: &str, short: &[char], long: &[&str]) -> bool {
    let name = by.split(' ').next().unwrap_or(by);
    super::bash::simple_commands(command).iter().any(|words| {
        let is = matches!(words.first(), Some(Arg::Lit(n)) if n.rsplit('/').next() == Some(name));
        is && words.iter().skip(1).enumerate().any(|(i, w)| {
            let Arg::Lit(w) = w else { return false };
            if long
                .iter()
                .any(|l| w == l || w.starts_with(&format!("{l}=")))
            {
                return true;
            }
            let cluster = match w.strip_prefix('-') {
                Some(c) if !c.starts_with('-') => c,
                None if i == 0 && name == "tar" => w.as_str(),
                _ => return false,
            };
            cluster.chars().any(|c| short.contains(&c))
        })
    })
}

/// Walk `root` (absolute, real) for `entries`, sharing `budget`.
pub fn walk(
    root: &Path,
    follow: Follow,
    entries: &[Entry],
    policy: &Policy,
    budget: &mut usize,
) -> Found {
    let inodes = !policy.no_linked_files();
    let anywhere: Vec<&Entry> = entries
        .iter()
        .filter(|e| {
            e.segments()
                .iter()
                .any(|s| s.first().is_some_and(|f| f == "**"))
        })
        .collect();
    let mut seen: HashSet<(u64, u64)> = HashSet::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(meta) = std::fs::metadata(&dir) else {
            continue;
        };
        if !meta.is_dir() || !seen.insert((meta.dev(), meta.ino())) {
            continue;
        }
        let Ok(list) = std::fs::read_dir(&dir) else {
            continue;
        };
        for item in list.flatten() {
            let Some(left) = budget.checked_sub(1) else {
                return Found::Unknown(format!(
                    "{} holds more than {MAX_WALKED} entries, more than the hook walks",
                    root.display()
                ));
            };
            *budget = left;
            let path = item.path();
            let Ok(kind) = item.file_type() else { continue };
            if kind.is_symlink() {
                let to = resolve_symlinks(&path);
                let is_dir = to.is_dir();
                if (if is_dir {
                    follow.descend
                } else {
                    follow.leaves && selected(&follow, &path)
                }) && let Some(entry) = covering(entries, &to)
                {
                    return Found::Protected { path, to, entry };
                }
                if is_dir && follow.descend {
                    stack.push(to);
                }
                continue;
            }
            if let Some(entry) = anywhere.iter().find(|e| e.covers(&split(&path))) {
                let entry = entry.written().to_string();
                return Found::Protected {
                    to: path.clone(),
                    path,
                    entry,
                };
            }
            if kind.is_dir() {
                stack.push(path);
            } else if inodes
                && kind.is_file()
                && selected(&follow, &path)
                && let Some(found) = hard_link(path, meta.dev(), item.ino(), entries, policy)
            {
                return found;
            }
        }
    }
    Found::Nothing
}

/// `path` (device `dev`, inode `ino`) as another name of a protected file,
/// or a file with several names the index may lack.
fn hard_link(
    path: PathBuf,
    dev: u64,
    ino: u64,
    entries: &[Entry],
    policy: &Policy,
) -> Option<Found> {
    match policy.linked_file(dev, ino) {
        Ok(None) => None,
        Ok(Some(file)) => {
            let to = file.to_path_buf();
            covering(entries, &to).map(|entry| Found::Protected { path, to, entry })
        }
        Err(why) => std::fs::metadata(&path)
            .is_ok_and(|m| m.nlink() > 1)
            .then(|| Found::Unknown(format!("{} has several names and {why}", path.display()))),
    }
}

/// The entry that covers `path`, as written.
fn covering(entries: &[Entry], path: &Path) -> Option<String> {
    let segments = split(path);
    entries
        .iter()
        .find(|e| e.covers(&segments))
        .map(|e| e.written().to_string())
}

fn split(path: &Path) -> Vec<&str> {
    path.to_str()
        .unwrap_or("")
        .split('/')
        .filter(|s| !s.is_empty())
        .collect()
}
