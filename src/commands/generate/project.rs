//! `twsrt generate claude --project`: the per-project output a launcher
//! hands to one Claude Code session (`claude --settings D/claude-settings.json`
//! and `srt -s D/srt-settings.json`), where `D` is `.twsrt` in the real
//! path of the working directory.
//!
//! Only Claude and srt read a settings file per launch, so `all` means
//! Claude and the other agents are refused. `D` itself is write-denied in
//! the compiled policy, so a session cannot loosen its own settings. Nothing
//! outside `D` is written; the global Claude target of the mode must exist,
//! because the project file is built on it.

use std::path::{Path, PathBuf};

use super::GenerateArgs;
use crate::agent::claude::{self, Claude};
use crate::agent::{Agent, Ctx, Warnings};
use crate::commands::{Global, unknown_agent};
use crate::compile::compile_protecting;
use crate::error::{Error, Result};
use crate::plan::{FileKind, Plan};
use crate::source::SourceKind;
use crate::ui;

/// The directory's name inside the project.
const DIR_NAME: &str = ".twsrt";

pub fn run(global: &Global, args: &GenerateArgs) -> Result<i32> {
    // As in twsrt 3.3.3, an agent that can never have a project file is
    // refused before config.toml is read; an unknown name only after it.
    refuse_other_agents(&args.agent)?;
    let config = crate::commands::load_config(&global.config_path)?;
    if !matches!(args.agent.as_str(), "all" | "claude") {
        return Err(unknown_agent(&args.agent));
    }
    let dir = project_dir()?;
    ui::debug(|| format!("project output: {}", dir.display()));
    // A deny rule must name the directory exactly; no agent could match a
    // lossy spelling of a path that is not UTF-8.
    let Some(dir_text) = dir.to_str() else {
        return Err(Error::target(
            &dir,
            "is not valid UTF-8, so no deny rule can name it",
        ));
    };
    let protected = [dir_text.to_string()];
    let compiled = compile_protecting(&config, args.profile.as_deref(), &protected)?;
    if !Claude.configured(&config) {
        return Err(Error::Policy(format!(
            "--project builds on the global Claude settings, but claude has no target: \
             set [targets].{} in config.toml",
            Claude.target_key()
        )));
    }
    let ctx = Ctx::new(&config, &compiled, args.yolo);
    let mut plan = Plan::default();
    let mut warnings: Warnings = Vec::new();
    for doc in &compiled.canonical {
        // As for `generate`, a preview never renders the canonical text.
        let text = if args.writes() {
            doc.text()
        } else {
            String::new()
        };
        plan.write(
            dir.join(canonical_name(doc.kind)),
            text,
            FileKind::Canonical,
        );
    }
    let settings = claude::project_settings(&dir, args.yolo);
    claude::stage_project(&ctx, &mut plan, &mut warnings, settings)?;
    if args.writes() {
        // The directory is generated output: keep it out of the project's git.
        plan.write(dir.join(".gitignore"), "*\n", FileKind::Support);
    }
    crate::apply::finish(&plan, &warnings, args.writes())?;
    if args.writes() {
        // The one thing a launcher script reads.
        ui::data(&protected[0]);
    }
    drop(ctx);
    crate::heap::forget_until_exit(compiled);
    Ok(0)
}

/// Codex and Copilot have no settings file that applies to one launch.
fn refuse_other_agents(name: &str) -> Result<()> {
    if name == "all" || name == Claude.name() || !crate::agent::names().contains(&name) {
        return Ok(());
    }
    Err(Error::Policy(format!(
        "agent '{name}' is not supported with --project: only Claude (claude --settings) \
         and srt (srt -s) take a settings file for one launch"
    )))
}

/// `realpath(cwd)/.twsrt`.
fn project_dir() -> Result<PathBuf> {
    let cwd = std::env::current_dir().map_err(|e| Error::io(Path::new("."), e))?;
    let real = std::fs::canonicalize(&cwd).map_err(|e| Error::io(&cwd, e))?;
    Ok(real.join(DIR_NAME))
}

/// The file a canonical document gets in the project directory.
fn canonical_name(kind: SourceKind) -> &'static str {
    match kind {
        SourceKind::Srt => "srt-settings.json",
        SourceKind::Bash => "bash-rules.json",
    }
}
