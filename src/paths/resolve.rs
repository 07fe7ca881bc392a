//! Two spellings of one absolute path: lexically normalised, and with its
//! symlinks followed. The policy files are write-denied in both (see
//! `compile/policy_files.rs`): srt matches the spelling it is given, the
//! macOS sandbox the real path.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

/// How many symlinks one path may pass through before the rest of it is
/// taken literally (a loop, or a chain no filesystem should hold; the
/// kernel's own limit is 40).
const MAX_LINKS: usize = 40;

/// `path` made absolute against `cwd`, with `.` and `..` removed as text
/// (`/a/b/../c` -> `/a/c`; `..` at the root stays the root). Symlinks are not
/// consulted, so `link/..` is the directory holding `link`.
pub fn absolute_normalised(path: &Path, cwd: &Path) -> PathBuf {
    let joined;
    let path = if path.is_absolute() {
        path
    } else {
        joined = cwd.join(path);
        &joined
    };
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The absolute `path` with every symlink on it followed, component by
/// component, the way `realpath` without `-e` does: a component that does
/// not exist is kept as written, and a `..` after it removes it again. No
/// error: a path that cannot be looked up further is spelled as far as it
/// could be resolved.
pub fn resolve_symlinks(path: &Path) -> PathBuf {
    Links::default().resolve(path)
}

/// [`resolve_symlinks`] for many paths at one moment: each path is looked
/// up once (`lstat`, and `readlink` for a link) however many of the paths
/// pass through it. Only for paths resolved together, with nothing written
/// in between: a cached answer is not looked at again.
#[derive(Default)]
pub struct Links {
    /// By path: the link's target, `None` for anything but a symlink.
    seen: rustc_hash::FxHashMap<PathBuf, Option<PathBuf>>,
    /// By directory: its resolved spelling, and how many links that took
    /// (the walk on to a file counts on from there, as one walk would).
    dirs: rustc_hash::FxHashMap<PathBuf, (PathBuf, usize)>,
}

impl Links {
    pub fn resolve(&mut self, path: &Path) -> PathBuf {
        // A walk that has resolved a path's directory goes on with its last
        // name alone, so the directory is resolved once for all its files.
        if let (Some(dir), Some(name)) = (path.parent(), path.file_name())
            && path.is_absolute()
        {
            let (base, links) = match self.dirs.get(dir) {
                Some(known) => known.clone(),
                None => {
                    let mut pending = VecDeque::new();
                    push_components(&mut pending, dir);
                    let walked = self.walk(PathBuf::from("/"), pending, 0);
                    self.dirs.insert(dir.to_path_buf(), walked.clone());
                    walked
                }
            };
            return self
                .walk(base, VecDeque::from([name.to_os_string()]), links)
                .0;
        }
        let mut pending: VecDeque<OsString> = VecDeque::new();
        push_components(&mut pending, path);
        self.walk(PathBuf::from("/"), pending, 0).0
    }

    /// Resolves `pending` below the resolved directory `resolved`, after
    /// `links` links followed so far; the spelling and the links in all.
    fn walk(
        &mut self,
        mut resolved: PathBuf,
        mut pending: VecDeque<OsString>,
        mut links: usize,
    ) -> (PathBuf, usize) {
        while let Some(name) = pending.pop_front() {
            if name == ".." {
                resolved.pop();
                continue;
            }
            let candidate = resolved.join(&name);
            let target = if links < MAX_LINKS {
                self.target(&candidate)
            } else {
                None
            };
            let Some(target) = target else {
                resolved = candidate;
                continue;
            };
            links += 1;
            if target.is_absolute() {
                resolved = PathBuf::from("/");
            }
            // The link's target comes before what followed the link.
            let mut rest: VecDeque<OsString> = VecDeque::new();
            push_components(&mut rest, &target);
            rest.append(&mut pending);
            pending = rest;
        }
        (resolved, links)
    }

    /// Where the symlink `path` points; `None` when it is not one.
    fn target(&mut self, path: &Path) -> Option<PathBuf> {
        if let Some(known) = self.seen.get(path) {
            return known.clone();
        }
        let target = match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => std::fs::read_link(path).ok(),
            _ => None,
        };
        self.seen.insert(path.to_path_buf(), target.clone());
        target
    }
}

/// The named components of `path`, `..` kept as a marker, `.` and the root dropped.
fn push_components(into: &mut VecDeque<OsString>, path: &Path) {
    for component in path.components() {
        match component {
            Component::Normal(name) => into.push_back(name.to_os_string()),
            Component::ParentDir => into.push_back(OsString::from("..")),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalising_removes_dot_segments_as_text() {
        let cwd = Path::new("/work/here");
        let n = |p: &str| absolute_normalised(Path::new(p), cwd);
        assert_eq!(
            n("../home/x/config.toml"),
            PathBuf::from("/work/home/x/config.toml")
        );
        assert_eq!(n("./a/./b"), PathBuf::from("/work/here/a/b"));
        assert_eq!(n("/a/b/../../../c"), PathBuf::from("/c"));
        assert_eq!(n("/a//b/"), PathBuf::from("/a/b"));
    }

    #[test]
    fn symlinks_are_followed_and_missing_components_kept() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir_all(root.join("real/sub")).unwrap();
        std::os::unix::fs::symlink("real", root.join("rel")).unwrap();
        std::os::unix::fs::symlink(root.join("real/sub"), root.join("abs")).unwrap();
        std::os::unix::fs::symlink("loop", root.join("loop")).unwrap();
        let r = |p: &str| resolve_symlinks(&root.join(p));
        assert_eq!(r("rel/f.toml"), root.join("real/f.toml"));
        // `..` after a link is the parent of the link's target.
        assert_eq!(r("abs/../x"), root.join("real/x"));
        assert_eq!(r("missing/dir/../f"), root.join("missing/f"));
        assert_eq!(r("real/sub"), root.join("real/sub"));
        // A loop ends after MAX_LINKS, spelled as far as it got.
        assert_eq!(r("loop/f"), root.join("loop/f"));
        // One cache for all of them answers alike.
        let mut links = Links::default();
        for p in [
            "rel/f.toml",
            "abs/../x",
            "missing/dir/../f",
            "real/sub",
            "loop/f",
            "rel/f.toml",
        ] {
            assert_eq!(links.resolve(&root.join(p)), r(p), "{p}");
        }
    }

    /// Resolving a file's directory first and then its name follows exactly
    /// the links one walk from the root follows, the limit included.
    #[test]
    fn a_directory_resolved_once_counts_its_links_toward_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir(root.join("real")).unwrap();
        // c0 -> c1 -> ... -> c{n} -> real, and real/f -> g.
        let chain = |n: usize| {
            for i in 0..n {
                let _ = std::fs::remove_file(root.join(format!("c{i}")));
                std::os::unix::fs::symlink(format!("c{}", i + 1), root.join(format!("c{i}")))
                    .unwrap();
            }
            let _ = std::fs::remove_file(root.join(format!("c{n}")));
            std::os::unix::fs::symlink("real", root.join(format!("c{n}"))).unwrap();
        };
        let _ = std::os::unix::fs::symlink("g", root.join("real/f"));
        for n in [MAX_LINKS - 2, MAX_LINKS - 1, MAX_LINKS, MAX_LINKS + 1] {
            chain(n);
            let path = root.join("c0/f");
            let mut pending = VecDeque::new();
            push_components(&mut pending, &path);
            let one_walk = Links::default().walk(PathBuf::from("/"), pending, 0).0;
            assert_eq!(Links::default().resolve(&path), one_walk, "{n} links");
        }
    }
}
