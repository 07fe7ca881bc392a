//! Strict JSONC parsing of arbitrary text.
//!
//! Properties: no panic; an accepted text has an object root, prints (the
//! canonical file's bytes) as JSON that parses back (strictly and with
//! serde_json) and prints the same again; errors point inside the text; and
//! the parser agrees with the reference's method (blank the comments, hand the
//! rest to a JSON parser) except for the documented refusals (duplicate keys,
//! overflowing floats, over-long integers, deep nesting).
#![no_main]

use std::collections::HashSet;
use std::path::Path;

use libfuzzer_sys::fuzz_target;
use serde::de::{Deserialize, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use twsrt::error::Error;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check(text);
});

fn check(text: &str) {
    let path = Path::new("f.jsonc");
    let parsed = twsrt::fragment::parse(text, path);
    match &parsed {
        Ok(value) => {
            assert!(value.is_object(), "root is not an object");
            let pretty = twsrt::pyjson::to_pretty(value);
            let again = twsrt::fragment::parse(&pretty, path)
                .unwrap_or_else(|e| panic!("printed JSON does not parse back: {e}\n{pretty}"));
            assert_eq!(
                twsrt::pyjson::to_pretty(&again),
                pretty,
                "printing is not stable"
            );
            if twsrt_fuzz::depth(value) < 120 {
                let strict: Value = serde_json::from_str(&pretty)
                    .unwrap_or_else(|e| panic!("printed JSON is not JSON: {e}\n{pretty}"));
                assert!(
                    twsrt_fuzz::py_eq(&strict, value),
                    "printed JSON changed the value"
                );
            }
        }
        Err(Error::Jsonc { line, column, .. }) => check_position(text, *line, *column),
        Err(e) => panic!("unexpected error kind: {e:?}"),
    }

    // Differential against the reference's method.
    let Some(blanked) = blank_comments(text) else {
        assert!(parsed.is_err(), "accepted an unterminated block comment");
        return;
    };
    let reference: Result<Value, _> = serde_json::from_str(&blanked);
    let reference = match reference {
        Err(e) if e.to_string().contains("recursion limit") => return,
        Err(e) => {
            if let Ok(v) = &parsed {
                panic!("accepted what JSON rejects ({e}): {v:?}");
            }
            return;
        }
        Ok(v) => v,
    };
    let refused_on_purpose = !reference.is_object()
        || twsrt_fuzz::depth(&reference) > 400
        || has_duplicate_keys(&blanked)
        || bad_number(&reference);
    match &parsed {
        Ok(v) => {
            assert!(
                !refused_on_purpose,
                "accepted a documented refusal: {text:?}"
            );
            assert_eq!(v, &reference, "value differs from the reference method");
            // Key order too.
            assert_eq!(
                serde_json::to_string(v).unwrap(),
                serde_json::to_string(&reference).unwrap()
            );
        }
        Err(e) => assert!(
            refused_on_purpose,
            "rejected JSON the reference accepts: {e}\ntext: {text:?}"
        ),
    }
}

/// 1-based line (`\n`, `\r\n` and a lone `\r` end a line) and column (in
/// characters; one past the end of the line at most).
fn check_position(text: &str, line: usize, column: usize) {
    let normalized = text.replace("\r\n", "\n").replace('\r', "\n");
    let lines: Vec<&str> = normalized.split('\n').collect();
    assert!(line >= 1 && line <= lines.len(), "line {line} out of range");
    let len = lines[line - 1].chars().count();
    assert!(
        column >= 1 && column <= len + 1,
        "column {column} out of range (line {line} has {len} characters)"
    );
}

/// The text with every comment replaced by spaces (line breaks kept);
/// `None` for an unterminated block comment.
fn blank_comments(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut in_string = false;
    while i < chars.len() {
        let c = chars[i];
        if in_string {
            out.push(c);
            if c == '\\' {
                if let Some(&n) = chars.get(i + 1) {
                    out.push(n);
                    i += 1;
                }
            } else if c == '"' {
                in_string = false;
            }
            i += 1;
            continue;
        }
        match (c, chars.get(i + 1)) {
            ('"', _) => {
                in_string = true;
                out.push(c);
                i += 1;
            }
            ('/', Some('/')) => {
                while i < chars.len() && chars[i] != '\n' && chars[i] != '\r' {
                    out.push(' ');
                    i += 1;
                }
            }
            ('/', Some('*')) => {
                out.push_str("  ");
                i += 2;
                loop {
                    if i >= chars.len() {
                        return None;
                    }
                    if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                        out.push_str("  ");
                        i += 2;
                        break;
                    }
                    out.push(if matches!(chars[i], '\n' | '\r') {
                        chars[i]
                    } else {
                        ' '
                    });
                    i += 1;
                }
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    Some(out)
}

/// A float literal that overflows a double, or an integer with more digits
/// than Python converts.
fn bad_number(v: &Value) -> bool {
    match v {
        Value::Number(n) => {
            let t = n.as_str();
            if t.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
                !t.parse::<f64>().is_ok_and(f64::is_finite)
            } else {
                t.trim_start_matches('-').len() > twsrt::fragment::MAX_INT_DIGITS
            }
        }
        Value::Array(a) => a.iter().any(bad_number),
        Value::Object(m) => m.values().any(bad_number),
        _ => false,
    }
}

fn has_duplicate_keys(json: &str) -> bool {
    let mut de = serde_json::Deserializer::from_str(json);
    NoDup::deserialize(&mut de).is_err()
}

struct NoDup;

impl<'de> Deserialize<'de> for NoDup {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NoDupVisitor)
    }
}

struct NoDupVisitor;

impl<'de> Visitor<'de> for NoDupVisitor {
    type Value = NoDup;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("JSON")
    }
    fn visit_bool<E>(self, _: bool) -> Result<NoDup, E> {
        Ok(NoDup)
    }
    fn visit_i64<E>(self, _: i64) -> Result<NoDup, E> {
        Ok(NoDup)
    }
    fn visit_u64<E>(self, _: u64) -> Result<NoDup, E> {
        Ok(NoDup)
    }
    fn visit_f64<E>(self, _: f64) -> Result<NoDup, E> {
        Ok(NoDup)
    }
    fn visit_str<E>(self, _: &str) -> Result<NoDup, E> {
        Ok(NoDup)
    }
    fn visit_unit<E>(self) -> Result<NoDup, E> {
        Ok(NoDup)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<NoDup, A::Error> {
        while seq.next_element::<NoDup>()?.is_some() {}
        Ok(NoDup)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<NoDup, A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key) {
                return Err(A::Error::custom("duplicate key"));
            }
            map.next_value::<NoDup>()?;
        }
        Ok(NoDup)
    }
}
