//! The end of `generate`: the staged plan checked, then written with its
//! status lines, or shown as the preview (each agent's rendering on stdout,
//! on stderr what `-w` would write, migrate or link). Either way the notes
//! and warnings staging raised come first.

use std::path::Path;

use crate::diag::Diagnostic;
use crate::error::Result;
use crate::plan::{FileKind, Plan, Step};
use crate::ui;

/// Check the staged plan, then write it or show the preview, with the
/// notes and warnings staging raised.
pub fn finish(plan: &Plan, warnings: &[Diagnostic], writes: bool) -> Result<()> {
    ui::debug(|| format!("planned steps: {}", plan.steps.len()));
    // A target that cannot be written fails here, in both modes, before
    // any note or warning: the run ends with the error alone.
    super::check(plan)?;
    for note in &plan.notes {
        ui::note(note);
    }
    for removal in &plan.removals {
        // An entry of a file the plan does not write (a dotfile whose
        // content moves into the target) leaves only the written file.
        let written = plan.steps.iter().any(|s| match s {
            Step::Write { path, .. } | Step::Symlink { link: path, .. } => *path == removal.path,
            _ => false,
        });
        let place = if written {
            format!("from {}", removal.path.display())
        } else {
            format!(
                "of {} from what it writes ({} itself is left as it is)",
                removal.path.display(),
                removal.path.display()
            )
        };
        ui::warning(&format!(
            "{}: removes {} {} {place} (--drop-foreign)",
            removal.agent, removal.section, removal.entry
        ));
    }
    crate::diag::print_warnings(warnings);
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
        let applied = super::apply(plan)?;
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
                FileKind::Managed => "managed",
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
fn link_done(link: &Path, target: &Path) -> Option<String> {
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
fn link_change(link: &Path, target: &Path) -> Option<String> {
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
