//! The Claude settings document `generate claude` prints: permission rules
//! from the normalized rule list, the sandbox section from the srt
//! pass-through keys, then the mode's `[sandbox_overrides]`.

use std::path::Path;

use serde_json::{Map, Value};

use crate::agent::claude::deny_path::FileProbe;
use crate::agent::claude::merge::WEB_FETCH_PREFIX;
use crate::pyjson;
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
    let mut permissions = Map::new();
    for &(name, list) in lists(input.yolo) {
        let mut items = Vec::new();
        each_rule(input, list, |rule| items.push(Value::String(rule.text())));
        permissions.insert(name.into(), Value::Array(items));
    }
    let mut root = Map::new();
    root.insert("permissions".into(), Value::Object(permissions));
    root.insert("sandbox".into(), Value::Object(sandbox(input)));
    root
}

/// `to_pretty(render(input))`, written from the rules themselves: a large
/// policy has tens of thousands of permission rules, and building each as a
/// JSON value first costs megabytes of fresh memory, which is what a run of
/// twsrt pays most for (doc/benchmarks.md). A test holds the two equal.
pub fn write_preview(input: &Input, out: &mut String) {
    out.push_str("{\n  \"permissions\": {");
    for (i, &(name, list)) in lists(input.yolo).iter().enumerate() {
        out.push_str(if i == 0 { "\n    \"" } else { ",\n    \"" });
        out.push_str(name);
        out.push_str("\": [");
        let mut empty = true;
        each_rule(input, list, |rule| {
            out.push_str(if empty { "\n      " } else { ",\n      " });
            empty = false;
            pyjson::write_str_parts(out, &[rule.head, rule.pattern, rule.tail]);
        });
        out.push_str(if empty { "]" } else { "\n    ]" });
    }
    out.push_str("\n  },\n  \"sandbox\": ");
    pyjson::write_pretty_at(out, &Value::Object(sandbox(input)), 1);
    out.push_str("\n}");
}

/// The permission lists, in document order (no `ask` in yolo mode, where
/// nothing asks).
#[derive(Clone, Copy, PartialEq, Eq)]
enum List {
    Deny,
    Allow,
    Ask,
}

fn lists(yolo: bool) -> &'static [(&'static str, List)] {
    if yolo {
        &[("deny", List::Deny), ("allow", List::Allow)]
    } else {
        &[
            ("deny", List::Deny),
            ("allow", List::Allow),
            ("ask", List::Ask),
        ]
    }
}

/// One permission rule: `head`, the policy's pattern, `tail`.
#[derive(Clone, Copy)]
struct Rule<'a> {
    head: &'static str,
    pattern: &'a str,
    tail: &'static str,
}

impl Rule<'_> {
    fn text(self) -> String {
        [self.head, self.pattern, self.tail].concat()
    }
}

/// Calls `f` with each rule of `list`, in rule order.
fn each_rule<'a>(input: &Input<'a>, list: List, mut f: impl FnMut(Rule<'a>)) {
    let mut probe = FileProbe::new(input.home);
    for r in input.rules {
        let p = r.pattern;
        let mut emit = |head, tail| {
            f(Rule {
                head,
                pattern: p,
                tail,
            })
        };
        match (list, r.scope, r.action) {
            (List::Deny, Scope::Read, Action::Deny) => {
                // A glob or an existing file is denied as written; anything
                // else may be a directory, so its contents are denied too.
                let bare = p.contains(['*', '?']) || probe.is_existing_file(p);
                for tool in ["Read(", "Edit("] {
                    emit(tool, ")");
                    if !bare {
                        emit(tool, "/**)");
                    }
                }
            }
            (List::Deny, Scope::Write, Action::Deny) => emit("Edit(", ")"),
            (List::Deny, Scope::Network, Action::Deny)
            | (List::Allow, Scope::Network, Action::Allow) => emit(WEB_FETCH_PREFIX, ")"),
            (List::Deny, Scope::Execute, Action::Deny)
            | (List::Ask, Scope::Execute, Action::Ask) => {
                // The command, and the command with any arguments.
                emit("Bash(", ")");
                emit("Bash(", " *)");
            }
            _ => {}
        }
    }
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
