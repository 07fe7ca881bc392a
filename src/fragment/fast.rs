//! One pass from text to value for the everyday fragment: strict JSONC that
//! parses without error. It builds the value the syntax tree's conversion
//! builds ([`super::convert`]) and gives up (`None`) at the first thing it
//! does not take plainly: any syntax error, non-JSON whitespace, a raw
//! control character or lone surrogate in a string, a duplicate key, a
//! number the conversion refuses, nesting deeper than [`MAX_DEPTH`]. Then
//! the full parser runs and reports the error where the reference does, so
//! this reader may refuse more than the full parser, never accept more
//! (a test holds the two equal on everything it accepts).

use serde_json::{Map, Value};

use super::convert;

/// Deeper documents are left to the full parser (which allows about 512).
const MAX_DEPTH: usize = 64;

/// The value of `text` when it is a strict JSONC object that parses
/// without error; `None` when the full parser must decide.
pub(super) fn parse(text: &str) -> Option<Value> {
    let mut reader = Reader {
        text,
        at: 0,
        items: Vec::new(),
    };
    reader.skip_blank()?;
    if reader.peek()? != b'{' {
        return None;
    }
    let value = reader.object(1)?;
    reader.skip_blank()?;
    (reader.at == text.len()).then_some(value)
}

struct Reader<'t> {
    text: &'t str,
    /// Byte offset of the next unread byte.
    at: usize,
    /// The items of the lists being read, innermost last: each list is
    /// collected here and moved out at its end, so it is allocated once,
    /// at its size, instead of growing by doubling.
    items: Vec<Value>,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// Skips JSON whitespace and comments; `None` at a lone `/` or an
    /// unterminated block comment.
    fn skip_blank(&mut self) -> Option<()> {
        let bytes = self.text.as_bytes();
        loop {
            match bytes.get(self.at) {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.at += 1,
                Some(b'/') => match bytes.get(self.at + 1) {
                    Some(b'/') => {
                        self.at += 2;
                        self.at += bytes[self.at..]
                            .iter()
                            .position(|&b| b == b'\n' || b == b'\r')
                            .unwrap_or(bytes.len() - self.at);
                    }
                    Some(b'*') => {
                        let end = self.text[self.at + 2..].find("*/")?;
                        self.at += 2 + end + 2;
                    }
                    _ => return None,
                },
                _ => return Some(()),
            }
        }
    }

    /// Expects `byte` next (after blanks) and steps over it.
    fn expect(&mut self, byte: u8) -> Option<()> {
        self.skip_blank()?;
        (self.peek()? == byte).then(|| self.at += 1)
    }

    fn value(&mut self, depth: usize) -> Option<Value> {
        self.skip_blank()?;
        match self.peek()? {
            b'{' => self.object(depth + 1),
            b'[' => self.array(depth + 1),
            b'"' => self.string().map(Value::String),
            b't' => self.word("true", Value::Bool(true)),
            b'f' => self.word("false", Value::Bool(false)),
            b'n' => self.word("null", Value::Null),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn word(&mut self, word: &str, value: Value) -> Option<Value> {
        self.text[self.at..].starts_with(word).then(|| {
            self.at += word.len();
            value
        })
    }

    /// At `{`.
    fn object(&mut self, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.at += 1;
        let mut map = Map::new();
        self.skip_blank()?;
        if self.peek()? == b'}' {
            self.at += 1;
            return Some(Value::Object(map));
        }
        loop {
            self.skip_blank()?;
            if self.peek()? != b'"' {
                return None;
            }
            let key = self.string()?;
            self.expect(b':')?;
            let value = self.value(depth)?;
            if map.contains_key(&key) {
                return None;
            }
            map.insert(key, value);
            self.skip_blank()?;
            match self.peek()? {
                b',' => self.at += 1,
                b'}' => {
                    self.at += 1;
                    return Some(Value::Object(map));
                }
                _ => return None,
            }
        }
    }

    /// At `[`.
    fn array(&mut self, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.at += 1;
        self.skip_blank()?;
        if self.peek()? == b']' {
            self.at += 1;
            return Some(Value::Array(Vec::new()));
        }
        let start = self.items.len();
        loop {
            let item = self.value(depth)?;
            self.items.push(item);
            self.skip_blank()?;
            match self.peek()? {
                b',' => self.at += 1,
                b']' => {
                    self.at += 1;
                    return Some(Value::Array(self.items.drain(start..).collect()));
                }
                _ => return None,
            }
        }
    }

    /// At `"`: the decoded string; `None` at a raw control character, an
    /// escape JSON does not have, a lone surrogate or a missing `"`.
    fn string(&mut self) -> Option<String> {
        let start = self.at + 1;
        let run = self.plain_run(start)?;
        if self.text.as_bytes()[start + run] == b'"' {
            self.at = start + run + 1;
            return Some(self.text[start..start + run].to_string());
        }
        let bytes = self.text.as_bytes();
        let mut out = String::with_capacity(run + 16);
        self.at = start;
        loop {
            let run = self.plain_run(self.at)?;
            out.push_str(&self.text[self.at..self.at + run]);
            self.at += run;
            match bytes[self.at] {
                b'"' => {
                    self.at += 1;
                    return Some(out);
                }
                b'\\' => {
                    let c = self.escape()?;
                    out.push(c);
                }
                _ => return None,
            }
        }
    }

    /// The length of the run of string characters from `from` up to the
    /// next `"` or `\`; `None` when the text ends first or the run holds
    /// a raw control character. Sixteen bytes are looked at per step, with
    /// no branch inside a step (the compiler turns it into vector compares
    /// of the baseline instruction set, without detecting the CPU at run
    /// time, which costs more than a small policy's whole read).
    fn plain_run(&self, from: usize) -> Option<usize> {
        let rest = &self.text.as_bytes()[from..];
        let stop = |b: u8| b == b'"' || b == b'\\' || b < 0x20;
        let mut at = 0;
        for chunk in rest.chunks(16) {
            if chunk.iter().fold(false, |seen, &b| seen | stop(b)) {
                let end = at + chunk.iter().position(|&b| stop(b))?;
                return (rest[end] >= 0x20).then_some(end);
            }
            at += chunk.len();
        }
        None
    }

    /// At `\` inside a string: the character it stands for.
    fn escape(&mut self) -> Option<char> {
        let named = match self.text.as_bytes().get(self.at + 1)? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => return self.unicode_escape(),
            _ => return None,
        };
        self.at += 2;
        Some(named)
    }

    /// At `\u`: one character, from a surrogate pair when it takes two.
    fn unicode_escape(&mut self) -> Option<char> {
        let first = self.hex_unit()?;
        if !(0xD800..0xE000).contains(&first) {
            return char::from_u32(first);
        }
        if first >= 0xDC00 || !self.text[self.at..].starts_with("\\u") {
            return None;
        }
        let second = self.hex_unit()?;
        if !(0xDC00..0xE000).contains(&second) {
            return None;
        }
        char::from_u32(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
    }

    /// At `\uXXXX`: the UTF-16 unit, stepping over the six bytes.
    fn hex_unit(&mut self) -> Option<u32> {
        let digits = self.text.get(self.at + 2..self.at + 6)?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let unit = u32::from_str_radix(digits, 16).ok()?;
        self.at += 6;
        Some(unit)
    }

    /// At `-` or a digit: a number by JSON's grammar, converted as the
    /// syntax tree's numbers are.
    fn number(&mut self) -> Option<Value> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        let digits = |at: usize| {
            bytes[at..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count()
        };
        if bytes[self.at] == b'-' {
            self.at += 1;
        }
        match bytes.get(self.at)? {
            b'0' => self.at += 1,
            b'1'..=b'9' => self.at += digits(self.at),
            _ => return None,
        }
        if bytes.get(self.at) == Some(&b'.') {
            let n = digits(self.at + 1);
            if n == 0 {
                return None;
            }
            self.at += 1 + n;
        }
        if matches!(bytes.get(self.at), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(bytes.get(self.at), Some(b'+' | b'-')) {
                self.at += 1;
            }
            let n = digits(self.at);
            if n == 0 {
                return None;
            }
            self.at += n;
        }
        let raw = &self.text[start..self.at];
        convert::number(raw, start).ok().map(Value::Number)
    }
}
