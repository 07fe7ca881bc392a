//! The report: findings sorted by severity (stable, so each check's order
//! stays), grouped by location in order of first appearance, each group a
//! header line, the finding lines and their `•` item lines; a blank line
//! between groups and the count line last. Counts cover every finding, the
//! levels shown or not.

use super::finding::{Finding, Severity};

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

/// The whole stdout text (ending with a newline).
pub fn render(findings: &[Finding], levels: Levels) -> String {
    let mut shown: Vec<&Finding> = findings
        .iter()
        .filter(|f| levels.shows(f.severity))
        .collect();
    shown.sort_by_key(|f| f.severity);
    let width = shown.iter().map(|f| f.code.len()).max().unwrap_or(0);
    let mut groups: Vec<(&str, Vec<&Finding>)> = Vec::new();
    let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for f in shown {
        let at = *index.entry(f.location.as_str()).or_insert_with(|| {
            groups.push((f.location.as_str(), Vec::new()));
            groups.len() - 1
        });
        groups[at].1.push(f);
    }
    let mut out = String::new();
    for (location, group) in &groups {
        out.push_str(location);
        out.push('\n');
        for f in group {
            out.push_str(&format!(
                "  {:<7}  {:<width$}  {}\n",
                f.severity.label(),
                f.code,
                f.message
            ));
            for item in &f.items {
                out.push_str(&format!("{:indent$}• {item}\n", "", indent = width + 13));
            }
        }
        out.push('\n');
    }
    out.push_str(&summary(findings));
    out.push('\n');
    out
}

fn summary(findings: &[Finding]) -> String {
    if findings.is_empty() {
        return "doctor: no findings".into();
    }
    let n = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
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

    const ALL: Levels = Levels {
        error: true,
        warning: true,
        info: true,
    };

    fn f(severity: Severity, code: &'static str, at: &str, items: &[&str]) -> Finding {
        Finding::new(severity, code, at, "msg")
            .with_items(items.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn groups_follow_the_first_finding_after_the_severity_sort() {
        let findings = [
            f(Severity::Info, "noop-glob-suffix", "a", &["'x'"]),
            f(Severity::Warning, "cwd-anchored-glob", "b", &[]),
            f(Severity::Error, "fragment-load", "c", &[]),
            f(Severity::Warning, "subsumed-rule", "a", &[]),
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
            f(Severity::Info, "linux-drops-write-glob", "a", &[]),
            f(Severity::Warning, "unused-fragment", "a", &[]),
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
