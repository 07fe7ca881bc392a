//! Python's `repr(float)`: the shortest digits that read back as the same
//! double, in fixed notation when the decimal exponent is in -4..16 (always
//! with a fractional part, `1000.0`), otherwise as `d[.ddd]e±XX` with at least
//! two exponent digits (`1e-07`, `1e+16`). Non-finite values print as
//! `json.dumps` prints them with `allow_nan` (`NaN`, `Infinity`, `-Infinity`).

use super::Out;

/// Appends Python's `repr(f)` (see the module docs).
pub(super) fn write_float<O: Out + ?Sized>(out: &mut O, f: f64) {
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
    let (digits, exp) = shortest_digits(f.abs());
    if (-4..16).contains(&exp) {
        write_fixed(out, &digits, exp);
    } else {
        write_scientific(out, &digits, exp);
    }
}

/// The shortest round-trip significant digits of a finite, positive `f` and
/// the decimal exponent of the first one: `1234.5` is `("12345", 3)`.
fn shortest_digits(f: f64) -> (String, i32) {
    // Rust's `{:e}` picks the same shortest round-trip digits as Python's
    // repr, as `d[.ddd]e[-]x`.
    let formatted = format!("{f:e}");
    let (mantissa, exponent) = formatted.split_once('e').unwrap_or((&formatted, "0"));
    let digits = mantissa.chars().filter(char::is_ascii_digit).collect();
    (digits, exponent.parse().unwrap_or(0))
}

/// `digits` with the decimal point after digit `exp + 1` (`exp` in -4..16),
/// padded with zeros to it and given `.0` when nothing follows it.
fn write_fixed<O: Out + ?Sized>(out: &mut O, digits: &str, exp: i32) {
    if exp < 0 {
        // Below 1: `0.` and the zeros before the first digit.
        out.push_str("0.");
        push_zeros(out, exp.unsigned_abs() as usize - 1);
        out.push_str(digits);
        return;
    }
    let int_len = exp.unsigned_abs() as usize + 1;
    match digits.split_at_checked(int_len) {
        Some((int, fraction)) if !fraction.is_empty() => {
            out.push_str(int);
            out.push('.');
            out.push_str(fraction);
        }
        _ => {
            out.push_str(digits);
            push_zeros(out, int_len.saturating_sub(digits.len()));
            out.push_str(".0");
        }
    }
}

/// `d[.ddd]e±XX`.
fn write_scientific<O: Out + ?Sized>(out: &mut O, digits: &str, exp: i32) {
    let (first, rest) = digits.split_at_checked(1).unwrap_or((digits, ""));
    out.push_str(first);
    if !rest.is_empty() {
        out.push('.');
        out.push_str(rest);
    }
    let sign = if exp < 0 { '-' } else { '+' };
    out.push_str(&format!("e{sign}{:02}", exp.unsigned_abs()));
}

fn push_zeros<O: Out + ?Sized>(out: &mut O, count: usize) {
    for _ in 0..count {
        out.push('0');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repr(f: f64) -> String {
        let mut out = String::new();
        write_float(&mut out, f);
        out
    }

    #[test]
    fn floats_like_python_repr() {
        for (text, expected) in [
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
            assert_eq!(repr(text.parse().unwrap()), expected, "{text}");
        }
    }

    #[test]
    fn non_finite_floats_print_like_allow_nan() {
        assert_eq!(repr(f64::INFINITY), "Infinity");
        assert_eq!(repr(f64::NEG_INFINITY), "-Infinity");
        assert_eq!(repr(f64::NAN), "NaN");
    }
}
