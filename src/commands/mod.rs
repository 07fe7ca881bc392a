//! One module per subcommand, each owning its clap arguments (`*Args`, the
//! doc comments are the help text) and its `run`, which returns the exit
//! code or an error for `main` to report. `cli` lists and dispatches them;
//! nothing here imports `cli`.
//!
//! Also the helpers more than one command shares: agent selection and
//! warning output.

pub mod audit;
pub mod completions;
pub mod config;
pub mod diff;
pub mod doctor;
pub mod edit;
mod editor;
pub mod explain;
pub mod generate;
pub mod hook;
pub mod import;
mod kind_arg;
pub mod profiles;
pub mod run;
pub mod scope;
pub mod show;
pub mod test;

use std::path::PathBuf;

use crate::agent::{self, Agent};
use crate::config::Config;
use crate::error::{Error, Result};
use crate::ui;

/// What the global options mean to a command, resolved once by `cli`.
/// (`--verbose` is not here: it sets `ui`'s switch before any command runs.)
#[derive(Debug, Clone)]
pub struct Global {
    /// The config.toml to load, `~` already expanded.
    pub config_path: PathBuf,
}

/// Every command loads config.toml this way ([`agent::load_config`]).
pub use crate::agent::load_config;

/// The configured agents an AGENT argument names (`all` is every registered
/// agent). Agents are opt-in: one whose `[targets]` key is not set is
/// skipped with an `Info:` line, whether named or reached through `all`, and
/// preview, `-w` and `diff` all see the same set. Call it after compiling:
/// a policy error is reported before any note.
pub fn select_agents(name: &str, config: &Config) -> Result<Vec<Box<dyn Agent>>> {
    let requested: Vec<Box<dyn Agent>> = if name == "all" {
        agent::registry()
    } else {
        let chosen: Vec<_> = agent::registry()
            .into_iter()
            .filter(|a| a.name() == name)
            .collect();
        if chosen.is_empty() {
            return Err(unknown_agent(name));
        }
        chosen
    };
    let (configured, skipped): (Vec<_>, Vec<_>) =
        requested.into_iter().partition(|a| a.configured(config));
    if name == "all" && configured.is_empty() {
        let keys: Vec<&str> = agent::registry().iter().map(|a| a.target_key()).collect();
        ui::note(&format!(
            "no agent is configured in [targets] of config.toml; only the canonical outputs \
             are handled. Set {} to add one.",
            one_of(&keys)
        ));
        return Ok(configured);
    }
    for agent in &skipped {
        ui::note(&format!(
            "{} skipped: [targets].{} is not set in config.toml",
            agent.name(),
            agent.target_key()
        ));
    }
    Ok(configured)
}

/// The error for an AGENT argument that names no registered agent.
/// `a`, `a or b`, `a, b or c`.
fn one_of(words: &[&str]) -> String {
    match words.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

pub fn unknown_agent(name: &str) -> Error {
    Error::Policy(format!(
        "unknown agent '{name}'; available: {} (or all)",
        agent::names().join(", ")
    ))
}

/// The `-v` line both `generate` and `diff` start with: which profile, which
/// mode, which agents (names only: `ui::debug` never carries policy text).
pub fn lifecycle_facts(profile: &str, yolo: bool, agents: &[Box<dyn Agent>]) -> String {
    let names: Vec<&str> = agents.iter().map(|a| a.name()).collect();
    format!(
        "profile: {profile}; mode: {}; agents: {}",
        if yolo { "yolo" } else { "full" },
        names.join(", ")
    )
}

#[cfg(test)]
mod one_of_tests {
    #[test]
    fn words_are_listed_with_or_before_the_last() {
        assert_eq!(super::one_of(&[]), "");
        assert_eq!(super::one_of(&["a"]), "a");
        assert_eq!(super::one_of(&["a", "b"]), "a or b");
        assert_eq!(super::one_of(&["a", "b", "c"]), "a, b or c");
    }
}
