//! Equality as the reference decides it: Python's `==` on the values the
//! JSON module builds. `1`, `1.0` and `true` are equal, and object key order
//! does not matter; but booleans, integers and floats are three different
//! types when two fragments set the same key.

use std::hash::Hasher;

use serde_json::Value;

use crate::pyjson::{PyNumber, classify};

/// The JSON type as the reference distinguishes it: booleans, integers and
/// floats are three different types.
pub fn type_name(v: &Value) -> &'static str {
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

/// The hash of `v` under Python equality: equal values hash alike.
/// Strings, by far the most common list entries, are hashed as they are;
/// anything else through its [`equality_key`].
pub fn hash(v: &Value) -> u64 {
    let mut hasher = rustc_hash::FxHasher::default();
    match v {
        Value::String(s) => {
            hasher.write_u8(0);
            hasher.write(s.as_bytes());
        }
        other => {
            hasher.write_u8(1);
            hasher.write(equality_key(other).as_bytes());
        }
    }
    hasher.finish()
}

/// Python's `==` on two values, without building keys for strings.
pub fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(a), Value::String(b)) => crate::bytewise::equal(a.as_bytes(), b.as_bytes()),
        (Value::String(_), _) | (_, Value::String(_)) => false,
        (a, b) => equality_key(a) == equality_key(b),
    }
}
