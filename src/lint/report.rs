//! The report: findings sorted by severity (stable, so each check's order
//! stays), grouped by location in order of first appearance. As text
//! ([`render`]): each group a header line, the finding lines and their `•`
//! note lines; a blank line between groups and the count line last. As
//! JSON ([`to_json`]): the same findings in the same order, then the
//! counts. Counts cover every finding, the levels shown or not.

use serde_json::{Value, json};

use crate::diag::{Diagnostic, Severity};

/// Which severities are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Levels {
    pub error: bool,
    pub warning: bool,
    pub info: bool,
}

impl Levels {
    fn shows(self, severity: Severity) -> bool {
        match severity {
            Severity::Error => self.error,
            Severity::Warning => self.warning,
            Severity::Info => self.info,
        }
    }
}

/// The shown findings in report order: by severity, then grouped by
/// location in order of first appearance.
fn groups(findings: &[Diagnostic], levels: Levels) -> Vec<(&str, Vec<&Diagnostic>)> {
    let mut shown: Vec<&Diagnostic> = findings
        .iter()
        .filter(|f| levels.shows(f.severity))
        .collect();
    shown.sort_by_key(|f| f.severity);
    let mut groups: Vec<(&str, Vec<&Diagnostic>)> = Vec::new();
    let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for f in shown {
        let at = *index.entry(f.location.as_str()).or_insert_with(|| {
            groups.push((f.location.as_str(), Vec::new()));
            groups.len() - 1
        });
        groups[at].1.push(f);
    }
    groups
}

/// The whole stdout text (ending with a newline).
pub fn render(findings: &[Diagnostic], levels: Levels) -> String {
    let groups = groups(findings, levels);
    let width = groups
        .iter()
        .flat_map(|(_, g)| g)
        .map(|f| f.code.name().len())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for (location, group) in &groups {
        out.push_str(location);
        out.push('\n');
        for f in group {
            out.push_str(&format!(
                "  {:<7}  {:<width$}  {}\n",
                f.severity.label(),
                f.code.name(),
                f.message
            ));
            for note in &f.notes {
                out.push_str(&format!("{:indent$}• {note}\n", "", indent = width + 13));
            }
        }
        out.push('\n');
    }
    out.push_str(&summary(findings));
    out.push('\n');
    out
}

/// `{"findings": [...], "errors": N, "warnings": N, "info": N}`: the shown
/// findings in the text report's order, each with its code, severity,
/// location, line and column (`null` unless the location is a file with a
/// position), message and notes; the counts cover every finding.
pub fn to_json(findings: &[Diagnostic], levels: Levels) -> Value {
    let shown: Vec<Value> = groups(findings, levels)
        .into_iter()
        .flat_map(|(_, group)| group)
        .map(|f| {
            json!({
                "code": f.code.name(),
                "severity": f.severity.label(),
                "location": f.location,
                "line": f.span.map(|s| s.line),
                "column": f.span.map(|s| s.column),
                "message": f.message,
                "notes": f.notes,
            })
        })
        .collect();
    json!({
        "findings": shown,
        "errors": count(findings, Severity::Error),
        "warnings": count(findings, Severity::Warning),
        "info": count(findings, Severity::Info),
    })
}

/// Whether any finding is an error (what the exit code says).
pub fn has_errors(findings: &[Diagnostic]) -> bool {
    count(findings, Severity::Error) > 0
}

fn count(findings: &[Diagnostic], severity: Severity) -> usize {
    findings.iter().filter(|f| f.severity == severity).count()
}

fn summary(findings: &[Diagnostic]) -> String {
    if findings.is_empty() {
        return "doctor: no findings".into();
    }
    let n = |s: Severity| count(findings, s);
    let plural = |k: usize, word: &str| format!("{k} {word}{}", if k == 1 { "" } else { "s" });
    format!(
        "doctor: {}, {}, {} info",
        plural(n(Severity::Error), "error"),
        plural(n(Severity::Warning), "warning"),
        n(Severity::Info)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Code;

    const ALL: Levels = Levels {
        error: true,
        warning: true,
        info: true,
    };

    fn f(severity: Severity, code: Code, at: &str, notes: &[&str]) -> Diagnostic {
        Diagnostic::new(severity, code, at, "msg")
            .with_notes(notes.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn groups_follow_the_first_finding_after_the_severity_sort() {
        let findings = [
            f(Severity::Info, Code::NoopGlobSuffix, "a", &["'x'"]),
            f(Severity::Warning, Code::CwdAnchoredGlob, "b", &[]),
            f(Severity::Error, Code::FragmentLoad, "c", &[]),
            f(Severity::Warning, Code::SubsumedRule, "a", &[]),
        ];
        let text = render(&findings, ALL);
        assert_eq!(
            text,
            "c\n  error    fragment-load      msg\n\n\
             b\n  warning  cwd-anchored-glob  msg\n\n\
             a\n  warning  subsumed-rule      msg\n  info     noop-glob-suffix   msg\n\
             \x20                             • 'x'\n\n\
             doctor: 1 error, 2 warnings, 1 info\n"
        );
    }

    #[test]
    fn hidden_levels_are_counted_and_do_not_widen_the_code_column() {
        let findings = [
            f(Severity::Info, Code::LinuxDropsWriteGlob, "a", &[]),
            f(Severity::Warning, Code::UnusedFragment, "a", &[]),
        ];
        let shown = Levels { info: false, ..ALL };
        assert_eq!(
            render(&findings, shown),
            "a\n  warning  unused-fragment  msg\n\ndoctor: 0 errors, 1 warning, 1 info\n"
        );
        let none = Levels {
            error: true,
            warning: false,
            info: false,
        };
        assert_eq!(
            render(&findings, none),
            "doctor: 0 errors, 1 warning, 1 info\n"
        );
    }

    #[test]
    fn no_findings_at_all_says_so() {
        assert_eq!(render(&[], ALL), "doctor: no findings\n");
    }
}
