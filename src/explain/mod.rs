//! The explain decision: for one access (reading or writing a path, a
//! domain, a command), what every layer the policy compiles to decides
//! (deny, ask, allow, not covered), the rule that decides it and the
//! fragment line it came from.
//!
//! This module owns the query ([`Query`]), the accesses it asks about
//! ([`Subject`]), the row and its two renderings (the table and `--json`,
//! `output`), the fragment lookup (`source`) and the srt layer's row
//! (`srt`). Every agent decides its own rows through [`ExplainLayers`],
//! which `Agent::explain` returns after rendering the agent's documents
//! once for the mode: so an agent's row says what `generate` writes, and
//! whether a row appears at all (a layer that is not installed) is the
//! agent's decision, not this module's.
//!
//! # Row order
//! For each access the rows are listed by [`Layer::rank`], ascending: the
//! srt row has rank 0 (`srt::RANK`), and each agent's `explain.rs`
//! declares the rank of each of its layers. The ranks restate the order the
//! table has always had, which is not the registry's order (`generate all`
//! runs in that one). Each agent owns a block of ten (its layers count up
//! inside it, from 10 for the first agent); an agent's `managed` row (its
//! installed system-wide policy, above every user setting) is the first of
//! its block, so it sits above the user layers it ranks over. Two layers
//! never share a rank, and if they did the one returned first would come
//! first.

mod output;
mod query;
pub(crate) mod source;
mod srt;
#[cfg(test)]
mod tests;

use std::path::Path;

use crate::compile::Compiled;
use crate::drift::access::{Decision, Verdict};
use crate::srt::path::Places;
pub use query::Query;
use source::Sources;
pub use source::compile;

/// What is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    Network,
    Command,
}

impl Access {
    pub fn name(self) -> &'static str {
        match self {
            Access::Read => "read",
            Access::Write => "write",
            Access::Network => "network",
            Access::Command => "command",
        }
    }
}

/// One access: reading or writing a path, a domain, a command.
pub enum Subject<'a> {
    Read(&'a Path),
    Write(&'a Path),
    Domain(&'a str),
    Command(&'a str),
}

impl Subject<'_> {
    pub fn access(&self) -> Access {
        match self {
            Subject::Read(_) => Access::Read,
            Subject::Write(_) => Access::Write,
            Subject::Domain(_) => Access::Network,
            Subject::Command(_) => Access::Command,
        }
    }
}

/// One layer of the table: its place in the order, and the `LAYER` and
/// `AGENT` columns.
#[derive(Debug, PartialEq, Eq)]
pub struct Layer {
    /// Where the layer's rows go in the table (see the module docs).
    pub rank: u16,
    pub layer: &'static str,
    pub agent: &'static str,
}

/// One agent's explain layers, its documents already rendered for the
/// query's mode.
pub trait ExplainLayers {
    /// The row of each layer this agent shows for `subject`: the layer and
    /// its decision. Every call for one query returns the same layers.
    fn decide(&self, subject: &Subject) -> Vec<(&'static Layer, Decision)>;
}

/// A decision no rule makes, with why.
pub fn not_covered(note: &str) -> Decision {
    Decision::without_rule(Verdict::NotCovered, Some(note))
}

/// How the report is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Table,
    Json,
}

/// One line of the report.
struct Row {
    layer: &'static Layer,
    access: &'static str,
    decision: Decision,
    source: Option<String>,
}

/// The report on `query`: the srt row and every row of `agents`, for each
/// access the query asks about, with the fragment line of each deciding
/// rule (`config_path`'s directory shortens the fragment paths).
pub fn report(
    query: &Query,
    compiled: &Compiled,
    config_path: &Path,
    places: &Places,
    agents: &[Box<dyn ExplainLayers + '_>],
    format: Format,
) -> String {
    let srt = srt::Srt::new(compiled.srt(), places);
    let sources = Sources::load(compiled, config_path);
    let mut rows = Vec::new();
    for subject in &query.subjects() {
        rows.extend(
            decide(&srt, agents, subject)
                .into_iter()
                .map(|(layer, decision)| Row {
                    layer,
                    access: subject.access().name(),
                    source: sources.source_of(&decision),
                    decision,
                }),
        );
    }
    match format {
        Format::Json => crate::pyjson::to_pretty(&output::to_json(query.shown(), &rows)),
        Format::Table => output::table(query.shown(), &rows),
    }
}

/// Every layer's decision on `subject`, in rank order.
fn decide(
    srt: &dyn ExplainLayers,
    agents: &[Box<dyn ExplainLayers + '_>],
    subject: &Subject,
) -> Vec<(&'static Layer, Decision)> {
    let mut rows = srt.decide(subject);
    for agent in agents {
        rows.extend(agent.decide(subject));
    }
    rows.sort_by_key(|(layer, _)| layer.rank);
    rows
}
