//! A `settings.json` re-linked to the user's own file (a dotfiles
//! repository) while twsrt's target exists: the dotfile is adopted when the
//! target holds nothing of the user's that the dotfile lacks, so the merge
//! into the dotfile's content loses nothing; otherwise the keys that would
//! be lost are named.

use std::path::Path;

use serde_json::{Map, Value};

use super::existing;
use super::hook_entry;
use super::merge::is_managed_allow;
use crate::error::Result;

/// The top-level keys (or `permissions.KEY`, `permissions.allow ENTRY`)
/// of `target` that are the user's and that `dotfile` does not hold alike:
/// empty when adopting the dotfile loses nothing of the target but twsrt's
/// own sections (the deny and ask lists, whose foreign entries the merge
/// keeps, [`super::adoption`]).
pub fn lost_by_adopting(target: &Path, dotfile: &Path) -> Result<Vec<String>> {
    let Some(target) = existing::read(target)? else {
        return Ok(Vec::new());
    };
    let dotfile = existing::read(dotfile)?.unwrap_or_default();
    let mut lost = Vec::new();
    for (key, value) in &target {
        match key.as_str() {
            "sandbox" => {}
            "permissions" => permissions(value, dotfile.get(key), &mut lost),
            "hooks" if user_hooks(Some(value)) != user_hooks(dotfile.get(key)) => {
                lost.push(key.clone());
            }
            "hooks" => {}
            _ if dotfile.get(key) != Some(value) => lost.push(key.clone()),
            _ => {}
        }
    }
    Ok(lost)
}

fn permissions(target: &Value, dotfile: Option<&Value>, lost: &mut Vec<String>) {
    let Some(target) = target.as_object() else {
        return;
    };
    let empty = Map::new();
    let dotfile = dotfile.and_then(Value::as_object).unwrap_or(&empty);
    for (key, value) in target {
        match key.as_str() {
            "deny" | "ask" => {}
            "allow" => {
                let theirs = dotfile.get(key).and_then(Value::as_array);
                for entry in value.as_array().into_iter().flatten() {
                    let ours = entry.as_str().is_some_and(is_managed_allow);
                    if !ours && !theirs.is_some_and(|t| t.contains(entry)) {
                        let shown = entry
                            .as_str()
                            .map_or_else(|| entry.to_string(), str::to_string);
                        lost.push(format!("permissions.allow {shown}"));
                    }
                }
            }
            _ if dotfile.get(key) != Some(value) => lost.push(format!("permissions.{key}")),
            _ => {}
        }
    }
}

/// `hooks` without twsrt's own `PreToolUse` entry.
fn user_hooks(hooks: Option<&Value>) -> Map<String, Value> {
    let mut hooks = hooks
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    if let Some(Value::Array(list)) = hooks.get_mut("PreToolUse") {
        list.retain(|entry| !hook_entry::is_ours(entry));
        if list.is_empty() {
            hooks.shift_remove("PreToolUse");
        }
    }
    hooks
}
