//! Whether a denyRead path names an existing regular file: the one place
//! the Claude generator looks at the filesystem while rendering.

use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use std::io::ErrorKind;

use crate::compose::{FxHashMap, FxHashSet};

/// One probe on its own, the plain way: `~` expanded, the path normalised by
/// `Path::components`, one `stat` (see [`FileProbe::is_existing_file`]).
#[cfg(test)]
pub fn is_existing_file(pattern: &str, home: &Path) -> bool {
    let normal: PathBuf = expand_user(pattern, home).components().collect();
    normal.is_file()
}

/// [`is_existing_file`] for many patterns, with at most one `stat` each and
/// none where a directory listing already rules the path out.
///
/// A path can only be a file when each of its components exists. Policies
/// list many paths under a few directories, most of which do not exist on a
/// given machine (`~/.aws/...` without AWS, `/var/lib/<app>/keys` for apps
/// not installed). So once two probes under the same parent or grandparent
/// have failed, that directory is read once (one `getdents`, or one failed
/// `open` when it does not exist), and a later path whose name is not in the
/// listing answers "no" without a `stat`. A listing only ever says "no": a
/// name that is listed is still `stat`ed, so symlinks and file types are
/// judged by the kernel as before.
pub struct FileProbe<'h> {
    home: &'h Path,
    /// `home` as text without trailing slashes, as `~/...` expands it.
    home_text: String,
    /// The normalised path of the current probe (one buffer for all).
    path: String,
    /// By the directory's bytes (the paths are normalised, so equal paths are
    /// equal bytes; hashing bytes is much cheaper than hashing a `Path`).
    dirs: FxHashMap<Vec<u8>, Dir>,
    /// How many paths were `stat`ed and directories read (for tests).
    #[cfg(test)]
    calls: usize,
}

enum Dir {
    /// This many probes under it failed; not read yet.
    Missed(u8),
    /// Its entries' names.
    Listed(FxHashSet<Vec<u8>>),
    /// It does not exist or is not a directory: nothing under it exists.
    Missing,
    /// It could not be read (no read permission, too large): `stat` as usual.
    Unlisted,
}

/// Failed probes under a directory before it is read.
const MISSES_BEFORE_LISTING: u8 = 2;
/// Larger directories are not kept in memory; their paths are `stat`ed.
const MAX_LISTED_ENTRIES: usize = 1024;

impl<'h> FileProbe<'h> {
    /// Probes for patterns whose `~` is `home`.
    pub fn new(home: &'h Path) -> Self {
        FileProbe {
            home,
            home_text: home.to_string_lossy().trim_end_matches('/').to_string(),
            path: String::new(),
            dirs: FxHashMap::default(),
            #[cfg(test)]
            calls: 0,
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
                let home = self.home_text.as_str();
                if home.is_empty() && rest.is_empty() {
                    normalize_into("/", &mut path);
                } else {
                    // Joined in place: usually that is the normal form already.
                    path.push_str(home);
                    path.push_str(rest);
                    if !is_normal(&path) {
                        let joined = std::mem::take(&mut path);
                        normalize_into(&joined, &mut path);
                    }
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
        // The parent and grandparent with the name under each.
        let parent = split_parent(normal);
        let grandparent = parent.and_then(|(dir, _)| split_parent(dir));
        for (dir, name) in [parent, grandparent].into_iter().flatten() {
            if self.rules_out(dir, name) {
                return false;
            }
        }
        #[cfg(test)]
        {
            self.calls += 1;
        }
        match std::fs::metadata(normal) {
            Ok(meta) => meta.is_file(),
            Err(_) => {
                for (dir, _) in [parent, grandparent].into_iter().flatten() {
                    self.missed(dir);
                }
                false
            }
        }
    }

    /// Whether what is known of `dir` proves that `dir/name` does not exist.
    fn rules_out(&self, dir: &str, name: &str) -> bool {
        match self.dirs.get(dir.as_bytes()) {
            Some(Dir::Missing) => true,
            // `..` is never in a listing, and `dir/..` may well exist.
            Some(Dir::Listed(names)) => name != ".." && !names.contains(name.as_bytes()),
            _ => false,
        }
    }

    fn missed(&mut self, dir: &str) {
        let key = dir.as_bytes();
        let misses = match self.dirs.get_mut(key) {
            None => {
                self.dirs.insert(key.to_vec(), Dir::Missed(1));
                return;
            }
            Some(Dir::Missed(count)) => {
                *count += 1;
                *count
            }
            Some(_) => return,
        };
        if misses >= MISSES_BEFORE_LISTING {
            #[cfg(test)]
            {
                self.calls += 1;
            }
            self.dirs.insert(key.to_vec(), list(Path::new(dir)));
        }
    }
}

/// A path's parent and last name, as `Path::parent` and `Path::file_name`
/// have them for a normalised path; `None` at the root or for a bare name.
fn split_parent(normal: &str) -> Option<(&str, &str)> {
    match normal.bytes().rposition(|b| b == b'/') {
        Some(0) if normal.len() > 1 => Some(("/", &normal[1..])),
        Some(0) => None,
        Some(i) => Some((&normal[..i], &normal[i + 1..])),
        None => None,
    }
}

/// Reads `dir` once. Only "does not exist" and "not a directory" make it
/// [`Dir::Missing`]: any other failure leaves its paths to `stat`.
fn list(dir: &Path) -> Dir {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
            return Dir::Missing;
        }
        Err(_) => return Dir::Unlisted,
    };
    let mut names = FxHashSet::default();
    for entry in entries {
        let Ok(entry) = entry else {
            return Dir::Unlisted;
        };
        if names.len() == MAX_LISTED_ENTRIES {
            return Dir::Unlisted;
        }
        names.insert(entry.file_name().as_bytes().to_vec());
    }
    Dir::Listed(names)
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

/// Whether [`normalize`] leaves `path` as it is: no empty segment (a
/// repeated or trailing slash, other than the root itself) and no `.`
/// segment after the first. One pass over the bytes, where normalising
/// takes a pass per segment.
fn is_normal(path: &str) -> bool {
    let bytes = path.as_bytes();
    if bytes == b"/" {
        return true;
    }
    let mut slashes = bytes.iter().enumerate().filter(|&(_, &b)| b == b'/');
    slashes.all(|(i, _)| match bytes.get(i + 1) {
        None | Some(b'/') => false,
        Some(b'.') => !matches!(bytes.get(i + 2), None | Some(b'/')),
        Some(_) => true,
    })
}

/// [`normalize`] into `out`.
fn normalize_into(path: &str, out: &mut String) {
    if is_normal(path) {
        out.push_str(path);
        return;
    }
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
                        assert_eq!(is_normal(&text), normalize(&text) == text, "{text:?}");
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

    #[test]
    fn listings_answer_like_single_probes() {
        let dir = tempfile::TempDir::new().unwrap();
        let home = dir.path();
        for d in ["lib/a1", "lib/a2", "lib/link-target", "etc"] {
            std::fs::create_dir_all(home.join(d)).unwrap();
        }
        for f in [
            "lib/a1/keys",
            "lib/a2/other",
            "lib/link-target/keys",
            "etc/p1",
        ] {
            std::fs::write(home.join(f), "x").unwrap();
        }
        std::os::unix::fs::symlink("link-target", home.join("lib/l")).unwrap();
        std::os::unix::fs::symlink("a1/keys", home.join("lib/kl")).unwrap();
        let mut patterns: Vec<String> = Vec::new();
        for i in 0..40 {
            patterns.push(format!("~/lib/app{i}/keys"));
            patterns.push(format!("~/etc/p{i}"));
            patterns.push(format!("~/gone/p{i}"));
            patterns.push(format!("~/lib/app{i}/../a1/keys"));
        }
        for p in [
            "~/lib/a1/keys",
            "~/lib/a2/keys",
            "~/lib/l/keys",
            "~/lib/kl",
            "~/lib/a1/../a1/keys",
            "~/lib/a1/..",
            "~/lib/..",
            "~/lib/../etc/p1",
            "~/etc/p1/x",
            "~/lib",
        ] {
            patterns.push(p.to_string());
        }
        let mut probe = FileProbe::new(home);
        for round in 0..2 {
            for pattern in &patterns {
                assert_eq!(
                    probe.is_existing_file(pattern),
                    is_existing_file(pattern, home),
                    "{pattern} (round {round})"
                );
            }
        }
        // The 80 probes under ~/lib/appN and ~/gone cost a few listings,
        // not a stat each.
        let mut probe = FileProbe::new(home);
        for i in 0..40 {
            assert!(!probe.is_existing_file(&format!("~/lib/app{i}/keys")));
            assert!(!probe.is_existing_file(&format!("~/gone/p{i}")));
        }
        assert!(probe.calls <= 8, "{} calls", probe.calls);
    }

    #[test]
    fn a_directory_too_large_to_list_is_probed_path_by_path() {
        let dir = tempfile::TempDir::new().unwrap();
        let home = dir.path();
        std::fs::create_dir(home.join("big")).unwrap();
        for i in 0..=MAX_LISTED_ENTRIES {
            std::fs::create_dir(home.join(format!("big/d{i}"))).unwrap();
        }
        std::fs::write(home.join("big/d7/f"), "x").unwrap();
        let mut probe = FileProbe::new(home);
        for i in 0..20 {
            assert!(!probe.is_existing_file(&format!("~/big/x{i}/f")));
        }
        assert!(probe.is_existing_file("~/big/d7/f"));
        assert!(matches!(
            probe.dirs.get(home.join("big").as_os_str().as_bytes()),
            Some(Dir::Unlisted)
        ));
    }
}
