//! The policy files: config.toml, every `[sources]` output and every
//! registered fragment, of every kind and every profile, and the agents'
//! own guard files (every file a configured `[targets]` key writes, both
//! modes: [`Config::guard_files`]). Every compile adds them to
//! `filesystem.denyWrite`, so a sandboxed agent cannot rewrite the policy
//! that confines it, nor the settings, rules or flags that carry it; no
//! fragment could name them portably.
//!
//! Each file is spelled twice: absolute (relative to the current
//! directory, because srt anchors a relative entry where it is launched,
//! not at config.toml) and with its symlinks followed (the macOS sandbox
//! matches real paths, so a stow-managed `~/.config/twsrt` would otherwise
//! be denied only under a name the kernel never checks). Both spellings use
//! `~/...` under the home directory, like hand-written rules. The absolute
//! spelling is normalised as text, unlike the reference, which keeps `..`
//! segments (`~/work/../x`) that match no real path.

use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::error::{Error, Result};
use crate::paths::{Links, absolute_normalised, home_dir};

/// The spellings of every policy file of `config`, in config order, each once.
pub fn policy_files(config: &Config) -> Result<Vec<String>> {
    let mut files: Vec<&Path> = vec![&config.path];
    for source in &config.sources {
        files.push(&source.output);
        files.extend(source.fragments.iter().map(|f| f.path.as_path()));
    }
    spelled(&files)
}

/// The spellings of the agents' guard files ([`Config::guard_files`]), in
/// registry order, each once.
pub fn guard_files(config: &Config) -> Result<Vec<String>> {
    let files: Vec<&Path> = config.guard_files.iter().map(PathBuf::as_path).collect();
    spelled(&files)
}

fn spelled(files: &[&Path]) -> Result<Vec<String>> {
    let cwd = if files.iter().any(|p| p.is_relative()) {
        std::env::current_dir().map_err(|e| Error::io(Path::new("."), e))?
    } else {
        PathBuf::from("/")
    };
    spellings(files, &cwd, &home_dir())
}

/// Both spellings of each of `files` (see the module docs), each once.
fn spellings(files: &[&Path], cwd: &Path, home: &Path) -> Result<Vec<String>> {
    let mut spellings: Vec<String> = Vec::with_capacity(files.len() * 2);
    // The files share their directories: each is looked up once.
    let mut links = Links::default();
    for file in files {
        let absolute = absolute_normalised(file, cwd);
        let resolved = links.resolve(&absolute);
        for path in [absolute, resolved] {
            let spelled = home_spelling(&path, home)?;
            if !spellings.contains(&spelled) {
                spellings.push(spelled);
            }
        }
    }
    Ok(spellings)
}

/// `path` as a rule: `~/rest` under `home`, else as it is. A path that is
/// not UTF-8 cannot be written into a JSON rule, and leaving it out would
/// leave the file writable, so it is an error.
fn home_spelling(path: &Path, home: &Path) -> Result<String> {
    let spelled = match path.strip_prefix(home) {
        Ok(rest) if rest.as_os_str().is_empty() => Some("~".to_string()),
        Ok(rest) => rest.to_str().map(|r| format!("~/{r}")),
        Err(_) => path.to_str().map(str::to_string),
    };
    spelled.ok_or_else(|| {
        Error::Policy(format!(
            "{}: a policy file path that is not valid UTF-8 cannot be write-denied \
             in the srt settings; move or rename it",
            path.display()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_file_is_denied_absolute_and_resolved() {
        let dir = tempfile::tempdir().unwrap();
        let home = std::fs::canonicalize(dir.path()).unwrap();
        // A stow-style config directory: ~/.config/twsrt -> ~/dotfiles/twsrt.
        std::fs::create_dir_all(home.join("dotfiles/twsrt/srt")).unwrap();
        std::fs::create_dir_all(home.join(".config")).unwrap();
        std::os::unix::fs::symlink("../dotfiles/twsrt", home.join(".config/twsrt")).unwrap();
        std::fs::write(home.join("dotfiles/twsrt/config.toml"), "").unwrap();
        let outside = tempfile::tempdir().unwrap();
        let outside = std::fs::canonicalize(outside.path()).unwrap();
        let config = home.join(".config/twsrt/config.toml");
        let fragment = home.join(".config/twsrt/srt/missing.jsonc");
        let foreign = outside.join("x.jsonc");
        // A relative path with `..`, as `-c ../u/.config/twsrt/config.toml` gives.
        let relative = PathBuf::from("../.config/twsrt/config.toml");
        let files = [config.as_path(), &fragment, &foreign, &relative];
        let got = spellings(&files, &home.join("work"), &home).unwrap();
        assert_eq!(
            got,
            [
                "~/.config/twsrt/config.toml".to_string(),
                "~/dotfiles/twsrt/config.toml".into(),
                "~/.config/twsrt/srt/missing.jsonc".into(),
                "~/dotfiles/twsrt/srt/missing.jsonc".into(),
                foreign.to_str().unwrap().to_string(),
            ]
        );
    }

    #[test]
    fn paths_under_home_are_spelled_with_a_tilde() {
        let home = Path::new("/home/u");
        let s = |p: &str| home_spelling(Path::new(p), home).unwrap();
        assert_eq!(
            s("/home/u/.config/twsrt/config.toml"),
            "~/.config/twsrt/config.toml"
        );
        assert_eq!(s("/home/user2/x"), "/home/user2/x");
        assert_eq!(s("/etc/twsrt/a.jsonc"), "/etc/twsrt/a.jsonc");
    }

    #[test]
    fn a_path_that_is_not_utf8_is_an_error_naming_it() {
        use std::os::unix::ffi::OsStrExt;
        let path = Path::new(std::ffi::OsStr::from_bytes(b"/etc/\xff.jsonc"));
        let err = home_spelling(path, Path::new("/home/u")).unwrap_err();
        assert!(err.to_string().contains("/etc/"), "{err}");
    }
}
