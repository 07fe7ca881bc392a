//! Claude Code launch findings for what a settings layer runs or moves
//! around the guard: `env` entries that move where the policy points
//! (`HOME`, the config folder) or what the guard hook loads (`PATH`,
//! `TWSRT_*`), and code the policy did not install (hooks other than
//! twsrt's own entry, `apiKeyHelper`), which Claude Code runs outside any
//! sandbox and without asking.

use serde_json::Value;

use crate::agent::launch::redact::shown;
use crate::diag::{Code, Diagnostic, Severity};

/// `env` keys that move the policy or the guard: an error in every layer.
const MOVED: [&str; 3] = ["HOME", "CLAUDE_CONFIG_DIR", "XDG_CONFIG_HOME"];

/// The findings of `doc` (a settings layer shown as `flag`); `added` is a
/// layer this launch adds (`--settings`), else a project's file, which the
/// agent may have written: code in it is an error, not a warning.
pub fn findings(doc: &Value, flag: &str, added: bool, out: &mut Vec<Diagnostic>) {
    let env = doc.get("env").and_then(Value::as_object);
    for key in env.into_iter().flat_map(|e| e.keys()) {
        let why = if MOVED.contains(&key.as_str()) {
            "moves where the policy's `~` rules and Claude Code's config point"
        } else if key.starts_with("TWSRT_") {
            "changes what the guard hook loads and runs"
        } else if key == "PATH" {
            "changes which programs the guard hook and the tools run"
        } else {
            continue;
        };
        out.push(Diagnostic::new(
            Severity::Error,
            Code::LayerOverride,
            flag,
            format!("sets env.{}: {why}", named(key)),
        ));
    }
    let severity = if added {
        Severity::Warning
    } else {
        Severity::Error
    };
    let foreign = foreign_hooks(doc);
    if !foreign.is_empty() {
        out.push(Diagnostic::new(
            severity,
            Code::ForeignCode,
            flag,
            format!(
                "sets hooks the policy did not install ({}): they run outside any sandbox \
                 and without asking",
                foreign.join(", ")
            ),
        ));
    }
    if doc.get("apiKeyHelper").is_some_and(|v| !v.is_null()) {
        out.push(Diagnostic::new(
            severity,
            Code::ForeignCode,
            flag,
            "sets apiKeyHelper: a command the policy never saw runs outside any sandbox",
        ));
    }
}

/// Claude Code's hook events, named as they are (any other key is shown
/// redacted, as a value might be a secret).
const EVENTS: [&str; 10] = [
    "PreToolUse",
    "PostToolUse",
    "Notification",
    "UserPromptSubmit",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "SessionStart",
    "SessionEnd",
    "PermissionRequest",
];

/// An `env` key as shown: the ones this module names as they are, other
/// `TWSRT_` keys as `TWSRT_*`.
fn named(key: &str) -> &str {
    match key {
        "HOME" | "PATH" | "CLAUDE_CONFIG_DIR" | "XDG_CONFIG_HOME" | "TWSRT_SRT" => key,
        _ => "TWSRT_*",
    }
}

/// The hook events of `doc` with an entry other than twsrt's guard entry.
fn foreign_hooks(doc: &Value) -> Vec<String> {
    let Some(hooks) = doc.get("hooks").and_then(Value::as_object) else {
        return Vec::new();
    };
    hooks
        .iter()
        .filter(|(_, entries)| match entries {
            Value::Array(list) => list.iter().any(|e| !super::hook_entry::is_ours(e)),
            Value::Null => false,
            _ => true,
        })
        .map(|(event, _)| match EVENTS.contains(&event.as_str()) {
            true => event.clone(),
            false => shown(event).to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn found(doc: Value, added: bool) -> Vec<(Severity, String)> {
        let mut out = Vec::new();
        findings(&doc, "f", added, &mut out);
        out.into_iter().map(|d| (d.severity, d.message)).collect()
    }

    #[test]
    fn moved_env_and_foreign_code_are_found() {
        let ours = json!({"matcher": "Bash", "hooks": [{"type": "command",
            "command": "/bin/twsrt -c /c hook claude"}]});
        let doc = json!({
            "env": {"HOME": "/tmp", "TWSRT_SRT": "./srt", "PATH": "/x", "LANG": "C"},
            "hooks": {"PreToolUse": [ours], "SessionStart": [{"hooks": []}]},
            "apiKeyHelper": "cat key",
        });
        let got = found(doc, false);
        assert_eq!(got.len(), 5, "{got:?}");
        assert!(got.iter().all(|(s, _)| *s == Severity::Error), "{got:?}");
        assert!(got[3].1.contains("(SessionStart)"), "{got:?}");
        let got = found(json!({"hooks": {"PreToolUse": [ours]}}), false);
        assert!(got.is_empty(), "{got:?}");
        let got = found(json!({"apiKeyHelper": "x"}), true);
        assert_eq!(got[0].0, Severity::Warning, "{got:?}");
    }
}
