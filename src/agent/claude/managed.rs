//! Claude Code's managed layer: the drop-in
//! `/etc/claude-code/managed-settings.d/50-twsrt.json` (doc/clients.md,
//! "Claude Code: managed policy files"). It holds the permissions and the
//! sandbox of the policy, as the user-level file does (no hook entry: the
//! hook names a user's own config.toml), plus the lock keys
//! `[managed.claude]` switches on, each honoured only from a managed
//! source. The file is twsrt's whole, so it is written whole as canonical
//! JSON (indent 2, then a newline).

use std::path::Path;

use serde_json::{Map, Value};

use crate::agent::claude::merge::is_managed_allow;
use crate::agent::managed::{Managed, ManagedFile};
use crate::agent::{Ctx, Warnings};
use crate::drift::{Difference, Direction, Side};
use crate::error::{Error, Result};
use crate::paths::home_dir;

/// The drop-in, relative to the root.
pub const DROP_IN: &str = "etc/claude-code/managed-settings.d/50-twsrt.json";

/// `[managed.claude]` switches and the key each sets to `true`, by its
/// path in the settings document.
pub const LOCKS: [(&str, &[&str]); 4] = [
    (
        "lock_permission_rules",
        &["allowManagedPermissionRulesOnly"],
    ),
    (
        "lock_domains",
        &["sandbox", "network", "allowManagedDomainsOnly"],
    ),
    (
        "lock_read_paths",
        &["sandbox", "filesystem", "allowManagedReadPathsOnly"],
    ),
    ("fail_if_unavailable", &["sandbox", "failIfUnavailable"]),
];

const SWITCHES: [&str; 4] = [LOCKS[0].0, LOCKS[1].0, LOCKS[2].0, LOCKS[3].0];

pub struct Layer;

impl Managed for Layer {
    fn switches(&self) -> &'static [&'static str] {
        &SWITCHES
    }

    fn render(&self, ctx: &Ctx, _warnings: &mut Warnings) -> Result<Vec<ManagedFile>> {
        let home = home_dir();
        Ok(vec![ManagedFile {
            path: DROP_IN,
            text: render(ctx, &home),
        }])
    }

    fn compare(&self, file: &ManagedFile, on_disk: &str, path: &Path) -> Result<Vec<Difference>> {
        let parse = |text: &str| match serde_json::from_str::<Value>(crate::bom::strip(text)) {
            Ok(Value::Object(map)) => Ok(map),
            Ok(_) => Err(Error::target(path, "is not a JSON object")),
            Err(e) => Err(Error::target(path, format!("is not valid JSON: {e}"))),
        };
        let mut generated = parse(&file.text)?;
        let mut disk = parse(on_disk)?;
        let mut out = locks_compared(&mut generated, &mut disk);
        let entries = super::diff::entries(&generated, &disk);
        out.extend(entries.into_differences());
        out.extend(foreign_allows(&generated, &disk));
        // A key of the drop-in twsrt does not write is Claude Code's to
        // read: it can only change what the policy decides, so it widens.
        for key in disk.keys().filter(|k| !generated.contains_key(*k)) {
            out.push(Difference::plain("", key, Side::Extra, Direction::Widening));
        }
        Ok(out)
    }

    fn neighbours(&self, file: &ManagedFile, path: &Path) -> Result<Vec<Difference>> {
        let ours = serde_json::from_str(&file.text)
            .map_err(|e| Error::target(path, format!("is not valid JSON: {e}")))?;
        super::drop_ins::overrides(&ours, path)
    }
}

/// What the user-level comparison leaves out because a user's settings
/// file holds it by right, but a drop-in twsrt owns does not: an allow
/// rule twsrt would not write, another key of `permissions` (a
/// `defaultMode`): each widens.
fn foreign_allows(generated: &Map<String, Value>, disk: &Map<String, Value>) -> Vec<Difference> {
    let permissions = |doc: &Map<String, Value>| {
        doc.get("permissions")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default()
    };
    let (want, have) = (permissions(generated), permissions(disk));
    let mut out = Vec::new();
    let wanted = want.get("allow").and_then(Value::as_array);
    for entry in have
        .get("allow")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(text) = entry.as_str() else { continue };
        if !is_managed_allow(text) && !wanted.is_some_and(|w| w.contains(entry)) {
            out.push(Difference::plain(
                "permissions.allow",
                text,
                Side::Extra,
                Direction::Widening,
            ));
        }
    }
    for key in have.keys().filter(|k| !want.contains_key(*k)) {
        out.push(Difference::plain(
            "permissions",
            key,
            Side::Extra,
            Direction::Widening,
        ));
    }
    out
}

/// The drop-in's text for `ctx`.
pub fn render(ctx: &Ctx, home: &Path) -> String {
    let mut input = super::input(ctx, home);
    input.hooks = None;
    let mut doc = super::render::render(&input);
    for (switch, path) in LOCKS {
        if ctx.config.managed.on("claude", switch) {
            set_true(&mut doc, path);
        }
    }
    crate::pyjson::to_pretty(&Value::Object(doc)) + "\n"
}

/// Set the key at `path` to `true`, creating the objects on the way.
fn set_true(doc: &mut Map<String, Value>, path: &[&str]) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut node = doc;
    for key in parents {
        let entry = node
            .entry(key.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
        if !entry.is_object() {
            *entry = Value::Object(Map::new());
        }
        let Value::Object(map) = entry else { return };
        node = map;
    }
    node.insert(last.to_string(), Value::Bool(true));
}

/// Take the lock keys out of both documents and compare them: a lock the
/// policy sets that the file lacks widens (user rules count again), one the
/// file sets that the policy does not narrows.
fn locks_compared(
    generated: &mut Map<String, Value>,
    disk: &mut Map<String, Value>,
) -> Vec<Difference> {
    let mut out = Vec::new();
    for (_, path) in LOCKS {
        let want = take(generated, path) == Some(Value::Bool(true));
        let have = take(disk, path);
        let section = path.join(".");
        match (want, have) {
            (true, Some(Value::Bool(true))) | (false, None) => {}
            (true, have) => {
                let shown =
                    have.map_or_else(|| "true".to_string(), |v| format!("true (found {v})"));
                out.push(Difference::new(
                    &section,
                    "true",
                    &shown,
                    Side::Missing,
                    Direction::Widening,
                ));
            }
            (false, Some(value)) => {
                let text = value.to_string();
                out.push(Difference::new(
                    &section,
                    &text,
                    &format!("{section}={text}"),
                    Side::Extra,
                    Direction::Narrowing,
                ));
            }
        }
    }
    out
}

/// Remove and return the value at `path`.
fn take(doc: &mut Map<String, Value>, path: &[&str]) -> Option<Value> {
    let (last, parents) = path.split_last()?;
    let mut node = doc;
    for key in parents {
        node = node.get_mut(*key)?.as_object_mut()?;
    }
    node.remove(*last)
}

/// Whether this machine's managed settings (managed-settings.json or any
/// drop-in beside twsrt's, under `root`) set
/// `allowManagedPermissionRulesOnly`: then the permission rules of user,
/// project and `--settings` files and `--allowedTools` allows are inert.
pub fn permission_rules_locked(root: &crate::agent::managed::Root) -> bool {
    let folder = root.join("etc/claude-code");
    let mut files = vec![folder.join("managed-settings.json")];
    if let Ok(entries) = std::fs::read_dir(folder.join("managed-settings.d")) {
        let mut names: Vec<_> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        names.sort();
        files.extend(names);
    }
    files
        .iter()
        .any(|file| locks(&std::fs::read_to_string(file).unwrap_or_default()))
}

/// Whether a managed settings text sets `allowManagedPermissionRulesOnly`.
fn locks(text: &str) -> bool {
    serde_json::from_str::<Value>(crate::bom::strip(text))
        .ok()
        .and_then(|doc| doc.get("allowManagedPermissionRulesOnly").cloned())
        == Some(Value::Bool(true))
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_a_true_lock_key_locks() {
        assert!(super::locks("{\"allowManagedPermissionRulesOnly\": true}"));
        assert!(!super::locks(
            "{\"allowManagedPermissionRulesOnly\": false}"
        ));
        assert!(!super::locks("{}"));
        assert!(!super::locks("not json"));
    }
}
