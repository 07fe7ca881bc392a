//! Which spellings a path entry may take: `~`, `~/...`, an absolute path or
//! a relative one, written as the file system names it. Neither srt nor the
//! agents expand a variable or trim a name, so a spelling that reads like a
//! path to a person but names another file is refused, with the form to
//! write instead:
//! - a shell or Windows variable (`$HOME`, `${HOME}`, `%USERPROFILE%`): srt
//!   reads `$HOME/.aws` as a folder named `$HOME` (the fix for a home
//!   variable at the start is `~`);
//! - whitespace at either end, a control or format character (Unicode
//!   categories Cc and Cf: a tab, a zero-width space), a line or paragraph
//!   separator (Zl, Zp), and a space other than U+0020 (Zs) anywhere;
//! - a spelling that is not in Unicode normalisation form C (NFC): the same
//!   name to a person, another byte string to the file system.
//!
//! [`path_problem`] says what is wrong and the canonical spelling; the
//! source kinds turn it into an error at the entry's `file:line:column`.

use unicode_normalization::{UnicodeNormalization, is_nfc};

/// What is wrong with a spelling, and the spelling to write instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub what: String,
    pub fix: String,
}

/// The variables that stand for the home directory (`~` instead).
const HOME_VARIABLES: [&str; 3] = ["HOME", "USERPROFILE", "HOMEPATH"];

/// What is wrong with the path entry `path`, or `None` for a canonical one.
pub fn path_problem(path: &str) -> Option<Problem> {
    if simple_ascii(path) {
        return None;
    }
    let fix = canonical_spelling(path);
    let what = if let Some(name) = variable(path) {
        format!(
            "{name} is a variable; srt and the agents do not expand it, they read it as a \
             folder name"
        )
    } else if path.trim() != path {
        "it has whitespace at the start or the end, which srt and the agents keep as part \
         of the name"
            .to_string()
    } else if let Some(c) = path.chars().find(|c| invisible(*c)) {
        format!(
            "it holds {}, an invisible character that is part of the name to srt",
            code_point(c)
        )
    } else if !is_nfc(path) {
        "it is not in Unicode normalisation form C (NFC): the same name to a person, another \
         file to the file system"
            .to_string()
    } else {
        return None;
    };
    Some(Problem { what, fix })
}

/// An ASCII text with spaces only inside, no control character, no `$`
/// and no `%`.
fn simple_ascii(path: &str) -> bool {
    path.bytes()
        .all(|b| (0x20..0x7f).contains(&b) && b != b'$' && b != b'%')
        && !path.starts_with(' ')
        && !path.ends_with(' ')
}

/// The first variable reference in `path`, as written.
fn variable(path: &str) -> Option<&str> {
    references(path)
        .next()
        .map(|(start, end, _)| &path[start..end])
}

/// Each `$NAME`, `${NAME}` and `%NAME%` of `text`: its byte range and name.
fn references(text: &str) -> impl Iterator<Item = (usize, usize, &str)> {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() {
            let start = at;
            at += 1;
            let found = match bytes[start] {
                b'$' if bytes.get(start + 1) == Some(&b'{') => text[start + 2..]
                    .find('}')
                    .map(|close| (start + 2, start + 2 + close, start + 3 + close)),
                b'$' => Some((start + 1, name_end(bytes, start + 1), 0)),
                b'%' => {
                    let end = name_end(bytes, start + 1);
                    (bytes.get(end) == Some(&b'%')).then_some((start + 1, end, end + 1))
                }
                _ => None,
            };
            if let Some((name_start, name_end, mut end)) = found {
                let name = &text[name_start..name_end];
                if end == 0 {
                    end = name_end;
                }
                if is_name(name) {
                    at = end;
                    return Some((start, end, name));
                }
            }
        }
        None
    })
}

fn name_end(bytes: &[u8], from: usize) -> usize {
    from + bytes[from..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count()
}

fn is_name(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The spelling to write instead: a home variable at the start is `~`,
/// whitespace at the ends goes, invisible characters go (a space other than
/// U+0020 inside becomes one), and the rest is put in NFC.
pub fn canonical_spelling(path: &str) -> String {
    let mut text = path.trim().to_string();
    let home_at_start = references(&text)
        .next()
        .filter(|(start, _, name)| *start == 0 && HOME_VARIABLES.contains(name))
        .map(|(_, end, _)| end);
    if let Some(end) = home_at_start {
        text = format!("~{}", &text[end..]).replace('\\', "/");
    }
    let visible: String = text
        .chars()
        .filter_map(|c| match c {
            c if c != ' ' && is_space_separator(c) => Some(' '),
            c if invisible(c) => None,
            c => Some(c),
        })
        .collect();
    visible.trim().nfc().collect()
}

/// A character that is part of a name to the file system but not seen:
/// Cc, Cf, Zl, Zp, or a Zs other than U+0020.
pub fn invisible(c: char) -> bool {
    c.is_control() || is_format(c) || (c != ' ' && c.is_whitespace())
}

/// Unicode's White_Space characters that are neither controls (Cc) nor
/// the line and paragraph separators: the space separators (Zs).
fn is_space_separator(c: char) -> bool {
    c.is_whitespace() && !c.is_control() && c != '\u{2028}' && c != '\u{2029}'
}

/// The format characters (general category Cf) of Unicode 16.0. std has
/// no test for them; the table is short and changes rarely.
fn is_format(c: char) -> bool {
    const CF: &[(u32, u32)] = &[
        (0x00AD, 0x00AD),
        (0x0600, 0x0605),
        (0x061C, 0x061C),
        (0x06DD, 0x06DD),
        (0x070F, 0x070F),
        (0x0890, 0x0891),
        (0x08E2, 0x08E2),
        (0x180E, 0x180E),
        (0x200B, 0x200F),
        (0x202A, 0x202E),
        (0x2060, 0x2064),
        (0x2066, 0x206F),
        (0xFEFF, 0xFEFF),
        (0xFFF9, 0xFFFB),
        (0x110BD, 0x110BD),
        (0x110CD, 0x110CD),
        (0x13430, 0x1343F),
        (0x1BCA0, 0x1BCA3),
        (0x1D173, 0x1D17A),
        (0xE0001, 0xE0001),
        (0xE0020, 0xE007F),
    ];
    let n = u32::from(c);
    CF.iter().any(|(lo, hi)| (*lo..=*hi).contains(&n))
}

/// `U+200B` and, for a control or space with a name, its name.
fn code_point(c: char) -> String {
    let name = match c {
        '\t' => " (tab)",
        '\n' => " (line feed)",
        '\r' => " (carriage return)",
        '\u{a0}' => " (no-break space)",
        '\u{200b}' => " (zero-width space)",
        '\u{feff}' => " (zero-width no-break space)",
        _ => "",
    };
    format!("U+{:04X}{name}", u32::from(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(path: &str) -> Option<String> {
        path_problem(path).map(|p| p.fix)
    }

    #[test]
    fn canonical_paths_pass() {
        for ok in [
            "~",
            "~/.aws",
            "/etc/ssl/private",
            "./secrets",
            "**/.env",
            "~/My Documents/x",
            "~/café",
            "~/100%",
            "~/a$",
            "~/$1",
        ] {
            assert_eq!(path_problem(ok), None, "{ok:?}");
        }
    }

    #[test]
    fn each_misspelling_names_the_form_to_write() {
        for (bad, want) in [
            ("$HOME/.aws", "~/.aws"),
            ("${HOME}/.aws", "~/.aws"),
            ("%USERPROFILE%\\.aws", "~/.aws"),
            ("%HOME%/.aws", "~/.aws"),
            ("~/.aws ", "~/.aws"),
            (" ~/.aws", "~/.aws"),
            ("~/.aws\t", "~/.aws"),
            ("~/.aws\u{200b}", "~/.aws"),
            ("~/.a\u{feff}ws", "~/.aws"),
            ("~/my\u{a0}dir", "~/my dir"),
            ("~/a\u{2028}b", "~/ab"),
            ("~/cafe\u{301}", "~/caf\u{e9}"),
        ] {
            assert_eq!(fix(bad).as_deref(), Some(want), "{bad:?}");
        }
        let other = path_problem("/data/$PROJECT/x").map(|p| p.what);
        assert!(other.is_some_and(|w| w.starts_with("$PROJECT is a variable")));
    }

    #[test]
    fn the_format_table_holds_the_invisible_characters_of_the_issue() {
        for c in ['\u{200b}', '\u{200d}', '\u{2060}', '\u{feff}', '\u{ad}'] {
            assert!(invisible(c), "{c:?}");
        }
        for c in ['a', ' ', 'é', '中', '-'] {
            assert!(!invisible(c), "{c:?}");
        }
    }
}
