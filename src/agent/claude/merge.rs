//! The selective merge `generate claude -w` applies to an existing settings
//! file: twsrt's sections are updated, everything else keeps its value and
//! its place.
//!
//! - `permissions.deny` and `permissions.ask` are replaced (`ask` is removed
//!   in yolo mode, where nothing is generated for it);
//! - `permissions.allow` keeps every entry twsrt does not own (see
//!   [`is_managed_allow`]) and gets the generated ones appended;
//! - `sandbox.network` and `sandbox.filesystem` are updated key by key, so
//!   keys twsrt does not generate (including ones it generated before) stay
//!   (the managed path lists are always generated, as `[]`), but
//!   `sandbox.filesystem.allowRead` is twsrt's: the policy's list (or
//!   the override's) replaces it, and without one it is removed, so an
//!   entry taken out of the policy re-opens nothing on the next write;
//! - every other generated `sandbox` key is overwritten;
//! - with `[targets] claude_hook`, twsrt's `hooks.PreToolUse` entry is
//!   replaced (see [`super::hook_entry`]); other hooks stay.
//!
//! A key that is new goes to the end of its object, as Python's dict does.

use std::path::Path;

use serde_json::{Map, Value};

use crate::error::{Error, Result};

pub const WEB_FETCH_PREFIX: &str = "WebFetch(domain:";
/// Every `Edit(...)` allow is twsrt's: the allowWrite paths become such
/// rules, and a path taken out of the policy must lose its rule on the next
/// write. (Claude Code keeps a user's "don't ask again" answers in
/// `.claude/settings.local.json`, never in the file twsrt writes.)
pub const EDIT_PREFIX: &str = "Edit(";

/// The `sandbox.filesystem` key the merge removes when it generates none:
/// a list that grants, so a stale entry would widen.
const OWNED_WHEN_GENERATED: &str = super::allow_read::KEY;

/// Merge `generated` (the rendered document) into `doc` (the existing
/// file's top-level object, read from `path`).
pub fn merge(
    mut doc: Map<String, Value>,
    generated: &Map<String, Value>,
    path: &Path,
) -> Result<Map<String, Value>> {
    let empty = Map::new();
    let gen_permissions = generated
        .get("permissions")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let permissions = slot(&mut doc, "permissions", "permissions", path)?;
    let gen_list = |key: &str| gen_permissions.get(key).cloned();
    permissions.insert(
        "deny".into(),
        gen_list("deny").unwrap_or(Value::Array(vec![])),
    );
    match gen_list("ask") {
        Some(ask) => {
            permissions.insert("ask".into(), ask);
        }
        None => {
            permissions.shift_remove("ask");
        }
    }
    let mut allow: Vec<Value> = match permissions.get("allow") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .filter(|e| !e.as_str().is_some_and(is_managed_allow))
            .cloned()
            .collect(),
        Some(_) => return Err(not_a(path, "permissions.allow", "a list")),
    };
    if let Some(Value::Array(items)) = gen_permissions.get("allow") {
        allow.extend(items.iter().cloned());
    }
    permissions.insert("allow".into(), Value::Array(allow));
    // Only a configured hook touches `hooks`: without it, the file's
    // hooks (twsrt's included) stay as they are.
    let hook = generated
        .get("hooks")
        .and_then(|h| h.get("PreToolUse"))
        .and_then(Value::as_array)
        .and_then(|list| list.first());
    if let Some(entry) = hook {
        let hooks = slot(&mut doc, "hooks", "hooks", path)?;
        super::hook_entry::place(hooks, entry, path)?;
    }

    let Some(gen_sandbox) = generated.get("sandbox").and_then(Value::as_object) else {
        return Ok(doc);
    };
    let sandbox = slot(&mut doc, "sandbox", "sandbox", path)?;
    for (key, value) in gen_sandbox {
        if key != "network" && key != "filesystem" {
            sandbox.insert(key.clone(), value.clone());
            continue;
        }
        // Only an override can make these sections something else; merging
        // it would throw away the file's own keys, so refuse instead.
        let Value::Object(fields) = value else {
            return Err(Error::target(
                path,
                format!(
                    "cannot merge sandbox.{key}: the generated value is not an object \
                     (see [sandbox_overrides] in config.toml)"
                ),
            ));
        };
        let section = slot(sandbox, key, &format!("sandbox.{key}"), path)?;
        for (k, v) in fields {
            section.insert(k.clone(), v.clone());
        }
        if key == "filesystem" && !fields.contains_key(OWNED_WHEN_GENERATED) {
            section.shift_remove(OWNED_WHEN_GENERATED);
        }
    }
    Ok(doc)
}

/// Whether the merge of the generated settings into a file holding
/// exactly them (as `generate -w` writes a new target) gives that file back
/// unchanged, with the mode's `overrides` and the generated `hooks`: every
/// generated list replaces the same list, every generated `allow` entry is
/// twsrt's own, and every key keeps its place. It does unless an override
/// makes `sandbox.network` something other than an object, which the merge
/// refuses (`filesystem` is refused before rendering), or the generated
/// hook entry does not read as twsrt's (a binary under another name), so
/// the merge adds it again. A test holds the merge to this.
pub fn leaves_unchanged(overrides: &Map<String, Value>, hooks: Option<&Value>) -> bool {
    let entries = hooks
        .and_then(|h| h.get("PreToolUse"))
        .and_then(Value::as_array);
    overrides.get("network").is_none_or(Value::is_object)
        && entries.is_none_or(|list| list.iter().all(super::hook_entry::is_ours))
}

/// Refuse an existing file the merge would refuse, without merging: the
/// top-level sections twsrt writes into must be objects (or absent, or
/// null) and `permissions.allow` a list. `diff` calls this so such a file is an error
/// there too, never drift.
pub fn check_shape(doc: &Map<String, Value>, path: &Path) -> Result<()> {
    let object_or_absent =
        |parent: &Map<String, Value>, key: &str, dotted: &str| match parent.get(key) {
            None | Some(Value::Null) | Some(Value::Object(_)) => Ok(()),
            Some(_) => Err(not_a(path, dotted, "an object")),
        };
    object_or_absent(doc, "permissions", "permissions")?;
    if let Some(Value::Object(permissions)) = doc.get("permissions")
        && !matches!(
            permissions.get("allow"),
            None | Some(Value::Null) | Some(Value::Array(_))
        )
    {
        return Err(not_a(path, "permissions.allow", "a list"));
    }
    // `sandbox.network` and `sandbox.filesystem` are left to the comparison:
    // an override may make them something else on purpose, and `-w` writes
    // that into a new file as it is.
    object_or_absent(doc, "sandbox", "sandbox")
}

/// An allow entry twsrt owns and replaces on every write (entries that
/// are not strings are never twsrt's).
pub fn is_managed_allow(entry: &str) -> bool {
    entry.starts_with(WEB_FETCH_PREFIX) || entry.starts_with(EDIT_PREFIX)
}

/// `parent[key]` as an object to update: created at the end when absent,
/// replaced in place when null, an error when it holds anything else.
fn slot<'a>(
    parent: &'a mut Map<String, Value>,
    key: &str,
    dotted: &str,
    path: &Path,
) -> Result<&'a mut Map<String, Value>> {
    let value = parent
        .entry(key.to_string())
        .or_insert_with(|| Value::Object(Map::new()));
    if value.is_null() {
        *value = Value::Object(Map::new());
    }
    match value {
        Value::Object(map) => Ok(map),
        _ => Err(not_a(path, dotted, "an object")),
    }
}

fn not_a(path: &Path, dotted: &str, what: &str) -> Error {
    Error::target(
        path,
        format!("`{dotted}` is not {what}, so twsrt cannot merge into it; fix it first"),
    )
}
