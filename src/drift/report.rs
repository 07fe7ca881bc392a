//! One target's drift with directions, and the `diff --json` document.

use serde_json::{Value, json};

use super::{Difference, Direction, Side, widening};
use crate::ui;

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

/// A canonical output's one line: `NAME canonical: no drift` or `: drift`.
pub fn print_canonical(target: &Target) {
    let label = format!("{} canonical", target.name);
    if target.status == Status::NoDrift {
        ui::success(&format!("{label}: no drift"));
        return;
    }
    ui::drift(&format!("{label}: drift"));
}

/// An agent's text report: `NAME: no drift`, or the header, one `+`/`-`
/// line per difference (or per listed line) and a blank line.
pub fn print_agent(target: &Target) {
    if target.differences.is_empty() {
        ui::success(&format!("{}: no drift", target.name));
        return;
    }
    let sorted = sorted(&target.differences);
    let shown = |side: Side| -> Vec<&str> {
        match &target.listed {
            Some(lines) => {
                let mut these: Vec<&str> = lines
                    .iter()
                    .filter(|(s, _)| *s == side)
                    .map(|(_, t)| t.as_str())
                    .collect();
                these.sort_unstable();
                these
            }
            None => sorted
                .iter()
                .filter(|d| d.side == side)
                .map(|d| d.shown.as_str())
                .collect(),
        }
    };
    let (missing, extra) = (shown(Side::Missing), shown(Side::Extra));
    ui::drift_header(
        &target.name,
        &format!("{} missing, {} extra", missing.len(), extra.len()),
        &target.path,
    );
    for m in &missing {
        ui::missing(&format!("  + {m}"));
    }
    for e in &extra {
        ui::extra(&format!("  - {e}"));
    }
    ui::plain("");
}

/// The stderr lines of a drifted target: when stdout did not list its
/// differences one by one (a canonical output, Codex's whole keys), one
/// line per difference saying what changed and which way it points; then
/// how many of them widen.
pub fn widening_line(target: &Target, canonical: bool) {
    let label = if canonical {
        format!("{} canonical", target.name)
    } else {
        target.name.clone()
    };
    // A canonical output is twsrt's own file, so its entries are shown; a
    // listed target's differences spell their own line (`shown`).
    if canonical {
        for d in sorted(&target.differences) {
            ui::note(&format!("{label}: {}", d.describe()));
        }
    } else if target.listed.is_some() {
        for d in sorted(&target.differences) {
            ui::note(&format!("{label}: {} ({})", d.shown, d.direction.name()));
        }
    }
    match target.status {
        Status::NoDrift => {}
        Status::Missing => ui::note(&format!(
            "{label}: {} is missing, which widens",
            target.path
        )),
        Status::Drift => {
            let n = target.differences.len();
            let w = widening(&target.differences);
            ui::note(&format!("{label}: {w} of {n} differences widen"));
        }
    }
}
