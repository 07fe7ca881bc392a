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
    let home = home_dir();
    let global = anchor::target_path(ctx.config, ctx.yolo);
    let Some(doc) = existing::read(&global)? else {
        return Err(missing_global(&global, ctx.yolo));
    };
    let merged = merge::merge(doc, &generate(ctx, &home), &global)?;
    plan.write(
        dest,
        to_pretty(&Value::Object(merged)) + "\n",
        FileKind::AgentTarget,
    );
    plan.dry_run("claude", preview(ctx, &home));
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
