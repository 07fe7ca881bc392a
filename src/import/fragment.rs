//! The JSONC text of an imported fragment: the entries of one source kind,
//! each followed by a comment naming where it came from (the file, `~/`
//! under the home directory, and the JSON pointer or line), and a note
//! line above it when the agent reads it differently from how it is
//! written. The text is strict JSONC ([`crate::fragment`]): comments, no
//! trailing commas. Deterministic: same entries, same bytes.

use std::path::Path;

use serde_json::Value;

use super::{Entry, Origin, Put, tilde};
use crate::source::SourceKind;

/// The fragment of `kind` holding `entries` (those of other kinds are
/// skipped), `None` when none is of this kind. `header` is the first
/// comment line (which command wrote it, from which files).
pub fn render(kind: SourceKind, entries: &[Entry], header: &str, home: &Path) -> Option<String> {
    let mut root = Node::default();
    for entry in entries {
        let (pointer, leaf) = match &entry.value {
            Put::Entry(list, text) if list.kind() == kind => {
                (list.pointer(), Leaf::Item(Value::String(text.clone())))
            }
            Put::Setting(pointer, value) if kind == SourceKind::Srt => {
                (pointer.as_str(), Leaf::Setting(value.clone()))
            }
            _ => continue,
        };
        let comment = Comment {
            origin: origins(&entry.origins, home),
            note: entry.note.clone(),
        };
        root.insert(pointer, leaf, comment);
    }
    if root.children.is_empty() {
        return None;
    }
    let mut out = String::new();
    for line in header.lines() {
        out.push_str("// ");
        out.push_str(line);
        out.push('\n');
    }
    root.write_object(&mut out, 0);
    out.push('\n');
    Some(out)
}

/// `FILE POINTER, POINTER` for each file, `; ` between files.
fn origins(origins: &[Origin], home: &Path) -> String {
    let mut files: Vec<(&Path, Vec<&str>)> = Vec::new();
    for origin in origins {
        match files.iter_mut().find(|(f, _)| *f == origin.file.as_path()) {
            Some((_, at)) => at.push(&origin.at),
            None => files.push((&origin.file, vec![&origin.at])),
        }
    }
    let parts: Vec<String> = files
        .iter()
        .map(|(file, at)| format!("{} {}", tilde(file, home), at.join(", ")))
        .collect();
    parts.join("; ")
}

#[derive(Debug, Clone)]
struct Comment {
    origin: String,
    note: Option<String>,
}

#[derive(Debug, Clone)]
enum Leaf {
    /// One entry of a list.
    Item(Value),
    /// A whole value.
    Setting(Value),
}

/// An object of the fragment being built: keys in the order first met,
/// each an object, a list of commented items, or a commented value.
#[derive(Debug, Default)]
struct Node {
    children: Vec<(String, Child)>,
}

#[derive(Debug)]
enum Child {
    Object(Node),
    List(Vec<(Value, Comment)>),
    Value(Value, Comment),
}

impl Node {
    fn insert(&mut self, pointer: &str, leaf: Leaf, comment: Comment) {
        let keys: Vec<&str> = pointer.trim_start_matches('/').split('/').collect();
        let Some((last, parents)) = keys.split_last() else {
            return;
        };
        let mut node = self;
        for key in parents {
            let at = match node.children.iter().position(|(k, _)| k == key) {
                Some(at) => at,
                None => {
                    node.children
                        .push((key.to_string(), Child::Object(Node::default())));
                    node.children.len() - 1
                }
            };
            match &mut node.children[at].1 {
                Child::Object(inner) => node = inner,
                // A value already set where an object is needed: the
                // importers never produce this; the first value wins.
                _ => return,
            }
        }
        let slot = node.children.iter_mut().find(|(k, _)| k == last);
        match (slot, leaf) {
            (Some((_, Child::List(items))), Leaf::Item(value)) => items.push((value, comment)),
            (None, Leaf::Item(value)) => node
                .children
                .push((last.to_string(), Child::List(vec![(value, comment)]))),
            (None, Leaf::Setting(value)) => node
                .children
                .push((last.to_string(), Child::Value(value, comment))),
            (Some(_), _) => {}
        }
    }

    fn write_object(&self, out: &mut String, depth: usize) {
        out.push_str("{\n");
        let count = self.children.len();
        for (i, (key, child)) in self.children.iter().enumerate() {
            let comma = if i + 1 < count { "," } else { "" };
            let pad = indent(depth + 1);
            if let Child::Value(_, comment) = child {
                write_note(out, &pad, comment);
            }
            out.push_str(&pad);
            out.push_str(&json(&Value::String(key.clone())));
            out.push_str(": ");
            match child {
                Child::Object(node) => {
                    node.write_object(out, depth + 1);
                    out.push_str(comma);
                    out.push('\n');
                }
                Child::List(items) => {
                    write_list(out, items, depth + 1);
                    out.push_str(comma);
                    out.push('\n');
                }
                Child::Value(value, comment) => {
                    out.push_str(&json(value));
                    out.push_str(comma);
                    out.push_str(" // ");
                    out.push_str(&comment.origin);
                    out.push('\n');
                }
            }
        }
        out.push_str(&indent(depth));
        out.push('}');
    }
}

fn write_list(out: &mut String, items: &[(Value, Comment)], depth: usize) {
    out.push_str("[\n");
    let pad = indent(depth + 1);
    for (i, (value, comment)) in items.iter().enumerate() {
        write_note(out, &pad, comment);
        out.push_str(&pad);
        out.push_str(&json(value));
        if i + 1 < items.len() {
            out.push(',');
        }
        out.push_str(" // ");
        out.push_str(&comment.origin);
        out.push('\n');
    }
    out.push_str(&indent(depth));
    out.push(']');
}

fn write_note(out: &mut String, pad: &str, comment: &Comment) {
    for line in comment.note.iter().flat_map(|n| n.lines()) {
        out.push_str(pad);
        out.push_str("// ");
        out.push_str(line);
        out.push('\n');
    }
}

fn indent(depth: usize) -> String {
    "  ".repeat(depth)
}

/// One JSON value on one line.
fn json(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".into())
}
