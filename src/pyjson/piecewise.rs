//! Writers for a document that is not one `serde_json` value: an object
//! written member by member, a list item by item, laid out exactly as
//! [`super::to_pretty`] lays out the same value.
//!
//! Only `src/agent/claude/render.rs` uses this file (it streams the Claude
//! settings document from the composition). It is kept apart so that it can
//! be deleted, with its re-export in `pyjson.rs`, when that module no longer
//! needs it.

use serde_json::Value;

use super::string::{stands_for_itself, write_escaped, write_str};
use super::writer::{newline_indent, write_pretty_at};

/// Appends `json.dumps(v, indent=2)` for a value nested `depth` levels deep
/// (its inner lines are indented one level more than `depth`).
pub fn write_pretty_indented(out: &mut String, v: &Value, depth: usize) {
    write_pretty_at(out, v, depth);
}

/// Whether `s` is written as it is inside a JSON string literal (no
/// character of it needs an escape).
pub fn is_plain(s: &str) -> bool {
    s.chars().all(stands_for_itself)
}

/// [`write_str`] without the quotes: the escaped characters of `s`.
pub fn write_str_body(out: &mut String, s: &str) {
    write_escaped(out, s);
}

/// Writes an object member by member, laid out like `json.dumps(indent=2)`.
pub struct PrettyObject<'o> {
    out: &'o mut String,
    depth: usize,
    empty: bool,
}

impl<'o> PrettyObject<'o> {
    /// Opens an object nested `depth` levels deep.
    pub fn open(out: &'o mut String, depth: usize) -> Self {
        out.push('{');
        PrettyObject {
            out,
            depth,
            empty: true,
        }
    }

    /// Starts the member `key`; write its value (nested `depth + 1` levels
    /// deep) into the returned buffer.
    pub fn key(&mut self, key: &str) -> &mut String {
        if !self.empty {
            self.out.push(',');
        }
        self.empty = false;
        newline_indent(self.out, self.depth + 1);
        write_str(self.out, key);
        self.out.push_str(": ");
        self.out
    }

    pub fn close(self) {
        if !self.empty {
            newline_indent(self.out, self.depth);
        }
        self.out.push('}');
    }
}

/// Writes a list item by item, laid out like `json.dumps(indent=2)`.
pub struct PrettyList<'o> {
    out: &'o mut String,
    depth: usize,
    empty: bool,
}

impl<'o> PrettyList<'o> {
    /// Opens a list nested `depth` levels deep.
    pub fn open(out: &'o mut String, depth: usize) -> Self {
        out.push('[');
        PrettyList {
            out,
            depth,
            empty: true,
        }
    }

    /// Starts the next item; write it into the returned buffer.
    pub fn item(&mut self) -> &mut String {
        if !self.empty {
            self.out.push(',');
        }
        self.empty = false;
        newline_indent(self.out, self.depth + 1);
        self.out
    }

    /// Writes the next item, the string `s`, and returns the buffer.
    pub fn string_item(&mut self, s: &str) -> &mut String {
        let out = self.item();
        write_str(out, s);
        out
    }

    pub fn close(self) {
        if !self.empty {
            newline_indent(self.out, self.depth);
        }
        self.out.push(']');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_list_written_item_by_item_is_json_dumps_of_the_list() {
        let lists = [
            json!([]),
            json!(["a"]),
            json!(["a", "b\"c", 1, "d\u{e9}"]),
            json!([2, "x", [3], "y"]),
        ];
        for list in lists {
            for depth in [0, 1, 3] {
                let mut out = String::new();
                let mut writer = PrettyList::open(&mut out, depth);
                for item in list.as_array().unwrap() {
                    match item {
                        Value::String(s) => {
                            writer.string_item(s);
                        }
                        other => write_pretty_indented(writer.item(), other, depth + 1),
                    }
                }
                writer.close();
                let mut expected = String::new();
                write_pretty_indented(&mut expected, &list, depth);
                assert_eq!(out, expected, "{list} at depth {depth}");
            }
        }
    }

    #[test]
    fn an_object_written_member_by_member_is_json_dumps_of_the_object() {
        let objects = [
            json!({}),
            json!({"a": 1}),
            json!({"k\u{e9}": [1], "b": {"c": null}}),
        ];
        for object in objects {
            for depth in [0, 2] {
                let mut out = String::new();
                let mut writer = PrettyObject::open(&mut out, depth);
                for (key, value) in object.as_object().unwrap() {
                    write_pretty_indented(writer.key(key), value, depth + 1);
                }
                writer.close();
                let mut expected = String::new();
                write_pretty_indented(&mut expected, &object, depth);
                assert_eq!(out, expected, "{object} at depth {depth}");
            }
        }
    }

    #[test]
    fn plain_exactly_when_escaping_changes_nothing() {
        let mut chars: Vec<char> = (0u8..0x80).map(char::from).collect();
        chars.extend(['\u{80}', '\u{e9}', '\u{2028}', '\u{1F600}']);
        for c in chars {
            for text in [c.to_string(), format!("abcdefgh{c}ij")] {
                let mut body = String::new();
                write_str_body(&mut body, &text);
                assert_eq!(is_plain(&text), body == text, "{text:?}");
            }
        }
    }
}
