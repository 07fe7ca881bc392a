//! Reading an existing Claude settings file. Errors name the file and say
//! what is wrong with it, never what it contains: these files can hold API
//! keys in `env`.

use std::path::Path;

use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::pyjson::Out;

/// The file's top-level object, or `None` when there is no file.
pub fn read(path: &Path) -> Result<Option<Map<String, Value>>> {
    let Some(text) = read_text(path)? else {
        return Ok(None);
    };
    parse(&text, path).map(Some)
}

/// The file's JSON value, whatever its type, or `None` when there is no
/// file (a sync reads only some paths of the target, see `sync`).
pub fn read_value(path: &Path) -> Result<Option<Value>> {
    let Some(text) = read_text(path)? else {
        return Ok(None);
    };
    parse_value(&text, path).map(Some)
}

/// Whether the file at `path` holds exactly what `write` writes and a
/// final newline (what twsrt writes for a new target), compared as it is
/// written and read, so neither text is held. No file, or one that cannot
/// be read, is `false`: the caller's own read then reports it.
pub fn holds_exactly(path: &Path, write: impl FnOnce(&mut Matching)) -> bool {
    let Ok(Some(file)) = crate::apply::open_existing(path) else {
        return false;
    };
    let mut sink = Matching {
        file,
        chunk: vec![0; 64 * 1024],
        at: 0,
        len: 0,
        same: true,
    };
    write(&mut sink);
    sink.push_str("\n");
    sink.same && sink.at == sink.len && sink.read_chunk() == Some(0)
}

/// The sink of [`holds_exactly`]: each text written is compared with the
/// next bytes of the file, read a chunk at a time.
pub struct Matching {
    file: std::fs::File,
    chunk: Vec<u8>,
    /// The unread part of `chunk` is `at..len`.
    at: usize,
    len: usize,
    /// Whether everything written so far is what the file holds there.
    same: bool,
}

impl Matching {
    /// Reads the next chunk: its length (0 at the end of the file), or
    /// `None` when the file cannot be read.
    fn read_chunk(&mut self) -> Option<usize> {
        use std::io::Read;
        loop {
            match self.file.read(&mut self.chunk) {
                Ok(n) => {
                    (self.at, self.len) = (0, n);
                    return Some(n);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => return None,
            }
        }
    }
}

impl Out for Matching {
    fn push_str(&mut self, s: &str) {
        let mut rest = s.as_bytes();
        while self.same && !rest.is_empty() {
            if self.at == self.len && self.read_chunk().unwrap_or(0) == 0 {
                self.same = false;
                break;
            }
            let n = rest.len().min(self.len - self.at);
            self.same = rest[..n] == self.chunk[self.at..self.at + n];
            self.at += n;
            rest = &rest[n..];
        }
    }
}

/// The file's text without a leading UTF-8 byte order mark (Claude Code
/// loads a settings file that starts with one), or `None` when there is no
/// file.
fn read_text(path: &Path) -> Result<Option<String>> {
    // Checks the file type first: a FIFO must not block the read.
    let Some(mut bytes) = crate::apply::read_existing(path)? else {
        return Ok(None);
    };
    if crate::bom::strip_bytes(&bytes).len() < bytes.len() {
        bytes.drain(..crate::bom::BOM.len());
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| Error::target(path, "is not valid UTF-8, so it cannot be read as JSON"))
}

/// The file's text (from `path`) as its top-level object.
fn parse(text: &str, path: &Path) -> Result<Map<String, Value>> {
    match parse_value(text, path)? {
        Value::Object(map) => Ok(map),
        _ => Err(Error::target(
            path,
            "does not hold a JSON object at the top level; fix or remove it first",
        )),
    }
}

/// The file's text (from `path`) as a JSON value.
fn parse_value(text: &str, path: &Path) -> Result<Value> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        // Positions as twsrt 3.3.3 (Python's json) gives them: columns in
        // characters, plus the 0-based character index. serde_json counts
        // bytes and stops elsewhere on some errors, so it is only the fallback.
        let (line, column, index) = match crate::fragment::plain_json_error_offset(text) {
            Some(pos) => {
                let (line, column) = crate::text_position::line_column(text, pos);
                (line, column, text[..pos.min(text.len())].chars().count())
            }
            None => (
                e.line(),
                e.column(),
                char_offset(text, e.line(), e.column()),
            ),
        };
        Error::target(
            path,
            format!(
                "is not valid JSON (line {line}, column {column}, character {index}); \
                 fix or remove it first"
            ),
        )
    })?;
    if has_overflowing_number(&value) {
        // Rewritten the way Python prints it, such a number would become
        // `Infinity`, which is not JSON: Claude Code would drop the file.
        return Err(Error::target(
            path,
            "holds a number too large for a 64-bit float; fix or remove it first",
        ));
    }
    Ok(value)
}

/// The 0-based character index of 1-based `line` and `column` in `text`,
/// the third number twsrt 3.3.3 gives for a JSON error.
fn char_offset(text: &str, line: usize, column: usize) -> usize {
    let before: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(|l| l.chars().count())
        .sum();
    before + column.saturating_sub(1)
}

/// A float literal that overflows to infinity (`1e400`).
fn has_overflowing_number(value: &Value) -> bool {
    match value {
        Value::Number(n) => matches!(
            crate::pyjson::classify(n),
            crate::pyjson::PyNumber::Float(f) if !f.is_finite()
        ),
        Value::Array(items) => items.iter().any(has_overflowing_number),
        Value::Object(map) => map.values().any(has_overflowing_number),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exactly the text and one newline, across read chunks; anything
    /// else, no file and a FIFO (which must not block) are `false`.
    #[test]
    fn holds_exactly_the_text_and_a_final_newline() {
        let dir = tempfile::TempDir::new().unwrap();
        let path = dir.path().join("s.json");
        let long = "x".repeat(200_000);
        let (long_nl, long_y) = (format!("{long}\n"), format!("{long}y\n"));
        for (text, content, want) in [
            ("{}", "{}\n", true),
            ("{}", "{}", false),
            ("{}", "{}\n\n", false),
            ("{}", "{ }\n", false),
            ("{}", "\n", false),
            ("", "\n", true),
            (long.as_str(), long_nl.as_str(), true),
            (long.as_str(), long_y.as_str(), false),
            (long.as_str(), &long[..199_999], false),
        ] {
            std::fs::write(&path, content).unwrap();
            assert_eq!(
                holds_exactly(&path, |out| out.push_str(text)),
                want,
                "{:?}",
                &content[..content.len().min(9)]
            );
        }
        // Written in pieces of every size, across the read chunks.
        std::fs::write(&path, &long_nl).unwrap();
        let pieces = |out: &mut Matching| {
            let mut rest = long.as_str();
            for size in 1.. {
                if rest.is_empty() {
                    break;
                }
                let (piece, tail) = rest.split_at(size.min(rest.len()));
                out.push_str(piece);
                rest = tail;
            }
        };
        assert!(holds_exactly(&path, pieces));
        assert!(!holds_exactly(&path, |out| {
            pieces(out);
            out.push('x');
        }));
        assert!(!holds_exactly(&dir.path().join("missing"), |_| ()));
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        assert!(!holds_exactly(&fifo, |_| ()));
    }

    /// The position twsrt 3.3.3 reports (Python's json): columns in
    /// characters, the index of the offending character, the end of the text
    /// for a truncated file; a comment is a syntax error.
    #[test]
    fn syntax_errors_are_placed_where_python_places_them() {
        let at = |text: &str| {
            let err = parse(text, Path::new("/s.json")).unwrap_err().to_string();
            let start = err.find("(line ").unwrap();
            err[start..err.find(')').unwrap() + 1].to_string()
        };
        for (text, want) in [
            ("", "(line 1, column 1, character 0)"),
            ("  ", "(line 1, column 3, character 2)"),
            ("{\"a\": 1", "(line 1, column 8, character 7)"),
            ("{\"a\": tru}", "(line 1, column 7, character 6)"),
            ("{\"é\": 1,}", "(line 1, column 9, character 8)"),
            ("{\"a\": \"\\u12\"}", "(line 1, column 9, character 8)"),
            ("{\"a\":1,\"a\":2,}", "(line 1, column 14, character 13)"),
            (
                "{\n  \"a\": 1,\n  // c\n}",
                "(line 3, column 3, character 14)",
            ),
            ("{\"a\": 1.}", "(line 1, column 8, character 7)"),
        ] {
            assert_eq!(at(text), want, "{text:?}");
        }
    }
}
