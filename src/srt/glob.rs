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

/// How a `[...]` class reads: the one point where the readings of the
/// consumers of this matcher differ (each reading is tested below).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Classes {
    /// srt's: the first `]` after the `[` closes the class, so `[]` holds
    /// no member and is text (`[]a]` is the name `[]a]`, as srt 0.0.83
    /// reads it; 0.0.78 matches nothing there). A leading `!` or `^`
    /// negates here; srt itself reads both as members (doc/clients.md,
    /// "Sandbox Runtime: how it reads a glob, measured").
    Srt,
    /// bash's bracket expression: a leading `!` or `^` negates, and a `]`
    /// right after the opening (or after the negation) is a member, so
    /// `[]a]` is `]` or `a`.
    Bash,
}

/// Whether `text` (a path) matches `pattern` as a whole, srt's classes.
pub fn matches(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    at(&p, &t, Classes::Srt)
}

/// Whether one path segment `name` matches the glob segment `glob`: `*` any
/// run, `?` one character, `[...]` one of a set read as `classes` says. A
/// segment holds no `/`, so `**` inside one is `*`.
pub fn segment_matches(glob: &str, name: &str, classes: Classes) -> bool {
    if !glob.contains(['*', '?', '[']) {
        return glob == name;
    }
    let g: Vec<char> = glob.chars().collect();
    let t: Vec<char> = name.chars().collect();
    at(&g, &t, classes)
}

fn at(p: &[char], t: &[char], classes: Classes) -> bool {
    match p.first() {
        None => t.is_empty(),
        Some('*') if p.get(1) == Some(&'*') => {
            // `**/` also matches no directory at all.
            let rest = &p[2..];
            let rest_no_slash = rest.strip_prefix(&['/']).unwrap_or(rest);
            (0..=t.len()).any(|i| at(rest, &t[i..], classes))
                || (0..=t.len())
                    .any(|i| (i == 0 || t[i - 1] == '/') && at(rest_no_slash, &t[i..], classes))
        }
        Some('*') => (0..=t.len())
            .take_while(|&i| i == 0 || t[i - 1] != '/')
            .any(|i| at(&p[1..], &t[i..], classes)),
        Some('?') => t.first().is_some_and(|c| *c != '/') && at(&p[1..], &t[1..], classes),
        Some('[') => match class(p, classes) {
            Some((negated, members, len)) => {
                t.first().is_some_and(|c| in_class(members, *c) != negated)
                    && at(&p[len..], &t[1..], classes)
            }
            // A `[` that opens no class is text.
            None => t.first() == Some(&'[') && at(&p[1..], &t[1..], classes),
        },
        Some(c) => t.first() == Some(c) && at(&p[1..], &t[1..], classes),
    }
}

/// The class `p` starts with (`p[0]` is `[`): whether it is negated, its
/// members (ranges still spelled `a-z`) and its length with both brackets;
/// `None` when the `[` opens no class.
fn class(p: &[char], classes: Classes) -> Option<(bool, &[char], usize)> {
    let negated = matches!(p.get(1), Some('!' | '^'));
    let start = 1 + usize::from(negated);
    let search_from = match classes {
        Classes::Srt => 1,
        Classes::Bash => start + 1,
    };
    let end = p
        .iter()
        .skip(search_from)
        .position(|c| *c == ']')
        .map(|i| i + search_from)?;
    match classes {
        Classes::Srt if end == 1 => None,
        _ => Some((negated, &p[start..end], end + 1)),
    }
}

fn in_class(members: &[char], c: char) -> bool {
    let mut i = 0;
    while i < members.len() {
        if i + 2 < members.len() && members[i + 1] == '-' {
            if members[i] <= c && c <= members[i + 2] {
                return true;
            }
            i += 3;
        } else {
            if members[i] == c {
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

    #[test]
    fn srt_closes_a_class_at_the_first_bracket_and_reads_brackets_holding_nothing_as_text() {
        // srt 0.0.83's parseGlob: `[]` spells no set, so `[]a]` is the name.
        assert!(matches("/h/[]a]", "/h/[]a]"));
        assert!(!matches("/h/[]a]", "/h/a"));
        assert!(!matches("/h/[]a]", "/h/]"));
        assert!(segment_matches("[]a]", "[]a]", Classes::Srt));
        assert!(!segment_matches("[]a]", "a", Classes::Srt));
        // `[!]` closes at once: a negated class of nothing, then `a]`.
        assert!(segment_matches("[!]a]", "xa]", Classes::Srt));
        assert!(!segment_matches("[!]a]", "b", Classes::Srt));
    }

    #[test]
    fn bash_reads_a_bracket_right_after_the_opening_as_a_member() {
        // Each case as `bash -c 'shopt -s extglob; [[ NAME == PATTERN ]]'` answers.
        for (pattern, name, want) in [
            ("[]a]", "]", true),
            ("[]a]", "a", true),
            ("[]a]", "[]a]", false),
            ("[!]a]", "b", true),
            ("[!]a]", "]", false),
            ("[!]a]", "xa]", false),
            ("[^]a]", "b", true),
            ("[x", "[x", true),
            ("[a-]", "-", true),
            ("[a-c]", "b", true),
            ("[!a]", "b", true),
            ("[!a]", "a", false),
        ] {
            assert_eq!(
                segment_matches(pattern, name, Classes::Bash),
                want,
                "{pattern} {name}"
            );
        }
    }
}
