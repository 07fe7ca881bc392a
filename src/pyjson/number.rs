//! What a JSON number is for Python: `json.loads` makes an `int` of a literal
//! without `.`, `e` or `E` (any size) and a `float` of every other one, and the
//! two compare as Python's `==` does. The writers print a number from this
//! classification, so what is equal and what is printed never disagree.

use serde_json::Number;

use super::Out;
use super::float::write_float;

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
        let sign = if negative { "-" } else { "" };
        PyNumber::Int(format!("{sign}{digits}"))
    } else {
        // The literal grammar is JSON's, which Rust's float parser accepts.
        PyNumber::Float(text.parse().unwrap_or(f64::NAN))
    }
}

/// Appends the number as Python prints the value `json.loads` made of it.
pub(super) fn write_number<O: Out + ?Sized>(out: &mut O, n: &Number) {
    match classify(n) {
        PyNumber::Int(digits) => out.push_str(&digits),
        PyNumber::Float(f) => write_float(out, f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(text: &str) -> Number {
        text.parse().expect("valid JSON number")
    }

    fn num_out(text: &str) -> String {
        let mut out = String::new();
        write_number(&mut out, &num(text));
        out
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
    fn float_literals_print_as_repr() {
        assert_eq!(num_out("1e3"), "1000.0");
        assert_eq!(num_out("-0e5"), "-0.0");
        assert_eq!(num_out("1e-400"), "0.0");
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
}
