//! Path spelling rules shared by config.toml and the generators.

mod resolve;
pub mod scratch;

use std::path::{Path, PathBuf};

pub use resolve::{Links, absolute_normalised, resolve_symlinks};

/// The user's home directory, as `$HOME` names it (falling back to the OS).
pub fn home_dir() -> PathBuf {
    match std::env::var_os("HOME") {
        Some(h) if !h.is_empty() => PathBuf::from(h),
        _ => dirs::home_dir().unwrap_or_else(|| PathBuf::from("/")),
    }
}

/// Expand a leading `~` or `~/` to the home directory. Other text is kept as is.
pub fn expand_tilde(text: &str) -> PathBuf {
    if text == "~" {
        return home_dir();
    }
    match text.strip_prefix("~/") {
        Some(rest) => home_dir().join(rest),
        None => PathBuf::from(text),
    }
}

/// Resolve a path written in config.toml: `~` expanded, relative paths joined
/// onto the directory holding config.toml. Spelled as the reference spells
/// paths (see [`tidy`]): `..` is kept as written, nothing is resolved.
pub fn resolve_config_path(text: &str, config_dir: &Path) -> PathBuf {
    let expanded = expand_tilde(text);
    if expanded.is_absolute() {
        tidy(&expanded)
    } else {
        tidy(&config_dir.join(expanded))
    }
}

/// `path` without `.` components, repeated or trailing slashes, as the
/// reference's paths print (`./alt/./x.toml` -> `alt/x.toml`); `..` stays,
/// since removing it as text can name a different file behind a symlink.
/// A path that is nothing but `.` stays `.`.
pub fn tidy(path: &Path) -> PathBuf {
    let tidied: PathBuf = path
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect();
    if tidied.as_os_str().is_empty() && !path.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        tidied
    }
}

/// The yolo twin of a target: every suffix replaced by `.yolo` plus the last
/// suffix (`settings.full.json` -> `settings.yolo.json`, `flags` -> `flags.yolo`).
/// Suffixes follow Python's `PurePath.suffixes`, which the reference uses.
pub fn yolo_variant(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (stem, last) = split_suffixes(&name);
    path.with_file_name(format!("{stem}.yolo{last}"))
}

/// (name without any suffix, last suffix with its dot).
fn split_suffixes(name: &str) -> (&str, &str) {
    if name.ends_with('.') {
        return (name, "");
    }
    let leading = name.len() - name.trim_start_matches('.').len();
    let body = &name[leading..];
    match (body.find('.'), body.rfind('.')) {
        (Some(first), Some(last)) => (&name[..leading + first], &name[leading + last..]),
        _ => (name, ""),
    }
}

/// Whether two paths name one file (both resolved when they exist).
pub fn same_file(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yolo_variant_replaces_every_suffix() {
        let y = |p: &str| yolo_variant(Path::new(p)).to_string_lossy().into_owned();
        assert_eq!(y("/a/settings.full.json"), "/a/settings.yolo.json");
        assert_eq!(y("/a/settings.json"), "/a/settings.yolo.json");
        assert_eq!(y("cop.txt"), "cop.yolo.txt");
        assert_eq!(y("/a/flags"), "/a/flags.yolo");
        assert_eq!(y("/a/.flags.txt"), "/a/.flags.yolo.txt");
        assert_eq!(y("/a/x.tar.gz"), "/a/x.yolo.gz");
    }

    #[test]
    fn relative_paths_join_the_config_directory_without_normalising() {
        let dir = Path::new("/etc/twsrt");
        assert_eq!(
            resolve_config_path("x/../out.json", dir),
            PathBuf::from("/etc/twsrt/x/../out.json")
        );
        assert_eq!(
            resolve_config_path("/abs/out.json", dir),
            PathBuf::from("/abs/out.json")
        );
    }

    #[test]
    fn paths_are_tidied_as_the_reference_prints_them() {
        let t = |p: &str| tidy(Path::new(p)).to_string_lossy().into_owned();
        assert_eq!(t("./alt/./conf.toml"), "alt/conf.toml");
        assert_eq!(t("alt//conf.toml/"), "alt/conf.toml");
        assert_eq!(t("a/../b"), "a/../b");
        assert_eq!(t("."), ".");
        assert_eq!(t("/x/./y"), "/x/y");
        assert_eq!(
            resolve_config_path("./out.json", Path::new(".")),
            PathBuf::from("out.json")
        );
    }

    #[test]
    fn tilde_expands_only_at_the_start() {
        let home = home_dir();
        assert_eq!(expand_tilde("~"), home);
        assert_eq!(expand_tilde("~/a"), home.join("a"));
        assert_eq!(expand_tilde("a/~/b"), PathBuf::from("a/~/b"));
    }
}
