//! `twsrt diff`'s gate: every target's drift (the canonical outputs', then
//! each agent's [`AgentDiff`]) gathered into one report, printed as text
//! while it is made or as one JSON document at the end, then the exit code:
//! 0 clean, [`EXIT_DRIFT`] drift, [`EXIT_MISSING`] an agent's target missing.

mod canonical;

use super::report::{self, Status, Target, print_agent, print_canonical, widening_line};
use super::{Difference, Side};
use crate::compile::Canonical;
use crate::diag::{Diagnostic, print_warnings};
use crate::error::{Error, Result};
use crate::ui;

pub const EXIT_DRIFT: i32 = 1;
pub const EXIT_MISSING: i32 = 2;

/// The legend printed once after the drifted agents' entries.
const LEGEND_MISSING: &str = "+ missing from target";
const LEGEND_EXTRA: &str = "- in target, not in sources";

/// The result of comparing one agent's generated configuration with disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentDiff {
    /// Both sides were read: every difference with its direction, unsorted
    /// (the caller sorts them); the text report lists each by its `shown`.
    Compared(Vec<Difference>),
    /// Both sides were read, and the text report lists whole items (3.3.3's
    /// `config:<key>` lines) rather than each difference: the differences,
    /// and the report's lines in the order found.
    Listed {
        differences: Vec<Difference>,
        lines: Vec<(Side, String)>,
    },
    /// The agent's target file does not exist (diff exits 2). The message
    /// is printed as an error.
    TargetMissing(String),
}

impl AgentDiff {
    /// How the text report spells the missing and the extra entries, in
    /// the order they were found (`None` for a missing target).
    pub fn texts(&self) -> Option<(Vec<String>, Vec<String>)> {
        let lines: Vec<(Side, &str)> = match self {
            AgentDiff::Compared(differences) => differences
                .iter()
                .map(|d| (d.side, d.shown.as_str()))
                .collect(),
            AgentDiff::Listed { lines, .. } => {
                lines.iter().map(|(s, t)| (*s, t.as_str())).collect()
            }
            AgentDiff::TargetMissing(_) => return None,
        };
        let of = |side: Side| {
            lines
                .iter()
                .filter(|(s, _)| *s == side)
                .map(|(_, t)| t.to_string())
                .collect()
        };
        Some((of(Side::Missing), of(Side::Extra)))
    }
}

/// The report being made: the canonical targets first, then the agents'.
pub struct Gate {
    /// The JSON document instead of the text report.
    json: bool,
    targets: Vec<Target>,
    /// How many of `targets` are canonical outputs.
    canonical: usize,
    agent_drift: bool,
}

impl Gate {
    pub fn new(json: bool) -> Gate {
        Gate {
            json,
            targets: Vec::new(),
            canonical: 0,
            agent_drift: false,
        }
    }

    /// The drift of one canonical output (printed unless `json`).
    pub fn canonical(&mut self, doc: &Canonical) -> Result<()> {
        let target = canonical::target(doc)?;
        if !self.json {
            print_canonical(&target);
        }
        self.targets.push(target);
        self.canonical += 1;
        Ok(())
    }

    /// The drift of agent `name`, whose target is `path` (printed unless
    /// `json`). In the text report a missing target ends the report with
    /// its error; the warnings of a report that never finished are not
    /// worth reading.
    pub fn agent(&mut self, name: &str, path: String, diff: AgentDiff) -> Result<()> {
        let mut target = Target {
            name: name.to_string(),
            path,
            status: Status::NoDrift,
            differences: Vec::new(),
            listed: None,
        };
        match diff {
            AgentDiff::TargetMissing(message) if !self.json => {
                return Err(Error::TargetMissing(message));
            }
            AgentDiff::TargetMissing(message) => {
                ui::error(&message);
                target.status = Status::Missing;
            }
            AgentDiff::Compared(differences) => {
                self.agent_drift |= compared(&mut target, differences, None, self.json);
            }
            AgentDiff::Listed { differences, lines } => {
                self.agent_drift |= compared(&mut target, differences, Some(lines), self.json);
            }
        }
        self.targets.push(target);
        Ok(())
    }

    /// Ends the report: the JSON document, or the legend and each target's
    /// widening line; then the generation `warnings`; then the exit code,
    /// counting only drift that widens when `widening_only`.
    pub fn finish(self, warnings: &[Diagnostic], widening_only: bool) -> i32 {
        if self.json {
            ui::data(&crate::pyjson::to_pretty(&report::to_json(&self.targets)));
        } else {
            if self.agent_drift {
                ui::diff_legend(LEGEND_MISSING, LEGEND_EXTRA);
            }
            // Like the warnings, only for a report that finished.
            for (i, target) in self.targets.iter().enumerate() {
                widening_line(target, i < self.canonical);
            }
        }
        print_warnings(warnings);
        exit_code(&self.targets, self.canonical, widening_only)
    }
}

/// Record an agent's differences (and the report's own lines, if it has
/// them) and print its report unless `json`; whether it drifted.
fn compared(
    target: &mut Target,
    differences: Vec<Difference>,
    listed: Option<Vec<(Side, String)>>,
    json: bool,
) -> bool {
    let drifted = !differences.is_empty();
    if drifted {
        target.status = Status::Drift;
    }
    target.differences = differences;
    target.listed = listed;
    if !json {
        print_agent(target);
    }
    drifted
}

/// 2 when an agent's target is missing (a missing canonical file is drift,
/// as it always was); otherwise 1 for drift that counts (only widening
/// drift when `widening_only`). The first `canonical` targets are the
/// canonical outputs.
fn exit_code(targets: &[Target], canonical: usize, widening_only: bool) -> i32 {
    let agent_missing = targets
        .iter()
        .skip(canonical)
        .any(|t| t.status == Status::Missing);
    if agent_missing {
        return EXIT_MISSING;
    }
    let drifted = targets.iter().any(|t| t.status != Status::NoDrift);
    match widening_only {
        false if drifted => EXIT_DRIFT,
        true if targets.iter().any(Target::widens) => EXIT_DRIFT,
        true if drifted => {
            ui::note("every difference narrows the policy; exit 0 (--fail-on widening)");
            0
        }
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drift::Direction;

    fn target(status: Status, direction: Option<Direction>) -> Target {
        Target {
            name: "t".into(),
            path: "/t".into(),
            status,
            differences: direction
                .map(|d| vec![Difference::new("s", "e", "e", Side::Extra, d)])
                .unwrap_or_default(),
            listed: None,
        }
    }

    #[test]
    fn an_agent_s_missing_target_exits_2_a_canonical_one_is_drift() {
        let missing = target(Status::Missing, None);
        let clean = target(Status::NoDrift, None);
        assert_eq!(
            exit_code(&[clean.clone(), missing.clone()], 1, false),
            EXIT_MISSING
        );
        assert_eq!(exit_code(&[missing, clean], 1, false), EXIT_DRIFT);
    }

    #[test]
    fn widening_only_counts_the_drift_that_widens() {
        let narrows = target(Status::Drift, Some(Direction::Narrowing));
        let widens = target(Status::Drift, Some(Direction::Widening));
        assert_eq!(
            exit_code(std::slice::from_ref(&narrows), 0, false),
            EXIT_DRIFT
        );
        assert_eq!(exit_code(std::slice::from_ref(&narrows), 0, true), 0);
        assert_eq!(exit_code(&[narrows, widens], 0, true), EXIT_DRIFT);
    }
}
