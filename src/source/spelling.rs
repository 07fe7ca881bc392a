//! The spelling checks on an srt fragment's values (the rules are
//! [`crate::srt::spelling`]'s and [`crate::srt::domain_spelling`]'s): every
//! path entry and every domain entry is in a form srt and every agent read
//! alike, or the compile stops at the entry's `file:line:column` with the
//! value and the form to write instead.

use std::path::Path;

use serde_json::Value;

use crate::error::{Error, Result};
use crate::srt::{domain_spelling, spelling};

/// The path lists: entries are strings or `{"path": ...}` objects.
const PATH_LISTS: [&str; 5] = [
    "/filesystem/denyRead",
    "/filesystem/denyWrite",
    "/filesystem/allowWrite",
    "/filesystem/allowRead",
    "/network/allowUnixSockets",
];

/// The domain lists, and whether each is a deny list (which admits `*`).
const DOMAIN_LISTS: [(&str, bool); 2] = [
    ("/network/allowedDomains", false),
    ("/network/deniedDomains", true),
];

/// The first misspelt path or domain of `fragment` (read from `path`).
pub fn check(path: &Path, fragment: &Value) -> Result<()> {
    for list in PATH_LISTS {
        for (i, entry) in items(fragment, list) {
            let (text, container) = match entry {
                Value::String(text) => (text.as_str(), list.to_string()),
                Value::Object(object) => match object.get("path").and_then(Value::as_str) {
                    Some(text) => (text, format!("{list}/{i}")),
                    None => continue,
                },
                _ => continue,
            };
            if let Some(problem) = spelling::path_problem(text) {
                let index = matches!(entry, Value::String(_)).then_some(i);
                return Err(misspelt(path, (list, &container, index), text, problem));
            }
        }
    }
    for (i, entry) in items(fragment, "/credentials/files") {
        if let Some(text) = entry.get("path").and_then(Value::as_str)
            && let Some(problem) = spelling::path_problem(text)
        {
            let container = format!("/credentials/files/{i}");
            let label = "/credentials/files";
            return Err(misspelt(path, (label, &container, None), text, problem));
        }
    }
    for (list, denied) in DOMAIN_LISTS {
        for (i, entry) in items(fragment, list) {
            if let Some(text) = entry.as_str()
                && let Err(problem) = domain_spelling::canonical(text, denied)
            {
                return Err(misspelt(path, (list, list, Some(i)), text, problem));
            }
        }
    }
    Ok(())
}

fn items<'v>(fragment: &'v Value, list: &str) -> impl Iterator<Item = (usize, &'v Value)> {
    fragment
        .pointer(list)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
}

/// The error for the entry `text` of the list `label`, written in the JSON
/// container `container` (at `index` for a list element), at its position
/// in the file: the file is read again for it, as for an unknown key.
pub(crate) fn misspelt(
    path: &Path,
    (label, container, index): (&str, &str, Option<usize>),
    text: &str,
    problem: spelling::Problem,
) -> Error {
    let message = format!(
        "{} entry {}: {}; write {}",
        label[1..].replace('/', "."),
        crate::source::quoted(text),
        problem.what,
        crate::source::quoted(&problem.fix)
    );
    let source = std::fs::read_to_string(path).unwrap_or_default();
    let position = crate::fragment::parse_located(&source, path)
        .ok()
        .and_then(|located| {
            located
                .strings
                .iter()
                .find(|s| {
                    !s.is_key && s.container == container && s.index == index && s.value == text
                })
                .map(|s| (s.line, s.column))
        });
    match position {
        Some((line, column)) => Error::Jsonc {
            path: path.to_path_buf(),
            line,
            column,
            message,
        },
        None => Error::fragment(path, message),
    }
}
