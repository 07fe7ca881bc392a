//! The registered canonical source kinds. Each kind has its own file with
//! its schema checks (on one parsed fragment), its opposing-action checks (on
//! a profile's fragments, before they are composed) and its translation into
//! rules.

pub mod bash;
pub mod bash_rule;
mod spelling;
pub mod srt;
/// srt's settings schema, kept here for its users (it lives in [`crate::srt::schema`]).
use std::path::Path;

use rustc_hash::FxHashMap;
use serde_json::Value;

use crate::compose::ParsedFragment;
use crate::error::{Error, Result};
use crate::known_keys::Unknown;
use crate::rules::SecurityRule;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SourceKind {
    Srt,
    Bash,
}

impl SourceKind {
    /// Registry order: the order sources are compiled, written and diffed.
    pub const ALL: [SourceKind; 2] = [SourceKind::Srt, SourceKind::Bash];

    pub fn name(self) -> &'static str {
        match self {
            SourceKind::Srt => "srt",
            SourceKind::Bash => "bash",
        }
    }

    /// The output file name when `[sources.<kind>]` sets no `output`
    /// (beside config.toml).
    pub fn default_output(self) -> &'static str {
        match self {
            SourceKind::Srt => "srt-settings.json",
            SourceKind::Bash => "bash-rules.json",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    pub fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|k| k.name()).collect()
    }

    /// JSON pointers of the lists whose order means nothing (`*` matches
    /// every key of an object): the compiled document holds them sorted, so
    /// it does not change when fragments are reordered.
    pub fn set_lists(self) -> &'static [&'static str] {
        match self {
            SourceKind::Srt => &srt::SET_LISTS,
            SourceKind::Bash => &bash::SET_LISTS,
        }
    }

    /// Schema checks on one parsed fragment read from `path`, whose text
    /// is `text` (for the position of an unknown key; `""` gives none).
    /// Unknown keys come first (a misspelt key is the likeliest cause of
    /// any other complaint about its level); `allowed` are the dotted keys
    /// config.toml lets through although the schema does not know them.
    pub fn validate(self, path: &Path, fragment: &Value, allowed: &[String]) -> Result<()> {
        match self {
            SourceKind::Srt => srt::validate(path, fragment, allowed),
            SourceKind::Bash => bash::validate(path, fragment, allowed),
        }
    }

    /// The same value may not be both allowed and denied. Checked on the
    /// fragments as written, before composing them (so this error comes
    /// before a composition conflict, as in twsrt 3.3.3); see [`exclusive`]
    /// for which entry is reported.
    pub fn check_opposing(self, profile: &str, fragments: &[ParsedFragment]) -> Result<()> {
        self.opposing_groups()
            .iter()
            .try_for_each(|lists| exclusive(profile, self, fragments, lists))
    }

    /// Whether the composed document `doc` holds a value in two lists that
    /// oppose each other: exactly when [`SourceKind::check_opposing`] fails
    /// on the fragments it was composed from (each composed list is the
    /// union of the fragments' lists), but without naming the entry.
    pub fn opposed_in(self, doc: &Value) -> bool {
        self.opposing_groups().iter().any(|lists| {
            let entries = lists.iter().map(|list| strings(doc, list).count()).sum();
            let mut list_of: FxHashMap<Text, usize> =
                FxHashMap::with_capacity_and_hasher(entries, Default::default());
            lists.iter().enumerate().any(|(index, list)| {
                strings(doc, list).any(|value| {
                    list_of
                        .insert(Text(value), index)
                        .is_some_and(|before| before != index)
                })
            })
        })
    }

    fn opposing_groups(self) -> &'static [&'static [&'static str]] {
        match self {
            SourceKind::Srt => &srt::OPPOSING,
            SourceKind::Bash => &[&bash::SET_LISTS],
        }
    }

    /// The rules of the composed document `doc`, in order.
    pub fn rules(self, doc: &Value) -> Vec<SecurityRule<'_>> {
        let mut rules = Vec::with_capacity(self.rule_count(doc));
        self.extend_rules(doc, &mut rules);
        rules
    }

    /// [`SourceKind::rules`] appended to `out`, without a list of their own.
    pub fn extend_rules<'d>(self, doc: &'d Value, out: &mut Vec<SecurityRule<'d>>) {
        match self {
            SourceKind::Srt => out.extend(srt::rules(doc)),
            SourceKind::Bash => out.extend(bash::rules(doc)),
        }
    }

    /// How many rules [`SourceKind::rules`] gives, counted without them.
    pub fn rule_count(self, doc: &Value) -> usize {
        match self {
            SourceKind::Srt => srt::rules(doc).count(),
            SourceKind::Bash => bash::rules(doc).count(),
        }
    }
}

/// An unknown-key error for `unknown` of the fragment at `path`, at the
/// position the file writes the key. The file is read again for it: a
/// compile keeps no fragment text once it is parsed (none when the file no
/// longer reads or no longer holds the key).
fn unknown_key(path: &Path, unknown: &Unknown, message: String) -> Error {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let position = crate::fragment::parse_located(&text, path)
        .ok()
        .and_then(|located| {
            located
                .key(&unknown.pointer, &unknown.key)
                .map(|s| (s.line, s.column))
        });
    Error::UnknownKey {
        path: path.to_path_buf(),
        position,
        message,
    }
}

/// A rule list: an array of non-empty strings.
fn string_list(path: &Path, key: &str, value: &Value) -> Result<()> {
    let Some(items) = value.as_array() else {
        return Err(Error::fragment(
            path,
            format!("`{key}` must be a list of strings"),
        ));
    };
    for (i, item) in items.iter().enumerate() {
        match item.as_str() {
            None => {
                return Err(Error::fragment(
                    path,
                    format!("`{key}` must be a list of strings; entry {i} is not a string"),
                ));
            }
            Some("") => {
                return Err(Error::fragment(
                    path,
                    format!("`{key}` entry {i} is an empty pattern"),
                ));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// The strings of the list at `pointer` of `doc`, in order.
fn strings<'d>(doc: &'d Value, pointer: &str) -> impl Iterator<Item = &'d str> + use<'d> {
    doc.pointer(pointer)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

/// `first` and `second` name a list and the fragment file it is in.
pub(crate) fn opposing(
    profile: &str,
    kind: SourceKind,
    value: &str,
    first: (&str, &Path),
    second: (&str, &Path),
) -> Error {
    Error::Policy(format!(
        "profile '{profile}', source '{}': {} is in {} ({}) and in {} ({}); \
         one value cannot be both",
        kind.name(),
        quoted(value),
        first.0,
        first.1.display(),
        second.0,
        second.1.display(),
    ))
}

/// `value` quoted as twsrt 3.3.3 (Python's `repr`) quotes it, so a rule with
/// a backslash or a quote reads the same: `'a\\ b'`, `"it's"`. Escapes the
/// backslash, the quote used, line breaks, tabs and other control or
/// separator characters; everything else is kept.
pub(crate) fn quoted(value: &str) -> String {
    let quote = if value.contains('\'') && !value.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(value.len() + 2);
    out.push(quote);
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() || (c.is_whitespace() && c != ' ') => {
                let n = u32::from(c);
                out.push_str(&match n {
                    0..=0xff => format!("\\x{n:02x}"),
                    0x100..=0xffff => format!("\\u{n:04x}"),
                    _ => format!("\\U{n:08x}"),
                });
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// A value may sit in only one of `lists` (JSON pointers) across
/// `fragments`. The walk goes fragment by fragment and, inside one, list by
/// list in the order given; the first entry whose value was last met in
/// another list is reported, with that other list and the latest fragment
/// that put the value there. This is the order twsrt 3.3.3 reports in, so
/// the same value and files are named.
fn exclusive(
    profile: &str,
    kind: SourceKind,
    fragments: &[ParsedFragment],
    lists: &[&str],
) -> Result<()> {
    let mut last: FxHashMap<&str, (&str, &Path)> = FxHashMap::default();
    for fragment in fragments {
        for &list in lists {
            for value in strings(&fragment.value, list) {
                let here = (list, fragment.path.as_path());
                match last.insert(value, here) {
                    Some(before) if before.0 != list => {
                        let label = |pointer: &str| pointer[1..].replace('/', ".");
                        return Err(opposing(
                            profile,
                            kind,
                            value,
                            (&label(before.0), before.1),
                            (&label(list), here.1),
                        ));
                    }
                    _ => {}
                }
            }
        }
    }
    Ok(())
}

/// A list entry as a map key, compared eight bytes per step
/// ([`crate::bytewise`]): [`SourceKind::opposed_in`] looks up every entry
/// of every composed list.
#[derive(Clone, Copy)]
struct Text<'a>(&'a str);

impl std::hash::Hash for Text<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl PartialEq for Text<'_> {
    fn eq(&self, other: &Self) -> bool {
        crate::bytewise::equal(self.0.as_bytes(), other.0.as_bytes())
    }
}

impl Eq for Text<'_> {}

#[cfg(test)]
mod tests {
    /// Each expected text is what Python's `repr` printed for the input.
    #[test]
    fn values_are_quoted_as_python_repr_quotes_them() {
        for (value, repr) in [
            ("rm", "'rm'"),
            ("a\\ b", r"'a\\ b'"),
            ("it's", r#""it's""#),
            ("say \"hi\"", r#"'say "hi"'"#),
            ("both ' and \"", r#"'both \' and "'"#),
            ("tab\there", r"'tab\there'"),
            ("nl\nx", r"'nl\nx'"),
            ("ünï", "'ünï'"),
            ("\u{1}", r"'\x01'"),
            ("\u{2028}", r"'\u2028'"),
            ("nb\u{a0}sp", r"'nb\xa0sp'"),
        ] {
            assert_eq!(super::quoted(value), repr, "{value:?}");
        }
    }
}
