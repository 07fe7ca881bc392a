//! `twsrt diff`: the CI drift gate. Exit 0 clean, 1 drift, 2 a target missing.

use clap::Args;

use crate::agent::{AgentDiff, Ctx, Warnings};
use crate::commands::{Global, lifecycle_facts, print_warnings, select_agents};
use crate::compile::compile;
use crate::error::{Error, Result};
use crate::ui;

pub const EXIT_DRIFT: i32 = 1;
pub const EXIT_MISSING: i32 = 2;

/// Compare the compiled policy with the files on disk (exit 0 clean, 1 drift, 2 missing).
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// claude, copilot, codex or all.
    #[arg(value_name = "AGENT", default_value = "all")]
    pub agent: String,

    /// Compare against the yolo targets.
    #[arg(long)]
    pub yolo: bool,

    /// The profile to compile instead of default_profile.
    #[arg(short, long, value_name = "NAME")]
    pub profile: Option<String>,
}

/// The legend printed once after the drifted agents' entries.
const LEGEND_MISSING: &str = "+ missing from target";
const LEGEND_EXTRA: &str = "- in target, not in sources";

pub fn run(global: &Global, args: &DiffArgs) -> Result<i32> {
    let config = crate::config::load(&global.config_path)?;
    let compiled = compile(&config, args.profile.as_deref())?;
    let agents = select_agents(&args.agent, &config)?;
    ui::debug(|| lifecycle_facts(&compiled.profile.name, args.yolo, &agents));
    let ctx = Ctx::new(&config, &compiled, args.yolo);
    let mut warnings: Warnings = Vec::new();
    let mut drift = false;

    for doc in &compiled.canonical {
        let label = format!("{} canonical", doc.kind.name());
        if doc.matches_output()? {
            ui::success(&format!("{label}: no drift"));
        } else {
            drift = true;
            ui::drift(&format!("{label}: drift"));
        }
    }

    let mut agent_drift = false;
    for agent in &agents {
        // An error or a missing target ends the report; the warnings of a
        // report that never finished are not worth reading.
        match agent.diff(&ctx, &mut warnings)? {
            AgentDiff::TargetMissing(message) => {
                return Err(Error::WithCode {
                    message,
                    code: EXIT_MISSING,
                });
            }
            AgentDiff::Compared {
                mut missing,
                mut extra,
            } => {
                if missing.is_empty() && extra.is_empty() {
                    ui::success(&format!("{}: no drift", agent.name()));
                    continue;
                }
                agent_drift = true;
                missing.sort();
                extra.sort();
                ui::drift_header(
                    agent.name(),
                    &format!("{} missing, {} extra", missing.len(), extra.len()),
                    &agent.target(&ctx).display().to_string(),
                );
                for m in &missing {
                    ui::missing(&format!("  + {m}"));
                }
                for e in &extra {
                    ui::extra(&format!("  - {e}"));
                }
                ui::plain("");
            }
        }
    }
    if agent_drift {
        ui::diff_legend(LEGEND_MISSING, LEGEND_EXTRA);
    }
    print_warnings(&warnings);
    crate::commands::generate::exit_without_freeing(compiled);
    Ok(if drift || agent_drift { EXIT_DRIFT } else { 0 })
}
