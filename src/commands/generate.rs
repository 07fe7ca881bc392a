//! `twsrt generate`: preview, or write every target at once.
//!
//! Both modes stage the same plan (merges onto existing targets, the
//! symlink checks of a real write), so a preview fails exactly where `-w`
//! would, and writes nothing. stdout holds only the renderings.

mod project;

use clap::Args;

use crate::agent::{Ctx, Warnings};
use crate::commands::{Global, lifecycle_facts, select_agents};
use crate::compile::compile;
use crate::error::Result;
use crate::plan::{FileKind, Plan, Step};
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
/// Exit codes: 0 on success, 1 on a config, policy or target error (nothing
/// is written then), 2 on a usage error.
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
}

impl GenerateArgs {
    /// Whether files are written: `-w` without `-n` (which turns any run
    /// into a preview, as the 1.0.0 `-w -n` dry run was one).
    fn writes(&self) -> bool {
        self.write && !self.dry_run
    }
}

pub fn run(global: &Global, args: &GenerateArgs) -> Result<i32> {
    if args.project {
        return project::run(global, args);
    }
    let config_path = &global.config_path;
    let config = crate::commands::load_config(config_path)?;
    ui::debug(|| format!("config: {}", config_path.display()));
    let compiled = compile(&config, args.profile.as_deref())?;
    let agents = select_agents(&args.agent, &config)?;
    let mut ctx = Ctx::new(&config, &compiled, args.yolo);
    ctx.drop_foreign = args.drop_foreign;
    ui::debug(|| {
        format!(
            "{}; rules: {}",
            lifecycle_facts(&compiled.profile.name, args.yolo, &agents),
            ctx.rules().len()
        )
    });

    let mut warnings: Warnings = Vec::new();
    let mut plan = Plan::default();
    for doc in &compiled.canonical {
        // A preview checks and lists the paths and never writes, and its
        // stdout holds the agents' renderings only: the canonical text (the
        // size of the whole policy) is rendered only when it is written.
        let text = if args.writes() {
            doc.text()
        } else {
            String::new()
        };
        plan.write(doc.output.clone(), text, FileKind::Canonical);
    }
    for agent in &agents {
        agent.stage(&ctx, &mut plan, &mut warnings)?;
    }
    finish(&plan, &warnings, args.writes())?;
    drop(ctx); // one list of borrowed patterns: a single free
    crate::heap::forget_until_exit(compiled);
    Ok(0)
}

/// Check the staged plan, then write it or show the preview, with the
/// notes and warnings staging raised.
fn finish(plan: &Plan, warnings: &Warnings, writes: bool) -> Result<()> {
    ui::debug(|| format!("planned steps: {}", plan.steps.len()));
    // A target that cannot be written fails here, in both modes, before
    // any note or warning: the run ends with the error alone.
    crate::apply::check(plan)?;
    for note in &plan.notes {
        ui::note(note);
    }
    for removal in &plan.removals {
        ui::warning(&format!(
            "{}: removes {} {} from {} (--drop-foreign)",
            removal.agent,
            removal.section,
            removal.entry,
            removal.path.display()
        ));
    }
    print_warnings(warnings);
    if writes {
        // Read before the write: what each symlink pointed to.
        // A migration says what happens to the link by itself.
        let migrates = plan.steps.iter().any(|s| matches!(s, Step::Migrate { .. }));
        let links: Vec<String> = plan
            .steps
            .iter()
            .filter_map(|step| match step {
                Step::Symlink { link, target } if !migrates => link_done(link, target),
                _ => None,
            })
            .collect();
        let applied = crate::apply::apply(plan)?;
        plan.print_applied(&applied);
        for line in &links {
            ui::note(line);
        }
    } else {
        print_preview(plan);
    }
    Ok(())
}

/// Each agent's rendering on stdout (under `--- NAME ---` when there are
/// several), then on stderr the files `-w` would write and a closing note.
fn print_preview(plan: &Plan) {
    let several = plan.renderings().count() > 1;
    for (name, text) in plan.renderings() {
        if several {
            ui::heading(&format!("--- {name} ---"));
        }
        ui::data(text);
    }
    for step in &plan.steps {
        if let Step::Write { path, kind, .. } = step {
            let what = match kind {
                FileKind::Canonical => "canonical",
                FileKind::AgentTarget => "agent target",
                FileKind::Support => continue,
            };
            ui::would_write(&format!("Would write {what}: {}", path.display()));
        }
    }
    for step in &plan.steps {
        match step {
            Step::Migrate { from, to } => ui::note(&format!(
                "would migrate {} into {}",
                from.display(),
                to.display()
            )),
            Step::Symlink { link, target } => {
                if let Some(line) = link_change(link, target) {
                    ui::note(&line);
                }
            }
            Step::Write { .. } | Step::Notice(_) => {}
        }
    }
    ui::note_bold(
        "preview only, no file was written. Add -w/--write to write the files listed above.",
    );
}

/// What `-w` did to the symlink `link` (stored value `target`), said
/// after the write, when it pointed elsewhere: repointing it switches
/// which file the agent loads (the active mode changed).
fn link_done(link: &std::path::Path, target: &std::path::Path) -> Option<String> {
    let (link_shown, target_shown) = (link.display(), target.display());
    // A link that leads nowhere loaded no file: no mode changes.
    let loads = std::fs::metadata(link).is_ok();
    match std::fs::read_link(link) {
        Ok(now) if now == target || !loads => None,
        Ok(now) => Some(format!(
            "repointed the symlink {link_shown} to {target_shown} (it pointed to {}): the \
             agent now loads {target_shown}",
            now.display()
        )),
        // A new link, or one replacing a migrated file (`Migrated:` says
        // so), changes no mode the agent was in.
        Err(_) => None,
    }
}

/// What `-w` would do to the symlink `link` (stored value `target`), when
/// it is not already that link.
fn link_change(link: &std::path::Path, target: &std::path::Path) -> Option<String> {
    let (link_shown, target_shown) = (link.display(), target.display());
    let meta = std::fs::symlink_metadata(link).ok();
    match std::fs::read_link(link) {
        Ok(now) if now == target => None,
        Ok(now) => Some(format!(
            "would repoint the symlink {link_shown} to {target_shown} (it points to {}): the \
             agent would then load {target_shown}",
            now.display()
        )),
        Err(_) if meta.is_some() => Some(format!(
            "would replace {link_shown} by a symlink to {target_shown}"
        )),
        Err(_) => Some(format!(
            "would create the symlink {link_shown} -> {target_shown}"
        )),
    }
}

/// The generation warnings on stderr in the order raised, each as
/// `Warning: MESSAGE`: the agent limits
/// ([`crate::diag::Code::is_agent_limit`]) only with `-v`, the others
/// always (`-q` drops them all).
pub(crate) fn print_warnings(warnings: &Warnings) {
    for w in shown_warnings(warnings, ui::verbose()) {
        ui::warning(&w.message);
    }
}

/// The warnings [`print_warnings`] prints, with `-v` or without.
pub(crate) fn shown_warnings(
    warnings: &Warnings,
    verbose: bool,
) -> impl Iterator<Item = &crate::diag::Diagnostic> {
    warnings
        .iter()
        .filter(move |w| verbose || !w.code.is_agent_limit())
}
