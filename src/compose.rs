//! Structural composition of one source kind's fragments.
//!
//! Objects merge recursively, arrays form a stable de-duplicated union (first
//! occurrence wins), equal scalars agree. Anything else is a conflict that
//! names the JSON pointer and both fragments, because silently picking one
//! value would change a security policy behind the user's back.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::pyjson::{PyNumber, classify};

/// One parsed fragment, in profile order.
#[derive(Debug, Clone)]
pub struct ParsedFragment {
    pub name: String,
    pub path: PathBuf,
    pub value: Value,
}

/// Compose fragments in order. `profile` and `kind` only label errors.
pub fn compose(profile: &str, kind: &str, fragments: &[ParsedFragment]) -> Result<Value> {
    let mut composer = Composer {
        profile,
        kind,
        fragments,
        origin: HashMap::new(),
    };
    let mut acc = Map::new();
    for (index, fragment) in fragments.iter().enumerate() {
        let Value::Object(map) = &fragment.value else {
            // The JSONC parser only returns objects; keep composing safely anyway.
            continue;
        };
        composer.merge_object(&mut acc, map, &mut String::new(), index)?;
    }
    Ok(Value::Object(acc))
}

struct Composer<'a> {
    profile: &'a str,
    kind: &'a str,
    fragments: &'a [ParsedFragment],
    /// JSON pointer -> index of the fragment that first set it.
    origin: HashMap<String, usize>,
}

impl Composer<'_> {
    fn merge_object(
        &mut self,
        acc: &mut Map<String, Value>,
        new: &Map<String, Value>,
        pointer: &mut String,
        index: usize,
    ) -> Result<()> {
        for (key, value) in new {
            let len = pointer.len();
            pointer.push('/');
            push_pointer_token(pointer, key);
            match acc.get_mut(key) {
                None => {
                    self.origin.insert(pointer.clone(), index);
                    acc.insert(key.clone(), dedup_fresh(value));
                }
                Some(existing) => self.merge_value(existing, value, pointer, index)?,
            }
            pointer.truncate(len);
        }
        Ok(())
    }

    fn merge_value(
        &mut self,
        existing: &mut Value,
        new: &Value,
        pointer: &mut String,
        index: usize,
    ) -> Result<()> {
        match (existing, new) {
            (Value::Object(a), Value::Object(b)) => self.merge_object(a, b, pointer, index),
            (Value::Array(a), Value::Array(b)) => {
                let fresh: Vec<&Value> = {
                    let mut seen: HashSet<Key> = a.iter().map(Key::of).collect();
                    b.iter().filter(|item| seen.insert(Key::of(item))).collect()
                };
                a.extend(fresh.into_iter().cloned());
                Ok(())
            }
            (a, b) if type_name(a) != type_name(b) => {
                Err(self.conflict(pointer, index, "values of different types"))
            }
            (a, b) => {
                if equality_key(a) == equality_key(b) {
                    Ok(())
                } else {
                    Err(self.conflict(pointer, index, "different values"))
                }
            }
        }
    }

    fn conflict(&self, pointer: &str, index: usize, what: &str) -> Error {
        let first = self.origin.get(pointer).copied().unwrap_or(0);
        let path = |i: usize| {
            self.fragments
                .get(i)
                .map(|f| f.path.display().to_string())
                .unwrap_or_default()
        };
        Error::Policy(format!(
            "profile '{}', source '{}': {} and {} set {what} at {pointer}; \
             a profile cannot override a value, so make the fragments agree",
            self.profile,
            self.kind,
            path(first),
            path(index),
        ))
    }
}

/// A fragment's own list is de-duplicated too (the reference copies it as is:
/// a documented divergence, see doc/compatibility.md).
fn dedup_fresh(value: &Value) -> Value {
    match value {
        Value::Array(items) => {
            let mut seen = HashSet::with_capacity(items.len());
            Value::Array(
                items
                    .iter()
                    .filter(|v| seen.insert(Key::of(v)))
                    .map(dedup_fresh)
                    .collect(),
            )
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), dedup_fresh(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// A hashable stand-in for Python equality. Strings, by far the most common
/// list entries, are hashed in place; other values through [`equality_key`].
/// The two variants never collide: a top-level string is always `Str`.
#[derive(Hash, PartialEq, Eq)]
enum Key<'a> {
    Str(&'a str),
    Other(String),
}

impl<'a> Key<'a> {
    fn of(v: &'a Value) -> Self {
        match v {
            Value::String(s) => Key::Str(s),
            other => Key::Other(equality_key(other)),
        }
    }
}

/// The JSON type as the reference distinguishes it: booleans, integers and
/// floats are three different types.
fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(n) => match classify(n) {
            PyNumber::Int(_) => "int",
            PyNumber::Float(_) => "float",
        },
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A string equal for two values exactly when Python's `==` says they are
/// equal (so `1`, `1.0` and `true` are one entry in a union, and object key
/// order does not matter).
pub fn equality_key(v: &Value) -> String {
    let mut out = String::new();
    write_key(v, &mut out);
    out
}

fn write_key(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push('n'),
        Value::Bool(b) => out.push_str(if *b { "#1" } else { "#0" }),
        Value::Number(n) => {
            out.push('#');
            match classify(n) {
                PyNumber::Int(text) => out.push_str(&text),
                PyNumber::Float(f) if f.fract() == 0.0 && f.is_finite() => {
                    // Integral floats equal the integer with the same value.
                    out.push_str(&format!("{:.0}", if f == 0.0 { 0.0 } else { f }));
                }
                PyNumber::Float(f) => out.push_str(&format!("{f:e}")),
            }
        }
        Value::String(s) => {
            out.push('s');
            out.push_str(&s.len().to_string());
            out.push(':');
            out.push_str(s);
        }
        Value::Array(items) => {
            out.push('[');
            for item in items {
                write_key(item, out);
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, String)> =
                map.iter().map(|(k, v)| (k, equality_key(v))).collect();
            entries.sort();
            out.push('{');
            for (k, v) in entries {
                out.push_str(&k.len().to_string());
                out.push(':');
                out.push_str(k);
                out.push_str(&v);
                out.push(',');
            }
            out.push('}');
        }
    }
}

/// RFC 6901: `~` becomes `~0`, `/` becomes `~1`.
fn push_pointer_token(pointer: &mut String, key: &str) {
    for c in key.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

#[cfg(test)]
mod tests;
