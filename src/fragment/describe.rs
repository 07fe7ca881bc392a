//! jsonc-parser's errors as the reference words and places them.

use jsonc_parser::ParseStringErrorKind;
use jsonc_parser::errors::{ParseError, ParseErrorKind};

use super::PosError;
use super::lexical::skip_blanks;

/// Where and how to report `err`, as the reference would.
pub(super) fn parse_error(text: &str, err: &ParseError) -> PosError {
    use ParseErrorKind as K;
    let range = err.range();
    let start = range.start;
    let token_text = || text.get(range.start..range.end).unwrap_or("");
    match err.kind() {
        // Python points at the closing bracket, past blanks and comments.
        K::TrailingCommasNotAllowed => (
            skip_blanks(text, range.end),
            "trailing comma is not allowed".to_string(),
        ),
        K::ExpectedComma => (
            skip_blanks(text, start),
            "expected a comma between values".to_string(),
        ),
        K::UnterminatedObject => (
            text.len(),
            "unexpected end of file: object is not closed".to_string(),
        ),
        K::UnterminatedArray => (
            text.len(),
            "unexpected end of file: array is not closed".to_string(),
        ),
        K::ExpectedObjectValue => (start, "expected a value after ':'".to_string()),
        K::ExpectedColonAfterObjectKey => (start, "expected ':' after object key".to_string()),
        K::ExpectedStringObjectProperty | K::UnexpectedTokenInObject => {
            (start, "expected an object key in double quotes".to_string())
        }
        K::MultipleRootJsonValues => (
            start,
            "unexpected content after the top-level value".to_string(),
        ),
        K::SingleQuotedStringsNotAllowed => (start, "strings must be in double quotes".to_string()),
        K::HexadecimalNumbersNotAllowed
        | K::UnaryPlusNumbersNotAllowed
        | K::BareDecimalPointNumbersNotAllowed
        | K::ExpectedDigitFollowingNegativeSign
        | K::ExpectedPlusMinusOrDigitInNumberLiteral
        | K::ExpectedDigit
        | K::NonFiniteNumbersNotAllowed => number_error(text, start, err.kind(), token_text()),
        K::UnexpectedWord => describe_word(start, token_text()),
        K::UnexpectedCloseBrace => (start, "unexpected '}'".to_string()),
        K::UnexpectedCloseBracket => (start, "unexpected ']'".to_string()),
        K::UnexpectedColon => (start, "unexpected ':'".to_string()),
        K::UnexpectedComma => (start, "unexpected ','".to_string()),
        K::UnexpectedToken => unexpected_token(text, start, token_text()),
        K::UnterminatedCommentBlock => (start, "unterminated block comment".to_string()),
        K::NestingDepthExceeded => (
            start,
            "arrays and objects are nested too deeply".to_string(),
        ),
        K::String(kind) => describe_string_error(text, start, kind),
        other => (start, lowercase_first(&other.to_string())),
    }
}

/// A malformed number literal at `start` (`token`), placed where Python's
/// number reader stops.
fn number_error(text: &str, start: usize, kind: &ParseErrorKind, token: &str) -> PosError {
    use ParseErrorKind as K;
    let bytes = text.as_bytes();
    let byte_before = |pos: usize| pos.checked_sub(1).and_then(|p| bytes.get(p)).copied();
    match kind {
        // Python reads `0` as a number and stops at the `x`.
        K::HexadecimalNumbersNotAllowed => (
            start + usize::from(bytes.get(start) == Some(&b'-')) + 1,
            "hexadecimal numbers are not allowed".to_string(),
        ),
        K::UnaryPlusNumbersNotAllowed => (start, "a number cannot start with '+'".to_string()),
        K::BareDecimalPointNumbersNotAllowed => {
            // `5.` stops at the `.`; `.5` and `-.5` fail where they start.
            let mut pos = start + usize::from(bytes.get(start) == Some(&b'-'));
            let digits_from = pos;
            while bytes.get(pos).is_some_and(u8::is_ascii_digit) {
                pos += 1;
            }
            let at = if pos > digits_from { pos } else { start };
            (at, "a decimal point needs digits on both sides".to_string())
        }
        K::ExpectedDigitFollowingNegativeSign => {
            let at = if byte_before(start) == Some(b'-') {
                start - 1
            } else {
                start
            };
            (at, "expected a digit after '-'".to_string())
        }
        K::ExpectedPlusMinusOrDigitInNumberLiteral | K::ExpectedDigit => {
            // Python reads the number up to the `e` and stops there.
            let mut at = start;
            if matches!(byte_before(at), Some(b'+' | b'-')) {
                at -= 1;
            }
            if matches!(byte_before(at), Some(b'e' | b'E')) {
                at -= 1;
            }
            (at, "expected digits in the exponent".to_string())
        }
        K::NonFiniteNumbersNotAllowed => (
            start,
            format!("non-finite number '{token}' is not valid JSON"),
        ),
        other => (start, lowercase_first(&other.to_string())),
    }
}

/// A character jsonc-parser did not expect at `start`, where `token` begins.
fn unexpected_token(text: &str, start: usize, token: &str) -> PosError {
    match text.get(start..).and_then(|s| s.chars().next()) {
        // A word cut short by a character that cannot follow it (`NaN}`).
        Some(c) if is_word_char(c) => {
            let word = token;
            let end = word.find(|c| !is_word_char(c)).unwrap_or(word.len());
            describe_word(start, &word[..end])
        }
        Some(c) if c.is_control() || c.is_whitespace() => {
            (start, format!("unexpected character U+{:04X}", c as u32))
        }
        Some(c) => (start, format!("unexpected character '{c}'")),
        None => (start, "unexpected end of file".to_string()),
    }
}

/// A character jsonc-parser reads as part of an unquoted word.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$' || c == '-'
}

/// An unquoted word where a value should be (`NaN`, `truex`, `yes`).
fn describe_word(start: usize, word: &str) -> PosError {
    if let Some(constant) = ["NaN", "Infinity"]
        .into_iter()
        .find(|c| word.starts_with(c))
    {
        (
            start,
            format!("non-finite number '{constant}' is not valid JSON"),
        )
    } else if let Some(keyword) = ["true", "false", "null"]
        .into_iter()
        .find(|k| word.starts_with(k))
    {
        // Python reads the keyword and stops right after it.
        (
            start + keyword.len(),
            format!("unexpected characters after '{keyword}'"),
        )
    } else {
        (
            start,
            format!("unexpected word '{word}' (strings must be in double quotes)"),
        )
    }
}

fn describe_string_error(text: &str, start: usize, kind: &ParseStringErrorKind) -> PosError {
    use ParseStringErrorKind as S;
    let bytes = text.as_bytes();
    match kind {
        S::UnterminatedStringLiteral => (start, "unterminated string".to_string()),
        // `start` is the backslash of the escape.
        S::InvalidEscape | S::InvalidEscapeInDoubleQuoteString => {
            let escaped = text
                .get(start + 1..)
                .and_then(|s| s.chars().next())
                .map_or(String::new(), |c| c.escape_debug().to_string());
            (
                start,
                format!("invalid escape sequence '\\{escaped}' in string"),
            )
        }
        S::ExpectedFourHexDigits => {
            // Python points at the `u`; when a valid high surrogate comes first,
            // the faulty escape is the second one.
            let first_ok = bytes
                .get(start + 2..start + 6)
                .is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit));
            let at = if first_ok { start + 7 } else { start + 1 };
            (at, "'\\u' must be followed by four hex digits".to_string())
        }
        S::InvalidUnicodeEscapeSequence(_) => {
            let escape = text.get(start..start + 6).unwrap_or("\\u");
            (
                start,
                format!("unpaired UTF-16 surrogate escape '{escape}' is not supported"),
            )
        }
        other => (start, lowercase_first(&other.to_string())),
    }
}

fn lowercase_first(message: &str) -> String {
    let mut chars = message.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}
