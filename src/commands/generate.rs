//! `twsrt generate`: preview, dry run, or write every target at once.

use clap::Args;

use crate::agent::{Agent, Ctx, Warnings};
use crate::commands::{
    Global, lifecycle_facts, print_warnings, select_agents, select_agents_for_files,
};
use crate::compile::compile;
use crate::error::Result;
use crate::plan::{FileKind, Plan, Step};
use crate::ui;

/// Compile the policy and print or write each agent's configuration.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// claude, copilot, codex or all.
    #[arg(value_name = "AGENT", default_value = "all")]
    pub agent: String,

    /// Write the canonical outputs and the agent targets.
    #[arg(short, long)]
    pub write: bool,

    /// With --write: show what would be written, write nothing.
    #[arg(short = 'n', long)]
    pub dry_run: bool,

    /// Generate the deny-only yolo variant (targets get a .yolo name).
    #[arg(long)]
    pub yolo: bool,

    /// The profile to compile instead of default_profile.
    #[arg(short, long, value_name = "NAME")]
    pub profile: Option<String>,
}

/// What `generate` does, decided once from `-w` and `-n` (`-n` alone
/// changes nothing: it only qualifies `--write`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Print each agent's configuration on stdout; write nothing.
    Preview,
    /// Stage every file, check that it could be written, print the plan.
    DryRun,
    /// Stage every file and write them all in one transaction.
    Write,
}

impl GenerateArgs {
    fn mode(&self) -> Mode {
        match (self.write, self.dry_run) {
            (false, _) => Mode::Preview,
            (true, true) => Mode::DryRun,
            (true, false) => Mode::Write,
        }
    }
}

pub fn run(global: &Global, args: &GenerateArgs) -> Result<i32> {
    let mode = args.mode();
    let config_path = &global.config_path;
    let config = crate::config::load(config_path)?;
    ui::debug(|| format!("config: {}", config_path.display()));
    let agents = match mode {
        Mode::Preview => select_agents(&args.agent)?,
        Mode::DryRun | Mode::Write => select_agents_for_files(&args.agent, &config)?,
    };
    let compiled = compile(&config, args.profile.as_deref())?;
    let ctx = Ctx::new(&config, &compiled, args.yolo);
    ui::debug(|| {
        format!(
            "{}; rules: {}",
            lifecycle_facts(&compiled.profile.name, args.yolo, &agents),
            ctx.rules().len()
        )
    });
    let mut warnings: Warnings = Vec::new();

    if mode == Mode::Preview {
        preview(&agents, &ctx, &mut warnings)?;
        print_warnings(&warnings);
        drop(ctx); // one list of borrowed patterns: a single free
        exit_without_freeing(compiled);
        return Ok(0);
    }

    let mut plan = Plan::default();
    for doc in &compiled.canonical {
        plan.write(doc.output.clone(), doc.text(), FileKind::Canonical);
    }
    for agent in &agents {
        agent.stage(&ctx, &mut plan, &mut warnings)?;
    }
    ui::debug(|| format!("planned steps: {}", plan.steps.len()));

    if mode == Mode::DryRun {
        crate::apply::check(&plan)?;
        print_dry_run(&plan);
    } else {
        crate::apply::apply(&plan)?;
        print_applied(&plan);
    }
    print_warnings(&warnings);
    Ok(0)
}

/// Every agent's configuration on stdout, under a `--- NAME ---` line when
/// there is more than one.
fn preview(agents: &[Box<dyn Agent>], ctx: &Ctx, warnings: &mut Warnings) -> Result<()> {
    // Render everything before printing anything: an error in one agent
    // must not leave a half-printed preview behind.
    let mut renderings = Vec::new();
    for agent in agents {
        renderings.push((agent.name(), agent.preview(ctx, warnings)?));
    }
    for (name, text) in renderings {
        if agents.len() > 1 {
            ui::plain(&format!("--- {name} ---"));
        }
        ui::data(&text);
    }
    Ok(())
}

fn print_dry_run(plan: &Plan) {
    for step in &plan.steps {
        if let Step::Write { path, kind, .. } = step {
            match kind {
                FileKind::Canonical => {
                    ui::info(&format!("Would write canonical: {}", path.display()))
                }
                FileKind::AgentTarget => {
                    ui::info(&format!("Would write agent target: {}", path.display()))
                }
            }
        }
    }
    for (name, rendering) in &plan.dry_run {
        ui::plain(&format!("--- Dry run: {name} ---"));
        ui::data(rendering);
    }
}

fn print_applied(plan: &Plan) {
    let mut data_blocks = Vec::new();
    for step in &plan.steps {
        match step {
            Step::Write { path, kind, .. } => match kind {
                FileKind::Canonical => ui::success(&format!("Wrote canonical: {}", path.display())),
                FileKind::AgentTarget => ui::success(&format!("Wrote: {}", path.display())),
            },
            Step::Migrate { from, to } => {
                ui::info(&format!("Migrated: {} → {}", from.display(), to.display()))
            }
            Step::Print { text, info: true } => ui::info(text),
            // Generated data that has no file to go to (the Copilot flags
            // without copilot_output) follows the status lines, as in 1.0.0.
            Step::Print { text, info: false } => data_blocks.push(text),
            Step::Symlink { .. } => {}
        }
    }
    for text in data_blocks {
        ui::data(text);
    }
}

/// The command is over and the process exits next: freeing a compiled
/// policy allocation by allocation costs more than the rest of a preview
/// (tens of thousands of strings for a large policy), and gains nothing.
/// Nothing in it owns a resource other than memory.
pub(crate) fn exit_without_freeing(compiled: crate::compile::Compiled) {
    std::mem::forget(compiled);
}
