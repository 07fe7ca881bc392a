//! Strict JSONC: JSON plus `//` and `/* */` comments, nothing else.
//!
//! The reference reads a fragment by blanking its comments and handing the rest to
//! Python's `json` module, so this parser accepts exactly what that accepts and
//! points its errors where the reference points (`line:column`, 1-based, the column
//! counted in characters, a lone `\r` counting as a line break like `\n` and `\r\n`):
//!
//! * Only `//` (ending at `\n` or `\r`) and `/* */` comments; comment markers inside
//!   strings are text. Whitespace is space, tab, `\n` and `\r` only (no vertical tab,
//!   form feed, no-break space or other Unicode spaces, and no UTF-8 BOM).
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

use std::path::Path;

use jsonc_parser::ast;
use jsonc_parser::common::Ranged;
use jsonc_parser::errors::{ParseError, ParseErrorKind};
use jsonc_parser::{CollectOptions, ParseOptions, ParseStringErrorKind};
use serde_json::map::Entry;
use serde_json::{Map, Number, Value};

use crate::error::{Error, Result};

/// The most digits an integer literal may have (Python's default
/// `sys.get_int_max_str_digits()`, which the reference runs into).
pub const MAX_INT_DIGITS: usize = 4300;

/// Parses strict JSONC `text` (read from `path`, used in errors) into a JSON object.
///
/// A single-pass parser ([`fast`]) handles every well-formed file; it accepts a
/// strict subset of what the full parser accepts and builds the same value. On
/// anything else (an error, or something it does not handle such as very deep
/// nesting) the full parser runs, so every error keeps its position and message.
pub fn parse(text: &str, path: &Path) -> Result<Value> {
    if let Some(value) = fast::parse(text) {
        return Ok(value);
    }
    parse_slow(text, path)
}

/// [`parse`] as a [`Json`] view of `text` (no string is copied unless it
/// holds an escape), when the one-pass parser accepts the text. `None` means
/// "ask [`parse_slow`]": it either reports the error or, for what the one-pass
/// parser leaves to the full one (very deep nesting), returns the value.
pub fn parse_view(text: &str) -> Option<Json<'_>> {
    fast::parse_view(text)
}

/// The full parser: jsonc-parser plus the lexical checks, with positioned
/// errors. [`parse`] without the one-pass attempt, for a caller whose
/// [`parse_view`] already failed.
pub fn parse_slow(text: &str, path: &Path) -> Result<Value> {
    parse_inner(text).map_err(|(pos, message)| {
        let (line, column) = line_column(text, pos);
        Error::Jsonc {
            path: path.to_path_buf(),
            line,
            column,
            message,
        }
    })
}

/// Parses plain JSON text holding an object, when it is well-formed and
/// simple (no duplicate keys, nesting at most 64 deep, numbers in range): the
/// value `serde_json::from_str` gives, built in one pass. `None` otherwise;
/// the caller then asks serde_json, which decides and reports.
pub fn parse_plain_json(text: &str) -> Option<Value> {
    fast::parse_json(text)
}

/// [`parse_plain_json`] as a [`Json`] view of `text`: no string is copied
/// unless it holds an escape.
pub fn parse_plain_json_view(text: &str) -> Option<Json<'_>> {
    fast::parse_json_view(text)
}

/// A JSON value that borrows its strings and number literals from the text
/// (or the `serde_json` value) it was read from. Objects keep their members
/// in order, without duplicate keys.
#[derive(Debug, Clone, PartialEq)]
pub enum Json<'a> {
    Null,
    Bool(bool),
    /// The literal, as JSON wrote it.
    Number(&'a str),
    String(std::borrow::Cow<'a, str>),
    Array(Vec<Json<'a>>),
    Object(Vec<(std::borrow::Cow<'a, str>, Json<'a>)>),
}

impl<'a> Json<'a> {
    /// A view of `value`.
    pub fn of(value: &'a Value) -> Json<'a> {
        use std::borrow::Cow;
        match value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => Json::Number(n.as_str()),
            Value::String(s) => Json::String(Cow::Borrowed(s)),
            Value::Array(items) => Json::Array(items.iter().map(Json::of).collect()),
            Value::Object(map) => Json::Object(
                map.iter()
                    .map(|(k, v)| (Cow::Borrowed(k.as_str()), Json::of(v)))
                    .collect(),
            ),
        }
    }

    /// The value as `serde_json` reads the same text.
    pub fn to_value(&self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(raw) => raw.parse::<Number>().map_or(Value::Null, Value::Number),
            Json::String(s) => Value::String(s.to_string()),
            Json::Array(items) => Value::Array(items.iter().map(Json::to_value).collect()),
            Json::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_value()))
                    .collect(),
            ),
        }
    }

    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json<'a>> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Json<'a>]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }
}

/// An error at a byte offset of the text.
type PosError = (usize, String);

fn strict_options() -> ParseOptions {
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

fn parse_inner(text: &str) -> std::result::Result<Value, PosError> {
    // jsonc-parser is more lenient than JSON in two lexical points (extra
    // whitespace characters, raw control characters in strings); a pass of our
    // own finds the first such spot, and whichever error comes first wins.
    let lexical = first_lexical_error(text);
    let parsed =
        match jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &strict_options()) {
            Ok(parsed) => parsed,
            Err(err) => {
                let (pos, message) = describe_parse_error(text, &err);
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
        Some(ast::Value::Object(object)) => convert_object(object),
        Some(other) => Err((
            other.range().start,
            "the top-level value must be a JSON object".to_string(),
        )),
    }
}

// ---------------------------------------------------------------------------
// The fast path
// ---------------------------------------------------------------------------

/// A single-pass strict parser straight into `serde_json` values.
///
/// It returns `None` as soon as the input leaves the plain, well-formed subset
/// (any syntax or lexical error, a duplicate key, a number the full parser
/// rejects, nesting deeper than [`fast::MAX_DEPTH`]); the caller then runs the
/// full parser, which either accepts the text after all or reports the error
/// where the reference points. Whatever this accepts, the full parser accepts
/// with the same value (the tests compare the two).
mod fast {
    use std::borrow::Cow;

    use serde_json::map::Entry;
    use serde_json::{Map, Value};

    use super::Json;
    use crate::compose::FxHashSet;

    /// Well below jsonc-parser's limit (512), so anything deeper goes the slow way.
    pub const MAX_DEPTH: usize = 128;

    /// Well below serde_json's recursion limit (128).
    pub const MAX_JSON_DEPTH: usize = 64;

    pub fn parse(text: &str) -> Option<Value> {
        parse_with::<Values>(text, true, MAX_DEPTH)
    }

    /// [`parse`] into a [`Json`] borrowing from `text`.
    pub fn parse_view(text: &str) -> Option<Json<'_>> {
        parse_with::<Views>(text, true, MAX_DEPTH)
    }

    /// Plain JSON (no comments), a JSON object at the top.
    pub fn parse_json(text: &str) -> Option<Value> {
        parse_with::<Values>(text, false, MAX_JSON_DEPTH)
    }

    /// [`parse_json`] into a [`Json`] borrowing from `text`.
    pub fn parse_json_view(text: &str) -> Option<Json<'_>> {
        parse_with::<Views>(text, false, MAX_JSON_DEPTH)
    }

    fn parse_with<'a, B: Build<'a>>(
        text: &'a str,
        comments: bool,
        max_depth: usize,
    ) -> Option<B::Value> {
        let mut p = Parser::<B> {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            depth: 0,
            max_depth,
            comments,
            // Room for the items of the longest list without regrowing it
            // (an item takes a dozen bytes of text or more), rounded up to a
            // power of two so that fragments of about one size ask for the
            // same block, which the next one then reuses.
            stack: Vec::with_capacity((text.len() / 16).next_power_of_two()),
        };
        p.blanks()?;
        if p.peek()? != b'{' {
            return None;
        }
        let value = p.object()?;
        p.blanks()?;
        (p.pos == p.bytes.len()).then_some(value)
    }

    /// What the parser builds: `serde_json` values or borrowed views.
    trait Build<'a> {
        type Value;
        type Object: Default;
        fn null() -> Self::Value;
        fn bool(b: bool) -> Self::Value;
        /// `None` for a number the full parser rejects.
        fn number(raw: &'a str) -> Option<Self::Value>;
        fn string(s: Cow<'a, str>) -> Self::Value;
        fn array(items: Vec<Self::Value>) -> Self::Value;
        /// `None` for a duplicate key.
        fn insert(object: &mut Self::Object, key: Cow<'a, str>, value: Self::Value) -> Option<()>;
        fn object(object: Self::Object) -> Self::Value;
    }

    struct Values;

    impl<'a> Build<'a> for Values {
        type Value = Value;
        type Object = Map<String, Value>;
        fn null() -> Value {
            Value::Null
        }
        fn bool(b: bool) -> Value {
            Value::Bool(b)
        }
        fn number(raw: &'a str) -> Option<Value> {
            super::convert_number(raw, 0).ok().map(Value::Number)
        }
        fn string(s: Cow<'a, str>) -> Value {
            Value::String(s.into_owned())
        }
        fn array(items: Vec<Value>) -> Value {
            Value::Array(items)
        }
        fn insert(object: &mut Map<String, Value>, key: Cow<'a, str>, value: Value) -> Option<()> {
            match object.entry(key.into_owned()) {
                Entry::Vacant(slot) => {
                    slot.insert(value);
                    Some(())
                }
                Entry::Occupied(_) => None,
            }
        }
        fn object(object: Map<String, Value>) -> Value {
            Value::Object(object)
        }
    }

    struct Views;

    /// Members in order, and (past a few) their keys for duplicate checks.
    #[derive(Default)]
    struct ViewObject<'a> {
        members: Vec<(Cow<'a, str>, Json<'a>)>,
        keys: FxHashSet<Cow<'a, str>>,
    }

    impl<'a> Build<'a> for Views {
        type Value = Json<'a>;
        type Object = ViewObject<'a>;
        fn null() -> Json<'a> {
            Json::Null
        }
        fn bool(b: bool) -> Json<'a> {
            Json::Bool(b)
        }
        fn number(raw: &'a str) -> Option<Json<'a>> {
            super::convert_number(raw, 0)
                .ok()
                .map(|_| Json::Number(raw))
        }
        fn string(s: Cow<'a, str>) -> Json<'a> {
            Json::String(s)
        }
        fn array(items: Vec<Json<'a>>) -> Json<'a> {
            Json::Array(items)
        }
        fn insert(object: &mut ViewObject<'a>, key: Cow<'a, str>, value: Json<'a>) -> Option<()> {
            const FEW: usize = 8;
            let members = &mut object.members;
            if members.len() < FEW {
                if members.iter().any(|(k, _)| *k == key) {
                    return None;
                }
            } else {
                if object.keys.is_empty() {
                    object.keys.extend(members.iter().map(|(k, _)| k.clone()));
                }
                if !object.keys.insert(key.clone()) {
                    return None;
                }
            }
            members.push((key, value));
            Some(())
        }
        fn object(object: ViewObject<'a>) -> Json<'a> {
            Json::Object(object.members)
        }
    }

    /// The bytes of `word` that are `"`, `\\` or below U+0020, marked as
    /// in [`crate::swar`] (zero when there are none).
    #[inline]
    fn special(word: u64) -> u64 {
        use crate::swar::{bytes_below, bytes_equal};
        bytes_below(word, 0x20) | bytes_equal(word, b'"') | bytes_equal(word, b'\\')
    }

    struct Parser<'a, B: Build<'a>> {
        text: &'a str,
        bytes: &'a [u8],
        pos: usize,
        depth: usize,
        max_depth: usize,
        /// Whether `//` and `/* */` comments are blanks (JSONC) or errors (JSON).
        comments: bool,
        /// The items of the arrays being read, innermost last: each array is
        /// moved out into a list of exactly its length when it closes, so no
        /// list is grown (and copied) item by item.
        stack: Vec<B::Value>,
    }

    impl<'a, B: Build<'a>> Parser<'a, B> {
        fn peek(&self) -> Option<u8> {
            self.bytes.get(self.pos).copied()
        }

        /// Skips JSON whitespace and comments; `None` on a lone `/` or an
        /// unterminated block comment.
        fn blanks(&mut self) -> Option<()> {
            let bytes = self.bytes;
            while let Some(&b) = bytes.get(self.pos) {
                match b {
                    b' ' | b'\t' | b'\n' | b'\r' => {
                        self.pos += 1;
                        // Indentation: a run of spaces, eight at a time.
                        while let Some(chunk) = bytes.get(self.pos..self.pos + 8) {
                            let others = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]))
                                ^ crate::swar::SPACES;
                            if others != 0 {
                                self.pos += crate::swar::first(others);
                                break;
                            }
                            self.pos += 8;
                        }
                    }
                    b'/' if !self.comments => return None,
                    b'/' => match bytes.get(self.pos + 1) {
                        Some(b'/') => {
                            self.pos += 2;
                            while let Some(&c) = bytes.get(self.pos) {
                                if c == b'\n' || c == b'\r' {
                                    break;
                                }
                                self.pos += 1;
                            }
                        }
                        Some(b'*') => {
                            let body = self.pos + 2;
                            let end = bytes.get(body..)?.windows(2).position(|w| w == b"*/")?;
                            self.pos = body + end + 2;
                        }
                        _ => return None,
                    },
                    _ => return Some(()),
                }
            }
            Some(())
        }

        fn value(&mut self) -> Option<B::Value> {
            match self.peek()? {
                b'{' => self.object(),
                b'[' => self.array(),
                b'"' => self.string().map(B::string),
                b'-' | b'0'..=b'9' => self.number(),
                b't' => self.keyword("true", B::bool(true)),
                b'f' => self.keyword("false", B::bool(false)),
                b'n' => self.keyword("null", B::null()),
                _ => None,
            }
        }

        /// A keyword must not run into a word (`truex`): the caller accepts
        /// only blanks, `,`, `]` or `}` after a value.
        fn keyword(&mut self, word: &str, value: B::Value) -> Option<B::Value> {
            if self.bytes[self.pos..].starts_with(word.as_bytes()) {
                self.pos += word.len();
                Some(value)
            } else {
                None
            }
        }

        fn enter(&mut self) -> Option<()> {
            self.depth += 1;
            (self.depth <= self.max_depth).then_some(())
        }

        fn object(&mut self) -> Option<B::Value> {
            self.enter()?;
            self.pos += 1; // `{`
            let mut map = B::Object::default();
            self.blanks()?;
            if self.peek()? == b'}' {
                self.pos += 1;
                self.depth -= 1;
                return Some(B::object(map));
            }
            loop {
                if self.peek()? != b'"' {
                    return None;
                }
                let key = self.string()?;
                self.blanks()?;
                if self.peek()? != b':' {
                    return None;
                }
                self.pos += 1;
                self.blanks()?;
                let value = self.value()?;
                B::insert(&mut map, key, value)?;
                self.blanks()?;
                match self.peek()? {
                    b',' => {
                        self.pos += 1;
                        self.blanks()?;
                    }
                    b'}' => {
                        self.pos += 1;
                        self.depth -= 1;
                        return Some(B::object(map));
                    }
                    _ => return None,
                }
            }
        }

        fn array(&mut self) -> Option<B::Value> {
            self.enter()?;
            self.pos += 1; // `[`
            self.blanks()?;
            if self.peek()? == b']' {
                self.pos += 1;
                self.depth -= 1;
                return Some(B::array(Vec::new()));
            }
            let base = self.stack.len();
            loop {
                let item = self.value()?;
                self.stack.push(item);
                self.blanks()?;
                match self.peek()? {
                    b',' => {
                        self.pos += 1;
                        self.blanks()?;
                    }
                    b']' => {
                        self.pos += 1;
                        self.depth -= 1;
                        return Some(B::array(self.stack.drain(base..).collect()));
                    }
                    _ => return None,
                }
            }
        }

        /// A string at `"`: JSON escapes only, no raw control characters, no
        /// unpaired surrogate escapes.
        fn string(&mut self) -> Option<Cow<'a, str>> {
            let bytes = self.bytes;
            let start = self.pos + 1;
            let mut i = start;
            // The common case: no escapes, one copy. Eight bytes at a time
            // while none of them is a quote, a backslash or a control character.
            // The first special byte found that way is where the loop below
            // starts, so it looks at one byte, not at up to eight.
            while let Some(chunk) = bytes.get(i..i + 8) {
                let marks = special(u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])));
                if marks != 0 {
                    i += crate::swar::first(marks);
                    break;
                }
                i += 8;
            }
            loop {
                match *bytes.get(i)? {
                    b'"' => {
                        self.pos = i + 1;
                        return Some(Cow::Borrowed(&self.text[start..i]));
                    }
                    b'\\' => break,
                    0..=0x1f => return None,
                    _ => i += 1,
                }
            }
            let mut out = String::with_capacity(i - start + 16);
            let mut run = start;
            loop {
                match *bytes.get(i)? {
                    b'"' => {
                        out.push_str(&self.text[run..i]);
                        self.pos = i + 1;
                        return Some(Cow::Owned(out));
                    }
                    b'\\' => {
                        out.push_str(&self.text[run..i]);
                        let c = match *bytes.get(i + 1)? {
                            b'"' => '"',
                            b'\\' => '\\',
                            b'/' => '/',
                            b'b' => '\u{8}',
                            b'f' => '\u{c}',
                            b'n' => '\n',
                            b'r' => '\r',
                            b't' => '\t',
                            b'u' => {
                                let unit = self.hex4(i + 2)?;
                                i += 4;
                                match unit {
                                    0xd800..=0xdbff => {
                                        if bytes.get(i + 2..i + 4)? != b"\\u" {
                                            return None;
                                        }
                                        let low = self.hex4(i + 4)?;
                                        if !(0xdc00..=0xdfff).contains(&low) {
                                            return None;
                                        }
                                        i += 6;
                                        let code =
                                            0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
                                        char::from_u32(code)?
                                    }
                                    0xdc00..=0xdfff => return None,
                                    _ => char::from_u32(unit)?,
                                }
                            }
                            _ => return None,
                        };
                        out.push(c);
                        i += 2;
                        run = i;
                    }
                    0..=0x1f => return None,
                    _ => i += 1,
                }
            }
        }

        /// Four hex digits at `at`.
        fn hex4(&self, at: usize) -> Option<u32> {
            let digits = self.bytes.get(at..at + 4)?;
            let mut unit = 0;
            for &d in digits {
                unit = unit * 16 + char::from(d).to_digit(16)?;
            }
            Some(unit)
        }

        /// A number in JSON's grammar; the full parser's range checks decide
        /// (through the same conversion it uses).
        fn number(&mut self) -> Option<B::Value> {
            let bytes = self.bytes;
            let start = self.pos;
            let mut i = start;
            let digits = |i: &mut usize| {
                let from = *i;
                while bytes.get(*i).is_some_and(u8::is_ascii_digit) {
                    *i += 1;
                }
                *i > from
            };
            if bytes[i] == b'-' {
                i += 1;
            }
            match bytes.get(i)? {
                b'0' => i += 1,
                b'1'..=b'9' => {
                    digits(&mut i);
                }
                _ => return None,
            }
            if bytes.get(i) == Some(&b'.') {
                i += 1;
                if !digits(&mut i) {
                    return None;
                }
            }
            if matches!(bytes.get(i), Some(b'e' | b'E')) {
                i += 1;
                if matches!(bytes.get(i), Some(b'+' | b'-')) {
                    i += 1;
                }
                if !digits(&mut i) {
                    return None;
                }
            }
            self.pos = i;
            B::number(&self.text[start..i])
        }
    }
}

// ---------------------------------------------------------------------------
// AST to serde_json
// ---------------------------------------------------------------------------

fn convert(value: ast::Value<'_>) -> std::result::Result<Value, PosError> {
    Ok(match value {
        ast::Value::Object(object) => convert_object(object)?,
        ast::Value::Array(array) => {
            let mut items = Vec::with_capacity(array.elements.len());
            for element in array.elements {
                items.push(convert(element)?);
            }
            Value::Array(items)
        }
        ast::Value::StringLit(lit) => Value::String(lit.value.into_owned()),
        ast::Value::NumberLit(lit) => Value::Number(convert_number(lit.value, lit.range.start)?),
        ast::Value::BooleanLit(lit) => Value::Bool(lit.value),
        ast::Value::NullKeyword(_) => Value::Null,
    })
}

fn convert_object(object: ast::Object<'_>) -> std::result::Result<Value, PosError> {
    let mut map = Map::with_capacity(object.properties.len());
    for prop in object.properties {
        let (key, key_start) = match prop.name {
            ast::ObjectPropName::String(lit) => (lit.value.into_owned(), lit.range.start),
            // Unreachable with loose property names switched off.
            ast::ObjectPropName::Word(word) => {
                return Err((
                    word.range.start,
                    "object keys must be double-quoted strings".to_string(),
                ));
            }
        };
        // The map's own hash lookup finds duplicates: linear in the key count.
        match map.entry(key) {
            Entry::Vacant(slot) => {
                slot.insert(convert(prop.value)?);
            }
            Entry::Occupied(slot) => {
                return Err((key_start, format!("duplicate key {:?}", slot.key())));
            }
        }
    }
    Ok(Value::Object(map))
}

fn convert_number(raw: &str, start: usize) -> std::result::Result<Number, PosError> {
    if raw.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
        match raw.parse::<f64>() {
            Ok(f) if f.is_finite() => {}
            _ => {
                return Err((
                    start,
                    format!("number {raw} is out of range (it overflows a double)"),
                ));
            }
        }
    } else {
        let digits = raw.len() - usize::from(raw.starts_with('-'));
        if digits > MAX_INT_DIGITS {
            return Err((
                start,
                format!(
                    "integer with {digits} digits is too long (at most {MAX_INT_DIGITS} are allowed)"
                ),
            ));
        }
    }
    raw.parse::<Number>()
        .map_err(|_| (start, format!("invalid number {raw}")))
}

// ---------------------------------------------------------------------------
// Lexical checks jsonc-parser does not make
// ---------------------------------------------------------------------------

/// The first spot where the text breaks JSON's lexical rules in a way
/// jsonc-parser lets through: a BOM, a whitespace character JSON does not
/// allow between tokens, or a raw control character in a string.
fn first_lexical_error(text: &str) -> Option<PosError> {
    if text.starts_with('\u{FEFF}') {
        return Some((
            0,
            "the file starts with a UTF-8 byte order mark (BOM)".to_string(),
        ));
    }
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                loop {
                    // An unterminated string is jsonc-parser's to report.
                    let &b = bytes.get(i)?;
                    match b {
                        b'"' => {
                            i += 1;
                            break;
                        }
                        // Skips the escaped character; a multi-byte one leaves us
                        // on continuation bytes, which match none of these arms.
                        b'\\' => i += 2,
                        0..=0x1f => {
                            return Some((
                                i,
                                format!(
                                    "invalid control character U+{b:04X} in string (escape it)"
                                ),
                            ));
                        }
                        _ => i += 1,
                    }
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i += 2;
                while i < bytes.len() && bytes[i] != b'\n' && bytes[i] != b'\r' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                // An unterminated comment is jsonc-parser's to report.
                let end = find_block_comment_end(bytes, i + 2)?;
                i = end;
            }
            b @ (0x0b | 0x0c) => {
                return Some((i, format!("U+{b:04X} is not a JSON whitespace character")));
            }
            0x80.. => {
                let c = text[i..].chars().next()?;
                if c.is_whitespace() {
                    return Some((
                        i,
                        format!("U+{:04X} is not a JSON whitespace character", c as u32),
                    ));
                }
                i += c.len_utf8();
            }
            _ => i += 1,
        }
    }
    None
}

/// The offset just past the `*/` closing a block comment whose body starts at `from`.
fn find_block_comment_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while i + 1 < bytes.len() {
        if bytes[i] == b'*' && bytes[i + 1] == b'/' {
            return Some(i + 2);
        }
        i += 1;
    }
    None
}

/// The offset of the first character at or after `pos` that is neither
/// whitespace (as jsonc-parser skips it) nor part of a comment.
fn skip_blanks(text: &str, mut pos: usize) -> usize {
    let bytes = text.as_bytes();
    while pos < bytes.len() {
        match bytes[pos] {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => pos += 1,
            b'/' if bytes.get(pos + 1) == Some(&b'/') => {
                pos += 2;
                while pos < bytes.len() && bytes[pos] != b'\n' && bytes[pos] != b'\r' {
                    pos += 1;
                }
            }
            b'/' if bytes.get(pos + 1) == Some(&b'*') => {
                match find_block_comment_end(bytes, pos + 2) {
                    Some(end) => pos = end,
                    None => return pos,
                }
            }
            0x80.. => match text[pos..].chars().next() {
                Some(c) if c.is_whitespace() => pos += c.len_utf8(),
                _ => return pos,
            },
            _ => return pos,
        }
    }
    pos
}

// ---------------------------------------------------------------------------
// jsonc-parser errors, positioned where Python's json points
// ---------------------------------------------------------------------------

fn describe_parse_error(text: &str, err: &ParseError) -> PosError {
    use ParseErrorKind as K;
    let range = err.range();
    let start = range.start;
    let bytes = text.as_bytes();
    let byte_before = |pos: usize| pos.checked_sub(1).and_then(|p| bytes.get(p)).copied();
    let char_at = |pos: usize| text.get(pos..).and_then(|s| s.chars().next());
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
            format!("non-finite number '{}' is not valid JSON", token_text()),
        ),
        K::UnexpectedWord => describe_word(start, token_text()),
        K::UnexpectedCloseBrace => (start, "unexpected '}'".to_string()),
        K::UnexpectedCloseBracket => (start, "unexpected ']'".to_string()),
        K::UnexpectedColon => (start, "unexpected ':'".to_string()),
        K::UnexpectedComma => (start, "unexpected ','".to_string()),
        K::UnexpectedToken => match char_at(start) {
            // A word cut short by a character that cannot follow it (`NaN}`).
            Some(c) if is_word_char(c) => {
                let word = token_text();
                let end = word.find(|c| !is_word_char(c)).unwrap_or(word.len());
                describe_word(start, &word[..end])
            }
            Some(c) if c.is_control() || c.is_whitespace() => {
                (start, format!("unexpected character U+{:04X}", c as u32))
            }
            Some(c) => (start, format!("unexpected character '{c}'")),
            None => (start, "unexpected end of file".to_string()),
        },
        K::UnterminatedCommentBlock => (start, "unterminated block comment".to_string()),
        K::NestingDepthExceeded => (
            start,
            "arrays and objects are nested too deeply".to_string(),
        ),
        K::String(kind) => describe_string_error(text, start, kind),
        other => (start, lowercase_first(&other.to_string())),
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

/// 1-based line and character column of byte offset `pos`. `\n`, `\r\n` and a
/// lone `\r` each end a line, as in the reference's messages.
fn line_column(text: &str, pos: usize) -> (usize, usize) {
    let mut pos = pos.min(text.len());
    while !text.is_char_boundary(pos) {
        pos -= 1;
    }
    let bytes = text.as_bytes();
    let mut line = 1;
    let mut line_start = 0;
    for (i, &b) in bytes[..pos].iter().enumerate() {
        if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
            line += 1;
            line_start = i + 1;
        }
    }
    (line, text[line_start..pos].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::path::PathBuf;

    fn ok(text: &str) -> Value {
        match parse(text, Path::new("f.jsonc")) {
            Ok(value) => {
                agree(text);
                value
            }
            Err(err) => panic!("{text:?} should parse, got: {err}"),
        }
    }

    /// The fast path accepts only what the full parser accepts, with the same
    /// value (key order and number texts included).
    #[track_caller]
    fn agree(text: &str) {
        let Some(quick) = fast::parse(text) else {
            return;
        };
        match parse_slow(text, Path::new("f.jsonc")) {
            Ok(full) => {
                assert_eq!(quick, full, "{text:?}");
                assert_eq!(
                    serde_json::to_string(&quick).unwrap(),
                    serde_json::to_string(&full).unwrap(),
                    "{text:?}"
                );
            }
            Err(err) => panic!("fast path accepted {text:?}, full parser says {err}"),
        }
    }

    /// (line, column, message) of the error for `text`.
    #[track_caller]
    fn err(text: &str) -> (usize, usize, String) {
        assert!(fast::parse(text).is_none(), "fast path accepted {text:?}");
        match parse(text, Path::new("f.jsonc")) {
            Ok(value) => panic!("{text:?} should fail, got {value}"),
            Err(Error::Jsonc {
                path,
                line,
                column,
                message,
            }) => {
                assert_eq!(path, PathBuf::from("f.jsonc"));
                (line, column, message)
            }
            Err(other) => panic!("wrong error variant: {other:?}"),
        }
    }

    #[track_caller]
    fn err_at(text: &str, line: usize, column: usize, needle: &str) {
        let (l, c, message) = err(text);
        assert_eq!((l, c), (line, column), "position for {text:?} ({message})");
        assert!(
            message.contains(needle),
            "message for {text:?} is {message:?}, expected it to contain {needle:?}"
        );
    }

    fn number_text(v: &Value) -> &str {
        v.as_number().expect("a number").as_str()
    }

    #[test]
    fn parses_plain_json_object() {
        let v = ok(r#"{"a": 1, "b": [true, false, null], "c": {"d": "e"}, "f": [], "g": {}}"#);
        assert_eq!(
            v,
            json!({"a": 1, "b": [true, false, null], "c": {"d": "e"}, "f": [], "g": {}})
        );
    }

    #[test]
    fn keeps_key_order() {
        let v = ok(r#"{"z": 1, "a": 2, "m": {"y": 1, "b": 2}}"#);
        let keys: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["z", "a", "m"]);
        let inner: Vec<_> = v["m"].as_object().unwrap().keys().cloned().collect();
        assert_eq!(inner, ["y", "b"]);
    }

    #[test]
    fn accepts_comments_everywhere() {
        let v = ok(
            "// head\n{/*x*/\"a\"/*y*/:/*z*/1/*w*/, // tail\n \"b\": [ /* in */ 2 // end\n ]}\n// after\n/* block\n more */",
        );
        assert_eq!(v, json!({"a": 1, "b": [2]}));
    }

    #[test]
    fn comment_markers_inside_strings_are_text() {
        let v = ok(r#"{"a": "// not /* a comment */", "b": "*/", "u": "http://x/*"}"#);
        assert_eq!(v["a"], "// not /* a comment */");
        assert_eq!(v["b"], "*/");
        assert_eq!(v["u"], "http://x/*");
    }

    #[test]
    fn crlf_and_lone_cr_line_endings() {
        assert_eq!(ok("{\r\n  // c\r\n  \"a\": 1\r\n}\r\n"), json!({"a": 1}));
        // A line comment ends at a lone CR too (reference accepts this file).
        assert_eq!(ok("{\r\"a\":1 // c\r,\"b\":2}"), json!({"a": 1, "b": 2}));
        // Reference: 3:1 for the trailing comma's closer after CRLF lines.
        err_at("{\r\n\"a\":1,\r\n}", 3, 1, "trailing comma");
        // Reference counts a lone CR as a line break: 3:6.
        err_at("{\r\"a\":1,\r\"b\": x}", 3, 6, "unexpected word");
    }

    #[test]
    fn line_comment_ends_only_at_line_breaks() {
        // U+2028, U+0085 and form feed do not end a `//` comment (reference agrees).
        for sep in ["\u{2028}", "\u{85}", "\x0c"] {
            let text = format!("{{\"a\":1 // c{sep}, \"b\":2\n}}");
            assert_eq!(ok(&text), json!({"a": 1}), "{text:?}");
        }
    }

    #[test]
    fn odd_characters_inside_comments_are_fine() {
        for c in ["\x0c", "\x0b", "\x1c", "\u{85}", "\u{2028}", "\u{feff}"] {
            let text = format!("{{/* {c} */\"a\":1}}");
            assert_eq!(ok(&text), json!({"a": 1}), "{text:?}");
        }
    }

    #[test]
    fn numbers_keep_their_text() {
        let v = ok(
            r#"{"f": [0.1, 1e3, 1E-7, 1e16, 123456789012345678901234567890, -0, -0.0, 2.5E300, 8080, 8080.0, 1e-400]}"#,
        );
        let texts: Vec<_> = v["f"].as_array().unwrap().iter().map(number_text).collect();
        assert_eq!(
            texts,
            [
                "0.1",
                "1e+3",
                "1e-7",
                "1e+16",
                "123456789012345678901234567890",
                "-0",
                "-0.0",
                "2.5e+300",
                "8080",
                "8080.0",
                "1e-400"
            ]
        );
    }

    #[test]
    fn string_escapes() {
        let v = ok(
            r#"{"a": "\u00e9\u00E9\/\"\\\b\f\n\r\t\u0000", "p": "\ud83d\ude00", "k\u00e9y": 1}"#,
        );
        assert_eq!(v["a"], "\u{e9}\u{e9}/\"\\\u{8}\u{c}\n\r\t\u{0}");
        assert_eq!(v["p"], "\u{1F600}");
        assert_eq!(v["k\u{e9}y"], 1);
        // Raw non-ASCII and DEL are fine in strings.
        let v = ok("{\"a\": \"\u{e9}\u{1F600}\x7f\u{2028}\u{85}\"}");
        assert_eq!(v["a"], "\u{e9}\u{1F600}\x7f\u{2028}\u{85}");
    }

    #[test]
    fn invalid_escapes() {
        // Reference: 1:8 (the backslash) for both.
        err_at(r#"{"a":"x\qy"}"#, 1, 8, "escape");
        err_at(r#"{"a":"x\'y"}"#, 1, 8, "escape");
        err_at(r#"{"a":"x\x41"}"#, 1, 8, "escape");
        err_at(r#"{"a":"x\v"}"#, 1, 8, "escape");
        err_at("{\"a\":\"x\\\ny\"}", 1, 8, "escape");
        // Reference: 1:9 (the `u`).
        err_at(r#"{"a":"x\u12zy"}"#, 1, 9, "four hex digits");
        // Reference: 1:14 (the second escape's `u`).
        err_at(r#"{"a":"\ud800\u12zz"}"#, 1, 14, "four hex digits");
        err_at(r#"{"a":"\ud800\uzzzz"}"#, 1, 14, "four hex digits");
    }

    #[test]
    fn lone_surrogates_are_rejected() {
        // Deliberate divergence: the reference accepts these.
        err_at(r#"{"a":"\ud800"}"#, 1, 7, "surrogate");
        err_at(r#"{"a":"\udc00x"}"#, 1, 7, "surrogate");
        err_at(r#"{"a":"\ud800\u0041"}"#, 1, 7, "surrogate");
    }

    #[test]
    fn raw_control_characters_in_strings() {
        // Reference: 1:8 for each.
        err_at("{\"a\":\"x\x01y\"}", 1, 8, "control character U+0001");
        err_at("{\"a\":\"x\ty\"}", 1, 8, "control character U+0009");
        err_at("{\"a\":\"x\ny\"}", 1, 8, "control character U+000A");
        err_at("{\"x\x1f\":1}", 1, 4, "control character");
        // Inside an unterminated string the control character comes first
        // (reference: 2:10 and 1:10).
        err_at("{\n\"a\":\"abc,\n\"b\":1}", 2, 10, "control character");
        err_at("{\"a\":\"abc\x01", 1, 10, "control character");
        // A control character after an earlier syntax error: the syntax error wins.
        err_at("{\"a\" 1, \"b\": \"\x01\"}", 1, 6, "':'");
        // A syntax error after the control character: the control character wins.
        err_at("{\"b\": \"\x01\", \"a\" 1}", 1, 8, "control character");
    }

    #[test]
    fn non_json_whitespace_is_rejected() {
        // Reference: 1:8 for all three.
        err_at("{\"a\":1,\x0b\"b\":2}", 1, 8, "U+000B");
        err_at("{\"a\":1,\x0c\"b\":2}", 1, 8, "U+000C");
        err_at("{\"a\":1,\u{a0}\"b\":2}", 1, 8, "U+00A0");
        err_at("{\"a\":1,\u{2028}\"b\":2}", 1, 8, "U+2028");
    }

    #[test]
    fn bom_is_rejected() {
        // Reference: 1:1, "Unexpected UTF-8 BOM".
        err_at("\u{feff}{\"a\":1}", 1, 1, "byte order mark");
    }

    #[test]
    fn trailing_commas() {
        // Reference: 1:8, the position of the `}`.
        err_at(r#"{"a":1,}"#, 1, 8, "trailing comma");
        // Reference: 1:12, the `]`.
        err_at(r#"{"a":[1,2, ]}"#, 1, 12, "trailing comma");
        // Reference: 1:18 / 2:3 / 3:3: comments are blanks.
        err_at(r#"{"a":1, /* cc */ }"#, 1, 18, "trailing comma");
        err_at("{\"a\":1, // x\n  }", 2, 3, "trailing comma");
        err_at("{\"a\":1,/*\n\n*/}", 3, 3, "trailing comma");
        err_at("{\"a\":1,/*\n\n*/\n  }", 4, 3, "trailing comma");
        // Reference: 1:19 (columns count characters, not bytes).
        err_at(
            "{\"\u{e9}\u{1F600}\":\"\u{fc}\", \"b\": 1,}",
            1,
            19,
            "trailing comma",
        );
    }

    #[test]
    fn duplicate_keys() {
        err_at("{\"a\":1,\n \"a\":2}", 2, 2, "duplicate key \"a\"");
        err_at(
            r#"{"o": {"k": 1, "j": 2, "k": 3}}"#,
            1,
            24,
            "duplicate key \"k\"",
        );
        // Same key in different objects is fine.
        assert_eq!(
            ok(r#"{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}"#)["b"][1]["a"],
            2
        );
        // Keys equal after unescaping are duplicates.
        err_at(r#"{"é": 1, "\u00e9": 2}"#, 1, 10, "duplicate key");
    }

    #[test]
    fn non_finite_numbers() {
        for (text, word) in [
            (r#"{"a":NaN}"#, "NaN"),
            (r#"{"a":Infinity}"#, "Infinity"),
            (r#"{"a":-Infinity}"#, "-Infinity"),
        ] {
            err_at(text, 1, 6, &format!("'{word}'"));
        }
    }

    #[test]
    fn number_syntax_errors() {
        // Positions recorded from the reference.
        err_at(r#"{"a":0x10}"#, 1, 7, "hexadecimal");
        err_at(r#"{"a":-0x1}"#, 1, 8, "hexadecimal");
        err_at(r#"{"a":+1}"#, 1, 6, "'+'");
        err_at(r#"{"a":.5}"#, 1, 6, "decimal point");
        err_at(r#"{"a":5.}"#, 1, 7, "decimal point");
        err_at(r#"{"a":-}"#, 1, 6, "'-'");
        err_at(r#"{"a":1e}"#, 1, 7, "exponent");
        err_at(r#"{"a":01}"#, 1, 7, "comma");
        err_at(r#"{"a":-.5}"#, 1, 6, "decimal point");
        err_at(r#"{"a":1e+}"#, 1, 7, "exponent");
    }

    #[test]
    fn float_overflow_is_rejected() {
        // The reference fails with a traceback when writing these.
        err_at(r#"{"a":1e400}"#, 1, 6, "out of range");
        err_at(r#"{"a": [-1.5e309]}"#, 1, 8, "out of range");
        // Underflow is fine: 0.0 in Python too.
        assert_eq!(number_text(&ok(r#"{"a":1e-400}"#)["a"]), "1e-400");
    }

    #[test]
    fn integer_digit_limit() {
        let at_limit = format!("{{\"a\":1{}}}", "0".repeat(MAX_INT_DIGITS - 1));
        assert_eq!(number_text(&ok(&at_limit)["a"]).len(), MAX_INT_DIGITS);
        let negative = format!("{{\"a\":-1{}}}", "0".repeat(MAX_INT_DIGITS - 1));
        ok(&negative);
        let over = format!("{{\"a\":1{}}}", "0".repeat(MAX_INT_DIGITS));
        err_at(&over, 1, 6, "4301 digits");
        // Big integers below the limit are kept in full.
        let v = ok(r#"{"a":123456789012345678901234567890123456789012345678901234567890}"#);
        assert_eq!(
            number_text(&v["a"]),
            "123456789012345678901234567890123456789012345678901234567890"
        );
        // Long floats are not limited.
        let long_float = format!("{{\"a\":1.{}}}", "0".repeat(MAX_INT_DIGITS + 10));
        ok(&long_float);
    }

    #[test]
    fn structural_errors() {
        // Positions recorded from the reference.
        err_at(r#"{a:1}"#, 1, 2, "double quotes");
        err_at(r#"{"a":'x'}"#, 1, 6, "double quotes");
        err_at(r#"{"a" 1}"#, 1, 6, "':'");
        err_at(r#"{"a":1 "b":2}"#, 1, 8, "comma");
        err_at(r#"{"a":1 /*c*/ "b":2}"#, 1, 14, "comma");
        err_at(r#"{"a":1"#, 1, 7, "not closed");
        err_at(r#"{"a":1 // c"#, 1, 12, "not closed");
        err_at(r#"{"a":[1,"#, 1, 9, "not closed");
        err_at(r#"{} {}"#, 1, 4, "after the top-level value");
        err_at(r#"{"a":1} /"#, 1, 9, "'/'");
        err_at(r#"{"a":1 /* a /* b */ */}"#, 1, 21, "'*'");
        err_at(r#"{"a":truex}"#, 1, 10, "after 'true'");
        err_at(r#"{"a":"abc}"#, 1, 6, "unterminated string");
        err_at(r#"{"a": }"#, 1, 7, "'}'");
        err_at(r#"{"a":"#, 1, 6, "value");
        err_at(r#"{"a": [1 2]}"#, 1, 10, "comma");
        err_at(r#"{"a": tru}"#, 1, 7, "unexpected word");
        err_at(r#"{"a": yes, "b": 1}"#, 1, 7, "unexpected word 'yes'");
        err_at(r#"{"a": [nullx, 1]}"#, 1, 12, "after 'null'");
        err_at(r#"{"a": [NaN, 1]}"#, 1, 8, "'NaN'");
        err_at("{\"a\": @}", 1, 7, "'@'");
    }

    #[test]
    fn unterminated_block_comment() {
        // Reference: 1:9, "unterminated block comment".
        err_at(r#"{"a":1} /* abc"#, 1, 9, "unterminated block comment");
        err_at("/* abc", 1, 1, "unterminated block comment");
    }

    #[test]
    fn root_must_be_an_object() {
        for text in ["[1]", "\"x\"", "1", "true", "null", "  // c\n [ ]"] {
            let (_, _, message) = err(text);
            assert!(message.contains("top-level"), "{text:?}: {message}");
        }
        err_at("\n  [1]", 2, 3, "top-level");
    }

    #[test]
    fn empty_inputs() {
        // Reference: 1:1, 3:1 and 2:3 (the end of the file).
        err_at("", 1, 1, "empty");
        err_at("// hi\n/* x */\n", 3, 1, "only comments");
        err_at("  \n  ", 2, 3, "empty");
    }

    #[test]
    fn nesting_is_limited_without_overflowing() {
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(5000), "]".repeat(5000));
        let (_, _, message) = err(&deep);
        assert!(message.contains("nested too deeply"), "{message}");
        let fine = format!("{{\"a\":{}{}}}", "[".repeat(200), "]".repeat(200));
        ok(&fine);
    }

    #[test]
    fn error_display_has_path_line_and_column() {
        let err = parse("{\"a\":1,}", Path::new("/x/y.jsonc")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "/x/y.jsonc:1:8: trailing comma is not allowed"
        );
    }

    #[test]
    fn line_column_counts_characters_and_breaks() {
        let text = "a\r\nb\rc\nd\u{e9}\u{1F600}x";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 3), (2, 1));
        assert_eq!(line_column(text, 5), (3, 1));
        assert_eq!(line_column(text, 7), (4, 1));
        assert_eq!(line_column(text, text.len() - 1), (4, 4));
        assert_eq!(line_column(text, text.len()), (4, 5));
    }

    #[test]
    fn large_object_is_linear() {
        // 64,000 keys plus a duplicate at the end: quick, and the duplicate is found.
        let mut text = String::from("{");
        for i in 0..64_000 {
            text.push_str(&format!("\"key{i}\": [\"v{i}\", {i}],\n"));
        }
        text.push_str("\"last\": 1}");
        let v = ok(&text);
        assert_eq!(v.as_object().unwrap().len(), 64_001);
        let dup = text.replace("\"last\"", "\"key17\"");
        let (line, _, message) = err(&dup);
        assert_eq!(line, 64_001);
        assert!(message.contains("key17"));
    }

    /// The plain-JSON fast path accepts only objects serde_json accepts, with
    /// the same value.
    #[track_caller]
    fn agree_json(text: &str) {
        let view = parse_plain_json_view(text);
        assert_eq!(
            view.as_ref().map(Json::to_value),
            parse_plain_json(text),
            "view of {text:?}"
        );
        if let Some(view) = &view {
            assert_eq!(
                serde_json::to_string(&view.to_value()).unwrap(),
                serde_json::to_string(&parse_plain_json(text).unwrap()).unwrap()
            );
            assert_eq!(Json::of(&view.to_value()).to_value(), view.to_value());
        }
        let Some(quick) = parse_plain_json(text) else {
            return;
        };
        match serde_json::from_str::<Value>(text) {
            Ok(full) => {
                assert_eq!(quick, full, "{text:?}");
                assert_eq!(
                    serde_json::to_string(&quick).unwrap(),
                    serde_json::to_string(&full).unwrap(),
                    "{text:?}"
                );
            }
            Err(err) => panic!("plain-JSON path accepted {text:?}, serde_json says {err}"),
        }
    }

    #[test]
    fn plain_json_takes_no_comments_and_numbers_as_serde_does() {
        for text in [
            r#"{"a": [1, -0, 0.5, 1e3, 1E-7, 1.5E+300, 12345678901234567890123, -1.0e-2]}"#,
            r#"{"s": "\u00e9\ud83d\ude00\n\/\"", "t": true, "n": null, "o": {}, "l": []}"#,
            " \n\t\r{\"a\" : 1 } \n",
        ] {
            assert!(parse_plain_json(text).is_some(), "{text}");
            agree_json(text);
        }
        for text in [
            "{\"a\": 1} // c",
            "{/* c */\"a\": 1}",
            "[1]",
            "{\"a\": 1, \"a\": 2}",
            "{\"a\": 1e400}",
            "",
        ] {
            assert!(parse_plain_json(text).is_none(), "{text}");
        }
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(200), "]".repeat(200));
        assert!(parse_plain_json(&deep).is_none());
        // Duplicate keys, also past the few that are compared one by one.
        for n in [2, 7, 8, 9, 30] {
            let members: Vec<String> = (0..n).map(|i| format!("\"k{i}\": {i}")).collect();
            let unique = format!("{{{}}}", members.join(", "));
            assert!(parse_plain_json_view(&unique).is_some(), "{unique}");
            agree_json(&unique);
            for dup in [0, n - 1] {
                let text = format!("{{{}, \"k{dup}\": 1}}", members.join(", "));
                assert!(parse_plain_json_view(&text).is_none(), "{text}");
                assert!(parse_plain_json(&text).is_none(), "{text}");
            }
            let escaped = format!("{{{}, \"\\u006b0\": 1}}", members.join(", "));
            assert!(parse_plain_json_view(&escaped).is_none(), "{escaped}");
        }
    }

    use crate::test_rng::Rng;

    const TOKENS: &[&str] = &[
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        ",",
        ":",
        "\"a\"",
        "\"b\"",
        "\"a\"",
        "\"\"",
        "\"\\u00e9\"",
        "\"\\ud83d\\ude00\"",
        "\"\\ud800\"",
        "\"\\udc00\"",
        "\"\\ud800\\u0041\"",
        "\"x\\\"y\"",
        "\"\\/\\b\\f\\n\\r\\t\\\\\"",
        "\"\\q\"",
        "\"\\u12\"",
        "\"\\u00E9\"",
        "\"\u{e9}\u{1F600}\"",
        "\"\x01\"",
        "\"\t\"",
        "\"\x7f\"",
        "\"",
        "\\",
        "0",
        "1",
        "-0",
        "-",
        "1.5",
        "1.",
        ".5",
        "01",
        "1e5",
        "1E+2",
        "1e-400",
        "1e400",
        "-1.5e309",
        "0x10",
        "+1",
        "12345678901234567890",
        "true",
        "false",
        "null",
        "truex",
        "nul",
        "NaN",
        "Infinity",
        " ",
        "\n",
        "\r",
        "\r\n",
        "\t",
        "\x0b",
        "\x0c",
        "\u{a0}",
        "\u{2028}",
        "\u{feff}",
        "// c\n",
        "// c",
        "//c\r",
        "/* c */",
        "/* c",
        "/*/",
        "/",
        "*/",
        "@",
        "'x'",
        "x",
        "\u{e9}",
    ];

    #[test]
    fn fast_path_agrees_with_the_full_parser_on_token_soup() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut accepted = 0;
        for _ in 0..60_000 {
            let len = 1 + rng.next() % 14;
            let mut text = String::from(if rng.next().is_multiple_of(4) {
                ""
            } else {
                "{"
            });
            for _ in 0..len {
                text.push_str(rng.pick(TOKENS));
            }
            if !rng.next().is_multiple_of(3) {
                text.push('}');
            }
            if fast::parse(&text).is_some() {
                accepted += 1;
            }
            agree(&text);
            agree_json(&text);
        }
        assert!(accepted > 100, "only {accepted} inputs were accepted");
    }

    /// Valid documents with blanks and comments sprinkled between tokens, then
    /// single-byte mutations of them.
    #[test]
    fn fast_path_agrees_with_the_full_parser_on_mutated_documents() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        const BLANKS: &[&str] = &[
            "", "", " ", "\n  ", "\r\n", "\t", "/* c */", "// c\n", "//\r",
        ];
        const SCALARS: &[&str] = &[
            "1",
            "-0",
            "0.25",
            "1e-7",
            "2.5E300",
            "\"s\"",
            "\"\\u00e9\\n\"",
            "true",
            "false",
            "null",
            "\"~/.ssh\"",
            "\"\\ud83d\\ude00\"",
            "[]",
            "{}",
        ];
        fn doc(rng: &mut Rng, depth: u32, out: &mut String) {
            let blank = |rng: &mut Rng, out: &mut String| out.push_str(rng.pick(BLANKS));
            match rng.next() % if depth > 3 { 1 } else { 3 } {
                0 => out.push_str(rng.pick(SCALARS)),
                1 => {
                    out.push('[');
                    let n = rng.next() % 4;
                    for i in 0..n {
                        if i > 0 {
                            out.push(',');
                        }
                        blank(rng, out);
                        doc(rng, depth + 1, out);
                        blank(rng, out);
                    }
                    out.push(']');
                }
                _ => {
                    out.push('{');
                    let n = rng.next() % 4;
                    for i in 0..n {
                        if i > 0 {
                            out.push(',');
                        }
                        blank(rng, out);
                        out.push_str(&format!("\"k{i}\""));
                        blank(rng, out);
                        out.push(':');
                        blank(rng, out);
                        doc(rng, depth + 1, out);
                        blank(rng, out);
                    }
                    out.push('}');
                }
            }
        }
        let noise: &[u8] = b"{}[]:,\"\\/*\n\r\t 0-.eE+ax\x01\x0b";
        for _ in 0..4_000 {
            let mut text = String::from("{\"root\":");
            doc(&mut rng, 0, &mut text);
            text.push('}');
            assert!(fast::parse(&text).is_some(), "{text:?}");
            agree(&text);
            agree_json(&text);
            for _ in 0..8 {
                let mut bytes = text.clone().into_bytes();
                let at = (rng.next() % bytes.len() as u64) as usize;
                let b = noise[(rng.next() % noise.len() as u64) as usize];
                match rng.next() % 3 {
                    0 => bytes[at] = b,
                    1 => bytes.insert(at, b),
                    _ => {
                        bytes.remove(at);
                    }
                }
                if let Ok(mutated) = String::from_utf8(bytes) {
                    agree(&mutated);
                    agree_json(&mutated);
                }
            }
        }
    }

    #[test]
    fn fast_path_takes_every_shipped_fragment() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut seen = 0;
        let mut stack = vec![root.join("example"), root.join("src"), root.join("tests")];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "jsonc") {
                    let Ok(text) = std::fs::read_to_string(&path) else {
                        continue;
                    };
                    agree(&text);
                    if parse_slow(&text, &path).is_ok() {
                        assert!(fast::parse(&text).is_some(), "{}", path.display());
                    }
                    seen += 1;
                }
            }
        }
        assert!(seen > 10, "found only {seen} fragments");
    }
}
