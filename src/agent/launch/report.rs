//! How the launch guard prints its findings: one line each (on stdout for
//! `audit`, its report; on stderr with the usual labels for `run`), or one
//! JSON object, which also names each finding's code.

use crate::diag::{Diagnostic, Severity};
use crate::ui;

/// The one-object JSON report: `{"agent": A, "findings": [...]}`, each
/// finding `{"code", "severity", "flag", "message"}` (`flag` is the
/// location; `code` the finding's stable name).
pub fn to_json(agent: &str, findings: &[Diagnostic]) -> String {
    let list: Vec<serde_json::Value> = findings
        .iter()
        .map(|f| {
            serde_json::json!({
                "code": f.code.name(),
                "severity": f.severity.label(),
                "flag": f.location,
                "message": f.message,
            })
        })
        .collect();
    let doc = serde_json::json!({"agent": agent, "findings": list});
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

/// The exit code of a finished audit: 1 for an error finding, or for any
/// finding with `strict`.
pub fn exit_code(findings: &[Diagnostic], strict: bool) -> i32 {
    let fails = findings
        .iter()
        .any(|f| f.severity == Severity::Error || strict);
    i32::from(fails)
}

/// One finding as a line: `Severity: LOCATION: MESSAGE` on stdout (the
/// labels every other twsrt message uses: `Error:`, `Warning:`, `Info:`),
/// or with `stderr` `LOCATION: MESSAGE` under the severity's label.
pub fn print(f: &Diagnostic, stderr: bool) {
    let text = format!("{}: {}", f.location, f.message);
    if stderr {
        match f.severity {
            Severity::Error => ui::error(&text),
            Severity::Warning => ui::warning(&text),
            Severity::Info => ui::note(&text),
        }
    } else {
        let label = match f.severity {
            Severity::Error => "Error",
            Severity::Warning => "Warning",
            Severity::Info => "Info",
        };
        ui::plain(&format!("{label}: {text}"));
    }
}
