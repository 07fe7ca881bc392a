//! Small helpers for TOML text: error positions, conversion of TOML values
//! into JSON values (for the sandbox overrides), and basic strings as the
//! TOML files twsrt writes spell them.

use std::fmt::Write as _;

use serde_json::{Map, Number, Value};
use toml_edit::Item;

use crate::text_position::line_column;

/// Parse a TOML document. A syntax error names the file, line and column and
/// the parser's description, never the offending line: in a file twsrt does
/// not own, that line may hold a credential.
pub fn parse_document(
    text: &str,
    path: &std::path::Path,
) -> crate::error::Result<toml_edit::DocumentMut> {
    text.parse::<toml_edit::DocumentMut>()
        .map_err(|e| syntax_error(text, path, &e))
}

/// [`parse_document`] for reading only: every key and value keeps its
/// span, so an error can point at it ([`span_position`]).
pub fn parse_spanned<'t>(
    text: &'t str,
    path: &std::path::Path,
) -> crate::error::Result<toml_edit::Document<&'t str>> {
    toml_edit::Document::parse(text).map_err(|e| syntax_error(text, path, &e))
}

/// The line and column where `span` starts in `text`.
pub fn span_position(text: &str, span: Option<std::ops::Range<usize>>) -> Option<(usize, usize)> {
    span.map(|s| line_column(text, s.start))
}

fn syntax_error(
    text: &str,
    path: &std::path::Path,
    e: &toml_edit::TomlError,
) -> crate::error::Error {
    let (line, column) = line_column(text, e.span().map(|s| s.start).unwrap_or(0));
    crate::error::Error::TomlSyntax {
        path: path.to_path_buf(),
        line,
        column,
        message: e.message().trim().to_string(),
    }
}

/// Convert a TOML item into JSON. `None` when it holds something JSON has no
/// type for (dates and times), or a float that is not finite.
pub fn toml_to_json(item: &Item) -> Option<Value> {
    match item {
        Item::None => None,
        Item::Value(v) => value_to_json(v),
        Item::Table(t) => table_like_to_json(t.iter()),
        Item::ArrayOfTables(a) => a
            .iter()
            .map(|t| table_like_to_json(t.iter()))
            .collect::<Option<Vec<_>>>()
            .map(Value::Array),
    }
}

fn table_like_to_json<'a>(entries: impl Iterator<Item = (&'a str, &'a Item)>) -> Option<Value> {
    let mut map = Map::new();
    for (k, v) in entries {
        map.insert(k.to_string(), toml_to_json(v)?);
    }
    Some(Value::Object(map))
}

fn value_to_json(v: &toml_edit::Value) -> Option<Value> {
    use toml_edit::Value as T;
    Some(match v {
        T::String(s) => Value::String(s.value().clone()),
        T::Integer(i) => Value::Number(Number::from(*i.value())),
        T::Float(f) => {
            let f = *f.value();
            if !f.is_finite() {
                return None;
            }
            // Debug keeps a fraction or exponent (8080.0, 1e16), so the JSON
            // number stays a float and pyjson prints it the way Python does.
            let text = format!("{f:?}");
            Value::Number(serde_json::from_str(&text).ok()?)
        }
        T::Boolean(b) => Value::Bool(*b.value()),
        T::Datetime(_) => return None,
        T::Array(a) => Value::Array(a.iter().map(value_to_json).collect::<Option<Vec<_>>>()?),
        T::InlineTable(t) => {
            let mut map = Map::new();
            for (k, v) in t.iter() {
                map.insert(k.to_string(), value_to_json(v)?);
            }
            Value::Object(map)
        }
    })
}

/// A TOML basic string (Codex config.toml and rules, the Gemini policy): `"`, `\` and control characters escaped, everything
/// else (non-ASCII included) as it is.
pub fn basic_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    push_basic_string(&mut out, text);
    out
}

/// [`basic_string`] appended to `out`.
pub fn push_basic_string(out: &mut String, text: &str) {
    out.push('"');
    // Runs of characters that need no escape are copied whole.
    let mut run = 0;
    for (i, c) in text.char_indices() {
        let escape = match c {
            '"' => "\\\"",
            '\\' => "\\\\",
            '\u{8}' => "\\b",
            '\t' => "\\t",
            '\n' => "\\n",
            '\u{c}' => "\\f",
            '\r' => "\\r",
            c if (c as u32) < 0x20 || c == '\u{7f}' => "",
            _ => continue,
        };
        out.push_str(&text[run..i]);
        if escape.is_empty() {
            let _ = write!(out, "\\u{:04x}", c as u32);
        } else {
            out.push_str(escape);
        }
        run = i + c.len_utf8();
    }
    out.push_str(&text[run..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_escape_quotes_backslashes_and_controls_only() {
        assert_eq!(basic_string("q\"uo\\te"), r#""q\"uo\\te""#);
        assert_eq!(basic_string("\u{8}\t\n\u{c}\r"), r#""\b\t\n\f\r""#);
        assert_eq!(
            basic_string("\u{1}\u{1b}\u{1f}\u{7f}"),
            r#""\u0001\u001b\u001f\u007f""#
        );
        assert_eq!(basic_string("/ü/😀"), "\"/ü/😀\"");
    }

    #[test]
    fn run_copying_escapes_like_character_by_character() {
        let slow = |text: &str| {
            let mut out = String::from("\"");
            for c in text.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\u{8}' => out.push_str("\\b"),
                    '\t' => out.push_str("\\t"),
                    '\n' => out.push_str("\\n"),
                    '\u{c}' => out.push_str("\\f"),
                    '\r' => out.push_str("\\r"),
                    c if (c as u32) < 0x20 || c == '\u{7f}' => {
                        out.push_str(&format!("\\u{:04x}", c as u32))
                    }
                    c => out.push(c),
                }
            }
            out.push('"');
            out
        };
        let pieces = [
            "",
            "a",
            "\"",
            "\\",
            "\n",
            "\u{1}",
            "\u{7f}",
            "\u{e9}",
            "\u{1F600}",
            "x y",
            "\u{2028}",
        ];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let text = format!("{a}{b}{c}");
                    assert_eq!(basic_string(&text), slow(&text), "{text:?}");
                }
            }
        }
    }

    #[test]
    fn toml_values_convert_with_their_types() {
        let doc: toml_edit::DocumentMut = "a = 1\nb = 2.0\nc = true\nd = [\"x\"]\ne = { f = 1 }\n"
            .parse()
            .unwrap();
        let json = toml_to_json(doc.as_item()).unwrap();
        assert_eq!(
            crate::pyjson::to_pretty(&json),
            "{\n  \"a\": 1,\n  \"b\": 2.0,\n  \"c\": true,\n  \"d\": [\n    \"x\"\n  ],\n  \"e\": {\n    \"f\": 1\n  }\n}"
        );
        let dates: toml_edit::DocumentMut = "a = 1979-05-27".parse().unwrap();
        assert!(toml_to_json(dates.as_item()).is_none());
    }
}
