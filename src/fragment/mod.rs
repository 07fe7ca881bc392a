//! Strict JSONC: JSON plus `//` and `/* */` comments, nothing else.
//!
//! The reference reads a fragment by blanking its comments and handing the rest to
//! Python's `json` module, so this parser accepts exactly what that accepts and
//! points its errors where the reference points (`line:column`, 1-based, the column
//! counted in characters, a lone `\r` counting as a line break like `\n` and `\r\n`):
//!
//! * Only `//` (ending at `\n` or `\r`) and `/* */` comments; comment markers inside
//!   strings are text. Whitespace is space, tab, `\n` and `\r` only (no vertical tab,
//!   form feed, no-break space or other Unicode spaces). One UTF-8 byte order
//!   mark at the start is skipped ([`crate::bom`]; 3.3.3 refused it), and
//!   line 1's columns are counted after it.
//! * No trailing commas, missing commas, single-quoted strings, unquoted keys, hex
//!   numbers, unary plus, bare decimal points, `NaN`, `Infinity`, raw control
//!   characters (U+0000..U+001F) in strings, or JSON5 escapes.
//! * The root must be an object; an empty file (or one holding only comments) is
//!   an error. Duplicate keys are errors, reported at the second occurrence.
//! * A float literal whose value overflows a double (`1e400`) is rejected: Python
//!   turns it into `inf`, which the reference previews as `Infinity` but cannot
//!   write (writing the canonical file fails with a traceback). Underflow
//!   (`1e-400`) is fine: it is `0.0`.
//! * An integer literal with more than [`MAX_INT_DIGITS`] digits is rejected, like
//!   Python's default `int` conversion limit makes the reference do.
//!
//! * Arrays and objects nest at most about 512 levels deep (jsonc-parser's limit;
//!   the reference dies with a `RecursionError` somewhere between 400 and 500).
//!
//! One deliberate difference: an unpaired UTF-16 surrogate escape (`"\ud800"`) is
//! rejected here, while the reference accepts it (Python strings can hold lone
//! surrogates; Rust strings cannot).
//!
//! Object key order is kept; numbers keep their literal text (as
//! `serde_json::Number` stores it: the exponent is normalized to `e+N`/`e-N`).

mod convert;
mod describe;
mod fast;
mod kept;
mod lexical;
mod located;
#[cfg(test)]
mod tests;

use std::path::Path;

use jsonc_parser::ast;
use jsonc_parser::common::Ranged;
use jsonc_parser::errors::ParseErrorKind;
use jsonc_parser::{CollectOptions, ParseOptions, ParseStringErrorKind};
use serde_json::Value;

use crate::error::{Error, Result};
use crate::text_position::line_column;

pub use kept::{keep_positions, kept};
pub use located::{Located, LocatedString, parse_located};

/// The most digits an integer literal may have (Python's default
/// `sys.get_int_max_str_digits()`, which the reference runs into).
pub const MAX_INT_DIGITS: usize = 4300;

/// Parses strict JSONC `text` (read from `path`, named in errors) into a
/// JSON object. While positions are kept ([`keep_positions`]) this is
/// [`parse_located`]'s value, so the text is parsed once.
pub fn parse(text: &str, path: &Path) -> Result<Value> {
    let text = crate::bom::strip(text);
    if kept::keeping() {
        return parse_located(text, path).map(|located| located.value.clone());
    }
    parse_with(text, path, &strict_options())
}

/// Parses `text` as strict JSONC that may also end an object or an array
/// with a comma, as an agent's own config reader may accept (an agent file
/// twsrt merges into, not a fragment): the same errors and positions.
pub fn parse_trailing_commas(text: &str, path: &Path) -> Result<Value> {
    let text = crate::bom::strip(text);
    let options = ParseOptions {
        allow_trailing_commas: true,
        ..strict_options()
    };
    parse_with(text, path, &options)
}

fn parse_with(text: &str, path: &Path, options: &ParseOptions) -> Result<Value> {
    // The one-pass reader takes the everyday valid file; anything else
    // (every error included) is the full parser's to decide.
    if let Some(value) = fast::parse(text) {
        return Ok(value);
    }
    parse_inner(text, options, &mut |_| {}).map_err(|err| jsonc_error(text, path, err))
}

/// The error of a parse of `text` (read from `path`) at its line and column.
fn jsonc_error(text: &str, path: &Path, (pos, message): PosError) -> Error {
    let (line, column) = line_column(text, pos);
    Error::Jsonc {
        path: path.to_path_buf(),
        line,
        column,
        message,
    }
}

/// An error at a byte offset of the text.
type PosError = (usize, String);

/// Where Python's `json.loads` (no comments) reports the first syntax error
/// of `text`, as a byte offset; `None` when there is none. Only the syntax is
/// checked: Python accepts duplicate keys and any top-level value.
pub fn plain_json_error_offset(text: &str) -> Option<usize> {
    let options = ParseOptions {
        allow_comments: false,
        ..strict_options()
    };
    let lexical = lexical::first_error(text).map(|(pos, _)| pos);
    match jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &options) {
        Err(err) => {
            let (pos, _) = describe::parse_error(text, &err);
            let unterminated = matches!(
                err.kind(),
                ParseErrorKind::String(ParseStringErrorKind::UnterminatedStringLiteral)
            );
            Some(match lexical {
                Some(lex) if lex <= pos || unterminated => lex,
                _ => pos,
            })
        }
        Ok(parsed) if parsed.value.is_none() => Some(lexical.unwrap_or(text.len())),
        Ok(_) => lexical,
    }
}

/// JSON plus comments, nothing else jsonc-parser could let through.
pub(crate) fn strict_options() -> ParseOptions {
    ParseOptions {
        allow_comments: true,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// Parses `text`; `inspect` sees the root object's syntax tree (with its
/// byte ranges) once the text is known to be valid, before it is converted.
fn parse_inner(
    text: &str,
    options: &ParseOptions,
    inspect: &mut dyn FnMut(&ast::Object<'_>),
) -> std::result::Result<Value, PosError> {
    // jsonc-parser is more lenient than JSON in two lexical points (extra
    // whitespace characters, raw control characters in strings); a pass of our
    // own finds the first such spot, and whichever error comes first wins.
    let lexical = lexical::first_error(text);
    let parsed = match jsonc_parser::parse_to_ast(text, &CollectOptions::default(), options) {
        Ok(parsed) => parsed,
        Err(err) => {
            let (pos, message) = describe::parse_error(text, &err);
            if let Some((lex_pos, lex_message)) = lexical {
                // An unterminated string runs to the end of the file; a control
                // character inside it (a line break, typically) comes first.
                let unterminated = matches!(
                    err.kind(),
                    ParseErrorKind::String(ParseStringErrorKind::UnterminatedStringLiteral)
                );
                if lex_pos <= pos || unterminated {
                    return Err((lex_pos, lex_message));
                }
            }
            return Err((pos, message));
        }
    };
    if let Some(lexical) = lexical {
        return Err(lexical);
    }
    match parsed.value {
        None => Err((
            text.len(),
            if text.trim_matches([' ', '\t', '\n', '\r']).is_empty() {
                "expected a JSON object, found an empty file".to_string()
            } else {
                "expected a JSON object, found only comments".to_string()
            },
        )),
        Some(ast::Value::Object(object)) => {
            inspect(&object);
            convert::object(object)
        }
        Some(other) => Err((
            other.range().start,
            "the top-level value must be a JSON object".to_string(),
        )),
    }
}
