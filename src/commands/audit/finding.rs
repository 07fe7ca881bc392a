//! What the audit reports: one line per finding, redacted.
//!
//! A finding repeats a value from the argv only when the value is a word of
//! the CLI's own vocabulary (a sandbox mode, a permission mode); any other
//! value (a prompt, a `--settings` JSON that may hold an API key, a path) is
//! shown as `<value>`.

use super::grammar::Occurrence;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The generated policy is not in force, or is bypassed.
    Error,
    /// The policy is widened.
    Warning,
    /// Worth knowing.
    Info,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub severity: Severity,
    /// The flag as typed with its value redacted, or the path of the file
    /// the finding comes from.
    pub flag: String,
    pub message: String,
}

impl Finding {
    pub fn new(severity: Severity, flag: impl Into<String>, message: impl Into<String>) -> Self {
        Finding {
            severity,
            flag: flag.into(),
            message: message.into(),
        }
    }
}

/// The words of the CLIs' own vocabulary a finding may repeat.
const VOCABULARY: &[&str] = &[
    // Codex sandbox modes and approval policies.
    "read-only",
    "workspace-write",
    "danger-full-access",
    "untrusted",
    "on-failure",
    "on-request",
    "never",
    // Claude Code permission modes and setting sources.
    "acceptEdits",
    "auto",
    "bypassPermissions",
    "default",
    "manual",
    "dontAsk",
    "plan",
    "user",
    "project",
    "local",
    // Copilot CLI agent modes ("plan" is above).
    "interactive",
    "autopilot",
    // Gemini CLI approval modes ("default" and "plan" are above).
    "yolo",
    "auto_edit",
    // Booleans.
    "true",
    "false",
];

/// `value` if it is a vocabulary word, else `<value>`.
pub fn shown(value: &str) -> &str {
    if VOCABULARY.contains(&value) {
        value
    } else {
        "<value>"
    }
}

/// A `--setting-sources` list: each item shown only if it is a source name.
pub fn shown_list(value: &str) -> String {
    value
        .split(',')
        .map(|v| shown(v.trim()))
        .collect::<Vec<_>>()
        .join(",")
}

/// The occurrence as typed, every value redacted unless vocabulary.
pub fn typed(occ: &Occurrence) -> String {
    typed_with(occ, |v| shown(v).to_string())
}

/// The occurrence as typed, each value passed through `show`.
pub fn typed_with(occ: &Occurrence, show: impl Fn(&str) -> String) -> String {
    let mut out = occ.typed.clone();
    for (i, v) in occ.values.iter().enumerate() {
        out.push_str(if i == 0 { occ.joiner } else { " " });
        out.push_str(&show(v));
    }
    out
}

/// The one-object JSON report: `{"agent": A, "findings": [...]}`.
pub fn to_json(agent: &str, findings: &[Finding]) -> String {
    let list: Vec<serde_json::Value> = findings
        .iter()
        .map(|f| {
            serde_json::json!({
                "severity": f.severity.name(),
                "flag": f.flag,
                "message": f.message,
            })
        })
        .collect();
    let doc = serde_json::json!({"agent": agent, "findings": list});
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

/// The exit code of a finished audit: 1 for an error finding, or for any
/// finding with `strict`.
pub fn exit_code(findings: &[Finding], strict: bool) -> i32 {
    let fails = findings
        .iter()
        .any(|f| f.severity == Severity::Error || strict);
    i32::from(fails)
}
