//! `twsrt diff`: the CI drift gate. Exit 0 clean, 1 drift, 2 a target
//! missing. Every difference also gets a direction (widening or
//! narrowing, from [`crate::drift`]): stderr says how many widen,
//! `--json` prints them all, `--fail-on widening` gates on them alone.

mod canonical;

use clap::{Args, ValueEnum};

use crate::agent::managed;
use crate::agent::{AgentDiff, Ctx, Warnings};
use crate::commands::{Global, lifecycle_facts, select_agents};
use crate::compile::compile;
use crate::diag::print_warnings;
use crate::drift::report::{self, Status, Target, print_agent, print_canonical, widening_line};
use crate::drift::{Difference, Side};
use crate::error::{Error, Result};
use crate::ui;

pub const EXIT_DRIFT: i32 = 1;
pub const EXIT_MISSING: i32 = 2;

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

/// The legend printed once after the drifted agents' entries.
const LEGEND_MISSING: &str = "+ missing from target";
const LEGEND_EXTRA: &str = "- in target, not in sources";

pub fn run(global: &Global, args: &DiffArgs) -> Result<i32> {
    let config = crate::commands::load_config(&global.config_path)?;
    let compiled = compile(&config, args.profile.as_deref())?;
    let managed_root = args.scope.managed_root()?;
    let agents = select_agents(&args.agent, &config)?;
    ui::debug(|| lifecycle_facts(&compiled.profile.name, args.yolo, &agents));
    let ctx = Ctx::new(&config, &compiled, args.yolo);
    let mut warnings: Warnings = Vec::new();
    let mut targets = Vec::new();
    // The managed scope compares the managed files alone: the canonical
    // outputs are user-level files.
    let canonical = if managed_root.is_some() {
        &[][..]
    } else {
        &compiled.canonical[..]
    };
    let canonical_count = canonical.len();
    for doc in canonical {
        let target = canonical::target(doc)?;
        if !args.json {
            print_canonical(&target);
        }
        targets.push(target);
    }
    // The managed layers are compared up front; each user-level target is
    // compared in turn, so a missing one ends the report before the next.
    let (mut managed_diffs, user_agents) = match &managed_root {
        Some(root) => {
            let layers = managed::with_layer(agents, args.agent != "all")?;
            (
                managed::diffs(&layers, &ctx, root, &mut warnings)?.into_iter(),
                Vec::new(),
            )
        }
        None => (Vec::new().into_iter(), agents),
    };
    let mut user_agents = user_agents.iter();
    let mut agent_drift = false;
    loop {
        let (name, path, diff) = match user_agents.next() {
            Some(agent) => (
                agent.name(),
                agent.target(&ctx),
                agent.diff(&ctx, &mut warnings)?,
            ),
            None => match managed_diffs.next() {
                Some(compared) => compared,
                None => break,
            },
        };
        let (target, drifted) = agent_target(name, &path, diff, args.json)?;
        agent_drift |= drifted;
        targets.push(target);
    }
    if args.json {
        ui::data(&crate::pyjson::to_pretty(&report::to_json(&targets)));
    } else {
        if agent_drift {
            ui::diff_legend(LEGEND_MISSING, LEGEND_EXTRA);
        }
        // Like the warnings, only for a report that finished.
        for (i, target) in targets.iter().enumerate() {
            widening_line(target, i < canonical_count);
        }
    }
    print_warnings(&warnings);
    crate::heap::forget_until_exit(compiled);
    Ok(exit_code(&targets, canonical_count, args.fail_on))
}

/// One agent's report entry from its comparison (printed unless `json`),
/// and whether it drifted. A missing target ends the text report.
fn agent_target(
    name: &str,
    path: &std::path::Path,
    diff: AgentDiff,
    json: bool,
) -> Result<(Target, bool)> {
    let mut target = Target {
        name: name.to_string(),
        path: path.display().to_string(),
        status: Status::NoDrift,
        differences: Vec::new(),
        listed: None,
    };
    let drifted = match diff {
        // In the text report a missing target ends it; the warnings of
        // a report that never finished are not worth reading.
        AgentDiff::TargetMissing(message) if !json => {
            return Err(Error::TargetMissing(message));
        }
        AgentDiff::TargetMissing(message) => {
            ui::error(&message);
            target.status = Status::Missing;
            false
        }
        AgentDiff::Compared(differences) => compared(&mut target, differences, None, json),
        AgentDiff::Listed { differences, lines } => {
            compared(&mut target, differences, Some(lines), json)
        }
    };
    Ok((target, drifted))
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
/// as it always was); otherwise 1 for drift `fail_on` counts.
/// The first `canonical` targets are the canonical outputs.
fn exit_code(targets: &[Target], canonical: usize, fail_on: FailOn) -> i32 {
    let agent_missing = targets
        .iter()
        .skip(canonical)
        .any(|t| t.status == Status::Missing);
    if agent_missing {
        return EXIT_MISSING;
    }
    let drifted = targets.iter().any(|t| t.status != Status::NoDrift);
    match fail_on {
        FailOn::Any if drifted => EXIT_DRIFT,
        FailOn::Widening if targets.iter().any(Target::widens) => EXIT_DRIFT,
        FailOn::Widening if drifted => {
            ui::note("every difference narrows the policy; exit 0 (--fail-on widening)");
            0
        }
        _ => 0,
    }
}
