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
        let items = rules_of(input, list).map(|rule| Value::String(rule.text()));
        permissions.insert(name.into(), Value::Array(items.collect()));
    }
    let mut root = Map::new();
    root.insert("permissions".into(), Value::Object(permissions));
    let sandbox = sandbox(input);
    let sandbox = sandbox
        .iter()
        .map(|(k, part)| (k.to_string(), part.to_value()));
    root.insert("sandbox".into(), Value::Object(sandbox.collect()));
    root
}

/// `to_pretty(render(input))`, written from the rules themselves: a large
/// policy has tens of thousands of permission rules, and building each as a
/// JSON value first costs megabytes of fresh memory, which is what a run of
/// twsrt pays most for (doc/benchmarks.md). A test holds the two equal.
pub fn write_preview(input: &Input, out: &mut String) {
    let sections = [("permissions", None), ("sandbox", Some(sandbox(input)))];
    pyjson::write_container(
        out,
        0,
        ['{', '}'],
        sections,
        |out, (key, sandbox), depth| {
            pyjson::write_key(out, key);
            match sandbox {
                Some(parts) => Part::Object(parts).write(out, depth),
                None => write_permissions(input, out, depth),
            }
        },
    );
}

/// The `permissions` object at `depth`, each rule written from its parts.
fn write_permissions(input: &Input, out: &mut String, depth: usize) {
    pyjson::write_container(
        out,
        depth,
        ['{', '}'],
        lists(input.yolo),
        |out, &(name, list), depth| {
            pyjson::write_key(out, name);
            let rules = rules_of(input, list);
            pyjson::write_container(out, depth, ['[', ']'], rules, |out, rule, _| {
                pyjson::write_str_parts(out, &[rule.head, rule.pattern, rule.tail]);
            });
        },
    );
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

/// The rules of `list`, in rule order.
fn rules_of<'a>(input: &Input<'a>, list: List) -> impl Iterator<Item = Rule<'a>> {
    let mut probe = FileProbe::new(input.home);
    input
        .rules
        .iter()
        .flat_map(move |r| translate(r, list, &mut probe))
        .flatten()
}

/// The rules of `list` one policy rule becomes (at most four).
fn translate<'a>(r: &SecurityRule<'a>, list: List, probe: &mut FileProbe) -> [Option<Rule<'a>>; 4] {
    let rule = |head, tail| {
        Some(Rule {
            head,
            pattern: r.pattern,
            tail,
        })
    };
    match (list, r.scope, r.action) {
        (List::Deny, Scope::Read, Action::Deny) => {
            // A glob or an existing file is denied as written; anything else
            // may be a directory, so its contents are denied too.
            let p = r.pattern;
            if p.contains(['*', '?']) || probe.is_existing_file(p) {
                [rule("Read(", ")"), rule("Edit(", ")"), None, None]
            } else {
                [
                    rule("Read(", ")"),
                    rule("Read(", "/**)"),
                    rule("Edit(", ")"),
                    rule("Edit(", "/**)"),
                ]
            }
        }
        (List::Deny, Scope::Write, Action::Deny) => [rule("Edit(", ")"), None, None, None],
        (List::Deny, Scope::Network, Action::Deny)
        | (List::Allow, Scope::Network, Action::Allow) => {
            [rule(WEB_FETCH_PREFIX, ")"), None, None, None]
        }
        // The command, and the command with any arguments.
        (List::Deny, Scope::Execute, Action::Deny) | (List::Ask, Scope::Execute, Action::Ask) => {
            [rule("Bash(", ")"), rule("Bash(", " *)"), None, None]
        }
        _ => [None; 4],
    }
}

/// A part of the generated `sandbox` section, borrowed from the policy:
/// the section is built for `-w` and `diff` ([`Part::to_value`]) and
/// written as it stands for the preview ([`Part::write`]).
enum Part<'a> {
    /// A value of the srt settings or of an override, as it is.
    Value(&'a Value),
    /// `network.allowedDomains`: the allowed domains of the rules.
    Domains(Vec<&'a str>),
    /// An object of parts, in order.
    Object(Vec<(&'a str, Part<'a>)>),
}

impl Part<'_> {
    fn to_value(&self) -> Value {
        match self {
            Part::Value(value) => (*value).clone(),
            Part::Domains(domains) => Value::Array(
                domains
                    .iter()
                    .map(|d| Value::String(d.to_string()))
                    .collect(),
            ),
            Part::Object(parts) => Value::Object(
                parts
                    .iter()
                    .map(|(k, part)| (k.to_string(), part.to_value()))
                    .collect(),
            ),
        }
    }

    /// `to_pretty(&self.to_value())` at `depth`, without building it.
    fn write(&self, out: &mut String, depth: usize) {
        match self {
            Part::Value(value) => pyjson::write_pretty_at(out, value, depth),
            Part::Domains(domains) => {
                pyjson::write_container(out, depth, ['[', ']'], domains, |out, d, _| {
                    pyjson::write_str(out, d)
                })
            }
            Part::Object(parts) => {
                pyjson::write_container(out, depth, ['{', '}'], parts, |out, (k, part), d| {
                    pyjson::write_key(out, k);
                    part.write(out, d);
                })
            }
        }
    }
}

/// The `sandbox` section: the allowed domains and the srt pass-through keys,
/// then the mode's overrides.
fn sandbox<'a>(input: &Input<'a>) -> Vec<(&'a str, Part<'a>)> {
    let srt = input.srt;
    let domains = input
        .rules
        .iter()
        .filter(|r| r.is(Scope::Network, Action::Allow))
        .map(|r| r.pattern)
        .collect();
    let mut network = vec![("allowedDomains", Part::Domains(domains))];
    network.extend(present_keys(srt.get("network"), &NETWORK_KEYS));
    let mut sandbox = vec![("network", Part::Object(network))];
    let filesystem = present_keys(srt.get("filesystem"), &FILESYSTEM_KEYS);
    if !filesystem.is_empty() {
        sandbox.push(("filesystem", Part::Object(filesystem)));
    }
    sandbox.extend(present_keys(Some(srt), &SANDBOX_KEYS));
    // A shallow update: an override key keeps the position it already has,
    // a new one is appended, and a nested table replaces the whole section.
    for (key, value) in input.overrides {
        match sandbox.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = Part::Value(value),
            None => sandbox.push((key, Part::Value(value))),
        }
    }
    sandbox
}

/// The keys of `keys` present in `section` when it is an object, in the
/// order of `keys`. A key present with `null` counts too: only absence
/// omits it.
fn present_keys<'a>(section: Option<&'a Value>, keys: &[&'static str]) -> Vec<(&'a str, Part<'a>)> {
    let Some(section) = section.and_then(Value::as_object) else {
        return Vec::new();
    };
    keys.iter()
        .filter_map(|&key| Some((key, Part::Value(section.get(key)?))))
        .collect()
}
