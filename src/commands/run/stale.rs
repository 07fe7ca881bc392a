//! Whether the files on disk are what the policy compiles to, and writing
//! them when they are not: the same plan `generate AGENT -w` applies, as one
//! transaction.

use std::path::PathBuf;

use crate::agent::launch::Launcher;
use crate::agent::{Ctx, Warnings};
use crate::error::Result;
use crate::plan::{FileKind, Plan, Step};
use crate::ui;

/// Stage AGENT (when configured) and the canonical outputs; write them all
/// if any differs from disk, or refuse with `no_generate` (the `generate`
/// command line that would bring them up to date). `ready` runs after every
/// check and before the first write: its error writes nothing.
pub fn bring_up_to_date(
    ctx: &Ctx,
    launcher: &Launcher,
    no_generate: Option<&str>,
    warnings: &mut Warnings,
    ready: &dyn Fn() -> Result<()>,
) -> Result<()> {
    let mut staged = Plan::default();
    let (agent, agent_name) = (&launcher.agent, launcher.agent.name());
    if agent.configured(ctx.config) {
        agent.stage(ctx, &mut staged, warnings)?;
    } else if !launcher.launch.policy_in_argv() {
        // An agent whose policy is the arguments `run` adds needs no
        // target; the others have no policy without one.
        ui::warning(&format!(
            "{agent_name} is not configured in [targets] of config.toml: it starts without a \
             generated policy"
        ));
    }
    let mut stale = stale_paths(&staged)?;
    for doc in &ctx.compiled.canonical {
        if !doc.matches_output()? {
            stale.push(doc.output.clone());
        }
    }
    if stale.is_empty() {
        return Ok(());
    }
    if let Some(generate) = no_generate {
        let list: Vec<String> = stale.iter().map(|p| p.display().to_string()).collect();
        return Err(super::refused(format!(
            "{agent_name} was not started: {} differ from the policy (--no-generate); run \
             `{generate}` first",
            list.join(", ")
        )));
    }
    let mut plan = Plan::default();
    let mut canonical = Vec::new();
    for doc in &ctx.compiled.canonical {
        let text = doc.text();
        crate::commands::generate::foreign::settle_output(&ctx.config.path, doc, &text, false)?;
        canonical.push((doc.output.clone(), text.clone()));
        plan.write(doc.output.clone(), text, FileKind::Canonical);
    }
    plan.steps.append(&mut staged.steps);
    crate::apply::check(&plan)?;
    ready()?;
    let applied = crate::apply::apply(&plan)?;
    let files = canonical.iter().map(|(p, t)| (p.as_path(), t.as_bytes()));
    crate::apply::written::remember_or_warn(&ctx.config.path, files);
    ui::note(&format!(
        "the policy changed since the last generate: wrote {} file(s) for {agent_name}",
        written(&plan, &applied)
    ));
    Ok(())
}

/// The staged files and links whose disk state differs from the plan.
fn stale_paths(plan: &Plan) -> Result<Vec<PathBuf>> {
    let mut stale = Vec::new();
    for step in &plan.steps {
        match step {
            Step::Write { path, content, .. } => {
                if crate::apply::read_existing(path)?.as_deref() != Some(content.as_slice()) {
                    stale.push(path.clone());
                }
            }
            Step::Symlink { link, target } => {
                if std::fs::read_link(link).ok().as_ref() != Some(target) {
                    stale.push(link.clone());
                }
            }
            Step::Migrate { from, .. } => stale.push(from.clone()),
            Step::Notice(_) => {}
        }
    }
    Ok(stale)
}

/// The files the run really wrote (an unchanged canonical output is not one).
fn written(plan: &Plan, applied: &crate::plan::Applied) -> usize {
    plan.steps
        .iter()
        .enumerate()
        .filter(|(i, s)| {
            applied.changed(*i)
                && matches!(s, Step::Write { kind, .. } if *kind != FileKind::Support)
        })
        .count()
}
