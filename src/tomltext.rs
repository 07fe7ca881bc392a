//! Small helpers for TOML text: error positions and conversion of TOML values
//! into JSON values (for the sandbox overrides).

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
    text.parse::<toml_edit::DocumentMut>().map_err(|e| {
        let (line, column) = line_column(text, e.span().map(|s| s.start).unwrap_or(0));
        crate::error::Error::TomlSyntax {
            path: path.to_path_buf(),
            line,
            column,
            message: e.message().trim().to_string(),
        }
    })
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

#[cfg(test)]
mod tests {
    use super::*;

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
