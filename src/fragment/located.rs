//! A fragment parsed together with where its strings are, for tools that
//! point at entries (the doctor): every string literal (object keys and
//! values alike) with the JSON pointer of its container and its line and
//! column, and the values a `// doctor-ignore` comment silences.
//!
//! The parse is the same strict one as [`super::parse`]: the positions are
//! collected from the syntax tree of a text that passed every check.

use std::collections::HashSet;
use std::path::Path;
use std::rc::Rc;

use jsonc_parser::ast;
use jsonc_parser::common::Ranged;
use serde_json::Value;

use super::parse_inner;
use crate::error::Result;

/// One string literal of a fragment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocatedString {
    /// The JSON pointer of the object or array holding it (`/filesystem/denyRead`).
    pub container: String,
    /// The array index, or `None` for an object key or an object member's value.
    pub index: Option<usize>,
    /// Whether this literal is an object key.
    pub is_key: bool,
    pub value: String,
    /// 1-based line and character column of its opening quote.
    pub line: usize,
    pub column: usize,
}

#[derive(Debug, Clone)]
pub struct Located {
    pub value: Value,
    /// Every string literal, in text order.
    pub strings: Vec<LocatedString>,
    /// The string values (not keys) that share a line with a
    /// `// doctor-ignore` comment. A value is silenced wherever it occurs in
    /// the fragment, also when the line holds a key as well.
    pub ignored: HashSet<String>,
}

impl Located {
    /// The array elements of the list at `pointer`, in order.
    pub fn list(&self, pointer: &str) -> impl Iterator<Item = &LocatedString> {
        let pointer = pointer.to_string();
        self.strings
            .iter()
            .filter(move |s| s.index.is_some() && s.container == pointer)
    }

    /// Where the key `name` of the object at `container` is written.
    pub fn key(&self, container: &str, name: &str) -> Option<&LocatedString> {
        self.strings
            .iter()
            .find(|s| s.is_key && s.container == container && s.value == name)
    }
}

/// [`super::parse`], keeping the positions of every string literal. While
/// positions are kept ([`super::keep_positions`]) the parse is recorded, and
/// a text already recorded at `path` is not parsed again.
pub fn parse_located(text: &str, path: &Path) -> Result<Rc<Located>> {
    let text = crate::bom::strip(text);
    if let Some(located) = super::kept::recorded(path, text) {
        return Ok(located);
    }
    let located = Rc::new(parse_fresh(text, path)?);
    super::kept::record(path, text, &located);
    Ok(located)
}

fn parse_fresh(text: &str, path: &Path) -> Result<Located> {
    let mut raw: Vec<(String, Option<usize>, bool, String, usize)> = Vec::new();
    let value = parse_inner(text, &super::strict_options(), &mut |object| {
        walk_object(object, "", &mut raw)
    })
    .map_err(|err| super::jsonc_error(text, path, err))?;
    let lines = LineIndex::new(text);
    let ignore_lines = ignore_comment_lines(text, &lines);
    let mut ignored = HashSet::new();
    let strings = raw
        .into_iter()
        .map(|(container, index, is_key, value, pos)| {
            let (line, column) = lines.line_column(text, pos);
            if !is_key && ignore_lines.contains(&line) {
                ignored.insert(value.clone());
            }
            LocatedString {
                container,
                index,
                is_key,
                value,
                line,
                column,
            }
        })
        .collect();
    Ok(Located {
        value,
        strings,
        ignored,
    })
}

type Raw = Vec<(String, Option<usize>, bool, String, usize)>;

fn walk_object(object: &ast::Object<'_>, pointer: &str, out: &mut Raw) {
    for prop in &object.properties {
        let ast::ObjectPropName::String(name) = &prop.name else {
            continue;
        };
        out.push((
            pointer.to_string(),
            None,
            true,
            name.value.to_string(),
            name.range.start,
        ));
        let child = format!("{pointer}/{}", escape_token(&name.value));
        walk_value(&prop.value, pointer, None, &child, out);
    }
}

/// One value inside `container` (at `index` for an array element); `own`
/// is its own pointer, for the containers it holds.
fn walk_value(
    value: &ast::Value<'_>,
    container: &str,
    index: Option<usize>,
    own: &str,
    out: &mut Raw,
) {
    match value {
        ast::Value::StringLit(lit) => out.push((
            container.to_string(),
            index,
            false,
            lit.value.to_string(),
            lit.range().start,
        )),
        ast::Value::Object(object) => walk_object(object, own, out),
        ast::Value::Array(array) => {
            for (i, element) in array.elements.iter().enumerate() {
                walk_value(element, own, Some(i), &format!("{own}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// A JSON pointer reference token (RFC 6901).
fn escape_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The lines holding a `//` comment whose text starts, after blanks, with
/// `doctor-ignore` (a reason may follow).
fn ignore_comment_lines(text: &str, lines: &LineIndex) -> HashSet<usize> {
    let bytes = text.as_bytes();
    let mut found = HashSet::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i = string_end(bytes, i + 1),
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                let end = bytes[i..]
                    .iter()
                    .position(|&b| b == b'\n' || b == b'\r')
                    .map_or(bytes.len(), |n| i + n);
                if text[i + 2..end].trim_start().starts_with("doctor-ignore") {
                    found.insert(lines.line_column(text, i).0);
                }
                i = end;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |n| i + 2 + n + 2);
            }
            _ => i += 1,
        }
    }
    found
}

/// The offset just past the closing quote of a string whose body starts at `from`.
fn string_end(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return i + 1,
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// Line starts, so each position costs a binary search instead of a scan
/// from the top of the file (a 16,000-entry fragment stays linear).
struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
                starts.push(i + 1);
            }
        }
        LineIndex { starts }
    }

    /// The same numbers as [`crate::text_position::line_column`], for a char-boundary `pos`.
    fn line_column(&self, text: &str, pos: usize) -> (usize, usize) {
        let line = self.starts.partition_point(|&s| s <= pos);
        let start = self.starts[line - 1];
        let column = text.get(start..pos).map_or(1, |s| s.chars().count() + 1);
        (line, column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn located(text: &str) -> Rc<Located> {
        parse_located(text, Path::new("f.jsonc")).unwrap()
    }

    #[test]
    fn list_entries_carry_their_line_and_column() {
        let l = located(
            "{\n  \"filesystem\": {\n    \"denyRead\": [\"~/.a\",\n      \"é/b\"]\n  }\n}\n",
        );
        let got: Vec<_> = l
            .list("/filesystem/denyRead")
            .map(|s| (s.value.as_str(), s.line, s.column))
            .collect();
        assert_eq!(got, [("~/.a", 3, 18), ("é/b", 4, 7)]);
        let key = l.key("/filesystem", "denyRead").unwrap();
        assert_eq!((key.line, key.column), (3, 5));
    }

    #[test]
    fn positions_agree_with_line_column_also_after_crlf_and_lone_cr() {
        use crate::text_position::line_column;
        let text = "{\r\n\"a\": [\"x\",\r\"y\"],\n \"b\": \"z\"}";
        let l = located(text);
        for s in &l.strings {
            let pos = text.find(&format!("\"{}\"", s.value)).unwrap();
            assert_eq!((s.line, s.column), line_column(text, pos), "{}", s.value);
        }
    }

    #[test]
    fn an_ignore_comment_silences_every_value_on_its_line_keys_included() {
        let l = located(
            "{\n  \"deny\": [\"rm\", // doctor-ignore: reviewed\n    \"sudo\", \"dd\" //doctor-ignore\n  , \"kill\"],\n  \"ask\": [\"x\"] // doctor-ignored-not\n}\n",
        );
        let mut got: Vec<_> = l.ignored.iter().map(String::as_str).collect();
        got.sort_unstable();
        // `doctor-ignored-not` still starts with the marker: like the reference's
        // pattern it is a prefix match.
        assert_eq!(got, ["dd", "rm", "sudo", "x"]);
    }

    #[test]
    fn comment_markers_inside_strings_and_block_comments_do_not_count() {
        let l = located(
            "{\n  \"deny\": [\"a // doctor-ignore\", \"b\"], /* // doctor-ignore */\n  \"ask\": [\"c\"]\n}\n",
        );
        assert!(l.ignored.is_empty(), "{:?}", l.ignored);
    }

    #[test]
    fn the_strict_parse_errors_are_kept() {
        let err = parse_located("{\"a\": [1,]}", Path::new("f.jsonc")).unwrap_err();
        assert!(err.to_string().contains("f.jsonc:1:"), "{err}");
    }
}
