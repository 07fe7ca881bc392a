//! What an agent's prover (`twsrt test --agent NAME`) is given and answers:
//! the bash rules of the policy, and a verdict per rule from the agent's
//! own decision ([`crate::probe::agents`] runs it and reports).

use std::path::PathBuf;

use crate::config::Config;

/// One bash deny or ask rule, with where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// `deny` or `ask` (the bash list).
    pub list: &'static str,
    pub rule: String,
    /// `fragment:line`, `-` when unknown.
    pub source: String,
}

/// A rule's verdict: `PASS`, `FAIL` or `SKIP`, and what the agent did (or
/// why it was not asked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged {
    pub verdict: &'static str,
    pub detail: String,
}

impl Judged {
    pub fn new(verdict: &'static str, detail: impl Into<String>) -> Self {
        Judged {
            verdict,
            detail: detail.into(),
        }
    }
}

/// An agent whose own decision can be asked offline.
pub trait Prover: Sync {
    /// One verdict per rule of `rules`, in order; `find` looks a program up
    /// on PATH.
    fn prove(
        &self,
        config: &Config,
        rules: &[Rule],
        find: fn(&str) -> Option<PathBuf>,
    ) -> Vec<Judged>;
}
