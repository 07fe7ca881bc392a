//! Whether a denyRead path names an existing regular file: the one place
//! the Claude generator looks at the filesystem while rendering.

use std::path::{Path, PathBuf};

/// `~` (and `~user`) expanded the way a shell would, the path normalised
/// like Python's pathlib (repeated and trailing slashes and `.` segments
/// dropped, `..` kept, which `Path::components` does), then one `stat`
/// that follows symlinks.
pub fn is_existing_file(pattern: &str, home: &Path) -> bool {
    let normal: PathBuf = expand_user(pattern, home).components().collect();
    normal.is_file()
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
}
