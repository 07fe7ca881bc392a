//! The files a Gemini CLI launch reads besides its argv: the settings
//! layers and the policy files, read as Gemini 0.61.0 reads them.

use std::path::{Path, PathBuf};

use serde_json::Value;
use toml_edit::{DocumentMut, Item};

use crate::agent::launch::{read_optional, unreadable};
use crate::error::Result;

/// One settings file that exists: how a finding names it, its JSON, and
/// whether it is the project's (loaded only in a trusted folder).
pub struct Layer {
    pub label: String,
    pub doc: Value,
    pub project: bool,
}

/// Read the settings at `path` (JSON with comments, as Gemini strips them
/// before JSON.parse); `None` when there is none.
pub fn layer(path: &Path, label: String, project: bool) -> Result<Option<Layer>> {
    let Some(text) = read_optional(path)? else {
        return Ok(None);
    };
    let doc = crate::fragment::parse(&text, path).map_err(|e| unreadable(e.to_string()))?;
    Ok(Some(Layer {
        label,
        doc,
        project,
    }))
}

/// The string list at `pointer`, empty when absent or not a list.
pub fn strings(doc: &Value, pointer: &str) -> Vec<String> {
    doc.pointer(pointer)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// A path as Gemini's resolvePath and path.resolve make it: `~` is
/// Gemini's home (`$GEMINI_CLI_HOME`, else HOME), a relative path is below
/// the working directory.
pub fn resolve(value: &str, gemini_home: &Path, cwd: &Path) -> PathBuf {
    let expanded = if value == "~" {
        gemini_home.to_path_buf()
    } else if let Some(rest) = value.strip_prefix("~/") {
        gemini_home.join(rest)
    } else {
        PathBuf::from(value)
    };
    cwd.join(expanded)
}

/// The `.toml` files Gemini loads from a policy path (readPolicyFiles, see
/// doc/clients.md, "Gemini CLI: launch options"): a directory's regular `.toml` entries (a
/// symbolic link is skipped: `Dirent.isFile()` is false for it), or the
/// path itself when it is a `.toml` file; nothing when it does not exist.
pub fn policy_files(path: &Path, shown: &str) -> Result<Vec<PathBuf>> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(_) => return Err(unreadable(format!("gemini: {shown}: cannot be read"))),
    };
    if meta.is_file() {
        let toml = path.extension().is_some_and(|e| e == "toml");
        return Ok(if toml {
            vec![path.to_path_buf()]
        } else {
            vec![]
        });
    }
    let entries = std::fs::read_dir(path)
        .map_err(|_| unreadable(format!("gemini: {shown}: cannot be read")))?;
    let mut files = Vec::new();
    for entry in entries.flatten() {
        let regular = entry.file_type().is_ok_and(|t| t.is_file());
        let name = entry.file_name();
        if regular && name.to_string_lossy().ends_with(".toml") {
            files.push(entry.path());
        }
    }
    files.sort();
    Ok(files)
}

/// How many `[[rule]]` tables of a policy file allow at `min_priority` or
/// more. A file that is not TOML cannot be judged: exit 2, named `shown`.
pub fn allow_rules(path: &Path, shown: &str, min_priority: i64) -> Result<usize> {
    let cannot = |why: &str| unreadable(format!("gemini: {shown}: {why}"));
    let text = read_optional(path)
        .map_err(|_| cannot("cannot be read"))?
        .unwrap_or_default();
    let doc: DocumentMut = text.parse().map_err(|_| cannot("not valid TOML"))?;
    let allows = |decision: Option<&str>, priority: Option<i64>| {
        decision == Some("allow") && priority.unwrap_or(0) >= min_priority
    };
    let count = match doc.get("rule") {
        Some(Item::ArrayOfTables(rules)) => rules
            .iter()
            .filter(|r| {
                allows(
                    r.get("decision").and_then(Item::as_str),
                    r.get("priority").and_then(Item::as_integer),
                )
            })
            .count(),
        Some(item) => item
            .as_array()
            .map(|rules| {
                rules
                    .iter()
                    .filter_map(|r| r.as_inline_table())
                    .filter(|r| {
                        allows(
                            r.get("decision").and_then(|v| v.as_str()),
                            r.get("priority").and_then(|v| v.as_integer()),
                        )
                    })
                    .count()
            })
            .unwrap_or(0),
        None => 0,
    };
    Ok(count)
}

/// The allow rules (at `min_priority` or more) of every policy file a
/// policy path loads.
pub fn allow_rules_under(path: &Path, shown: &str, min_priority: i64) -> Result<usize> {
    let mut total = 0;
    for file in policy_files(path, shown)? {
        total += allow_rules(&file, shown, min_priority)?;
    }
    Ok(total)
}
