//! JSON text exactly as the reference (Python's json.dumps, indent=2, ensure_ascii) prints it.
//!
//! * [`to_pretty`] is `json.dumps(v, indent=2)`: two-space indent, one item per
//!   line, `,` at line ends, `": "` after keys, `[]`/`{}` for empty containers,
//!   no trailing newline (written files add one themselves).
//! * [`to_compact`] is `json.dumps(v)`: one line, `", "` and `": "` separators.
//! * Strings are ASCII only: `"` and `\` escaped, `\n \r \t \b \f` by name, other
//!   characters outside U+0020..U+007E (so control characters, DEL and all
//!   non-ASCII) as lowercase `\uXXXX`, above U+FFFF as a surrogate pair. `/` is
//!   left alone.
//! * Numbers print as Python prints what `json.loads` made of them (see
//!   [`classify`]): integer literals in full (`-0` as `0`), float literals as
//!   `repr(float)` (`1e3` -> `1000.0`, `1e-07`, `1e+16`, `-0.0`).
//!
//! Non-finite floats: a literal such as `1e400` is `inf` for Python. The
//! reference prints it as `Infinity` in previews (plain `json.dumps`), but writing
//! the canonical file (`allow_nan=False`) fails with a traceback.
//! [`crate::jsonc::parse`] rejects such literals, so they should never get here;
//! if one does, it prints as the preview does (`Infinity`, `-Infinity`, `NaN`).

use std::fmt::Write as _;

use serde_json::{Number, Value};

/// A JSON number as Python's `json.loads` sees it.
#[derive(Debug, Clone)]
pub enum PyNumber {
    /// An integer literal (no `.`, `e` or `E`), as normalized decimal digits with
    /// a leading `-` when negative (`-0` becomes `0`). Any size.
    Int(String),
    /// A float literal, as the nearest double (`1e400` is infinite).
    Float(f64),
}

impl PartialEq for PyNumber {
    /// Python's `==` between numbers: an int equals a float when the float is
    /// integral and exactly that value (`1 == 1.0`, but `2**53 + 1 != 2.0**53`);
    /// `-0.0 == 0.0`; NaN equals nothing.
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (PyNumber::Int(a), PyNumber::Int(b)) => a == b,
            (PyNumber::Float(a), PyNumber::Float(b)) => a == b,
            (PyNumber::Int(i), PyNumber::Float(f)) | (PyNumber::Float(f), PyNumber::Int(i)) => {
                float_equals_int(*f, i)
            }
        }
    }
}

fn float_equals_int(f: f64, int: &str) -> bool {
    if !f.is_finite() || f.fract() != 0.0 {
        return false;
    }
    // An integral double prints exactly with `{:.0}`; `-0.0` prints `-0`.
    let exact = format!("{f:.0}");
    let exact = if exact == "-0" { "0" } else { exact.as_str() };
    exact == int
}

/// Whether the number's text is an integer literal for Python (no `.`, `e`, `E`).
fn is_int_literal(text: &str) -> bool {
    !text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E'))
}

/// Splits an integer literal into (negative, digits without leading zeros),
/// with zero as (false, "0").
fn normalize_int(text: &str) -> (bool, &str) {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        (false, "0")
    } else {
        (negative, digits)
    }
}

/// Classifies `n` the way Python's `json.loads` types it: `int` when its text
/// has no `.`, `e` or `E`, otherwise `float`.
pub fn classify(n: &Number) -> PyNumber {
    let text = n.as_str();
    if is_int_literal(text) {
        let (negative, digits) = normalize_int(text);
        let mut s = String::with_capacity(digits.len() + 1);
        if negative {
            s.push('-');
        }
        s.push_str(digits);
        PyNumber::Int(s)
    } else {
        // The literal grammar is JSON's, which Rust's float parser accepts.
        PyNumber::Float(text.parse().unwrap_or(f64::NAN))
    }
}

/// `json.dumps(v, indent=2)`, without a trailing newline.
pub fn to_pretty(v: &Value) -> String {
    let mut out = String::with_capacity(256);
    write_pretty(&mut out, v);
    out
}

/// Appends `json.dumps(v, indent=2)` to `out`.
pub fn write_pretty(out: &mut String, v: &Value) {
    write_pretty_at(out, v, 0);
}

/// `json.dumps(v)`: one line with `", "` and `": "` separators.
pub fn to_compact(v: &Value) -> String {
    let mut out = String::with_capacity(64);
    write_compact(&mut out, v);
    out
}

/// Appends `json.dumps(v)` to `out`.
pub fn write_compact(out: &mut String, v: &Value) {
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
pub fn newline_indent(out: &mut String, depth: usize) {
    const SPACES: &str = "                                                                ";
    out.push('\n');
    let mut width = depth * 2;
    while width > 0 {
        let step = width.min(SPACES.len());
        out.push_str(&SPACES[..step]);
        width -= step;
    }
}

/// Appends `json.dumps(v, indent=2)` for a value nested `depth` levels deep
/// (its inner lines are indented one level more than `depth`).
pub fn write_pretty_indented(out: &mut String, v: &Value, depth: usize) {
    write_pretty_at(out, v, depth);
}

/// Writes an object member by member, laid out like `json.dumps(indent=2)`,
/// for documents whose values are not all `serde_json` values.
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
    /// What goes before a string item: `,`, the line break, the
    /// indentation and the opening quote (made on the first string item).
    lead: String,
}

impl<'o> PrettyList<'o> {
    /// Opens a list nested `depth` levels deep.
    pub fn open(out: &'o mut String, depth: usize) -> Self {
        out.push('[');
        PrettyList {
            out,
            depth,
            empty: true,
            lead: String::new(),
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

    /// Writes the next item, the string `s`, and returns the buffer: what
    /// [`PrettyList::item`] and [`write_str`] write, in three appends rather
    /// than six (long lists of strings are most of a large document).
    pub fn string_item(&mut self, s: &str) -> &mut String {
        if self.lead.is_empty() {
            self.lead.push(',');
            newline_indent(&mut self.lead, self.depth + 1);
            self.lead.push('"');
        }
        let lead = if self.empty {
            &self.lead[1..]
        } else {
            &self.lead[..]
        };
        self.empty = false;
        self.out.push_str(lead);
        write_str_body(self.out, s);
        self.out.push('"');
        self.out
    }

    pub fn close(self) {
        if !self.empty {
            newline_indent(self.out, self.depth);
        }
        self.out.push(']');
    }
}

fn write_pretty_at(out: &mut String, v: &Value, depth: usize) {
    match v {
        Value::Array(items) if items.is_empty() => out.push_str("[]"),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline_indent(out, depth + 1);
                write_pretty_at(out, item, depth + 1);
            }
            newline_indent(out, depth);
            out.push(']');
        }
        Value::Object(map) if map.is_empty() => out.push_str("{}"),
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline_indent(out, depth + 1);
                write_str(out, key);
                out.push_str(": ");
                write_pretty_at(out, item, depth + 1);
            }
            newline_indent(out, depth);
            out.push('}');
        }
        scalar => write_scalar(out, scalar),
    }
}

fn write_scalar(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => write_str(out, s),
        Value::Array(_) | Value::Object(_) => write_compact(out, v),
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

fn push_u_escape(out: &mut String, unit: u32) {
    out.push_str("\\u");
    for shift in [12, 8, 4, 0] {
        out.push(char::from(HEX[((unit >> shift) & 0xf) as usize]));
    }
}

/// Appends `s` as a JSON string literal the way Python's `ensure_ascii` encoder
/// writes it.
pub fn write_str(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    write_str_body(out, s);
    out.push('"');
}

/// Whether one of the eight bytes of `word` needs escaping: a control
/// character, `"`, `\\`, DEL or a non-ASCII byte.
#[inline]
fn word_needs_escape(word: u64) -> bool {
    use crate::swar::{HIGH, bytes_below, bytes_equal};
    (bytes_below(word, 0x20)
        | bytes_equal(word, b'"')
        | bytes_equal(word, b'\\')
        | bytes_equal(word, 0x7f)
        | (word & HIGH))
        != 0
}

/// Whether `s` is written as it is inside a JSON string literal (no byte
/// of it needs an escape). Most strings are: looked at a word at a time,
/// the last, partial word re-read as the last eight bytes of the string
/// when it has that many (cheaper than copying the rest out), else padded
/// with a plain byte.
pub fn is_plain(s: &str) -> bool {
    let bytes = s.as_bytes();
    let mut words = bytes.chunks_exact(8);
    for chunk in &mut words {
        if word_needs_escape(u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]))) {
            return false;
        }
    }
    let rest = words.remainder();
    if rest.is_empty() {
        return true;
    }
    let last = match bytes.len().checked_sub(8).and_then(|at| bytes.get(at..)) {
        Some(tail) => tail.try_into().unwrap_or([0; 8]),
        None => {
            let mut last = [b'a'; 8];
            last[..rest.len()].copy_from_slice(rest);
            last
        }
    };
    !word_needs_escape(u64::from_le_bytes(last))
}

/// [`write_str`] without the quotes: the escaped characters of `s`.
pub fn write_str_body(out: &mut String, s: &str) {
    if is_plain(s) {
        out.push_str(s);
        return;
    }
    let bytes = s.as_bytes();
    let mut i = 0;
    let mut run_start = 0;
    while i < bytes.len() {
        // Eight plain bytes at a time, then byte by byte near an escape.
        if let Some(chunk) = bytes.get(i..i + 8) {
            let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
            if !word_needs_escape(word) {
                i += 8;
                continue;
            }
        }
        let b = bytes[i];
        if (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\' {
            i += 1;
            continue;
        }
        out.push_str(&s[run_start..i]);
        if b < 0x80 {
            match b {
                b'"' => out.push_str("\\\""),
                b'\\' => out.push_str("\\\\"),
                b'\n' => out.push_str("\\n"),
                b'\r' => out.push_str("\\r"),
                b'\t' => out.push_str("\\t"),
                0x08 => out.push_str("\\b"),
                0x0c => out.push_str("\\f"),
                _ => push_u_escape(out, u32::from(b)),
            }
            i += 1;
        } else {
            // `i` is on a character boundary: runs only stop at ASCII bytes or
            // at the first byte of a multi-byte character.
            let c = s[i..].chars().next().unwrap_or('\u{fffd}');
            let code = u32::from(c);
            if code > 0xffff {
                let v = code - 0x10000;
                push_u_escape(out, 0xd800 | (v >> 10));
                push_u_escape(out, 0xdc00 | (v & 0x3ff));
            } else {
                push_u_escape(out, code);
            }
            i += c.len_utf8();
        }
        run_start = i;
    }
    out.push_str(&s[run_start..]);
}

/// `s` as a JSON string literal (see [`write_str`]).
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    write_str(&mut out, s);
    out
}

/// Appends the number as Python prints the value `json.loads` made of it.
pub fn write_number(out: &mut String, n: &Number) {
    let text = n.as_str();
    if is_int_literal(text) {
        let (negative, digits) = normalize_int(text);
        if negative {
            out.push('-');
        }
        out.push_str(digits);
    } else {
        write_float(out, text.parse().unwrap_or(f64::NAN));
    }
}

/// A fixed-size stack buffer for formatting one double without allocating.
struct StackBuf {
    bytes: [u8; 40],
    len: usize,
}

impl std::fmt::Write for StackBuf {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        if end > self.bytes.len() {
            return Err(std::fmt::Error);
        }
        self.bytes[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Appends Python's `repr(f)`: the shortest digits that round-trip, in fixed
/// notation when the decimal exponent is in -4..16 (always with a fractional
/// part, `1000.0`), otherwise as `d[.ddd]e±XX` with at least two exponent digits.
pub fn write_float(out: &mut String, f: f64) {
    if f.is_nan() {
        out.push_str("NaN");
        return;
    }
    if f.is_infinite() {
        out.push_str(if f > 0.0 { "Infinity" } else { "-Infinity" });
        return;
    }
    if f.is_sign_negative() {
        out.push('-');
    }
    if f == 0.0 {
        out.push_str("0.0");
        return;
    }
    // Rust's `{:e}` gives the shortest round-trip digits, like Python's repr:
    // `d[.ddd]e[-]x`.
    let mut buf = StackBuf {
        bytes: [0; 40],
        len: 0,
    };
    if write!(buf, "{:e}", f.abs()).is_err() {
        // Cannot happen (at most 17 digits and a 4-character exponent).
        out.push_str(&format!("{:e}", f.abs()));
        return;
    }
    let formatted = &buf.bytes[..buf.len];
    let e_at = formatted
        .iter()
        .position(|&b| b == b'e')
        .unwrap_or(formatted.len());
    let (mantissa, exponent) = (&formatted[..e_at], &formatted[e_at + 1..]);
    let exp: i32 = std::str::from_utf8(exponent)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    // Significant digits without the decimal point.
    let mut digits = [0u8; 24];
    let mut n = 0;
    for &b in mantissa.iter().filter(|b| b.is_ascii_digit()) {
        digits[n] = b;
        n += 1;
    }
    let digits = &digits[..n];
    let push = |out: &mut String, bytes: &[u8]| {
        for &b in bytes {
            out.push(char::from(b));
        }
    };
    if (-4..16).contains(&exp) {
        if exp >= 0 {
            let int_len = exp as usize + 1;
            if digits.len() <= int_len {
                push(out, digits);
                for _ in digits.len()..int_len {
                    out.push('0');
                }
                out.push_str(".0");
            } else {
                push(out, &digits[..int_len]);
                out.push('.');
                push(out, &digits[int_len..]);
            }
        } else {
            out.push_str("0.");
            for _ in 0..(-exp - 1) {
                out.push('0');
            }
            push(out, digits);
        }
    } else {
        push(out, &digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            push(out, &digits[1..]);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        let abs = exp.unsigned_abs();
        if abs < 10 {
            out.push('0');
        }
        let _ = write!(out, "{abs}");
    }
}

/// Python's `repr(f)` (see [`write_float`]).
pub fn float_repr(f: f64) -> String {
    let mut out = String::with_capacity(24);
    write_float(&mut out, f);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn num(text: &str) -> Number {
        text.parse().expect("valid JSON number")
    }

    fn num_out(text: &str) -> String {
        let mut out = String::new();
        write_number(&mut out, &num(text));
        out
    }

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
        let input = include_str!("../tests/fixtures/pyjson/numbers.jsonc");
        let expected = include_str!("../tests/fixtures/pyjson/numbers.json");
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
        let input = include_str!("../tests/fixtures/pyjson/strings.jsonc");
        let expected = include_str!("../tests/fixtures/pyjson/strings.json");
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
    fn string_escapes() {
        assert_eq!(quote(""), "\"\"");
        assert_eq!(quote("plain /path"), "\"plain /path\"");
        assert_eq!(quote("\"\\"), r#""\"\\""#);
        assert_eq!(quote("\n\r\t\u{8}\u{c}"), r#""\n\r\t\b\f""#);
        assert_eq!(
            quote("\u{0}\u{1}\u{b}\u{1f}\u{7f}"),
            r#""\u0000\u0001\u000b\u001f\u007f""#
        );
        assert_eq!(quote("é"), r#""\u00e9""#);
        assert_eq!(quote("\u{e9}x\u{4e2d}"), r#""\u00e9x\u4e2d""#);
        assert_eq!(quote("😀"), r#""\ud83d\ude00""#);
        assert_eq!(
            quote("\u{10ffff}\u{10000}"),
            r#""\udbff\udfff\ud800\udc00""#
        );
        assert_eq!(
            quote("\u{ffff}\u{feff}\u{2028}\u{85}"),
            r#""\uffff\ufeff\u2028\u0085""#
        );
        assert_eq!(quote("a😀b\"c"), r#""a\ud83d\ude00b\"c""#);
    }

    #[test]
    fn keys_are_escaped_too() {
        assert_eq!(
            to_pretty(&json!({"k\u{e9}y\n": 1})),
            "{\n  \"k\\u00e9y\\n\": 1\n}"
        );
    }

    #[test]
    fn integers() {
        assert_eq!(num_out("0"), "0");
        assert_eq!(num_out("-0"), "0");
        assert_eq!(num_out("8080"), "8080");
        assert_eq!(num_out("-12"), "-12");
        let big = "123456789012345678901234567890123456789012345678901234567890";
        assert_eq!(num_out(big), big);
        assert_eq!(num_out(&format!("-{big}")), format!("-{big}"));
        assert_eq!(num_out("18446744073709551616"), "18446744073709551616");
        let mut out = String::new();
        write_number(&mut out, &Number::from(-5i64));
        write_number(&mut out, &Number::from(u64::MAX));
        assert_eq!(out, "-518446744073709551615");
    }

    #[test]
    fn floats_like_python_repr() {
        for (text, repr) in [
            ("0.1", "0.1"),
            ("1e3", "1000.0"),
            ("1E3", "1000.0"),
            ("8080.0", "8080.0"),
            ("1e-7", "1e-07"),
            ("1.5e-7", "1.5e-07"),
            ("1e-5", "1e-05"),
            ("0.0001", "0.0001"),
            ("0.00012", "0.00012"),
            ("1e16", "1e+16"),
            ("1e15", "1000000000000000.0"),
            ("123456789012345.6", "123456789012345.6"),
            ("1234567890123456.7", "1234567890123456.8"),
            ("12345678901234567.0", "1.2345678901234568e+16"),
            ("-0.0", "-0.0"),
            ("0.0", "0.0"),
            ("0e0", "0.0"),
            ("-0e5", "-0.0"),
            ("2.5E300", "2.5e+300"),
            ("1e100", "1e+100"),
            ("1e-100", "1e-100"),
            ("5e-324", "5e-324"),
            ("1.7976931348623157e308", "1.7976931348623157e+308"),
            ("1e-400", "0.0"),
            ("-1e-400", "-0.0"),
            ("0.30000000000000004", "0.30000000000000004"),
            ("1.0000000000000002", "1.0000000000000002"),
            ("0.99999999999999999", "1.0"),
            ("100e-2", "1.0"),
            ("-2.5e-3", "-0.0025"),
            ("1.23e+5", "123000.0"),
            ("6.02214076e23", "6.02214076e+23"),
        ] {
            assert_eq!(num_out(text), repr, "{text}");
            assert_eq!(float_repr(text.parse().unwrap()), repr, "{text}");
        }
    }

    #[test]
    fn non_finite_floats_print_like_allow_nan() {
        assert_eq!(float_repr(f64::INFINITY), "Infinity");
        assert_eq!(float_repr(f64::NEG_INFINITY), "-Infinity");
        assert_eq!(float_repr(f64::NAN), "NaN");
        assert_eq!(num_out("1e400"), "Infinity");
        assert_eq!(num_out("-1e400"), "-Infinity");
    }

    #[test]
    fn classify_numbers() {
        assert!(matches!(classify(&num("-0")), PyNumber::Int(s) if s == "0"));
        assert!(matches!(classify(&num("-12")), PyNumber::Int(s) if s == "-12"));
        assert!(matches!(classify(&num("8080")), PyNumber::Int(s) if s == "8080"));
        assert!(
            matches!(classify(&num("123456789012345678901234567890")), PyNumber::Int(s) if s == "123456789012345678901234567890")
        );
        assert!(matches!(classify(&num("8080.0")), PyNumber::Float(f) if f == 8080.0));
        assert!(matches!(classify(&num("1e3")), PyNumber::Float(f) if f == 1000.0));
        assert!(matches!(classify(&num("1E3")), PyNumber::Float(f) if f == 1000.0));
        assert!(
            matches!(classify(&num("-0.0")), PyNumber::Float(f) if f == 0.0 && f.is_sign_negative())
        );
        assert!(matches!(classify(&num("1e400")), PyNumber::Float(f) if f.is_infinite()));
        // Numbers built in code keep their type.
        assert!(matches!(classify(&Number::from(3u8)), PyNumber::Int(s) if s == "3"));
        assert!(
            matches!(classify(&Number::from_f64(1.0).unwrap()), PyNumber::Float(f) if f == 1.0)
        );
        assert!(
            matches!(classify(&Number::from_f64(1e16).unwrap()), PyNumber::Float(f) if f == 1e16)
        );
        let mut out = String::new();
        write_number(&mut out, &Number::from_f64(1.0).unwrap());
        assert_eq!(out, "1.0");
    }

    #[test]
    fn python_number_equality() {
        let c = |t: &str| classify(&num(t));
        assert_eq!(c("1"), c("1.0"));
        assert_eq!(c("1.0"), c("1"));
        assert_eq!(c("1000"), c("1e3"));
        assert_eq!(c("0"), c("-0"));
        assert_eq!(c("0"), c("-0.0"));
        assert_eq!(c("-0.0"), c("0.0"));
        assert_eq!(c("0.1"), c("0.10"));
        assert_ne!(c("1"), c("1.5"));
        assert_ne!(c("1"), c("2"));
        // 2**53 + 1 is not equal to the double 2**53.
        assert_ne!(c("9007199254740993"), c("9007199254740993.0"));
        assert_eq!(c("9007199254740992"), c("9007199254740993.0"));
        assert_eq!(c("-100000000000000000000"), c("-1e20"));
        assert_ne!(c("1"), c("1e400"));
        assert_ne!(PyNumber::Float(f64::NAN), PyNumber::Float(f64::NAN));
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

    /// The escaping of one character, written the slow and obvious way.
    fn naive_escape(c: char) -> String {
        match c {
            '"' => "\\\"".into(),
            '\\' => "\\\\".into(),
            '\n' => "\\n".into(),
            '\r' => "\\r".into(),
            '\t' => "\\t".into(),
            '\u{8}' => "\\b".into(),
            '\u{c}' => "\\f".into(),
            ' '..='~' => c.to_string(),
            _ => {
                let mut units = [0u16; 2];
                c.encode_utf16(&mut units)
                    .iter()
                    .map(|u| format!("\\u{u:04x}"))
                    .collect()
            }
        }
    }

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
                        other => write_pretty_at(writer.item(), other, depth + 1),
                    }
                }
                writer.close();
                let mut expected = String::new();
                write_pretty_at(&mut expected, &list, depth);
                assert_eq!(out, expected, "{list} at depth {depth}");
            }
        }
    }

    #[test]
    fn word_at_a_time_escaping_matches_the_character_rules() {
        let mut specials: Vec<char> = (0u8..0x80).map(char::from).collect();
        specials.extend([
            '\u{80}',
            '\u{e9}',
            '\u{7ff}',
            '\u{800}',
            '\u{2028}',
            '\u{fffd}',
            '\u{10000}',
            '\u{1F600}',
        ]);
        for c in specials {
            for at in 0..18 {
                for len in [at, at + 1, at + 9, 24] {
                    let mut text: String = "a".repeat(at);
                    text.push(c);
                    text.push_str(&"b".repeat(len - at));
                    let expected: String = text.chars().map(naive_escape).collect();
                    assert_eq!(quote(&text), format!("\"{expected}\""), "{text:?}");
                    assert_eq!(is_plain(&text), expected == text, "{text:?}");
                }
            }
        }
        for len in 0..40 {
            assert!(is_plain(&"a~ ".repeat(len)[..len]), "{len}");
        }
    }
}
