//! The user's own settings across the two modes without `[claude_sync]`.
//!
//! Contract: when `generate` writes one mode's file and `settings.json`
//! links to the other mode's (the donor, [`super::sync::donor`]):
//! - a target that does not exist yet starts with the donor's top-level
//!   keys twsrt does not write (all but `permissions`, `sandbox`, and
//!   `hooks` while the guard hook is installed), so the first yolo file
//!   keeps the hooks, env, model, MCP and status-line settings of the full
//!   one, and an `Info:` line names the keys carried;
//! - an existing target is read as it is (what `[claude_sync]` would carry
//!   is its decision alone), and every top-level key the user keeps
//!   differently in the two files is named in an `Info:` line, so a mode
//!   switch never drops a hook or an env value unsaid.

use serde_json::{Map, Value};

use super::anchor::Layout;
use super::existing;
use crate::error::Result;
use crate::plan::Plan;

/// Top-level keys twsrt writes itself: differences there are the policy's.
/// `hooks` is twsrt's too while `claude_hook` installs the guard (its
/// command differs per mode).
fn owned(key: &str, hook_on: bool) -> bool {
    matches!(key, "permissions" | "sandbox") || (hook_on && key == "hooks")
}

/// The document the merge starts from, without `[claude_sync]`.
pub fn base(layout: &Layout, hook_on: bool, plan: &mut Plan) -> Result<Option<Map<String, Value>>> {
    let target = existing::read(&layout.base)?;
    let Some(donor_path) = super::sync::donor(layout) else {
        return Ok(target);
    };
    let Some(donor) = existing::read(&donor_path)? else {
        return Ok(target);
    };
    let from = file_name(&donor_path);
    let to = file_name(&layout.target);
    match target {
        None => {
            let carried: Map<String, Value> = donor
                .into_iter()
                .filter(|(k, _)| !owned(k, hook_on))
                .collect();
            if carried.is_empty() {
                return Ok(None);
            }
            let keys: Vec<&str> = carried.keys().map(String::as_str).collect();
            plan.note_before_writes(format!(
                "{to} starts from your settings in {from}: {}",
                keys.join(", ")
            ));
            Ok(Some(carried))
        }
        Some(target) => {
            let differ: Vec<&str> = user_keys(&donor, hook_on)
                .chain(user_keys(&target, hook_on).filter(|k| !donor.contains_key(*k)))
                .filter(|k| donor.get(*k) != target.get(*k))
                .collect();
            if !differ.is_empty() {
                plan.note_before_writes(format!(
                    "{to} keeps its own {} (different in {from}); twsrt carries them from one \
                     mode to the other only with [claude_sync] in config.toml",
                    differ.join(", ")
                ));
            }
            Ok(Some(target))
        }
    }
}

/// The top-level keys of `doc` that twsrt does not write.
fn user_keys(doc: &Map<String, Value>, hook_on: bool) -> impl Iterator<Item = &str> {
    doc.keys()
        .map(String::as_str)
        .filter(move |k| !owned(k, hook_on))
}

fn file_name(path: &std::path::Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
