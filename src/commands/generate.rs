//! `twsrt generate`: preview, or write every target at once.
//!
//! Both modes stage the same plan (merges onto existing targets, the
//! symlink checks of a real write), so a preview fails exactly where `-w`
//! would, and writes nothing. stdout holds only the renderings.

pub(crate) mod foreign;
mod project;

use clap::Args;

use crate::agent::managed::{self, Root};
use crate::agent::{Ctx, Warnings};
use crate::commands::{Global, lifecycle_facts, select_agents};
use crate::compile::compile;
use crate::error::Result;
use crate::plan::{FileKind, Plan};
use crate::ui;

/// Compile the policy and preview or write each agent's configuration.
///
/// Without --write: print each configured agent's generated configuration,
/// list on stderr every file --write would write (and every migration and
/// symlink it would make), and write nothing. A write that would remove a
/// deny or ask entry twsrt did not write is refused, listing them, unless
/// --drop-foreign accepts it. Both
/// modes first build every file in memory, merged into the existing target,
/// so an unusable target fails the preview too. An agent whose [targets]
/// key is not set is skipped with a note.
///
/// With --project: write only the per-project files into .twsrt in the
/// real path of the working directory (srt-settings.json, bash-rules.json,
/// claude-settings[.yolo].json built on the global Claude target of the
/// mode, and with -w a .gitignore); with -w, stdout holds that directory
/// alone. Claude only (all means claude).
///
/// With --scope managed: each configured agent's managed (system-wide)
/// policy files instead (Claude Code's managed-settings.d drop-in, Codex's
/// requirements.toml, Gemini CLI's admin policy and system settings), whole
/// files with mode 0644 in directories created 0755, under --root DIR or the
/// real paths under /etc (which needs root). An agent without a managed
/// layer is skipped with a note (an error when named). The canonical
/// outputs are not written.
///
/// Exit codes: 0 on success, 1 on a config, policy or target error, or a
/// managed file the machine does not let this user write (nothing is
/// written then), 2 on a usage error.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// An agent's name, or all (every agent set in [targets]); an unknown
    /// name is answered with the list of agents.
    #[arg(value_name = "AGENT", default_value = "all")]
    pub agent: String,

    /// Write the canonical outputs and the agent targets the preview lists.
    #[arg(short, long)]
    pub write: bool,

    /// Kept for scripts written for twsrt 1.0.0: preview only, even with
    /// --write (a plain `generate` is the preview now).
    #[arg(short = 'n', long)]
    pub dry_run: bool,

    /// Generate the deny-only yolo variant (targets get a .yolo name).
    #[arg(long)]
    pub yolo: bool,

    /// The profile to compile instead of default_profile.
    #[arg(short, long, value_name = "NAME")]
    pub profile: Option<String>,

    /// Accept that the write removes deny and ask entries twsrt did not
    /// write (a hand-written rule in an adopted settings file). Without it
    /// such a write is refused, listing them; each removal is a Warning.
    #[arg(long)]
    pub drop_foreign: bool,

    /// Per-project output in ./.twsrt for `claude --settings` and `srt -s`,
    /// built on the existing global Claude target; nothing global is
    /// written. The .twsrt directory is write-denied in that policy.
    #[arg(long)]
    pub project: bool,

    #[command(flatten)]
    pub scope: crate::commands::scope::ScopeArgs,
}

impl GenerateArgs {
    /// Whether files are written: `-w` without `-n` (which turns any run
    /// into a preview, as the 1.0.0 `-w -n` dry run was one).
    fn writes(&self) -> bool {
        self.write && !self.dry_run
    }
}

pub fn run(global: &Global, args: &GenerateArgs) -> Result<i32> {
    let managed = args.scope.managed_root()?;
    if args.project {
        if managed.is_some() {
            return Err(crate::error::Error::Usage(
                "--project writes per-project user files: it does not combine with --scope managed"
                    .to_string(),
            ));
        }
        return project::run(global, args);
    }
    if let Some(root) = managed {
        return run_managed(global, args, &root);
    }
    let config_path = &global.config_path;
    let config = crate::commands::load_config(config_path)?;
    ui::debug(|| format!("config: {}", config_path.display()));
    let compiled = compile(&config, args.profile.as_deref())?;
    let agents = select_agents(&args.agent, &config)?;
    let mut ctx = Ctx::new(&config, &compiled, args.yolo);
    ctx.drop_foreign = args.drop_foreign;
    ctx.written = agents.iter().map(|a| a.name()).collect();
    ui::debug(|| {
        format!(
            "{}; rules: {}",
            lifecycle_facts(&compiled.profile.name, args.yolo, &agents),
            ctx.rules().len()
        )
    });

    let mut warnings: Warnings = Vec::new();
    let mut plan = Plan::default();
    let mut canonical = Vec::new();
    for doc in &compiled.canonical {
        // A preview checks and lists the paths and never writes, and its
        // stdout holds the agents' renderings only: the canonical text (the
        // size of the whole policy) is rendered only when it is written.
        let text = if args.writes() {
            let text = doc.text();
            foreign::settle_output(&config.path, doc, &text, args.drop_foreign)?;
            text
        } else {
            foreign::preview_output(&config.path, doc)?;
            String::new()
        };
        canonical.push((doc.output.clone(), text.clone()));
        plan.write(doc.output.clone(), text, FileKind::Canonical);
    }
    for agent in &agents {
        agent.stage(&ctx, &mut plan, &mut warnings)?;
    }
    crate::apply::finish(&plan, &warnings, args.writes())?;
    if args.writes() {
        let files = canonical.iter().map(|(p, t)| (p.as_path(), t.as_bytes()));
        crate::apply::written::remember_or_warn(&config.path, files);
    }
    drop(ctx); // one list of borrowed patterns: a single free
    crate::heap::forget_until_exit(compiled);
    Ok(0)
}

/// `generate --scope managed`: the managed files of the selected agents,
/// previewed or written under `root`.
fn run_managed(global: &Global, args: &GenerateArgs, root: &Root) -> Result<i32> {
    let config = crate::commands::load_config(&global.config_path)?;
    let compiled = compile(&config, args.profile.as_deref())?;
    let agents = managed::with_layer(select_agents(&args.agent, &config)?, args.agent != "all")?;
    let ctx = Ctx::new(&config, &compiled, args.yolo);
    let mut warnings: Warnings = Vec::new();
    let mut plan = Plan::default();
    managed::stage(&agents, &ctx, root, &mut plan, &mut warnings)?;
    managed::finish(&plan, &warnings, args.writes(), root)?;
    Ok(0)
}
