//! One target's drift with directions, and the `diff --json` document.

use serde_json::{Value, json};

use super::{Difference, Direction, Side};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    NoDrift,
    Drift,
    /// The target file does not exist.
    Missing,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::NoDrift => "no drift",
            Status::Drift => "drift",
            Status::Missing => "missing",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Target {
    /// `srt`, `bash`, or the agent's name.
    pub name: String,
    pub path: String,
    pub status: Status,
    pub differences: Vec<Difference>,
    /// The text report's lines when they are not the differences one by
    /// one (Codex lists whole keys, as 3.3.3 does); `None`: each difference
    /// is a line, spelt by its `shown`.
    pub listed: Option<Vec<(Side, String)>>,
}

impl Target {
    /// Whether anything of this target widens. A missing target enforces
    /// nothing of the policy, so it widens.
    pub fn widens(&self) -> bool {
        self.status == Status::Missing
            || self
                .differences
                .iter()
                .any(|d| d.direction == Direction::Widening)
    }
}

/// `{"targets": [...]}`, differences in the order of the text report
/// (missing before extra, each sorted by how it is shown). A changed value
/// also has `policy`: what the policy holds instead of `entry`.
pub fn to_json(targets: &[Target]) -> Value {
    let targets: Vec<Value> = targets
        .iter()
        .map(|t| {
            let differences: Vec<Value> = sorted(&t.differences)
                .iter()
                .map(|d| {
                    let mut one = json!({
                        "section": d.section,
                        "entry": d.entry,
                        "side": d.side.name(),
                        "direction": d.direction.name(),
                    });
                    if let Some(policy) = &d.policy {
                        one["policy"] = Value::String(policy.clone());
                    }
                    one
                })
                .collect();
            json!({
                "name": t.name,
                "path": t.path,
                "status": t.status.name(),
                "differences": differences,
            })
        })
        .collect();
    json!({ "targets": targets })
}

/// Missing before extra, each sorted by its text spelling.
pub fn sorted(differences: &[Difference]) -> Vec<&Difference> {
    let mut out: Vec<&Difference> = differences.iter().collect();
    out.sort_by(|a, b| (a.side, &a.shown, &a.section).cmp(&(b.side, &b.shown, &b.section)));
    out
}
