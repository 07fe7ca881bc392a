//! The Claude settings document `generate claude` prints: permission rules
//! from the normalized rule list, the sandbox section from the srt
//! pass-through keys, then the mode's `[sandbox_overrides]`.

use std::path::Path;

use serde_json::{Map, Value};

use crate::agent::claude::deny_path::FileProbe;
use crate::agent::claude::merge::WEB_FETCH_PREFIX;
use crate::rules::{Action, Scope, SecurityRule};

/// srt `network` keys copied verbatim into `sandbox.network`, in output order
/// (after `allowedDomains`, which comes from the rules).
pub const NETWORK_KEYS: [&str; 5] = [
    "allowUnixSockets",
    "allowAllUnixSockets",
    "allowLocalBinding",
    "httpProxyPort",
    "socksProxyPort",
];

/// srt `filesystem` keys copied verbatim into `sandbox.filesystem`.
pub const FILESYSTEM_KEYS: [&str; 3] = ["allowWrite", "denyWrite", "denyRead"];

/// srt top-level keys copied verbatim into `sandbox`.
pub const SANDBOX_KEYS: [&str; 4] = [
    "enabled",
    "enableWeakerNetworkIsolation",
    "enableWeakerNestedSandbox",
    "ignoreViolations",
];

/// What the generator reads. The rendering is a pure function of it apart
/// from the denyRead file probe, which takes the home directory explicitly.
pub struct Input<'a> {
    pub rules: &'a [SecurityRule<'a>],
    /// The composed srt settings.
    pub srt: &'a Value,
    pub overrides: &'a Map<String, Value>,
    pub yolo: bool,
    pub home: &'a Path,
}

/// The generated settings document (`permissions` then `sandbox`).
pub fn render(input: &Input) -> Map<String, Value> {
    let mut root = Map::new();
    root.insert("permissions".into(), Value::Object(permissions(input)));
    root.insert("sandbox".into(), Value::Object(sandbox(input)));
    root
}

/// `deny`, `allow` and (but in yolo mode) `ask`, each in rule order.
fn permissions(input: &Input) -> Map<String, Value> {
    let mut deny = Vec::new();
    let mut allow = Vec::new();
    let mut ask = Vec::new();
    let mut probe = FileProbe::new(input.home);
    for r in input.rules {
        let p = r.pattern;
        match (r.scope, r.action) {
            (Scope::Read, Action::Deny) => {
                // A glob or an existing file is denied as written; anything
                // else may be a directory, so its contents are denied too.
                let bare = p.contains(['*', '?']) || probe.is_existing_file(p);
                for tool in ["Read(", "Edit("] {
                    deny.push(rule(tool, p, ")"));
                    if !bare {
                        deny.push(rule(tool, p, "/**)"));
                    }
                }
            }
            (Scope::Write, Action::Deny) => deny.push(rule("Edit(", p, ")")),
            (Scope::Network, Action::Deny) => deny.push(rule(WEB_FETCH_PREFIX, p, ")")),
            (Scope::Network, Action::Allow) => allow.push(rule(WEB_FETCH_PREFIX, p, ")")),
            (Scope::Execute, Action::Deny) => bash(&mut deny, p),
            (Scope::Execute, Action::Ask) => bash(&mut ask, p),
            _ => {}
        }
    }
    let list = |items: Vec<String>| Value::Array(items.into_iter().map(Value::String).collect());
    let mut permissions = Map::new();
    permissions.insert("deny".into(), list(deny));
    permissions.insert("allow".into(), list(allow));
    if !input.yolo {
        permissions.insert("ask".into(), list(ask));
    }
    permissions
}

/// A command and the command with any arguments.
fn bash(list: &mut Vec<String>, command: &str) {
    list.push(rule("Bash(", command, ")"));
    list.push(rule("Bash(", command, " *)"));
}

/// `head` + `pattern` + `tail`, allocated once (a large policy renders
/// tens of thousands of rules; `format!` costs about twice as much).
fn rule(head: &str, pattern: &str, tail: &str) -> String {
    let mut text = String::with_capacity(head.len() + pattern.len() + tail.len());
    text.push_str(head);
    text.push_str(pattern);
    text.push_str(tail);
    text
}

fn sandbox(input: &Input) -> Map<String, Value> {
    let srt = input.srt;
    let domains = input
        .rules
        .iter()
        .filter(|r| r.is(Scope::Network, Action::Allow))
        .map(|r| Value::String(r.pattern.to_string()))
        .collect();
    let mut network = Map::new();
    network.insert("allowedDomains".into(), Value::Array(domains));
    network.extend(present_keys(srt.get("network"), &NETWORK_KEYS));
    let mut sandbox = Map::new();
    sandbox.insert("network".into(), Value::Object(network));
    let filesystem = present_keys(srt.get("filesystem"), &FILESYSTEM_KEYS);
    if !filesystem.is_empty() {
        sandbox.insert("filesystem".into(), Value::Object(filesystem));
    }
    sandbox.extend(present_keys(Some(srt), &SANDBOX_KEYS));
    // A shallow update: an override key keeps the position it already has,
    // a new one is appended, and a nested table replaces the whole section.
    for (key, value) in input.overrides {
        sandbox.insert(key.clone(), value.clone());
    }
    sandbox
}

/// The keys of `keys` present in `section` when it is an object, in the
/// order of `keys`. A key present with `null` counts too: only absence
/// omits it.
fn present_keys(section: Option<&Value>, keys: &[&str]) -> Map<String, Value> {
    let Some(section) = section.and_then(Value::as_object) else {
        return Map::new();
    };
    keys.iter()
        .filter_map(|key| Some(((*key).to_string(), section.get(*key)?.clone())))
        .collect()
}
