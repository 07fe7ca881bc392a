//! `audit`'s reading of the settings files a Claude Code launch loads (the
//! user file and the project's `.claude/settings{,.local}.json`), beside
//! the switches `launch` checks: a value Claude Code's settings schema
//! refuses (it drops the whole file), and the grants twsrt did not write
//! ([`super::foreign`]): allow rules for the tools the policy restricts, a
//! softer `defaultMode`, extra directories, sandbox escape keys and, in a
//! project file, `sandbox.filesystem` paths that re-open what the policy
//! denies.

use serde_json::{Map, Value};

use super::foreign::{self, Grant};
use crate::diag::{Code, Diagnostic, Severity};

/// Which layer a document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    /// The user settings Claude Code loads: twsrt's file. A file Claude Code
    /// drops is an error (none of the policy is in force).
    User,
    /// A project's file: twsrt wrote none of it.
    Project,
}

/// The findings of the document `doc` shown as `location`. `generated`
/// holds what twsrt writes into the user file that these checks would
/// otherwise count (the mode's sandbox overrides); `locked` is a managed
/// `allowManagedPermissionRulesOnly`, which makes allow rules inert.
pub fn findings(
    doc: &Value,
    location: &str,
    layer: Layer,
    generated: &Map<String, Value>,
    locked: bool,
    out: &mut Vec<Diagnostic>,
) {
    let Some(map) = doc.as_object() else {
        return;
    };
    if let Some(r) = super::schema::rejected(doc) {
        let (severity, code) = match layer {
            Layer::User => (Severity::Error, Code::TargetNotLoaded),
            Layer::Project => (Severity::Warning, super::codes::SETTINGS_REJECTED),
        };
        out.push(Diagnostic::new(severity, code, location, r.message()));
        // Claude Code loads none of it: nothing else in it is in force.
        return;
    }
    for g in foreign::grants(generated, map) {
        // A project's own directories are its business (`launch` reports
        // the root and the home directory in any layer).
        if layer == Layer::Project && g.section == "permissions.additionalDirectories" {
            continue;
        }
        if let Some(d) = grant_finding(&g, location, locked) {
            out.push(d);
        }
    }
    if layer == Layer::Project {
        path_findings(map, location, out);
    }
}

/// The finding of one grant, when `launch`'s own checks do not already
/// report it (`bypassPermissions`, `allowUnsandboxedCommands`, a root or
/// home directory are errors there).
fn grant_finding(g: &Grant, location: &str, locked: bool) -> Option<Diagnostic> {
    let what = format!("{} {}: {}", g.section, g.entry, g.why);
    let warn = |code| Diagnostic::new(Severity::Warning, code, location, what.clone());
    match g.section {
        "permissions.allow" if locked => Some(Diagnostic::new(
            Severity::Info,
            Code::AllowRules,
            location,
            format!(
                "{what}, but it is inert: this machine's managed settings set \
                 allowManagedPermissionRulesOnly"
            ),
        )),
        "permissions.allow" => Some(warn(Code::AllowRules)),
        "permissions.defaultMode" if g.entry == "bypassPermissions" => None,
        "permissions.defaultMode" => Some(warn(Code::ApprovalMode)),
        "permissions.additionalDirectories" => Some(warn(Code::ExtraDirectory)),
        "sandbox" if g.entry == "allowUnsandboxedCommands" => None,
        _ => Some(warn(Code::SandboxEscape)),
    }
}

/// `sandbox.filesystem.allowRead` / `allowWrite` entries of a project file:
/// Claude Code merges them into the sandbox above the user settings, so
/// they re-open what the policy denies (a sandboxed `cat ~/.aws/...` reads
/// the secret, doc/clients.md).
fn path_findings(map: &Map<String, Value>, location: &str, out: &mut Vec<Diagnostic>) {
    let filesystem = map
        .get("sandbox")
        .and_then(|s| s.get("filesystem"))
        .and_then(Value::as_object);
    let Some(filesystem) = filesystem else {
        return;
    };
    for key in ["allowRead", "allowWrite"] {
        let n = filesystem
            .get(key)
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        if n > 0 {
            out.push(Diagnostic::new(
                Severity::Error,
                Code::LayerOverride,
                location,
                format!(
                    "sets sandbox.filesystem.{key} ({n} path(s)): Claude Code adds them to the \
                     sandbox above twsrt's settings, re-opening what the policy denies"
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(doc: Value, layer: Layer) -> Vec<(Severity, String)> {
        let mut out = Vec::new();
        findings(&doc, "f", layer, &Map::new(), false, &mut out);
        out.into_iter().map(|d| (d.severity, d.message)).collect()
    }

    #[test]
    fn a_file_claude_code_drops_is_an_error_in_the_user_layer_only() {
        let doc = json!({"sandbox": {"enabled": 1}, "permissions": {"allow": ["Write"]}});
        let user = run(doc.clone(), Layer::User);
        assert_eq!(user.len(), 1, "{user:?}");
        assert_eq!(user[0].0, Severity::Error);
        assert!(
            user[0].1.starts_with("/sandbox/enabled is a number"),
            "{user:?}"
        );
        let project = run(doc, Layer::Project);
        assert_eq!(project.len(), 1);
        assert_eq!(project[0].0, Severity::Warning);
    }

    #[test]
    fn grants_and_reopened_paths_are_findings() {
        let doc = json!({
            "permissions": {"allow": ["Write", "mcp__x"], "defaultMode": "acceptEdits"},
            "sandbox": {"filesystem": {"allowRead": ["~/.aws"], "allowWrite": ["//$HOME"]}}
        });
        let got = run(doc.clone(), Layer::Project);
        let messages: Vec<&str> = got.iter().map(|(_, m)| m.as_str()).collect();
        assert_eq!(got.len(), 4, "{messages:?}");
        assert!(messages[0].starts_with("permissions.allow [0] Write: "));
        assert!(messages[1].starts_with("permissions.defaultMode acceptEdits: "));
        assert!(messages[2].starts_with("sets sandbox.filesystem.allowRead (1 path(s))"));
        assert_eq!(got[2].0, Severity::Error);
        assert_eq!(got[3].0, Severity::Error);
        // In the user file the sandbox paths are twsrt's (diff compares them).
        assert_eq!(run(doc, Layer::User).len(), 2);
    }
}
