//! The Claude settings document `generate claude` prints: permission rules
//! from the normalized rule list, the sandbox section from the srt
//! pass-through keys, then the mode's `[sandbox_overrides]`.

use std::path::Path;

use serde_json::{Map, Value};

use crate::agent::claude::deny_path::is_existing_file;
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

/// What the generator reads: everything comes in as a value, so the
/// rendering is a pure function apart from the denyRead file probe, which
/// takes the home directory explicitly.
pub struct Input<'a> {
    pub rules: &'a [SecurityRule],
    pub srt: &'a Value,
    pub overrides: &'a Map<String, Value>,
    pub yolo: bool,
    pub home: &'a Path,
}

/// The generated settings document (`permissions` then `sandbox`).
pub fn render(input: &Input) -> Map<String, Value> {
    let mut root = Map::new();
    root.insert("permissions".into(), permissions(input));
    root.insert("sandbox".into(), sandbox(input));
    root
}

fn permissions(input: &Input) -> Value {
    let mut deny = Vec::new();
    let mut allow = Vec::new();
    let mut ask = Vec::new();
    for rule in input.rules {
        let p = rule.pattern.as_str();
        match (rule.scope, rule.action) {
            (Scope::Read, Action::Deny) => {
                // A glob or an existing file is denied as written; anything
                // else may be a directory, so its contents are denied too.
                let bare = p.contains(['*', '?']) || is_existing_file(p, input.home);
                for tool in ["Read", "Edit"] {
                    deny.push(format!("{tool}({p})"));
                    if !bare {
                        deny.push(format!("{tool}({p}/**)"));
                    }
                }
            }
            (Scope::Write, Action::Deny) => deny.push(format!("Edit({p})")),
            (Scope::Network, Action::Allow) => allow.push(web_fetch(p)),
            (Scope::Network, Action::Deny) => deny.push(web_fetch(p)),
            (Scope::Execute, Action::Deny) => push_bash(&mut deny, p),
            (Scope::Execute, Action::Ask) if !input.yolo => push_bash(&mut ask, p),
            _ => {}
        }
    }
    let list = |v: Vec<String>| Value::Array(v.into_iter().map(Value::String).collect());
    let mut map = Map::new();
    map.insert("deny".into(), list(deny));
    map.insert("allow".into(), list(allow));
    if !input.yolo {
        map.insert("ask".into(), list(ask));
    }
    Value::Object(map)
}

pub fn web_fetch(domain: &str) -> String {
    format!("WebFetch(domain:{domain})")
}

fn push_bash(out: &mut Vec<String>, command: &str) {
    out.push(format!("Bash({command})"));
    out.push(format!("Bash({command} *)"));
}

fn sandbox(input: &Input) -> Value {
    let srt = input.srt;
    let mut network = Map::new();
    let domains = input
        .rules
        .iter()
        .filter(|r| r.is(Scope::Network, Action::Allow))
        .map(|r| Value::String(r.pattern.clone()))
        .collect();
    network.insert("allowedDomains".into(), Value::Array(domains));
    copy_keys(srt.get("network"), &NETWORK_KEYS, &mut network);

    let mut filesystem = Map::new();
    copy_keys(srt.get("filesystem"), &FILESYSTEM_KEYS, &mut filesystem);

    let mut sandbox = Map::new();
    sandbox.insert("network".into(), Value::Object(network));
    if !filesystem.is_empty() {
        sandbox.insert("filesystem".into(), Value::Object(filesystem));
    }
    copy_keys(Some(srt), &SANDBOX_KEYS, &mut sandbox);
    // A shallow update: an override key keeps the position it already has,
    // a new one is appended, and a nested table replaces the whole section.
    for (key, value) in input.overrides {
        sandbox.insert(key.clone(), value.clone());
    }
    Value::Object(sandbox)
}

/// Copy the keys present in `from` (an object), in the order of `keys`.
/// A key present with `null` is copied too: only absence omits it.
fn copy_keys(from: Option<&Value>, keys: &[&str], into: &mut Map<String, Value>) {
    let Some(Value::Object(from)) = from else {
        return;
    };
    for key in keys {
        if let Some(value) = from.get(*key) {
            into.insert((*key).to_string(), value.clone());
        }
    }
}
