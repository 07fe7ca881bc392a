//! Globs in srt's path lists: which entries srt treats as globs, and how a
//! glob matches a path.
//!
//! srt (0.0.78 to 0.0.83, Linux and macOS) reads a path entry as a glob when
//! it still holds `*`, `?`, `[` or `]` after one trailing `/**` is removed:
//! `~/.aws/**` is the directory `~/.aws`, `~/.aws/**/*.pem` and `**/.env`
//! are globs. On Linux srt drops the globs of its write lists and expands
//! the read globs when the command starts (SECURITY_CONCEPT.md, "Sandbox
//! Runtime versions: 0.0.78 and the newest, measured").
//!
//! In a glob `**` crosses directories (`**/` also matches no directory at
//! all), `*` and `?` stay within one name, `[...]` is a class (`[!...]` or
//! `[^...]` negated).

/// Whether `spelling` holds a glob character at all (`*`, `?`, `[`, `]`),
/// without removing a trailing `/**` first: srt's test on one path segment,
/// and the spelling `twsrt test` skips as "glob pattern" (3.3.3's probes).
pub fn has_glob_chars(spelling: &str) -> bool {
    spelling.contains(['*', '?', '[', ']'])
}

/// A path entry with one trailing `/**` removed (`/**` alone is `/`): the
/// directory srt reads the entry as.
pub fn directory_form(entry: &str) -> &str {
    match entry.strip_suffix("/**") {
        Some("") => "/",
        Some(stem) => stem,
        None => entry,
    }
}

/// Whether srt treats the path entry `entry` as a glob: it holds a glob
/// character once one trailing `/**` is removed.
pub fn is_glob(entry: &str) -> bool {
    has_glob_chars(directory_form(entry))
}

/// Whether `text` (a path) matches `pattern` as a whole.
pub fn matches(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    at(&p, &t)
}

fn at(p: &[char], t: &[char]) -> bool {
    match p.first() {
        None => t.is_empty(),
        Some('*') if p.get(1) == Some(&'*') => {
            // `**/` also matches no directory at all.
            let rest = &p[2..];
            let rest_no_slash = rest.strip_prefix(&['/']).unwrap_or(rest);
            (0..=t.len()).any(|i| at(rest, &t[i..]))
                || (0..=t.len()).any(|i| (i == 0 || t[i - 1] == '/') && at(rest_no_slash, &t[i..]))
        }
        Some('*') => (0..=t.len())
            .take_while(|&i| i == 0 || t[i - 1] != '/')
            .any(|i| at(&p[1..], &t[i..])),
        Some('?') => t.first().is_some_and(|c| *c != '/') && at(&p[1..], &t[1..]),
        Some('[') => match p.iter().position(|c| *c == ']') {
            Some(end) if end > 1 => {
                let class = &p[1..end];
                let (negate, class) = match class.first() {
                    Some('!' | '^') => (true, &class[1..]),
                    _ => (false, class),
                };
                t.first().is_some_and(|c| in_class(class, *c) != negate)
                    && at(&p[end + 1..], &t[1..])
            }
            _ => t.first() == Some(&'[') && at(&p[1..], &t[1..]),
        },
        Some(c) => t.first() == Some(c) && at(&p[1..], &t[1..]),
    }
}

fn in_class(class: &[char], c: char) -> bool {
    let mut i = 0;
    while i < class.len() {
        if i + 2 < class.len() && class[i + 1] == '-' {
            if class[i] <= c && c <= class[i + 2] {
                return true;
            }
            i += 3;
        } else {
            if class[i] == c {
                return true;
            }
            i += 1;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_glob_is_what_holds_glob_characters_once_the_directory_suffix_is_gone() {
        for glob in [
            "**/.env",
            "~/.aws/**/*.pem",
            "/a/*/b",
            "/a?",
            "/a[b]",
            "/a]",
            "~/x/**/**",
        ] {
            assert!(is_glob(glob), "{glob}");
        }
        for literal in ["~/.aws/**", "/**", "~/.ssh", "./x", "/p/{a,b}"] {
            assert!(!is_glob(literal), "{literal}");
        }
        assert!(has_glob_chars("~/.aws/**") && has_glob_chars("]"));
        assert!(!has_glob_chars("/p/{a,b}"));
        assert_eq!(directory_form("~/.aws/**"), "~/.aws");
        assert_eq!(directory_form("/**"), "/");
        assert_eq!(directory_form("~/x/**/**"), "~/x/**");
        assert_eq!(directory_form("~/x"), "~/x");
    }

    #[test]
    fn double_star_crosses_directories_and_single_star_does_not() {
        assert!(matches("**/.env", "/home/me/work/.env"));
        assert!(matches("**/.env", ".env"));
        assert!(matches("**/*.pem", "/a/b/key.pem"));
        assert!(!matches("**/*.pem", "/a/b/key.pem.bak"));
        assert!(matches("/h/.config/*/token", "/h/.config/gh/token"));
        assert!(!matches("/h/.config/*/token", "/h/.config/a/b/token"));
        assert!(matches("/h/f?le", "/h/file"));
        assert!(!matches("/h/f?le", "/h/f/le"));
        assert!(matches("/h/[a-c]x", "/h/bx"));
        assert!(!matches("/h/[!a-c]x", "/h/bx"));
    }
}
