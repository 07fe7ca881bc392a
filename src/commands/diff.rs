//! `twsrt diff`: the CI drift gate. Exit 0 clean, 1 drift, 2 a target
//! missing. Every difference also gets a direction (widening or
//! narrowing, from [`crate::drift`]): stderr says how many widen,
//! `--json` prints them all, `--fail-on widening` gates on them alone.
//! The report and the exit code are [`crate::drift::gate`]'s.

use clap::{Args, ValueEnum};

use crate::agent::{Ctx, Warnings, managed};
use crate::commands::{Global, lifecycle_facts, select_agents};
use crate::compile::compile;
use crate::drift::AgentDiff;
use crate::drift::gate::Gate;
use crate::error::Result;
use crate::ui;

/// Compare the compiled policy with the files on disk.
///
/// For Claude Code the file compared is the one it loads: settings.json,
/// which must be the symlink to the mode's settings file; anything else
/// there is drift that widens, and its content is compared instead.
/// Each difference is a widening (the file on disk allows more or denies
/// less than the policy) or a narrowing; stderr says how many widen per
/// target. Exit codes: 0 no drift (or, with `--fail-on widening`, drift
/// that only narrows), 1 drift or an error in the policy, 2 an agent's
/// target file is missing.
///
/// With --scope managed: the fleet drift gate. Each configured agent's
/// managed files (under --root DIR, or the real paths under /etc) against
/// the policy, with the same directions; a missing managed file exits 2.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// An agent's name, or all (every agent set in [targets]).
    #[arg(value_name = "AGENT", default_value = "all")]
    pub agent: String,

    /// Compare against the yolo targets.
    #[arg(long)]
    pub yolo: bool,

    /// The profile to compile instead of default_profile.
    #[arg(short, long, value_name = "NAME")]
    pub profile: Option<String>,

    /// Print one JSON object on stdout instead of the report: every
    /// target with its status (`no drift`, `drift`, `missing`) and its
    /// differences (section, entry, side, direction).
    #[arg(long)]
    pub json: bool,

    /// Which drift exits 1: `any` (the default) or only `widening`.
    #[arg(long, value_enum, value_name = "WHAT", default_value = "any")]
    pub fail_on: FailOn,

    #[command(flatten)]
    pub scope: crate::commands::scope::ScopeArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Any,
    Widening,
}

pub fn run(global: &Global, args: &DiffArgs) -> Result<i32> {
    let config = crate::commands::load_config(&global.config_path)?;
    let compiled = compile(&config, args.profile.as_deref())?;
    let managed_root = args.scope.managed_root()?;
    let agents = select_agents(&args.agent, &config)?;
    ui::debug(|| lifecycle_facts(&compiled.profile.name, args.yolo, &agents));
    let mut ctx = Ctx::new(&config, &compiled, args.yolo);
    ctx.written = agents.iter().map(|a| a.name()).collect();
    let mut warnings: Warnings = Vec::new();
    let mut gate = Gate::new(args.json);
    match &managed_root {
        // The managed scope compares the managed files alone: the
        // canonical outputs are user-level files.
        Some(root) => {
            let layers = managed::with_layer(agents, args.agent != "all")?;
            for (name, path, diff) in managed::diffs(&layers, &ctx, root, &mut warnings)? {
                gate.agent(name, path.display().to_string(), diff)?;
            }
        }
        None => {
            for doc in &compiled.canonical {
                gate.canonical(doc)?;
            }
            for agent in &agents {
                let path = agent.target(&ctx).display().to_string();
                let diff = with_next_step(agent.diff(&ctx, &mut warnings)?, agent.name(), args);
                gate.agent(agent.name(), path, diff)?;
            }
        }
    }
    let exit = gate.finish(&warnings, args.fail_on == FailOn::Widening);
    crate::heap::forget_until_exit(compiled);
    Ok(exit)
}

/// A missing target's message ending with the command that writes it.
fn with_next_step(diff: AgentDiff, agent: &str, args: &DiffArgs) -> AgentDiff {
    let AgentDiff::TargetMissing(message) = diff else {
        return diff;
    };
    let mut generate = format!("twsrt generate -w {agent}");
    if let Some(profile) = &args.profile {
        generate.push_str(&format!(" -p {}", crate::source::quoted(profile)));
    }
    if args.yolo {
        generate.push_str(" --yolo");
    }
    AgentDiff::TargetMissing(format!("{message}; run `{generate}` to write it"))
}
