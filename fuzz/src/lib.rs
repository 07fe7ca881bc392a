//! Helpers shared by the fuzz targets: the input encoding, a fixed config,
//! a compiled policy built from fuzzed rule strings, a POSIX shell word
//! splitter and semantic comparisons of JSON and TOML values.
//!
//! Input encoding (every target): records separated by the byte 0xFF, which
//! never occurs in UTF-8 text, so a record can hold any string (quotes,
//! newlines, NUL and other control characters, non-ASCII). A record that is
//! not valid UTF-8 is read lossily. A rule record is one letter naming the
//! rule's list, then the pattern:
//!
//! | letter | list |
//! |---|---|
//! | `r` | srt filesystem.denyRead |
//! | `w` | srt filesystem.denyWrite |
//! | `W` | srt filesystem.allowWrite |
//! | `n` | srt network.allowedDomains |
//! | `N` | srt network.deniedDomains |
//! | `a` | bash allow |
//! | `k` | bash ask |
//! | `d` | bash deny |
//!
//! Any other first byte picks a list by its value modulo 8.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};
use twsrt::compile::{Canonical, Compiled};
use twsrt::config::Config;
use twsrt::profile::ResolvedProfile;
use twsrt::rules::{Action, Scope, SecurityRule};
use twsrt::source::SourceKind;

pub const SEP: u8 = 0xFF;

/// The input's records, each as text.
pub fn records(data: &[u8]) -> Vec<String> {
    data.split(|b| *b == SEP)
        .map(|r| String::from_utf8_lossy(r).into_owned())
        .collect()
}

const LISTS: [(u8, Scope, Action); 8] = [
    (b'r', Scope::Read, Action::Deny),
    (b'w', Scope::Write, Action::Deny),
    (b'W', Scope::Write, Action::Allow),
    (b'n', Scope::Network, Action::Allow),
    (b'N', Scope::Network, Action::Deny),
    (b'a', Scope::Execute, Action::Allow),
    (b'k', Scope::Execute, Action::Ask),
    (b'd', Scope::Execute, Action::Deny),
];

/// One rule from a record (`None` for an empty record).
pub fn rule(record: &str) -> Option<SecurityRule<'_>> {
    let first = *record.as_bytes().first()?;
    let (scope, action) = LISTS
        .iter()
        .find(|(c, _, _)| *c == first)
        .map(|(_, s, a)| (*s, *a))
        .unwrap_or_else(|| {
            let (_, s, a) = LISTS[usize::from(first) % LISTS.len()];
            (s, a)
        });
    // Drop the whole first character (it may be multi-byte after lossy decoding).
    let pattern = record
        .char_indices()
        .nth(1)
        .map_or("", |(i, _)| &record[i..]);
    Some(SecurityRule {
        scope,
        action,
        pattern,
    })
}

pub fn rules(records: &[String]) -> Vec<SecurityRule<'_>> {
    records.iter().filter_map(|r| rule(r)).collect()
}

pub const DIR: &str = "/nonexistent-twsrt-fuzz";

/// A valid config with every target set (nothing is read or written).
pub fn config() -> Config {
    let text = "schema_version = 1\ndefault_profile = \"p\"\n\
         [sources.srt]\noutput = \"srt.json\"\n[sources.srt.fragments.a]\npath = \"a.jsonc\"\n\
         [sources.bash]\noutput = \"bash.json\"\n[sources.bash.fragments.b]\npath = \"b.jsonc\"\n\
         [profiles.p]\nsrt = [\"a\"]\nbash = [\"b\"]\n\
         [targets]\ncodex_config = \"config.toml\"\ncodex_rules = \"twsrt.rules\"\n\
         copilot_output = \"flags\"\n";
    twsrt::config::parse(text, &Path::new(DIR).join("config.toml")).expect("fixed config")
}

/// A compiled policy holding the composed srt document `srt` (its rule
/// lists are left as given: the targets put their own rules into the `Ctx`,
/// and generators take only the pass-through keys from `srt`).
pub fn compiled(srt: Value) -> Compiled {
    let canonical = |kind: SourceKind, value: Value| {
        Canonical::new(
            kind,
            PathBuf::from(DIR).join(format!("{}.json", kind.name())),
            value,
        )
    };
    Compiled {
        profile: ResolvedProfile {
            name: "p".into(),
            fragments: Vec::new(),
        },
        canonical: vec![
            canonical(SourceKind::Srt, srt),
            canonical(SourceKind::Bash, Value::Object(Map::new())),
        ],
        guard_files: Vec::new(),
    }
}

/// Why a text is not a plain command-line fragment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShellError {
    /// A character a shell would interpret (expansion, glob, operator,
    /// comment, tilde) outside single quotes, at this char index.
    Special(usize, char),
    UnclosedQuote,
    /// NUL cannot be passed in an argument.
    Nul,
}

/// Split text pasted into a POSIX shell as the arguments of one simple
/// command: blanks separate words, `\<newline>` is a line continuation (also
/// at the very end, where the user goes on typing), `\c` is a literal `c`,
/// `'...'` is literal. Only characters that are plain words for a shell are
/// accepted outside single quotes (letters, digits, `-`, `_`, `.`, `/`, `=`,
/// `,`, `:`, `@`, `+`, `%`); anything else outside quotes is an error, so a
/// rendering that lets a value escape its quotes is caught.
pub fn shell_words(text: &str) -> Result<Vec<String>, ShellError> {
    let chars: Vec<char> = text.chars().collect();
    let mut words = Vec::new();
    let mut word = String::new();
    let mut started = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            ' ' | '\t' | '\n' => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            '\\' => match chars.get(i + 1) {
                None => {}
                Some('\n') => i += 1,
                Some(&next) => {
                    started = true;
                    word.push(next);
                    i += 1;
                }
            },
            '\'' => {
                started = true;
                let Some(end) = chars[i + 1..].iter().position(|&c| c == '\'') else {
                    return Err(ShellError::UnclosedQuote);
                };
                word.extend(&chars[i + 1..i + 1 + end]);
                i += end + 1;
            }
            c if c.is_ascii_alphanumeric() || "-_./=,:@+%".contains(c) => {
                started = true;
                word.push(c);
            }
            c => return Err(ShellError::Special(i, c)),
        }
        i += 1;
    }
    if started {
        words.push(word);
    }
    if words.iter().any(|w| w.contains('\0')) {
        return Err(ShellError::Nul);
    }
    Ok(words)
}

/// Python's `shlex.split` (POSIX mode, no comments), written independently of
/// twsrt's own splitter: `None` for an unclosed quote or a trailing backslash.
pub fn shlex_split(text: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut started = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\r' | '\n' => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            '\\' => {
                word.push(chars.next()?);
                started = true;
            }
            '\'' => {
                started = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => word.push(c),
                    }
                }
            }
            '"' => {
                started = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => {
                            let next = chars.next()?;
                            if next != '"' && next != '\\' {
                                word.push('\\');
                            }
                            word.push(next);
                        }
                        c => word.push(c),
                    }
                }
            }
            c => {
                started = true;
                word.push(c);
            }
        }
    }
    if started {
        words.push(word);
    }
    Some(words)
}

/// A TOML item as a canonical string: equal exactly when the two items mean
/// the same TOML data (tables and inline tables alike, key order ignored).
pub fn toml_canon(item: &toml_edit::Item) -> String {
    use toml_edit::Item;
    match item {
        Item::None => "none".into(),
        Item::Value(v) => toml_value_canon(v),
        Item::Table(t) => table_canon(t.iter().map(|(k, v)| (k.to_string(), toml_canon(v)))),
        Item::ArrayOfTables(a) => {
            let items: Vec<String> = a
                .iter()
                .map(|t| table_canon(t.iter().map(|(k, v)| (k.to_string(), toml_canon(v)))))
                .collect();
            format!("[{}]", items.join(","))
        }
    }
}

fn toml_value_canon(v: &toml_edit::Value) -> String {
    use toml_edit::Value as T;
    match v {
        T::String(s) => format!("s{:?}", s.value()),
        T::Integer(i) => format!("i{}", i.value()),
        T::Float(f) => {
            let f = *f.value();
            if f.is_nan() {
                "fnan".into()
            } else {
                format!("f{:?}", f)
            }
        }
        T::Boolean(b) => format!("b{}", b.value()),
        T::Datetime(d) => format!("d{}", d.value()),
        T::Array(a) => {
            let items: Vec<String> = a.iter().map(toml_value_canon).collect();
            format!("[{}]", items.join(","))
        }
        T::InlineTable(t) => {
            table_canon(t.iter().map(|(k, v)| (k.to_string(), toml_value_canon(v))))
        }
    }
}

fn table_canon(entries: impl Iterator<Item = (String, String)>) -> String {
    let mut entries: Vec<(String, String)> = entries.collect();
    entries.sort();
    let inner: Vec<String> = entries
        .into_iter()
        .map(|(k, v)| format!("{k:?}={v}"))
        .collect();
    format!("{{{}}}", inner.join(","))
}

/// The nesting depth of a JSON value (a scalar is 0).
pub fn depth(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(depth).max().unwrap_or(0),
        Value::Object(m) => 1 + m.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// Python equality of two JSON values (see `twsrt::compose::equality_key`).
pub fn py_eq(a: &Value, b: &Value) -> bool {
    twsrt::compose::equality_key(a) == twsrt::compose::equality_key(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_follow_the_shell() {
        assert_eq!(
            shell_words("--a 'x y' \\\n--b 'it'\\''s' \\").unwrap(),
            ["--a", "x y", "--b", "it's"]
        );
        assert_eq!(shell_words("'a\nb'").unwrap(), ["a\nb"]);
        assert!(matches!(
            shell_words("a $(x)"),
            Err(ShellError::Special(2, '$'))
        ));
        assert!(matches!(
            shell_words("'a'b'"),
            Err(ShellError::UnclosedQuote)
        ));
        assert!(matches!(shell_words("'a\0'"), Err(ShellError::Nul)));
    }

    #[test]
    fn shlex_matches_python() {
        assert_eq!(
            shlex_split("a \"b\\$c\" 'd\\e' f\\ g").unwrap(),
            ["a", "b\\$c", "d\\e", "f g"]
        );
        assert_eq!(shlex_split("\"\"").unwrap(), [""]);
        assert!(shlex_split("a\\").is_none());
        assert!(shlex_split("'a").is_none());
    }

    #[test]
    fn records_split_on_ff() {
        assert_eq!(records(b"a\xffb"), ["a", "b"]);
        let r = rule("dgit push").unwrap();
        assert_eq!(
            (r.scope, r.action, r.pattern),
            (Scope::Execute, Action::Deny, "git push")
        );
    }
}
