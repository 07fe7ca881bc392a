//! How canonical path patterns are classified and spelled for Codex.

use std::path::Path;

/// `~/...`, `~user/...` and `/...` name places outside the workspace; every
/// other pattern is relative to each workspace root.
pub fn is_anchored(pattern: &str) -> bool {
    pattern.starts_with('/') || pattern.starts_with('~')
}

/// Whether a pattern is a wildcard pattern in a Codex permissions key: it
/// holds `*`, `?` or `[` anywhere, a trailing `/**` included (braces and a
/// lone `]` are literal). This is Codex's reading, not srt's
/// ([`crate::srt::glob::is_glob`], where `~/.aws/**` is the directory
/// `~/.aws` and a lone `]` is a glob): a key Codex walks as a pattern can
/// be neither a read-only entry nor a workspace root nor a concrete parent
/// to check, whatever srt does with the same spelling, and the Codex files
/// twsrt writes rest on this meaning.
pub fn has_codex_wildcard(pattern: &str) -> bool {
    pattern.contains(['*', '?', '['])
}

/// A relative pattern as a `":workspace_roots"` key: every leading `./` goes,
/// and nothing left means the root itself (`.`).
pub fn workspace_relative(pattern: &str) -> &str {
    let mut rest = pattern;
    while let Some(r) = rest.strip_prefix("./") {
        rest = r;
    }
    if rest.is_empty() { "." } else { rest }
}

/// Whether a relative pattern climbs out of the workspace.
pub fn climbs_out(pattern: &str) -> bool {
    pattern.split('/').any(|part| part == "..")
}

/// `/~/...` is a directory literally called `~` under `/`: almost certainly
/// a typo for `~/...`.
pub fn is_rooted_tilde(pattern: &str) -> bool {
    pattern.starts_with("/~/")
}

/// An absolute or home allowWrite pattern as a concrete workspace root: a
/// final `/**` and trailing slashes are dropped. `None` when what is left is
/// not one concrete directory (`/`, `~`, or a wildcard).
pub fn workspace_root(pattern: &str) -> Option<String> {
    let base = pattern.strip_suffix("/**").unwrap_or(pattern);
    let base = base.trim_end_matches('/');
    if base.is_empty() || base == "~" || has_codex_wildcard(base) {
        None
    } else {
        Some(base.to_string())
    }
}

/// An allowUnixSockets entry as the exact absolute socket path Codex wants:
/// `~` expanded, spelled the way Python's `pathlib` prints a path (repeated
/// slashes and `.` parts removed, no trailing slash). `None` for a relative
/// path, an unknown `~user`, or an existing directory.
pub fn socket_path(entry: &str, home: &Path) -> Option<String> {
    let (root, parts) = pure_path(entry);
    let path = if root.is_empty() && parts.first().is_some_and(|p| p.starts_with('~')) {
        let base = home_of(&parts[0][1..], home)?;
        let mut expanded = base;
        for part in &parts[1..] {
            expanded.push('/');
            expanded.push_str(part);
        }
        let (root, parts) = pure_path(&expanded);
        join(root, &parts)
    } else {
        join(root, &parts)
    };
    if !path.starts_with('/') || Path::new(&path).is_dir() {
        return None;
    }
    Some(path)
}

/// The root (`""`, `/` or `//`) and the parts of a path, as `pathlib` parses
/// them: empty and `.` parts dropped, `..` kept.
fn pure_path(text: &str) -> (&'static str, Vec<&str>) {
    let (root, rest) = if text.starts_with("//") && !text.starts_with("///") {
        ("//", &text[2..])
    } else if text.starts_with('/') {
        ("/", text.trim_start_matches('/'))
    } else {
        ("", text)
    };
    let parts = rest
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    (root, parts)
}

fn join(root: &str, parts: &[&str]) -> String {
    let text = format!("{root}{}", parts.join("/"));
    if text.is_empty() { ".".into() } else { text }
}

/// The home directory of `user` (the current user when empty).
fn home_of(user: &str, home: &Path) -> Option<String> {
    if user.is_empty() {
        return Some(home.to_string_lossy().into_owned());
    }
    let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
    passwd.lines().find_map(|line| {
        let fields: Vec<&str> = line.split(':').collect();
        (fields.len() >= 6 && fields[0] == user).then(|| fields[5].to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codex_wildcards_are_star_question_mark_and_an_opening_bracket() {
        for wild in ["/a/*", "~/x/**", "/a?", "/p/[ab]", "**/.env"] {
            assert!(has_codex_wildcard(wild), "{wild}");
        }
        for literal in ["/p/{a,b}", "/p/a]", "~/.ssh", "./x"] {
            assert!(!has_codex_wildcard(literal), "{literal}");
        }
    }

    #[test]
    fn roots_drop_a_final_double_star_and_slashes() {
        assert_eq!(workspace_root("/opt/data/**").as_deref(), Some("/opt/data"));
        assert_eq!(workspace_root("/q//").as_deref(), Some("/q"));
        assert_eq!(workspace_root("~/dev/").as_deref(), Some("~/dev"));
        assert_eq!(workspace_root("/srv//q/").as_deref(), Some("/srv//q"));
        assert_eq!(workspace_root("/p/{a,b}").as_deref(), Some("/p/{a,b}"));
        assert_eq!(workspace_root("~root/q").as_deref(), Some("~root/q"));
        for unsupported in [
            "/", "//", "~", "~/", "~//", "/**", "~/**", "/a/*", "~/a/**/", "/r/**/**", "/p/a?b",
            "/p/[ab]",
        ] {
            assert_eq!(workspace_root(unsupported), None, "{unsupported}");
        }
    }

    #[test]
    fn relative_patterns_lose_leading_dot_slashes() {
        assert_eq!(workspace_relative("./x"), "x");
        assert_eq!(workspace_relative("././c"), "c");
        assert_eq!(workspace_relative("./"), ".");
        assert_eq!(workspace_relative("./."), ".");
        assert_eq!(workspace_relative(".//d"), "/d");
        assert_eq!(workspace_relative("build/"), "build/");
        assert!(
            climbs_out("a/../b") && climbs_out("..") && !climbs_out("...") && !climbs_out("a..b")
        );
    }

    #[test]
    fn socket_paths_are_spelled_like_pathlib() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        let h = home.to_str().unwrap();
        assert_eq!(socket_path("/tmp/a//b", home).as_deref(), Some("/tmp/a/b"));
        assert_eq!(
            socket_path("/tmp/./a/../b", home).as_deref(),
            Some("/tmp/a/../b")
        );
        assert_eq!(
            socket_path("//tmp/x.sock", home).as_deref(),
            Some("//tmp/x.sock")
        );
        assert_eq!(
            socket_path("///tmp/y.sock", home).as_deref(),
            Some("/tmp/y.sock")
        );
        assert_eq!(
            socket_path("/tmp/z.sock/.", home).as_deref(),
            Some("/tmp/z.sock")
        );
        assert_eq!(socket_path("~/x.sock", home), Some(format!("{h}/x.sock")));
        assert_eq!(
            socket_path("~root/x.sock", home).as_deref(),
            Some("/root/x.sock")
        );
        assert_eq!(socket_path("~", home), None);
        assert_eq!(socket_path("~/", home), None);
        assert_eq!(socket_path("rel.sock", home), None);
        assert_eq!(socket_path("/", home), None);
        assert_eq!(socket_path("~nosuchuserzz/x", home), None);
        std::fs::create_dir(home.join("d")).unwrap();
        assert_eq!(socket_path(&format!("{h}/d/"), home), None);
        assert_eq!(
            socket_path(&format!("{h}/f/"), home),
            Some(format!("{h}/f"))
        );
    }
}
