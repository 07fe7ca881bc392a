//! The doctor engine: a read-only lint of every profile and every registered
//! fragment, each finding one [`Diagnostic`].
//!
//! [`Input`] reads the config and parses each fragment once, with positions.
//! The generic checks (the profile graph, overlapping rules, glob traps,
//! srt paths) live here, one family per file; what only one agent reads
//! (its settings layers, its measured limits) lives in that agent's folder
//! and reaches [`check`] as the `agents` argument, so this module names no
//! agent. [`report`] orders, groups, counts and prints the findings as text
//! or JSON.
//!
//! Contract: [`check`] returns every finding once, in report order within a
//! severity (the generic checks first, then the agents' in the order given);
//! it writes nothing.

mod coverage;
mod input;
mod overlap;
mod path_case;
mod profiles;
pub mod report;
mod spellings;
mod srt_paths;
mod traps;
mod words;

pub use coverage::{is_glob, normalize};
pub use input::{Frag, Input};
pub use report::Levels;
pub use words::{count, dotted, entries, quoted};

use crate::diag::Diagnostic;

/// Every check: fragment loading, the generic families, then `agents`
/// (each agent's own checks, in registry order), each finding once.
pub fn check(input: &Input, agents: impl FnOnce(&Input, &mut Vec<Diagnostic>)) -> Vec<Diagnostic> {
    let mut out = input.load_findings();
    profiles::check(input, &mut out);
    overlap::check(input, &mut out);
    traps::check(input, &mut out);
    srt_paths::check(input, &mut out);
    path_case::check(input, &mut out);
    spellings::check(input, &mut out);
    agents(input, &mut out);
    dedup(out)
}

/// Profiles share fragments, so a per-profile check can find the same
/// thing twice: the first one stays.
fn dedup(findings: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut seen = std::collections::HashSet::new();
    findings
        .into_iter()
        .filter(|f| {
            seen.insert((
                f.location.clone(),
                f.code,
                f.message.clone(),
                f.notes.clone(),
            ))
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests;
