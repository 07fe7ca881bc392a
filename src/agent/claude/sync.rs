//! `[claude_sync]`: carrying the settings a user keeps in one mode's file
//! over to the other mode's.
//!
//! `settings.json` points at the mode written last. When `generate claude`
//! is about to write the other mode, the file it points at (the donor) holds
//! the user's current hooks, plugins, model and so on. The target is rebuilt
//! as a copy of the donor, except twsrt's own sections and the paths the
//! config lists as mode-specific, which keep the target's value (or stay
//! absent when the target has none). The usual merge then runs on the
//! result. Without the table a new target starts from the donor and an
//! existing one is read as it is ([`super::carry`]).

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::anchor::Layout;
use super::existing;
use super::sync_table::ClaudeSync;
use crate::config::Config;
use crate::error::Result;
use crate::plan::Plan;

/// The sections the merge owns: never copied from the donor.
const MANAGED: [&str; 3] = ["permissions.deny", "permissions.ask", "sandbox"];

/// The document the merge starts from: the target as it is on disk or, on a
/// mode switch with `[claude_sync]` set, the target rebuilt from the donor
/// (raising the `Info:` line that says so).
pub fn base(
    config: &Config,
    layout: &Layout,
    plan: &mut Plan,
) -> Result<Option<Map<String, Value>>> {
    let Some(sync) = ClaudeSync::of(config) else {
        let hook_on = super::hook_entry::generated(config, false).is_some();
        return super::carry::base(layout, hook_on, plan);
    };
    let Some(donor_path) = donor(layout) else {
        return existing::read(&layout.base);
    };
    // Only the kept paths are read from the target, so a target that is
    // valid JSON but no object simply has none of them (as in 3.3.3).
    let target = match existing::read_value(&layout.base)? {
        Some(Value::Object(map)) => Some(map),
        _ => None,
    };
    let name = donor_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    plan.note_before_writes(format!("Synced invariant settings from {name}"));
    match existing::read(&donor_path)? {
        Some(donor) => Ok(Some(rebuild(donor, target.as_ref(), &sync.mode_specific))),
        // Gone since it was found: no sync after all, and the target is
        // read as it is (an error if it is not an object).
        None => existing::read(&layout.base),
    }
}

/// The file the `settings.json` symlink resolves to, when that is an
/// existing regular file other than the target: the mode being left. A
/// regular `settings.json` (migrated instead), a dangling link and a link
/// to the target itself, in whatever spelling, give `None`.
pub fn donor(layout: &Layout) -> Option<PathBuf> {
    let (anchor, _) = layout.symlink.as_ref()?;
    if layout.migrate_from.is_some() || !is_symlink(anchor) {
        return None;
    }
    let donor = std::fs::canonicalize(anchor).ok()?;
    if !donor.is_file() {
        return None;
    }
    let is_target = std::fs::canonicalize(&layout.target).is_ok_and(|t| t == donor);
    (!is_target).then_some(donor)
}

fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// A deep copy of `donor` in which the managed sections and each of
/// `mode_specific` (dotted paths) hold `target`'s value, or are absent when
/// `target` (a missing file is `None`) has none.
pub fn rebuild(
    donor: Map<String, Value>,
    target: Option<&Map<String, Value>>,
    mode_specific: &[String],
) -> Map<String, Value> {
    let mut doc = donor;
    let paths = MANAGED
        .into_iter()
        .chain(mode_specific.iter().map(String::as_str));
    for path in paths {
        let keys: Vec<&str> = path.split('.').collect();
        match target.and_then(|t| lookup(t, &keys)) {
            Some(value) => set(&mut doc, &keys, value.clone()),
            None => remove(&mut doc, &keys),
        }
    }
    doc
}

/// The value at `keys`, walking objects only.
fn lookup<'a>(doc: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a Value> {
    let (last, parents) = keys.split_last()?;
    let mut map = doc;
    for key in parents {
        map = map.get(*key)?.as_object()?;
    }
    map.get(*last)
}

/// Put `value` at `keys`: a key that exists keeps its place, a missing one
/// goes to the end of its object, and a parent that is not an object
/// becomes an empty one first (the target's value wins the path).
fn set(doc: &mut Map<String, Value>, keys: &[&str], value: Value) {
    let Some((last, parents)) = keys.split_last() else {
        return;
    };
    let mut map = doc;
    for key in parents {
        let slot = map
            .entry((*key).to_string())
            .or_insert_with(|| Value::Object(Map::new()));
        if !slot.is_object() {
            *slot = Value::Object(Map::new());
        }
        let Value::Object(inner) = slot else {
            return;
        };
        map = inner;
    }
    map.insert((*last).to_string(), value);
}

/// Remove the value at `keys`, if the path leads to one.
fn remove(doc: &mut Map<String, Value>, keys: &[&str]) {
    let Some((last, parents)) = keys.split_last() else {
        return;
    };
    let mut map = doc;
    for key in parents {
        match map.get_mut(*key) {
            Some(Value::Object(inner)) => map = inner,
            _ => return,
        }
    }
    map.shift_remove(*last);
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn obj(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }

    fn rebuilt(donor: Value, target: Option<Value>, paths: &[&str]) -> String {
        let paths: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
        let target = target.map(obj);
        Value::Object(rebuild(obj(donor), target.as_ref(), &paths)).to_string()
    }

    /// What twsrt 3.3.3 made of these pairs (recorded with `generate -w`).
    #[test]
    fn the_donor_is_copied_except_managed_and_mode_specific_paths() {
        let donor = json!({"model": "opus", "env": {"FOO": "f", "BAR": "b"}, "hooks": {"x": 1},
            "permissions": {"allow": ["Read"], "defaultMode": "default", "deny": ["Bash(x)"]},
            "sandbox": {"enabled": false}, "onlyfull": true});
        let target = json!({"model": "sonnet", "env": {"FOO": "y", "BAR": "yb", "Y": 1},
            "permissions": {"allow": ["Glob"], "defaultMode": "bypassPermissions"}, "onlyyolo": 1});
        assert_eq!(
            rebuilt(
                donor,
                Some(target),
                &["model", "env.FOO", "permissions.defaultMode"]
            ),
            r#"{"model":"sonnet","env":{"FOO":"y","BAR":"b"},"hooks":{"x":1},"permissions":{"allow":["Read"],"defaultMode":"bypassPermissions"},"onlyfull":true}"#
        );
    }

    #[test]
    fn paths_through_missing_or_scalar_parents() {
        // The target's value is created at the end, through a new object.
        assert_eq!(
            rebuilt(
                json!({"x": 1}),
                Some(json!({"a": {"b": 1, "c": 2}})),
                &["a.b"]
            ),
            r#"{"x":1,"a":{"b":1}}"#
        );
        // A donor scalar in the way becomes an object, in its place.
        assert_eq!(
            rebuilt(
                json!({"a": 5, "x": 1}),
                Some(json!({"a": {"b": 1}})),
                &["a.b"]
            ),
            r#"{"a":{"b":1},"x":1}"#
        );
        // A target scalar in the way means the target has no such path.
        assert_eq!(
            rebuilt(
                json!({"a": {"b": 2, "c": 3}}),
                Some(json!({"a": 5})),
                &["a.b"]
            ),
            r#"{"a":{"c":3}}"#
        );
        assert_eq!(
            rebuilt(json!({"a": 5}), Some(json!({})), &["a.b"]),
            r#"{"a":5}"#
        );
    }

    #[test]
    fn the_target_sandbox_keeps_the_donor_place_and_a_missing_target_bootstraps() {
        assert_eq!(
            rebuilt(
                json!({"sandbox": {"a": 1}, "x": 1}),
                Some(json!({"sandbox": {"b": 2}})),
                &[]
            ),
            r#"{"sandbox":{"b":2},"x":1}"#
        );
        let donor = json!({"x": 1, "model": "m", "sandbox": {"enabled": false},
            "permissions": {"allow": ["Read"], "ask": ["Bash(a)"], "deny": ["Bash(b)"]}});
        assert_eq!(
            rebuilt(donor, None, &["model"]),
            r#"{"x":1,"permissions":{"allow":["Read"]}}"#
        );
    }

    /// Which `settings.json` is a mode switch: only a symlink to an existing
    /// file that is not the target, however the link spells it.
    #[test]
    fn the_donor_is_the_other_file_the_anchor_points_at() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let (full, yolo, anchor) = (
            dir.path().join("settings.full.json"),
            dir.path().join("settings.yolo.json"),
            dir.path().join("settings.json"),
        );
        std::fs::write(&full, "{}").unwrap();
        let donor_of = |link: Option<&str>| {
            let _ = std::fs::remove_file(&anchor);
            match link {
                Some(value) => symlink(value, &anchor).unwrap(),
                None => std::fs::write(&anchor, "{}").unwrap(),
            }
            let modes = [full.clone(), yolo.clone()];
            let layout =
                super::super::anchor::layout(yolo.clone(), anchor.clone(), &modes, true).ok();
            layout.as_ref().and_then(donor)
        };
        let real_full = std::fs::canonicalize(&full).unwrap();
        assert_eq!(
            donor_of(Some("settings.full.json")),
            Some(real_full.clone())
        );
        assert_eq!(donor_of(Some("missing.json")), None);
        assert_eq!(donor_of(None), None, "a regular settings.json is migrated");
        std::fs::write(&yolo, "{}").unwrap();
        assert_eq!(donor_of(Some("./settings.yolo.json")), None);
        assert_eq!(donor_of(Some(yolo.to_str().unwrap())), None);
        assert_eq!(donor_of(Some(full.to_str().unwrap())), Some(real_full));
    }
}
