//! Claude Code's rows in `twsrt explain`, decided on the settings
//! `generate claude` renders for the mode (the text it prints and `-w`
//! writes), so explain cannot disagree with generate: a rule the mode does
//! not write (the yolo file has no `ask` list) decides nothing here either,
//! and a rule the compile adds (the policy files' `Edit` denies) shows up
//! by itself.
//!
//! A `managed` row, rank 10, comes first when the managed drop-in
//! `generate --scope managed -w` writes is installed under the managed
//! root (/etc/claude-code/managed-settings.d/50-twsrt.json, or under
//! `explain --root DIR`): its `permissions` lists, decided as the user
//! row's are. Claude Code applies a managed deny above every user rule, so
//! that row is the one that decides when it denies. Then three layers,
//! ranks 11 to 13:
//! - `permissions`: the `permissions` lists, applied as Claude Code applies
//!   them (every deny, then every ask, then every allow);
//! - `sandbox`: the native sandbox, when `sandbox.enabled` switches it on,
//!   with the lists Claude Code builds for it ([`sandbox_lists`]);
//! - `hook`: the guard hook (`twsrt hook claude`), decided by the hook's own
//!   decision function on the event Claude Code would send for the access,
//!   so explain and the hook cannot disagree. Shown only when
//!   `[targets] claude_hook` installs the hook.

use std::path::Path;

use serde_json::Value;

use super::Claude;
use crate::agent::{Agent, Ctx};
use crate::drift::access::{self, Decision, Verdict, command_matches, domain_matches};
use crate::error::Result;
use crate::explain::{ExplainLayers, Layer, Subject, not_covered};
use crate::hook;
use crate::srt::path::{Places, path_matches};

static MANAGED: Layer = Layer {
    rank: 10,
    layer: "managed",
    agent: "claude",
};
static PERMISSIONS: Layer = Layer {
    rank: 11,
    layer: "permissions",
    agent: "claude",
};
static SANDBOX: Layer = Layer {
    rank: 12,
    layer: "sandbox",
    agent: "claude",
};
static HOOK: Layer = Layer {
    rank: 13,
    layer: "hook",
    agent: "claude",
};

/// The settings rendered for the mode, and the hook when it is installed.
pub struct Layers<'a> {
    /// Claude Code's generated settings (`generate claude` prints them).
    settings: Value,
    /// The guard hook's policy, when config.toml installs the hook.
    hook: Option<hook::Policy>,
    yolo: bool,
    places: &'a Places<'a>,
    /// The installed managed drop-in, when there is one.
    managed: Option<Value>,
}

impl<'a> Layers<'a> {
    /// Render the settings for `ctx`'s mode. The renderer's warnings are
    /// generate's business, not explain's.
    pub fn of(ctx: &Ctx, places: &'a Places<'a>) -> Result<Self> {
        let text = Claude.preview(ctx, &mut Vec::new())?;
        let settings = serde_json::from_str(&text).unwrap_or(Value::Null);
        let hook = super::hook_entry::install(&ctx.config.targets)
            .map(|_| hook::Policy::new(ctx.compiled, places.home, places.cwd));
        let installed = ctx.managed_root.join(super::managed::DROP_IN);
        let managed = std::fs::read_to_string(installed)
            .ok()
            .and_then(|text| serde_json::from_str(crate::bom::strip(&text)).ok());
        Ok(Layers {
            settings,
            hook,
            yolo: ctx.yolo,
            places,
            managed,
        })
    }

    /// The managed drop-in's own rows, decided like the user settings.
    fn managed_layers(&self) -> Option<Layers<'a>> {
        self.managed.clone().map(|settings| Layers {
            settings,
            hook: None,
            yolo: self.yolo,
            places: self.places,
            managed: None,
        })
    }

    /// `permissions.<list>` of the settings.
    fn list(&self, list: &str) -> impl Iterator<Item = &str> {
        self.settings
            .get("permissions")
            .and_then(|p| p.get(list))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
    }

    /// Whether the settings switch the sandbox on.
    fn sandbox_on(&self) -> bool {
        self.settings.pointer("/sandbox/enabled") == Some(&Value::Bool(true))
    }
}

impl ExplainLayers for Layers<'_> {
    fn decide(&self, subject: &Subject) -> Vec<(&'static Layer, Decision)> {
        let mut rows = Vec::new();
        if let Some(managed) = self.managed_layers() {
            rows.push((&MANAGED, permissions(&managed, subject)));
        }
        rows.push((&PERMISSIONS, permissions(self, subject)));
        rows.push((&SANDBOX, sandbox(self, subject)));
        if let Some(policy) = &self.hook {
            rows.push((&HOOK, hook_row(policy, self, subject)));
        }
        rows
    }
}

fn permissions(l: &Layers, s: &Subject) -> Decision {
    match s {
        Subject::Write(p) => path(l, p, true),
        Subject::Read(p) => path(l, p, false),
        Subject::Domain(d) => domain(l, d),
        Subject::Command(c) => command(l, c),
    }
}

fn sandbox(l: &Layers, s: &Subject) -> Decision {
    if !l.sandbox_on() {
        return not_covered("the Claude sandbox is off in this mode (sandbox.enabled)");
    }
    let lists = sandbox_lists(l);
    match s {
        Subject::Write(p) => access::srt_write(&lists, p, l.places),
        Subject::Read(p) => access::srt_read(&lists, p, l.places),
        Subject::Domain(d) => access::srt_network(&lists, d),
        Subject::Command(_) => not_covered("the sandbox confines commands, it does not pick them"),
    }
}

/// The hook's verdict on the tool call Claude Code would make for the
/// access: Read or Write on the path, Bash for a command.
fn hook_row(policy: &hook::Policy, l: &Layers, s: &Subject) -> Decision {
    let (tool, input) = match s {
        Subject::Read(p) => (
            "Read",
            serde_json::json!({"file_path": p.to_string_lossy()}),
        ),
        Subject::Write(p) => (
            "Write",
            serde_json::json!({"file_path": p.to_string_lossy(), "content": ""}),
        ),
        Subject::Command(c) => ("Bash", serde_json::json!({"command": c})),
        Subject::Domain(_) => return not_covered("the hook does not look at domains"),
    };
    let event = hook::Event {
        tool_name: tool.into(),
        tool_input: input,
        cwd: l.places.cwd.to_path_buf(),
    };
    let mode = if l.yolo {
        hook::Mode::Yolo
    } else {
        hook::Mode::Full
    };
    match hook::decide(&event, policy, mode) {
        hook::Verdict::Deny(reason) => Decision::without_rule(Verdict::Deny, Some(&reason)),
        hook::Verdict::Ask(reason) => Decision::without_rule(Verdict::Ask, Some(&reason)),
        hook::Verdict::Pass => not_covered("the hook lets it through to the other layers"),
        hook::Verdict::Sandbox { reason, .. } => not_covered(&reason),
    }
}

/// What one Claude permission entry (`Tool(spec)`) names.
struct Entry<'a> {
    /// `permissions.deny`, `.ask` or `.allow`.
    list: &'static str,
    verdict: Verdict,
    text: &'a str,
    spec: &'a str,
}

/// The entries for `tool` in the order Claude Code applies them: every deny,
/// then every ask, then every allow.
fn entries<'a>(l: &'a Layers, tool: &str) -> Vec<Entry<'a>> {
    let mut out = Vec::new();
    for (list, verdict) in [
        ("deny", Verdict::Deny),
        ("ask", Verdict::Ask),
        ("allow", Verdict::Allow),
    ] {
        for text in l.list(list) {
            let spec = text
                .strip_prefix(tool)
                .and_then(|t| t.strip_prefix('('))
                .and_then(|t| t.strip_suffix(')'));
            if let Some(spec) = spec {
                out.push(Entry {
                    list,
                    verdict,
                    text,
                    spec,
                });
            }
        }
    }
    out
}

/// The policy rule a Read/Edit spec was written from: `//abs` is `/abs`,
/// a `/**` suffix marks the directory's contents.
fn path_rule(spec: &str) -> &str {
    let spec = spec
        .strip_prefix('/')
        .filter(|s| s.starts_with('/'))
        .unwrap_or(spec);
    match spec.strip_suffix("/**") {
        Some(stem) if !stem.is_empty() => stem,
        _ => spec,
    }
}

/// The first verdict list of the entries for `tool` with one matching,
/// and within it the longest spec: (entry, the policy rule it names).
fn deciding<'e, 'a>(
    entries: &'e [Entry<'a>],
    matches: impl Fn(&'a str) -> Option<&'a str>,
) -> Option<(&'e Entry<'a>, &'a str)> {
    for verdict in [Verdict::Deny, Verdict::Ask, Verdict::Allow] {
        let found = entries
            .iter()
            .filter(|e| e.verdict == verdict)
            .filter_map(|e| matches(e.spec).map(|rule| (e, rule)))
            .max_by_key(|(e, _)| e.spec.len());
        if found.is_some() {
            return found;
        }
    }
    None
}

/// A decision by a rendered entry: the policy rule it names (`list` says
/// where the policy has it, for its fragment line) and the entry itself.
fn by_entry(verdict: Verdict, list: &str, rule: &str, entry: &str) -> Decision {
    Decision::rule(
        verdict,
        (list.to_string(), rule.to_string()),
        Some(&format!("permissions entry {entry}")),
    )
}

/// Claude Code's permission rules for a read or write of `path`.
fn path(l: &Layers, path: &Path, write: bool) -> Decision {
    let (tool, lists) = if write {
        ("Edit", ["filesystem.denyWrite", "filesystem.allowWrite"])
    } else {
        ("Read", ["filesystem.denyRead", "filesystem.allowRead"])
    };
    let found = entries(l, tool);
    let matched = deciding(&found, |spec| {
        let rule = path_rule(spec);
        path_matches(rule, path, l.places).then_some(rule)
    });
    match matched {
        Some((e, rule)) => {
            let list = if e.verdict == Verdict::Allow {
                lists[1]
            } else {
                lists[0]
            };
            by_entry(e.verdict, list, rule, e.text)
        }
        None if write => {
            Decision::without_rule(Verdict::NotCovered, Some("no Edit rule: Claude asks"))
        }
        None => Decision::without_rule(Verdict::NotCovered, Some("no Read rule")),
    }
}

/// Claude Code's `WebFetch(domain:...)` rules for `domain`.
fn domain(l: &Layers, domain: &str) -> Decision {
    let found = entries(l, "WebFetch");
    let matched = deciding(&found, |spec| {
        let pattern = spec.strip_prefix("domain:")?;
        domain_matches(pattern, domain).then_some(pattern)
    });
    match matched {
        Some((e, rule)) => {
            let list = match e.verdict {
                Verdict::Allow => "network.allowedDomains",
                _ => "network.deniedDomains",
            };
            by_entry(e.verdict, list, rule, e.text)
        }
        None => Decision::without_rule(Verdict::NotCovered, Some("no rule for this domain")),
    }
}

/// Claude Code's `Bash(...)` rules for `command`: `Bash(X)` is the command
/// `X` itself, `Bash(X *)` it with arguments.
fn command(l: &Layers, command: &str) -> Decision {
    let words = crate::shellwords::split(command)
        .unwrap_or_else(|_| command.split_whitespace().map(str::to_string).collect());
    let found = entries(l, "Bash");
    let matched = deciding(&found, |spec| {
        let (rule, args) = match spec.strip_suffix(" *") {
            Some(rule) => (rule, true),
            None => (spec, false),
        };
        let rule_words = crate::shellwords::split(rule).ok()?.len();
        let fits = command_matches(rule, command) && (words.len() > rule_words) == args;
        fits.then_some(rule)
    });
    match matched {
        Some((e, rule)) => by_entry(e.verdict, e.list, rule, e.text),
        None => Decision::without_rule(
            Verdict::NotCovered,
            Some("no Bash rule (twsrt writes no Bash allow rule for Claude)"),
        ),
    }
}

/// The Claude sandbox's lists as Claude Code builds them from the rendered
/// settings, in srt's shape: `sandbox.filesystem` and `sandbox.network` as
/// written (an override included), joined by the permission rules the
/// sandbox also reads (a `Read` deny is a denyRead, an `Edit` deny a
/// denyWrite, an `Edit` allow an allowWrite, a `WebFetch(domain:...)` deny
/// or allow a denied or allowed domain; doc/clients.md, "Which permission
/// rules Claude Code's sandbox also applies, read").
fn sandbox_lists(l: &Layers) -> Value {
    let written = |section: &str, key: &str| -> Vec<Value> {
        l.settings
            .pointer(&format!("/sandbox/{section}/{key}"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let from_rules = |tool: &str, verdict: Verdict, web: bool| -> Vec<Value> {
        entries(l, tool)
            .into_iter()
            .filter(|e| e.verdict == verdict)
            .filter_map(|e| match web {
                true => e.spec.strip_prefix("domain:"),
                false => Some(path_rule(e.spec)),
            })
            .map(|rule| Value::String(rule.to_string()))
            .collect()
    };
    let join = |mut a: Vec<Value>, b: Vec<Value>| {
        for v in b {
            if !a.contains(&v) {
                a.push(v);
            }
        }
        Value::Array(a)
    };
    serde_json::json!({
        "filesystem": {
            "denyRead": join(written("filesystem", "denyRead"), from_rules("Read", Verdict::Deny, false)),
            "allowRead": written("filesystem", "allowRead"),
            "denyWrite": join(written("filesystem", "denyWrite"), from_rules("Edit", Verdict::Deny, false)),
            "allowWrite": join(written("filesystem", "allowWrite"), from_rules("Edit", Verdict::Allow, false)),
        },
        "network": {
            "deniedDomains": join(written("network", "deniedDomains"), from_rules("WebFetch", Verdict::Deny, true)),
            "allowedDomains": join(written("network", "allowedDomains"), from_rules("WebFetch", Verdict::Allow, true)),
        },
    })
}

#[cfg(test)]
mod managed_tests {
    use super::*;

    #[test]
    fn an_installed_drop_in_is_its_own_row_above_the_user_row() {
        let home = Path::new("/home/u");
        let places = Places { home, cwd: home };
        let user = serde_json::json!({"permissions": {"allow": ["Bash(curl *)"]}});
        let managed = serde_json::json!({"permissions": {"deny": ["Bash(curl *)"]}});
        let layers = Layers {
            settings: user,
            hook: None,
            yolo: false,
            places: &places,
            managed: Some(managed),
        };
        let rows = layers.decide(&Subject::Command("curl example.com"));
        let names: Vec<&str> = rows.iter().map(|(l, _)| l.layer).collect();
        assert_eq!(names, ["managed", "permissions", "sandbox"]);
        assert_eq!(rows[0].1.verdict, Verdict::Deny, "{:?}", rows[0].1);
        assert_ne!(rows[1].1.verdict, Verdict::Deny, "{:?}", rows[1].1);
        let without = Layers {
            managed: None,
            ..layers
        };
        let names: Vec<&str> = without
            .decide(&Subject::Command("curl example.com"))
            .iter()
            .map(|(l, _)| l.layer)
            .collect();
        assert_eq!(names, ["permissions", "sandbox"]);
    }
}
