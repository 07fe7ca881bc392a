//! The two layouts of `json.dumps`: [`to_pretty`] (`indent=2`) and
//! [`to_compact`] (no indent). Keys keep their document order (serde_json's
//! `preserve_order`), as Python's dicts do.

use serde_json::Value;

use super::Out;
use super::number::write_number;
use super::string::write_str;

/// `json.dumps(v, indent=2)`, without a trailing newline.
pub fn to_pretty(v: &Value) -> String {
    let mut out = String::with_capacity(256);
    write_pretty_at(&mut out, v, 0);
    out
}

/// `json.dumps(v)`: one line with `", "` and `": "` separators.
pub fn to_compact(v: &Value) -> String {
    let mut out = String::with_capacity(64);
    write_compact(&mut out, v);
    out
}

fn write_compact<O: Out + ?Sized>(out: &mut O, v: &Value) {
    match v {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_compact(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_str(out, key);
                out.push_str(": ");
                write_compact(out, item);
            }
            out.push('}');
        }
        scalar => write_scalar(out, scalar),
    }
}

/// A line break and `depth` levels of two-space indentation.
fn newline_indent<O: Out + ?Sized>(out: &mut O, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str("  ");
    }
}

/// A container at `depth` as `json.dumps(indent=2)` lays it out: `open`,
/// each item on a line of its own one level deeper (written by `item`,
/// which gets that depth), `close` on a line at `depth`; `open` and `close`
/// together when there are no items.
pub fn write_container<T, O: Out + ?Sized>(
    out: &mut O,
    depth: usize,
    [open, close]: [char; 2],
    items: impl IntoIterator<Item = T>,
    mut item: impl FnMut(&mut O, T, usize),
) {
    out.push(open);
    let mut empty = true;
    for each in items {
        if !empty {
            out.push(',');
        }
        empty = false;
        newline_indent(out, depth + 1);
        item(out, each, depth + 1);
    }
    if !empty {
        newline_indent(out, depth);
    }
    out.push(close);
}

/// `"key": ` of an object member.
pub fn write_key<O: Out + ?Sized>(out: &mut O, key: &str) {
    write_str(out, key);
    out.push_str(": ");
}

/// Appends `json.dumps(v, indent=2)` for a value nested `depth` levels deep
/// (its inner lines are indented one level more than `depth`).
pub fn write_pretty_at<O: Out + ?Sized>(out: &mut O, v: &Value, depth: usize) {
    match v {
        Value::Array(items) => write_container(out, depth, ['[', ']'], items, |out, item, d| {
            write_pretty_at(out, item, d)
        }),
        Value::Object(map) => write_container(out, depth, ['{', '}'], map, |out, (k, v), d| {
            write_key(out, k);
            write_pretty_at(out, v, d);
        }),
        scalar => write_scalar(out, scalar),
    }
}

/// A value that is not a container. Both writers match containers first;
/// the container arm only keeps this match total.
fn write_scalar<O: Out + ?Sized>(out: &mut O, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => write_str(out, s),
        Value::Array(_) | Value::Object(_) => write_compact(out, v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse_fixture(text: &str) -> Value {
        crate::fragment::parse(text, std::path::Path::new("fixture.jsonc")).expect("fixture parses")
    }

    #[test]
    fn reference_example_document() {
        // `"x": {...}` written by the reference into ~/.srt-settings.json.
        let v = parse_fixture(
            r#"{"enabled": true, "x": {"f":[0.1, 1e3, 1e-7, 1e16, 123456789012345678901234567890, -0, -0.0, 2.5E300], "s": "é😀\u0001\t/\"\\"}}"#,
        );
        let expected = r#"{
  "enabled": true,
  "x": {
    "f": [
      0.1,
      1000.0,
      1e-07,
      1e+16,
      123456789012345678901234567890,
      0,
      -0.0,
      2.5e+300
    ],
    "s": "\u00e9\ud83d\ude00\u0001\t/\"\\"
  }
}"#;
        assert_eq!(to_pretty(&v), expected);
    }

    #[test]
    fn reference_numbers_fixture() {
        let input = include_str!("../../tests/fixtures/pyjson/numbers.jsonc");
        let expected = include_str!("../../tests/fixtures/pyjson/numbers.json");
        let mut out = to_pretty(&parse_fixture(input));
        out.push('\n');
        if out != expected {
            for (got, want) in out.lines().zip(expected.lines()) {
                assert_eq!(got, want);
            }
        }
        assert_eq!(out, expected);
    }

    #[test]
    fn reference_strings_fixture() {
        let input = include_str!("../../tests/fixtures/pyjson/strings.jsonc");
        let expected = include_str!("../../tests/fixtures/pyjson/strings.json");
        let mut out = to_pretty(&parse_fixture(input));
        out.push('\n');
        assert_eq!(out, expected);
    }

    #[test]
    fn empty_containers_and_scalars() {
        assert_eq!(to_pretty(&json!({})), "{}");
        assert_eq!(to_pretty(&json!([])), "[]");
        assert_eq!(
            to_pretty(&json!({"a": {}, "b": []})),
            "{\n  \"a\": {},\n  \"b\": []\n}"
        );
        assert_eq!(to_pretty(&json!([[]])), "[\n  []\n]");
        assert_eq!(to_pretty(&json!(null)), "null");
        assert_eq!(to_pretty(&json!(true)), "true");
        assert_eq!(to_pretty(&json!("x")), "\"x\"");
        assert_eq!(to_pretty(&json!(7)), "7");
    }

    #[test]
    fn nested_layout() {
        let v = json!({"permissions": {"deny": ["a", "b"], "allow": []}, "n": [1, {"k": null}]});
        let expected = "{\n  \"permissions\": {\n    \"deny\": [\n      \"a\",\n      \"b\"\n    ],\n    \"allow\": []\n  },\n  \"n\": [\n    1,\n    {\n      \"k\": null\n    }\n  ]\n}";
        assert_eq!(to_pretty(&v), expected);
    }

    #[test]
    fn compact_layout() {
        let v = json!({"a": [1, "x", {"b": []}], "c": {}, "d": null});
        assert_eq!(
            to_compact(&v),
            r#"{"a": [1, "x", {"b": []}], "c": {}, "d": null}"#
        );
        assert_eq!(to_compact(&json!(["xy", "z"])), r#"["xy", "z"]"#);
        assert_eq!(to_compact(&json!([])), "[]");
    }

    #[test]
    fn keys_are_escaped_too() {
        assert_eq!(
            to_pretty(&json!({"k\u{e9}y\n": 1})),
            "{\n  \"k\\u00e9y\\n\": 1\n}"
        );
    }

    #[test]
    fn deep_nesting_round_trips() {
        let depth = 500;
        let text = format!("{{\"a\":{}{}}}", "[".repeat(depth), "]".repeat(depth));
        let out = to_pretty(&parse_fixture(&text));
        assert_eq!(out.lines().count(), 2 * depth + 1);
        assert_eq!(to_compact(&parse_fixture(&text)), text.replace(':', ": "));
    }

    #[test]
    fn large_document_is_fast_enough() {
        let mut map = serde_json::Map::new();
        for i in 0..64_000 {
            map.insert(format!("k{i}"), json!([format!("v\u{e9}{i}"), i, 0.5]));
        }
        let v = Value::Object(map);
        let out = to_pretty(&v);
        assert!(out.starts_with("{\n  \"k0\": [\n    \"v\\u00e90\",\n    0,\n    0.5\n  ],"));
        assert!(out.ends_with("  ]\n}"));
    }
}
