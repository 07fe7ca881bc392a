//! The Claude half of `generate claude --project`: the settings a launcher
//! passes with `claude --settings`, built from the global target of the
//! mode (so the user's hooks, plugins and model come along) with the
//! project's policy merged in as `generate -w` merges it. The global files
//! are only read: no anchor, no migration, no sync.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{anchor, existing, generate, merge, overrides, preview};
use crate::agent::{Ctx, Warnings};
use crate::error::{Error, Result};
use crate::paths::home_dir;
use crate::plan::{FileKind, Plan};
use crate::pyjson::to_pretty;

/// The file name of the project settings in `dir` for the mode.
pub fn project_settings(dir: &Path, yolo: bool) -> PathBuf {
    dir.join(if yolo {
        "claude-settings.yolo.json"
    } else {
        "claude-settings.json"
    })
}

/// Stage `dest`: the mode's global target merged with the generated
/// settings; the preview shows the generated settings, as for `generate`.
pub fn stage_project(
    ctx: &Ctx,
    plan: &mut Plan,
    warnings: &mut Warnings,
    dest: PathBuf,
) -> Result<()> {
    overrides::check(ctx, warnings)?;
    stage_in(ctx, plan, dest, &home_dir())
}

/// [`stage_project`] after the override checks; `home` is where a
/// denyRead `~` points.
fn stage_in(ctx: &Ctx, plan: &mut Plan, dest: PathBuf, home: &Path) -> Result<()> {
    let global = anchor::target_path(ctx.config, ctx.yolo);
    let Some(doc) = existing::read(&global)? else {
        return Err(missing_global(&global, ctx.yolo));
    };
    let merged = merge::merge(doc, &generate(ctx, home), &global)?;
    plan.write(
        dest,
        to_pretty(&Value::Object(merged)) + "\n",
        FileKind::AgentTarget,
    );
    plan.show_preview("claude", preview(ctx, home));
    Ok(())
}

fn missing_global(global: &Path, yolo: bool) -> Error {
    let write = if yolo {
        "twsrt generate claude -w --yolo"
    } else {
        "twsrt generate claude -w"
    };
    Error::target(
        global,
        format!(
            "not found: --project builds on it for the hooks, plugins and model it holds. \
             Run `{write}` first."
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::claude::tests::{Fixture, read, read_opt};
    use crate::plan::Step;

    /// The project file is the global file merged exactly as `-w` merges
    /// it, the preview the generated settings; the global file is not a step.
    #[test]
    fn the_global_target_is_merged_into_the_project_file() {
        let existing = read_opt("policy", "existing.json").unwrap();
        for (yolo, mode) in [(false, "full"), (true, "yolo")] {
            let fixture = Fixture::case("policy");
            fixture.put(&format!("settings.{mode}.json"), &existing);
            let dest = project_settings(&fixture.home().join("proj/.twsrt"), yolo);
            let mut plan = Plan::default();
            stage_in(&fixture.ctx(yolo), &mut plan, dest.clone(), &fixture.home()).unwrap();
            let expected = read("policy", &format!("expected_merged_{mode}.json"));
            assert_eq!(
                plan.steps,
                [Step::Write {
                    path: dest,
                    content: expected.into_bytes(),
                    kind: FileKind::AgentTarget,
                }]
            );
            let shown: Vec<_> = plan
                .renderings()
                .map(|(_, text)| text.to_string())
                .collect();
            assert_eq!(shown, [preview(&fixture.ctx(yolo), &fixture.home())]);
        }
    }

    #[test]
    fn a_missing_global_target_names_the_command_that_writes_it() {
        let fixture = Fixture::case("policy");
        for (yolo, command) in [
            (false, "`twsrt generate claude -w` first."),
            (true, "`twsrt generate claude -w --yolo` first."),
        ] {
            let mut plan = Plan::default();
            let dest = fixture.home().join("p.json");
            let err = stage_in(&fixture.ctx(yolo), &mut plan, dest, &fixture.home()).unwrap_err();
            assert!(err.to_string().ends_with(command), "{err}");
            assert!(plan.steps.is_empty());
        }
    }
}
