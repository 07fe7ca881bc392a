//! The agents twsrt generates for. Each agent is one file implementing
//! [`Agent`]; adding an agent means one new file and one line in [`registry`].

pub mod claude;
pub mod codex;
pub mod copilot;

use std::collections::HashSet;

use crate::compile::Compiled;
use crate::config::Config;
use crate::error::Result;
use crate::plan::Plan;
use crate::rules::SecurityRule;

/// Everything a generator may look at. Generators never write; they read
/// their own existing target files only in `stage` and `diff`.
pub struct Ctx<'a> {
    pub config: &'a Config,
    pub compiled: &'a Compiled,
    rules: Vec<SecurityRule<'a>>,
    pub yolo: bool,
}

impl<'a> Ctx<'a> {
    pub fn new(config: &'a Config, compiled: &'a Compiled, yolo: bool) -> Self {
        Self::with_rules(config, compiled, compiled.rules(), yolo)
    }

    /// A context whose rules are `rules` rather than those of `compiled`
    /// (the fuzz targets).
    pub fn with_rules(
        config: &'a Config,
        compiled: &'a Compiled,
        rules: Vec<SecurityRule<'a>>,
        yolo: bool,
    ) -> Self {
        Ctx {
            config,
            compiled,
            rules,
            yolo,
        }
    }

    /// The normalized rules, in order.
    pub fn rules(&self) -> &[SecurityRule<'a>] {
        &self.rules
    }
}

/// Warnings are collected while rendering and printed to stderr after the
/// rendering, in the order they were raised.
pub type Warnings = Vec<String>;

/// The result of comparing one agent's generated configuration with disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentDiff {
    /// Both sides were read. Entries are unsorted; the caller sorts them.
    Compared {
        missing: Vec<String>,
        extra: Vec<String>,
    },
    /// The agent's target file does not exist (diff exits 2). The message
    /// is printed as an error.
    TargetMissing(String),
}

pub trait Agent {
    fn name(&self) -> &'static str;

    /// What `twsrt generate NAME` prints to stdout for this agent (each
    /// rendering is printed followed by one newline).
    fn preview(&self, ctx: &Ctx, warnings: &mut Warnings) -> Result<String>;

    /// Add this agent's writes for `generate -w` to the plan: read the
    /// existing target, merge, and stage every file fully rendered. Fails
    /// before anything is written if an existing file cannot be merged.
    /// Also records what `-w -n` shows under `--- Dry run: NAME ---`.
    fn stage(&self, ctx: &Ctx, plan: &mut Plan, warnings: &mut Warnings) -> Result<()>;

    /// Compare what would be generated with what is on disk.
    fn diff(&self, ctx: &Ctx, warnings: &mut Warnings) -> Result<AgentDiff>;

    /// Whether `generate all -w` and `diff all` include this agent. An agent
    /// whose target is optional is left out while the target is not set.
    fn included_in_all(&self, _config: &Config) -> bool {
        true
    }
}

/// Every agent, in the order `all` runs them.
pub fn registry() -> Vec<Box<dyn Agent>> {
    vec![
        Box::new(claude::Claude),
        Box::new(copilot::Copilot),
        Box::new(codex::Codex),
    ]
}

pub fn names() -> Vec<&'static str> {
    registry().iter().map(|a| a.name()).collect()
}

/// Compare two entry lists as sets: `missing` are generated but not on
/// disk, `extra` are on disk but not generated; both sorted.
pub fn set_diff<'a>(
    generated: impl IntoIterator<Item = &'a str>,
    existing: impl IntoIterator<Item = &'a str>,
) -> AgentDiff {
    let have: HashSet<&str> = existing.into_iter().collect();
    let want: HashSet<&str> = generated.into_iter().collect();
    let mut missing: Vec<String> = want
        .iter()
        .filter(|g| !have.contains(*g))
        .map(|s| s.to_string())
        .collect();
    let mut extra: Vec<String> = have
        .iter()
        .filter(|e| !want.contains(*e))
        .map(|s| s.to_string())
        .collect();
    missing.sort();
    extra.sort();
    AgentDiff::Compared { missing, extra }
}
