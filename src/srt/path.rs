//! Path entries as srt resolves them: `~` and `~/...` are the home
//! directory, any other relative entry is under the working directory,
//! `.` and `..` fold, a trailing `/**` names the directory itself
//! ([`super::glob::directory_form`]), and since the sandbox mounts real
//! paths a rule covers a path when either, with its symlinks resolved,
//! lies in the other (SECURITY_CONCEPT.md, "Sandbox Runtime versions:
//! 0.0.78 and the newest, measured"). `~user/...` is not expanded (srt
//! does not either): it is a relative name.
//!
//! The model folds `..` lexically everywhere; srt leaves an absolute
//! entry's `..` to `realpath`, which differs only through a symlinked
//! directory the `..` climbs out of.

use std::path::{Component, Path, PathBuf};

use super::glob;

/// Where relative entries and `~` resolve.
pub struct Places<'a> {
    pub home: &'a Path,
    pub cwd: &'a Path,
}

/// `~` and relative paths resolved, `.` and `..` folded (no file access).
pub fn absolute(pattern: &str, places: &Places) -> PathBuf {
    let joined = if pattern == "~" {
        places.home.to_path_buf()
    } else if let Some(rest) = pattern.strip_prefix("~/") {
        places.home.join(rest)
    } else {
        places.cwd.join(pattern)
    };
    let mut out = PathBuf::new();
    for part in joined.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// Whether the rule `pattern` covers `path` (absolute): a glob matches the
/// path as a whole (an unanchored one at any depth), any other rule covers
/// its directory and everything under it; both compared as written and,
/// since the sandbox matches real paths, with symlinks resolved on both
/// sides.
pub fn path_matches(pattern: &str, path: &Path, places: &Places) -> bool {
    if glob::is_glob(pattern) {
        let anchored = pattern.starts_with(['/', '~', '.']);
        let text = if anchored {
            absolute(pattern, places).display().to_string()
        } else {
            format!("**/{}", pattern.trim_start_matches("**/"))
        };
        return real_forms(path)
            .iter()
            .any(|p| glob::matches(&text, &p.display().to_string()));
    }
    let rule = absolute(glob::directory_form(pattern), places);
    let rules = real_forms(&rule);
    real_forms(path)
        .iter()
        .any(|p| rules.iter().any(|r| p.starts_with(r)))
}

/// `path` as written and, when some part of it exists, with its symlinks
/// resolved (the longest existing ancestor canonicalized, the rest kept).
pub fn real_forms(path: &Path) -> Vec<PathBuf> {
    let mut forms = vec![path.to_path_buf()];
    let mut base = path;
    let mut rest = Vec::new();
    while let Some(parent) = base.parent() {
        if let Ok(real) = std::fs::canonicalize(base) {
            let real = rest
                .iter()
                .rev()
                .fold(real, |acc: PathBuf, part| acc.join(part));
            if real != path {
                forms.push(real);
            }
            break;
        }
        if let Some(name) = base.file_name() {
            rest.push(name.to_os_string());
        }
        base = parent;
    }
    forms
}

#[cfg(test)]
mod tests {
    use super::*;

    fn places() -> Places<'static> {
        Places {
            home: Path::new("/h"),
            cwd: Path::new("/h/project"),
        }
    }

    #[test]
    fn paths_resolve_home_and_the_working_directory_lexically() {
        assert_eq!(absolute("~/a/../b", &places()), Path::new("/h/b"));
        assert_eq!(absolute("./x/./y", &places()), Path::new("/h/project/x/y"));
        assert_eq!(absolute("~", &places()), Path::new("/h"));
        assert_eq!(
            absolute("~user/x", &places()),
            Path::new("/h/project/~user/x")
        );
    }

    #[test]
    fn a_directory_suffix_covers_the_directory_and_a_glob_the_whole_path() {
        let m = |rule: &str, path: &str| path_matches(rule, Path::new(path), &places());
        assert!(m("~/.aws/**", "/h/.aws"));
        assert!(m("~/.aws/**", "/h/.aws/credentials"));
        assert!(!m("~/.aws/**", "/h/.awsx"));
        assert!(m("~/.aws", "/h/.aws/credentials"));
        assert!(m("**/.env", "/h/project/a/.env"));
        assert!(!m("**/.env", "/h/project/a/.env.bak"));
        assert!(m("./*.pem", "/h/project/k.pem"));
        assert!(!m("./*.pem", "/h/project/sub/k.pem"));
    }
}
