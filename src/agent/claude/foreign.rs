//! The allow-shaped settings of a Claude settings file that twsrt did not
//! write and that widen its policy: an allow rule for a tool the policy
//! restricts (Claude Code then runs it without asking where the policy
//! asks), a `defaultMode` that stops the asking, extra directories, and the
//! sandbox keys that let a command leave the sandbox. `diff` reports each
//! as widening drift, `audit` as a finding of the layer that holds it.

use serde_json::{Map, Value};

use crate::agent::claude::merge::is_managed_allow;
use crate::drift::{Difference, Direction, Side};

/// The tools twsrt's rules restrict (Read and Edit rules cover the tools
/// of their family, so an allow of any of them widens).
const RESTRICTED_TOOLS: [&str; 9] = [
    "Bash",
    "Read",
    "Glob",
    "Grep",
    "Edit",
    "Write",
    "MultiEdit",
    "NotebookEdit",
    "WebFetch",
];

/// `permissions.defaultMode` values that run tools without asking.
/// Claude Code's modes, strictest first (its settings schema, 2.1.337):
/// `plan` (no tool runs), `dontAsk` (no prompt: anything not allowed is
/// denied), `default`/`manual` (asks, what the policy's ask rules assume),
/// then these, which ask less: `acceptEdits` (file edits unasked), `auto`
/// (a classifier answers the prompts), `bypassPermissions` (no check).
/// twsrt writes no `defaultMode`: the user's value stays as it is.
const WIDE_MODES: [&str; 3] = ["bypassPermissions", "acceptEdits", "auto"];

/// `permissions.defaultMode` values stricter than the asking the policy
/// assumes (Claude Code's `default`).
const STRICT_MODES: [&str; 2] = ["plan", "dontAsk"];

/// The `permissions.defaultMode` of `doc` when it is stricter than the
/// policy's, for the `Info:` line that says it is kept.
pub fn stricter_mode(doc: &Map<String, Value>) -> Option<&str> {
    let mode = object(doc, "permissions").get("defaultMode")?.as_str()?;
    STRICT_MODES.contains(&mode).then_some(mode)
}

/// The `sandbox` keys that let commands run outside the sandbox or unasked.
const ESCAPE_KEYS: [&str; 3] = [
    "allowUnsandboxedCommands",
    "autoAllowBashIfSandboxed",
    "excludedCommands",
];

/// One widening setting: where it is (`permissions.allow`), the entry or
/// value as a report names it, and what it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub section: &'static str,
    pub entry: String,
    pub why: &'static str,
}

impl Grant {
    /// The widening drift of the grant (an entry on disk, not generated).
    pub fn difference(&self) -> Difference {
        let shown = format!("{}:{}", self.section, self.entry);
        Difference::new(
            self.section,
            &self.entry,
            &shown,
            Side::Extra,
            Direction::Widening,
        )
    }
}

/// The grants of `on_disk` that `generated` does not hold. The entries of
/// `generated` are twsrt's (a value equal to the generated one is never a
/// grant).
pub fn grants(generated: &Map<String, Value>, on_disk: &Map<String, Value>) -> Vec<Grant> {
    let mut out = Vec::new();
    let (gen_p, disk_p) = (
        object(generated, "permissions"),
        object(on_disk, "permissions"),
    );
    let ours = list(gen_p, "allow");
    for (i, entry) in list(disk_p, "allow").iter().enumerate() {
        let Some(text) = entry.as_str() else { continue };
        // twsrt's own kind of allow is compared as a set by `diff::entries`.
        if restricted(text) && !is_managed_allow(text) && !ours.contains(entry) {
            out.push(grant(
                "permissions.allow",
                shown_rule(i, text),
                "runs a tool the policy restricts without asking",
            ));
        }
    }
    let mode = disk_p.get("defaultMode").and_then(Value::as_str);
    if let Some(mode) = mode.filter(|m| WIDE_MODES.contains(m))
        && gen_p.get("defaultMode").and_then(Value::as_str) != Some(mode)
    {
        out.push(grant(
            "permissions.defaultMode",
            mode.to_string(),
            "runs tools without asking",
        ));
    }
    let dirs = list(disk_p, "additionalDirectories");
    let gen_dirs = list(gen_p, "additionalDirectories");
    for (i, _) in dirs
        .iter()
        .enumerate()
        .filter(|(_, d)| !gen_dirs.contains(d))
    {
        out.push(grant(
            "permissions.additionalDirectories",
            format!("[{i}]"),
            "puts a directory in the tools' reach without asking",
        ));
    }
    let (gen_s, disk_s) = (object(generated, "sandbox"), object(on_disk, "sandbox"));
    for key in ESCAPE_KEYS {
        let Some(value) = disk_s.get(key) else {
            continue;
        };
        if widens(value) && gen_s.get(key) != Some(value) {
            out.push(grant(
                "sandbox",
                key.to_string(),
                "lets commands run outside the sandbox or unasked",
            ));
        }
    }
    out
}

fn grant(section: &'static str, entry: String, why: &'static str) -> Grant {
    Grant {
        section,
        entry,
        why,
    }
}

/// How a report names the allow rule at `index`: the tool, and `(...)`
/// for its specifier, which is never shown (a hand-written rule can hold a
/// token: `Bash(export T=...)`).
fn shown_rule(index: usize, rule: &str) -> String {
    match rule.split_once('(') {
        Some((tool, _)) => format!("[{index}] {}(...)", tool.trim()),
        None => format!("[{index}] {}", rule.trim()),
    }
}

/// Whether an allow rule names a tool twsrt's rules restrict: `Tool` or
/// `Tool(...)`.
fn restricted(rule: &str) -> bool {
    let tool = rule.split('(').next().unwrap_or(rule).trim();
    RESTRICTED_TOOLS.contains(&tool)
}

/// A sandbox escape value that opens something: `true`, or a non-empty list.
fn widens(value: &Value) -> bool {
    match value {
        Value::Bool(b) => *b,
        Value::Array(a) => !a.is_empty(),
        _ => false,
    }
}

static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);

fn object<'a>(parent: &'a Map<String, Value>, key: &str) -> &'a Map<String, Value> {
    parent.get(key).and_then(Value::as_object).unwrap_or(&EMPTY)
}

fn list<'a>(parent: &'a Map<String, Value>, key: &str) -> &'a [Value] {
    parent
        .get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    fn entries(generated: Value, disk: Value) -> Vec<String> {
        grants(&map(generated), &map(disk))
            .into_iter()
            .map(|g| format!("{}:{}", g.section, g.entry))
            .collect()
    }

    #[test]
    fn foreign_allows_of_restricted_tools_are_grants() {
        let generated = json!({"permissions": {"allow": ["WebFetch(domain:github.com)"]}});
        let disk = json!({"permissions": {"allow": [
            "WebFetch(domain:github.com)", "Edit(~/x)", "Write", "Edit", "Read", "WebFetch",
            "WebFetch(*)", "Bash(rm:*)", "Bash(curl:*)", "mcp__x__y", 5
        ]}});
        assert_eq!(
            entries(generated, disk),
            [
                "permissions.allow:[2] Write",
                "permissions.allow:[3] Edit",
                "permissions.allow:[4] Read",
                "permissions.allow:[5] WebFetch",
                "permissions.allow:[6] WebFetch(...)",
                "permissions.allow:[7] Bash(...)",
                "permissions.allow:[8] Bash(...)",
            ]
        );
    }

    #[test]
    fn modes_directories_and_sandbox_escapes_are_grants() {
        let disk = json!({
            "permissions": {"defaultMode": "bypassPermissions", "additionalDirectories": ["/"]},
            "sandbox": {"allowUnsandboxedCommands": true, "excludedCommands": ["curl"],
                        "autoAllowBashIfSandboxed": false}
        });
        assert_eq!(
            entries(json!({}), disk),
            [
                "permissions.defaultMode:bypassPermissions",
                "permissions.additionalDirectories:[0]",
                "sandbox:allowUnsandboxedCommands",
                "sandbox:excludedCommands",
            ]
        );
    }

    #[test]
    fn what_twsrt_generates_and_narrower_settings_are_not() {
        let generated = json!({"sandbox": {"allowUnsandboxedCommands": true}});
        let disk = json!({
            "permissions": {"defaultMode": "plan", "allow": ["mcp__x"]},
            "sandbox": {"allowUnsandboxedCommands": true}
        });
        assert!(entries(generated, disk).is_empty());
        let disk = json!({"permissions": {"defaultMode": "dontAsk"}});
        assert!(entries(json!({}), disk).is_empty());
    }
}
