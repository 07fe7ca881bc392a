//! Whether a denyRead path names an existing regular file: the one place
//! the Claude generator looks at the filesystem while rendering.

use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::compose::FxHashMap;

/// One probe on its own, the plain way: `~` expanded, the path normalised by
/// `Path::components`, one `stat` (see [`FileProbe::is_existing_file`]).
#[cfg(test)]
pub fn is_existing_file(pattern: &str, home: &Path) -> bool {
    let normal: PathBuf = expand_user(pattern, home).components().collect();
    normal.is_file()
}

/// [`is_existing_file`] for many patterns, with at most one `stat` each and
/// none under a directory already known not to exist.
///
/// A path can only be a file when its parent (the text before its last
/// component) resolves to a directory. When two probes under the same parent
/// have failed, the parent is checked once; if it is not a directory, every
/// later probe under it answers "no" without a `stat`. Policies list many
/// paths under a few directories that do not exist on a given machine
/// (`~/.aws/...` without AWS), so this saves most of the calls.
pub struct FileProbe<'h> {
    home: &'h Path,
    /// The normalised path of the current probe (one buffer for all).
    path: String,
    /// By the parent's bytes (the paths are normalised, so equal paths are
    /// equal bytes; hashing bytes is much cheaper than hashing a `Path`).
    parents: FxHashMap<Vec<u8>, Parent>,
}

enum Parent {
    /// One probe under it failed.
    Missed,
    Directory,
    NotADirectory,
}

impl<'h> FileProbe<'h> {
    /// Probes for patterns whose `~` is `home`.
    pub fn new(home: &'h Path) -> Self {
        FileProbe {
            home,
            path: String::new(),
            parents: FxHashMap::default(),
        }
    }

    /// One probe: `~` (and `~user`) expanded the way a shell would, the path
    /// normalised like Python's pathlib (repeated and trailing slashes and `.`
    /// segments dropped, `..` kept), then one `stat` that follows symlinks.
    pub fn is_existing_file(&mut self, pattern: &str) -> bool {
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        match pattern.strip_prefix('~') {
            // `~` and `~/...`: the home directory without trailing slashes.
            Some(rest) if rest.is_empty() || rest.starts_with('/') => {
                let home = self.home.to_string_lossy();
                let home = home.trim_end_matches('/');
                if home.is_empty() && rest.is_empty() {
                    normalize_into("/", &mut path);
                } else {
                    let mut joined = String::with_capacity(home.len() + rest.len());
                    joined.push_str(home);
                    joined.push_str(rest);
                    normalize_into(&joined, &mut path);
                }
            }
            Some(_) => normalize_into(
                &expand_user(pattern, self.home).to_string_lossy(),
                &mut path,
            ),
            None => normalize_into(pattern, &mut path),
        }
        let found = self.probe(&path);
        self.path = path;
        found
    }

    fn probe(&mut self, normal: &str) -> bool {
        // The text before the last component (as `Path::parent` has it).
        let parent = match normal.rfind('/') {
            Some(0) if normal.len() > 1 => Some("/"),
            Some(0) => None,
            Some(i) => Some(&normal[..i]),
            None => None,
        };
        if let Some(parent) = parent
            && let Some(Parent::NotADirectory) = self.parents.get(parent.as_bytes())
        {
            return false;
        }
        match std::fs::metadata(normal) {
            Ok(meta) => meta.is_file(),
            Err(_) => {
                if let Some(parent) = parent {
                    self.missed(Path::new(parent));
                }
                false
            }
        }
    }

    fn missed(&mut self, parent: &Path) {
        let key = parent.as_os_str().as_bytes();
        match self.parents.get_mut(key) {
            None => {
                self.parents.insert(key.to_vec(), Parent::Missed);
            }
            Some(state @ Parent::Missed) => {
                *state = if std::fs::metadata(parent).is_ok_and(|m| m.is_dir()) {
                    Parent::Directory
                } else {
                    Parent::NotADirectory
                };
            }
            Some(_) => {}
        }
    }
}

/// The path as `Path::components` collects it: repeated slashes and `.`
/// segments dropped (a leading `.` of a relative path kept), `..` kept, no
/// trailing slash. Written on the text to spare a `PathBuf` push per segment.
#[cfg(test)]
fn normalize(path: &str) -> String {
    let mut out = String::new();
    normalize_into(path, &mut out);
    out
}

/// [`normalize`] into `out`.
fn normalize_into(path: &str, out: &mut String) {
    out.reserve(path.len());
    let absolute = path.starts_with('/');
    if absolute {
        out.push('/');
    }
    let base = out.len();
    let bytes = path.as_bytes();
    let mut start = 0;
    while start <= bytes.len() {
        let end = bytes[start..]
            .iter()
            .position(|&b| b == b'/')
            .map_or(bytes.len(), |i| start + i);
        let segment = &path[start..end];
        let keep = match segment {
            "" => false,
            "." => start == 0 && !absolute,
            _ => true,
        };
        if keep {
            if out.len() > base {
                out.push('/');
            }
            out.push_str(segment);
        }
        start = end + 1;
    }
}

/// `~` and `~/rest` use `home`; `~name` and `~name/rest` use that user's
/// home directory from the password database. An unknown user leaves the
/// pattern as written.
fn expand_user(pattern: &str, home: &Path) -> PathBuf {
    let Some(rest) = pattern.strip_prefix('~') else {
        return PathBuf::from(pattern);
    };
    let (user, tail) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    let dir = if user.is_empty() {
        Some(home.to_path_buf())
    } else {
        passwd_home(user)
    };
    match dir {
        Some(dir) => {
            let dir = dir.to_string_lossy();
            let joined = format!("{}{tail}", dir.trim_end_matches('/'));
            PathBuf::from(if joined.is_empty() {
                "/".into()
            } else {
                joined
            })
        }
        None => PathBuf::from(pattern),
    }
}

/// The home directory field of `user`'s line in /etc/passwd. Read only for
/// the rare `~user/...` pattern.
fn passwd_home(user: &str) -> Option<PathBuf> {
    let text = std::fs::read_to_string("/etc/passwd").ok()?;
    text.lines().find_map(|line| {
        let mut fields = line.split(':');
        (fields.next() == Some(user)).then(|| fields.nth(4).map(PathBuf::from))?
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tilde_forms_expand_like_a_shell() {
        let home = Path::new("/h/me/");
        assert_eq!(expand_user("~", home), PathBuf::from("/h/me"));
        assert_eq!(expand_user("~/.netrc", home), PathBuf::from("/h/me/.netrc"));
        assert_eq!(expand_user("/abs/~/x", home), PathBuf::from("/abs/~/x"));
        assert_eq!(expand_user("rel", home), PathBuf::from("rel"));
        assert_eq!(expand_user("~/x", Path::new("/")), PathBuf::from("/x"));
        assert_eq!(
            expand_user("~no-such-user-xyz/a", home),
            PathBuf::from("~no-such-user-xyz/a")
        );
    }

    #[test]
    fn files_are_found_through_odd_spellings_and_symlinks() {
        let dir = tempfile::TempDir::new().unwrap();
        let home = dir.path();
        std::fs::write(home.join("f"), "x").unwrap();
        std::fs::create_dir(home.join("d")).unwrap();
        std::os::unix::fs::symlink("f", home.join("lnk")).unwrap();
        std::os::unix::fs::symlink("d", home.join("dlnk")).unwrap();
        std::os::unix::fs::symlink("nowhere", home.join("broken")).unwrap();
        for yes in ["~/f", "~/f/", "~//f", "~/./f", "~/lnk"] {
            assert!(is_existing_file(yes, home), "{yes}");
        }
        for no in ["~/d", "~/dlnk", "~/broken", "~/missing", "~/sub/../f", "~"] {
            assert!(!is_existing_file(no, home), "{no}");
        }
    }

    #[test]
    fn normalize_matches_path_components() {
        let parts = [
            "", "/", "//", ".", "..", "a", "b.", ".c", "~", " ", "\u{e9}",
        ];
        let mut count = 0;
        for a in parts {
            for b in parts {
                for c in parts {
                    for d in ["", "/", "."] {
                        let text = format!("{a}{b}{c}{d}");
                        let expected: PathBuf = Path::new(&text).components().collect();
                        assert_eq!(Path::new(&normalize(&text)), expected, "{text:?}");
                        assert_eq!(normalize(&text), expected.to_str().unwrap(), "{text:?}");
                        count += 1;
                    }
                }
            }
        }
        assert!(count > 1000);
    }

    #[test]
    fn a_shared_probe_answers_like_single_probes() {
        let dir = tempfile::TempDir::new().unwrap();
        let home = dir.path();
        std::fs::create_dir_all(home.join("d/e")).unwrap();
        for f in ["f", "d/f", "d/e/f"] {
            std::fs::write(home.join(f), "x").unwrap();
        }
        std::os::unix::fs::symlink("d", home.join("dl")).unwrap();
        std::os::unix::fs::symlink("f", home.join("fl")).unwrap();
        let patterns = [
            "~/f",
            "~/g",
            "~/h",
            "~/d/f",
            "~/d/g",
            "~/d/h",
            "~/d/e/f",
            "~/x/a",
            "~/x/b",
            "~/x/c",
            "~/x/../f",
            "~/x/../d/f",
            "~/f/a",
            "~/f/b",
            "~/f/c",
            "~/fl/a",
            "~/fl/b",
            "~/dl/f",
            "~/dl/g",
            "~/dl/e/f",
            "~/d/../f",
            "~/d/e/../f",
            "~/x/y/z",
            "~/x/y/w",
            "~/x/y",
            "~/d",
            "~/d/e",
            "~/d/e/",
            "f",
            "g",
            "~/d/./f",
            "~//d//f",
        ];
        let slashed = PathBuf::from(format!("{}//", home.display()));
        for home in [home, slashed.as_path()] {
            let mut probe = FileProbe::new(home);
            for round in 0..2 {
                for pattern in patterns
                    .iter()
                    .chain(&["~", "~/", "~nosuchuser/f", "~root/x"])
                {
                    assert_eq!(
                        probe.is_existing_file(pattern),
                        is_existing_file(pattern, home),
                        "{pattern} (round {round})"
                    );
                }
            }
        }
        let mut probe = FileProbe::new(Path::new("/"));
        for pattern in [
            "~",
            "~/etc/passwd",
            "~/etc/nothing",
            "~//etc/./passwd",
            "/etc/passwd/x",
        ] {
            assert_eq!(
                probe.is_existing_file(pattern),
                is_existing_file(pattern, Path::new("/")),
                "{pattern}"
            );
        }
    }
}
