//! One module per subcommand.

pub mod config;
pub mod diff;
pub mod generate;
pub mod test;

use crate::agent::{self, Agent};
use crate::error::{Error, Result};

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

pub fn print_warnings(warnings: &[String]) {
    for w in warnings {
        crate::ui::warning(w);
    }
}
