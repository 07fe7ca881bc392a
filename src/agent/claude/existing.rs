//! Reading an existing Claude settings file. Errors name the file and say
//! what is wrong with it, never what it contains: these files can hold API
//! keys in `env`.

use std::path::Path;

use serde_json::{Map, Value};

use crate::error::{Error, Result};

/// The file's top-level object, or `None` when there is no file.
pub fn read(path: &Path) -> Result<Option<Map<String, Value>>> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(path, e)),
    };
    let text = String::from_utf8(bytes)
        .map_err(|_| Error::target(path, "is not valid UTF-8, so it cannot be read as JSON"))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| {
        Error::target(
            path,
            format!(
                "is not valid JSON (line {}, column {}); fix or remove it first",
                e.line(),
                e.column()
            ),
        )
    })?;
    match value {
        Value::Object(map) => Ok(Some(map)),
        _ => Err(Error::target(
            path,
            "does not hold a JSON object at the top level; fix or remove it first",
        )),
    }
}
