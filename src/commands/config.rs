//! `twsrt config`: open config.toml in $EDITOR, then check that what the
//! editor left loads and compiles; `--init` first writes a commented
//! starter configuration, never replacing a file that exists, and names
//! the installed agents (their configuration directories) with the
//! `[targets]` lines that enable them and the `twsrt import` that brings
//! their settings in. In a script (stdin or stdout not a terminal) `--init`
//! starts no editor: the files are written and checked, and that is all.

use std::path::Path;

use clap::Args;

use crate::commands::Global;
use crate::commands::editor::Editor;
use crate::error::{Error, Result};
use crate::plan::{FileKind, Plan};

const STARTER_CONFIG: &str = include_str!("starter/config.toml");
const STARTER_SRT: &str = include_str!("starter/srt.jsonc");
const STARTER_BASH: &str = include_str!("starter/bash.jsonc");

/// Open config.toml in $EDITOR.
#[derive(Debug, Args)]
pub struct ConfigArgs {
    /// Write a commented starter config.toml and base fragments first (existing files are kept)
    /// and name the installed agents with the `twsrt import` to run; without a terminal on
    /// stdin and stdout no editor is started.
    #[arg(long)]
    pub init: bool,
}

pub fn run(global: &Global, args: &ConfigArgs) -> Result<i32> {
    let config_path = &global.config_path;
    if args.init {
        init(config_path, &crate::paths::home_dir())?;
        if !Editor::interactive() {
            let config = crate::commands::load_config(config_path)?;
            crate::compile::compile(&config, None)?;
            return Ok(0);
        }
    } else if !config_path.exists() {
        return Err(Error::Setup(format!(
            "config file not found: {}; run `twsrt config --init` to create a starter",
            config_path.display()
        )));
    }
    // One file: no tabs, the editor as `$EDITOR` names it.
    let status = Editor::from_env()?.open(std::slice::from_ref(config_path), false)?;
    if status != 0 {
        return Ok(status);
    }
    // What the editor left must load and compile, as after `edit`: the
    // first error (with its line) is the command's error.
    let config = crate::commands::load_config(config_path)?;
    crate::compile::compile(&config, None)?;
    Ok(0)
}

/// Write the starter files that are missing and say which were created,
/// and what to run next, on stderr (the editor opens after this).
fn init(config_path: &Path, home: &Path) -> Result<()> {
    // An existing config.toml means the policy is set up: its fragments may
    // live elsewhere, so no starter fragment is added beside it either.
    if std::fs::symlink_metadata(config_path).is_ok() {
        crate::ui::note(&format!(
            "{} exists; nothing was created",
            config_path.display()
        ));
        suggest_agents(config_path, home);
        return Ok(());
    }
    let dir = config_path.parent().unwrap_or(Path::new(""));
    let files = [
        (config_path.to_path_buf(), STARTER_CONFIG),
        (dir.join("srt/base.jsonc"), STARTER_SRT),
        (dir.join("bash/base.jsonc"), STARTER_BASH),
    ];
    let mut plan = Plan::default();
    for (path, content) in files {
        if std::fs::symlink_metadata(&path).is_err() {
            plan.write(path, content, FileKind::AgentTarget);
        }
    }
    crate::apply::apply(&plan)?;
    for step in &plan.steps {
        if let crate::plan::Step::Write { path, .. } = step {
            crate::ui::wrote(&format!("Created: {}", path.display()));
        }
    }
    suggest_agents(config_path, home);
    crate::ui::note(&format!(
        "next: name your agents under [targets] in {}, then run `{}` to preview \
         and `{} -w` to write",
        config_path.display(),
        generate_command(config_path),
        generate_command(config_path),
    ));
    Ok(())
}

/// For each installed agent, on stderr: the `[targets]` lines to enable
/// and the import to run. Nothing when none is installed.
fn suggest_agents(config_path: &Path, home: &Path) {
    for agent in crate::agent::installed(home) {
        let dir = crate::import::tilde(&agent.dir, home);
        let mut text = format!(
            "{} is installed ({dir}): enable it under [targets] in {} with {}",
            agent.name,
            config_path.display(),
            agent.targets.join(" and ")
        );
        if agent.importable {
            text.push_str(&format!(
                ", and run `{}` to bring its settings into the policy",
                twsrt_command(config_path, &format!("import {}", agent.name))
            ));
        }
        crate::ui::note(&text);
    }
}

/// `twsrt generate`, with `-c PATH` unless `path` is the default config.
fn generate_command(path: &Path) -> String {
    twsrt_command(path, "generate")
}

/// `twsrt COMMAND`, with `-c PATH` unless `path` is the default config.
fn twsrt_command(path: &Path, command: &str) -> String {
    if path == crate::config::config_path(None) {
        format!("twsrt {command}")
    } else {
        format!("twsrt -c '{}' {command}", path.display())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> serde_json::Value {
        let doc = crate::tomltext::parse_document(text, Path::new("config.toml")).unwrap();
        crate::tomltext::toml_to_json(doc.as_item()).unwrap()
    }

    /// The active keys are those of the twsrt 3.3.3 starter (only what is
    /// required, plus the yolo overrides) and `failIfUnavailable` in yolo,
    /// which lets the guard hook defer Bash to the kernel there. Bash, the
    /// outputs, every target, `[claude_sync]` and the full-mode overrides
    /// are examples in comments;
    /// `[targets]` is there, empty, for the user to fill in.
    #[test]
    fn the_starter_sets_only_the_required_keys_and_the_yolo_overrides() {
        assert_eq!(
            parsed(STARTER_CONFIG),
            serde_json::json!({
                "schema_version": 1,
                "default_profile": "default",
                "sources": {"srt": {"fragments": {"base": {"path": "srt/base.jsonc"}}}},
                "profiles": {"default": {"srt": ["base"]}},
                "targets": {},
                "sandbox_overrides": {"yolo": {
                    "enabled": true,
                    "autoAllowBashIfSandboxed": true,
                    "allowUnsandboxedCommands": false,
                    "failIfUnavailable": true,
                }},
            })
        );
    }

    /// `generate` names every target key in its skip notes: the starter
    /// shows each one, commented, so the user finds the line to enable.
    #[test]
    fn the_starter_names_every_target_key() {
        for key in crate::agent::target_keys() {
            let line = format!("\n# {} = ", key.name);
            assert!(STARTER_CONFIG.contains(&line), "starter lacks {line:?}");
        }
    }
}
