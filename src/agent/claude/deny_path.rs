//! Whether a policy path names an existing regular file or directory: the
//! one place the Claude generator looks at the filesystem while rendering.

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use rustc_hash::{FxHashMap, FxHashSet};

/// `~` (and `~user`) expanded the way a shell would, the path normalised
/// like Python's pathlib (repeated and trailing slashes and `.` segments
/// dropped, `..` kept, which `Path::components` does), then one `stat`
/// that follows symlinks. The test oracle of [`FileProbe`].
#[cfg(test)]
pub fn kind_of(pattern: &str, home: &Path) -> Kind {
    let expanded = expand_user(pattern, &home.to_string_lossy()).into_owned();
    let normal: PathBuf = Path::new(&expanded).components().collect();
    Kind::of(&normal)
}

#[cfg(test)]
pub fn is_existing_file(pattern: &str, home: &Path) -> bool {
    kind_of(pattern, home) == Kind::File
}

/// What a path names on disk, symlinks followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    File,
    Dir,
    /// Nothing, something else (a FIFO, a socket), or unreadable.
    Other,
}

impl Kind {
    fn of(path: &Path) -> Kind {
        match std::fs::metadata(path) {
            Ok(m) if m.is_file() => Kind::File,
            Ok(m) if m.is_dir() => Kind::Dir,
            _ => Kind::Other,
        }
    }
}

/// The path as `Path::components` collects it, as text: repeated slashes
/// and `.` segments dropped (the leading `.` of a relative path kept), `..`
/// kept, no trailing slash. On text, because parsing a `Path` into
/// components costs more than the rest of a probe.
fn normalize(path: &str) -> Cow<'_, str> {
    if is_normal(path) {
        return Cow::Borrowed(path);
    }
    Cow::Owned(normalize_owned(path))
}

/// Whether [`normalize`] leaves `path` as it is: no empty or `.` segment
/// (a leading `.` of a relative path aside) and no trailing slash, the
/// root itself excepted.
fn is_normal(path: &str) -> bool {
    if path == "/" {
        return true;
    }
    let inner = path.strip_prefix('/').unwrap_or(path);
    !inner.is_empty()
        && inner
            .split('/')
            .enumerate()
            .all(|(i, segment)| match segment {
                "" => false,
                "." => i == 0 && !path.starts_with('/'),
                _ => true,
            })
}

fn normalize_owned(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    if path.starts_with('/') {
        out.push('/');
    }
    let base = out.len();
    for (i, segment) in path.split('/').enumerate() {
        let keep = match segment {
            "" => false,
            "." => i == 0 && base == 0,
            _ => true,
        };
        if keep {
            if out.len() > base {
                out.push('/');
            }
            out.push_str(segment);
        }
    }
    out
}

/// A normalised path's parent and last name; `None` at the root, for a bare
/// name (its directory is the working directory, which is not listed) and
/// for a `..` (which no listing holds, and `dir/..` may well exist).
fn split_parent(normal: &str) -> Option<(&str, &str)> {
    let (dir, name) = match normal.rfind('/')? {
        0 if normal.len() > 1 => ("/", &normal[1..]),
        0 => return None,
        i => (&normal[..i], &normal[i + 1..]),
    };
    (name != "..").then_some((dir, name))
}

/// The answers of [`kind_of`] for many patterns, with fewer
/// `stat`s: policies list many paths under a few directories that do not
/// exist on a given machine (`~/.aws/...` without AWS, `/var/lib/<app>/...`
/// for apps not installed). Once two paths under the same parent or
/// grandparent were not files, that directory is read once, and a later
/// path whose name it does not list is answered "no" without a `stat`. A
/// listing only ever says "no": a listed name is still `stat`ed, so
/// symlinks and file types are judged by the kernel.
pub struct FileProbe {
    /// Where `~` points, as text.
    home: String,
    /// By the directory's normalised text.
    dirs: FxHashMap<String, Dir>,
}

enum Dir {
    /// This many paths under it were not files; not read yet.
    Missed(u8),
    /// The names it holds (none when it does not exist).
    Listed(FxHashSet<OsString>),
    /// Unreadable or too large to keep: its paths are `stat`ed.
    Unlisted,
}

/// Paths under a directory that were not files before it is read.
const MISSES_BEFORE_LISTING: u8 = 2;
/// Larger directories are not kept in memory.
const MAX_LISTED_ENTRIES: usize = 1024;

impl FileProbe {
    /// Probes for patterns whose `~` is `home`.
    pub fn new(home: &Path) -> Self {
        FileProbe {
            home: home.to_string_lossy().into_owned(),
            dirs: FxHashMap::default(),
        }
    }

    pub fn is_existing_file(&mut self, pattern: &str) -> bool {
        self.kind(pattern) == Kind::File
    }

    pub fn is_existing_dir(&mut self, pattern: &str) -> bool {
        self.kind(pattern) == Kind::Dir
    }

    /// A path that was not a file counts as a miss for its directories,
    /// directories included: the listing only ever rules names out.
    fn kind(&mut self, pattern: &str) -> Kind {
        let expanded = expand_user(pattern, &self.home);
        let path = normalize(&expanded);
        // The parent and the grandparent, each with the name under it.
        let parent = split_parent(&path);
        let grandparent = parent.and_then(|(dir, _)| split_parent(dir));
        let ancestors = [parent, grandparent].into_iter().flatten();
        for (dir, name) in ancestors.clone() {
            if let Some(Dir::Listed(names)) = self.dirs.get(dir)
                && !names.contains(OsStr::new(name))
            {
                return Kind::Other;
            }
        }
        let kind = Kind::of(Path::new(path.as_ref()));
        if kind != Kind::File {
            for (dir, _) in ancestors {
                self.missed(dir);
            }
        }
        kind
    }

    fn missed(&mut self, dir: &str) {
        // Most directories are met again: the key is copied only once.
        let entry = match self.dirs.get_mut(dir) {
            Some(entry) => entry,
            None => self.dirs.entry(dir.to_string()).or_insert(Dir::Missed(0)),
        };
        if let Dir::Missed(count) = entry {
            *count += 1;
            if *count >= MISSES_BEFORE_LISTING {
                *entry = list(Path::new(dir));
            }
        }
    }
}

/// Reads `dir` once. Only "does not exist" and "not a directory" make an
/// empty listing: any other failure leaves its paths to `stat`.
fn list(dir: &Path) -> Dir {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
            return Dir::Listed(FxHashSet::default());
        }
        Err(_) => return Dir::Unlisted,
    };
    let mut names = FxHashSet::default();
    for entry in entries {
        match entry {
            Ok(entry) if names.len() < MAX_LISTED_ENTRIES => {
                names.insert(entry.file_name());
            }
            _ => return Dir::Unlisted,
        }
    }
    Dir::Listed(names)
}

/// `~` and `~/rest` use `home`; `~name` and `~name/rest` use that user's
/// home directory from the password database. An unknown user leaves the
/// pattern as written, and so does a pattern without `~`.
fn expand_user<'p>(pattern: &'p str, home: &str) -> Cow<'p, str> {
    let Some(rest) = pattern.strip_prefix('~') else {
        return Cow::Borrowed(pattern);
    };
    let (user, tail) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    let dir = if user.is_empty() {
        Cow::Borrowed(home)
    } else {
        match passwd_home(user) {
            Some(dir) => Cow::Owned(dir.to_string_lossy().into_owned()),
            None => return Cow::Borrowed(pattern),
        }
    };
    let joined = [dir.trim_end_matches('/'), tail].concat();
    Cow::Owned(if joined.is_empty() {
        "/".into()
    } else {
        joined
    })
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
    fn normalize_matches_path_components() {
        let parts = [
            "", "/", "//", ".", "..", "a", "b.", ".c", "~", " ", "\u{e9}",
        ];
        for a in parts {
            for b in parts {
                for c in parts {
                    for d in ["", "/", "."] {
                        let text = format!("{a}{b}{c}{d}");
                        let expected: PathBuf = Path::new(&text).components().collect();
                        assert_eq!(normalize(&text), expected.to_str().unwrap(), "{text:?}");
                        assert_eq!(
                            normalize_owned(&text),
                            expected.to_str().unwrap(),
                            "{text:?}"
                        );
                    }
                }
            }
        }
    }

    /// A shared probe gives the oracle's answer for every path, in any
    /// order, whether its directories get listed or not.
    #[test]
    fn a_shared_probe_answers_like_single_probes() {
        let dir = tempfile::TempDir::new().unwrap();
        let home = dir.path();
        for sub in ["a", "a/b", "c", "big"] {
            std::fs::create_dir(home.join(sub)).unwrap();
        }
        for file in ["a/f1", "a/f2", "a/b/g", "c/h"] {
            std::fs::write(home.join(file), "x").unwrap();
        }
        for i in 0..MAX_LISTED_ENTRIES + 2 {
            std::fs::write(home.join(format!("big/{i}")), "").unwrap();
        }
        std::os::unix::fs::symlink("a", home.join("la")).unwrap();
        std::os::unix::fs::symlink("f1", home.join("a/lf")).unwrap();
        let mut patterns: Vec<String> = Vec::new();
        for base in [
            "~/a",
            "~/la",
            "~/a/b",
            "~/c",
            "~/gone",
            "~/gone/deeper",
            "~/big",
            "/etc",
        ] {
            for name in [
                "f1", "f2", "g", "h", "lf", "x", "y", "z", "..", ".", "0", "1025", "passwd",
            ] {
                patterns.push(format!("{base}/{name}"));
                patterns.push(format!("{base}/{name}/"));
                patterns.push(format!("{base}//{name}/../f1"));
            }
        }
        let mut probe = FileProbe::new(home);
        for round in 0..3 {
            // A different order each round (323 patterns, 7 coprime to it).
            for i in 0..patterns.len() {
                let pattern = &patterns[(i * 7 + round) % patterns.len()];
                assert_eq!(probe.kind(pattern), kind_of(pattern, home), "{pattern}");
            }
        }
        assert!(probe.dirs.values().any(|d| matches!(d, Dir::Listed(_))));
        assert!(probe.dirs.values().any(|d| matches!(d, Dir::Unlisted)));
    }

    #[test]
    fn tilde_forms_expand_like_a_shell() {
        let home = "/h/me/";
        assert_eq!(expand_user("~", home), "/h/me");
        assert_eq!(expand_user("~/.netrc", home), "/h/me/.netrc");
        assert_eq!(expand_user("/abs/~/x", home), "/abs/~/x");
        assert_eq!(expand_user("rel", home), "rel");
        assert_eq!(expand_user("~/x", "/"), "/x");
        assert_eq!(expand_user("~", ""), "/");
        assert_eq!(expand_user("~root/x", home), "/root/x");
        assert_eq!(
            expand_user("~no-such-user-xyz/a", home),
            "~no-such-user-xyz/a"
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
        for dir in ["~/d", "~/d/", "~/dlnk", "~", "~/./d"] {
            assert_eq!(kind_of(dir, home), Kind::Dir, "{dir}");
        }
        for other in ["~/f", "~/broken", "~/missing"] {
            assert_ne!(kind_of(other, home), Kind::Dir, "{other}");
        }
    }
}
