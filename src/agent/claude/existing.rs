//! Reading an existing Claude settings file. Errors name the file and say
//! what is wrong with it, never what it contains: these files can hold API
//! keys in `env`.

use std::path::Path;

use serde_json::{Map, Value};

use crate::error::{Error, Result};

/// The file's top-level object, or `None` when there is no file.
pub fn read(path: &Path) -> Result<Option<Map<String, Value>>> {
    let Some(text) = read_text(path)? else {
        return Ok(None);
    };
    parse(&text, path).map(Some)
}

/// The file's text, or `None` when there is no file.
fn read_text(path: &Path) -> Result<Option<String>> {
    // Checks the file type first: a FIFO must not block the read.
    let Some(bytes) = crate::apply::read_existing(path)? else {
        return Ok(None);
    };
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| Error::target(path, "is not valid UTF-8, so it cannot be read as JSON"))
}

/// The file's text (from `path`) as its top-level object.
fn parse(text: &str, path: &Path) -> Result<Map<String, Value>> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        Error::target(
            path,
            format!(
                "is not valid JSON (line {}, column {}); fix or remove it first",
                e.line(),
                e.column()
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
    match value {
        Value::Object(map) => Ok(map),
        _ => Err(Error::target(
            path,
            "does not hold a JSON object at the top level; fix or remove it first",
        )),
    }
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
