//! One module per subcommand, each owning its clap arguments (`*Args`, the
//! doc comments are the help text) and its `run`, which returns the exit
//! code or an error for `main` to report. `cli` lists and dispatches them;
//! nothing here imports `cli`.
//!
//! Also the helpers more than one command shares: agent selection and
//! warning output.

pub mod completions;
pub mod config;
pub mod diff;
pub mod generate;
pub mod test;

use std::path::PathBuf;

use crate::agent::{self, Agent};
use crate::error::{Error, Result};

/// What the global options mean to a command, resolved once by `cli`.
/// (`--verbose` is not here: it sets `ui`'s switch before any command runs.)
#[derive(Debug, Clone)]
pub struct Global {
    /// The config.toml to load, `~` already expanded.
    pub config_path: PathBuf,
}

/// The agents an AGENT argument names (`all` is every registered agent).
pub fn select_agents(name: &str) -> Result<Vec<Box<dyn Agent>>> {
    let all = agent::registry();
    if name == "all" {
        return Ok(all);
    }
    let names = agent::names().join(", ");
    let chosen: Vec<_> = all.into_iter().filter(|a| a.name() == name).collect();
    if chosen.is_empty() {
        return Err(Error::Policy(format!(
            "unknown agent '{name}'; available: {names} (or all)"
        )));
    }
    Ok(chosen)
}

/// The agents `generate -w` and `diff` act on: with `all`, agents whose
/// optional target is not configured are left out (Codex without
/// `codex_config`), as in 1.0.0.
pub fn select_agents_for_files(
    name: &str,
    config: &crate::config::Config,
) -> Result<Vec<Box<dyn Agent>>> {
    let agents = select_agents(name)?;
    if name != "all" {
        return Ok(agents);
    }
    Ok(agents
        .into_iter()
        .filter(|a| a.included_in_all(config))
        .collect())
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

pub fn print_warnings(warnings: &[String]) {
    for w in warnings {
        crate::ui::warning(w);
    }
}
