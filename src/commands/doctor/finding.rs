//! One doctor finding and how its message counts entries.

/// Severity order is report order: errors first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn label(self) -> &'static str {
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
    /// The check's code (`subsumed-rule`), stable interface.
    pub code: &'static str,
    /// The group header: a fragment as shown, `profile 'x'`, a file path.
    pub location: String,
    pub message: String,
    /// The entries the finding is about, one `•` line each.
    pub items: Vec<String>,
}

impl Finding {
    pub fn new(
        severity: Severity,
        code: &'static str,
        location: &str,
        message: impl Into<String>,
    ) -> Self {
        Finding {
            severity,
            code,
            location: location.to_string(),
            message: message.into(),
            items: Vec::new(),
        }
    }

    pub fn with_items(mut self, items: Vec<String>) -> Self {
        self.items = items;
        self
    }
}

/// `1 entry`, `2 entries` (the noun is given in both forms).
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `N entry/entries`.
pub fn entries(n: usize) -> String {
    count(n, "entry", "entries")
}

/// A value as the items show it: in single quotes.
pub fn quoted(value: &str) -> String {
    format!("'{value}'")
}
