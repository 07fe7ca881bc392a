//! The PreToolUse event Claude Code writes on the hook's stdin, and the
//! accesses each tool makes. The fields read: `tool_name`, `tool_input`
//! and `cwd`; the rest (`session_id`, `transcript_path`,
//! `permission_mode`, `hook_event_name`, `tool_use_id`) are not needed.

use std::path::PathBuf;

use serde_json::Value;

use super::bash;
use super::operands::{Access, Operand, Touch};

#[derive(Debug, Clone)]
pub struct Event {
    pub tool_name: String,
    pub tool_input: Value,
    /// Absolute: relative operands resolve against it.
    pub cwd: PathBuf,
}

/// The event in `text`, or why it is not one.
pub fn parse_event(text: &str) -> Result<Event, String> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| format!("the event is not JSON: {e}"))?;
    let field = |key: &str| value.get(key);
    let tool_name = field("tool_name")
        .and_then(Value::as_str)
        .ok_or("the event has no tool_name string")?
        .to_string();
    let tool_input = field("tool_input")
        .filter(|v| v.is_object())
        .cloned()
        .ok_or("the event has no tool_input object")?;
    let cwd = field("cwd")
        .and_then(Value::as_str)
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .ok_or("the event has no absolute cwd")?;
    Ok(Event {
        tool_name,
        tool_input,
        cwd,
    })
}

/// The accesses the event's tool call makes, or why the input is malformed.
pub fn touches(event: &Event) -> Result<Vec<Touch>, String> {
    let input = &event.tool_input;
    let string = |key: &str| -> Result<Option<&str>, String> {
        match input.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(format!(
                "{}.tool_input.{key} is not a string",
                event.tool_name
            )),
        }
    };
    let required = |key: &str| -> Result<&str, String> {
        string(key)?.ok_or(format!("{} without tool_input.{key}", event.tool_name))
    };
    let one = |access, path: &str| {
        vec![Touch {
            by: event.tool_name.clone(),
            access,
            operand: Operand::Path(path.to_string()),
        }]
    };
    Ok(match event.tool_name.as_str() {
        "Bash" => bash::touches(required("command")?),
        "Read" => one(Access::Read, required("file_path")?),
        // Both walk a directory, the working directory without a path.
        "Grep" | "Glob" => {
            let mut out = one(Access::RecursiveRead, string("path")?.unwrap_or("."));
            if event.tool_name == "Glob" {
                let pattern = required("pattern")?;
                out.extend(
                    glob_root(pattern)
                        .map(|r| one(Access::RecursiveRead, &r))
                        .into_iter()
                        .flatten(),
                );
                // Its matches, expanded as the tool does (`super::reach`).
                out.push(Touch {
                    by: event.tool_name.clone(),
                    access: Access::Read,
                    operand: Operand::Unknown(pattern.to_string()),
                });
            }
            out
        }
        "LS" => one(Access::Read, required("path")?),
        "Edit" | "Write" | "MultiEdit" => one(Access::Write, required("file_path")?),
        "NotebookEdit" => one(Access::Write, required("notebook_path")?),
        name if name.starts_with("mcp__") => mcp_paths(name, input),
        _ => Vec::new(),
    })
}

/// The paths an MCP tool's input names: every string under a key that
/// names a path (`path`, `file`, `dir`, `source`, ...) and every string
/// that is spelled as one (`/...`, `~/...`), at any depth. A tool whose
/// name says it only looks (`read`, `list`, `search`, ...) reads them,
/// below them too; any other may write them.
fn mcp_paths(name: &str, input: &Value) -> Vec<Touch> {
    let lower = name.to_ascii_lowercase();
    let tool = lower.rsplit("__").next().unwrap_or(&lower);
    let looks = [
        "read", "get", "list", "search", "view", "find", "show", "stat", "tree", "glob", "grep",
    ];
    let changes = [
        "write", "edit", "create", "delete", "move", "remove", "rename", "update", "put", "set",
        "save", "patch", "append", "copy", "upload", "exec", "run", "mkdir", "chmod",
    ];
    let reads = looks.iter().any(|w| tool.contains(w)) && !changes.iter().any(|w| tool.contains(w));
    let access = if reads {
        Access::RecursiveRead
    } else {
        Access::RecursiveWrite
    };
    let mut found = Vec::new();
    strings(input, false, 0, &mut found);
    found
        .into_iter()
        .map(|p| Touch {
            by: name.to_string(),
            access,
            operand: Operand::Path(p),
        })
        .collect()
}

/// The path strings in `value` (see [`mcp_paths`]); `keyed`: under a key
/// that names a path.
fn strings(value: &Value, keyed: bool, depth: usize, out: &mut Vec<String>) {
    const KEYS: &[&str] = &[
        "path",
        "file",
        "dir",
        "folder",
        "source",
        "destination",
        "target",
        "root",
        "cwd",
        "src",
        "dest",
        "location",
        "uri",
    ];
    match value {
        Value::String(s) => {
            let s = s.strip_prefix("file://").unwrap_or(s);
            let spelled = s.starts_with('/') || s.starts_with("~/") || s == "~";
            if (keyed && !s.is_empty() && !s.contains("://")) || spelled {
                out.push(s.to_string());
            }
        }
        Value::Array(items) if depth < 8 => {
            for item in items {
                strings(item, keyed, depth + 1, out);
            }
        }
        Value::Object(map) if depth < 8 => {
            for (key, item) in map {
                let key = key.to_ascii_lowercase();
                let keyed = KEYS.iter().any(|k| key.contains(k));
                strings(item, keyed, depth + 1, out);
            }
        }
        _ => {}
    }
}

/// An absolute or `~` Glob pattern walks from its literal prefix (the
/// segments before the first glob character), whatever `path` says.
fn glob_root(pattern: &str) -> Option<String> {
    if !(pattern.starts_with('/') || pattern.starts_with('~')) {
        return None;
    }
    let literal: Vec<&str> = pattern
        .split('/')
        .take_while(|s| !s.contains(['*', '?', '[', '{']))
        .collect();
    let root = literal.join("/");
    Some(if root.is_empty() {
        "/".to_string()
    } else {
        root
    })
}
