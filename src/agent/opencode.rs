//! OpenCode (npm `opencode-ai`): its JSON config (`~/.config/opencode/
//! opencode.json` in the docs), written from `[targets] opencode_config`.
//! twsrt merges its entries into the file's `permission` object and keeps
//! every other key and entry ([`merge`]); what the entries say is in
//! [`mapping`]. One file serves both modes: a yolo launch (`--auto`)
//! approves what asks and keeps the denies. doc/clients.md "OpenCode" has
//! the facts from the pinned client behind each choice.

pub mod codes;
mod drift;
mod evaluated;
mod explain;
mod grammar;
pub mod launch;
pub mod mapping;
pub mod merge;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod launch_tests;

mod pattern;
mod siblings;
mod worktree;

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::agent::{Agent, AgentDiff, Ctx, Warnings, record};
use crate::config::{Config, TargetKey};
use crate::diag::{Code, Diagnostic};
use crate::error::{Error, Result};
use crate::explain::ExplainLayers;
use crate::plan::{FileKind, Plan, Removal};
use crate::pyjson::to_pretty;
use crate::rules::{Action, Scope, SecurityRule};
use crate::srt::path::Places;

use mapping::{Entry, OWNED_KEYS as OWNED_KEY_NAMES, Verdict};
use merge::Rule;
use rustc_hash::FxHashSet;

pub struct OpenCode;

/// `opencode_config` configures OpenCode.
const KEYS: &[TargetKey] = &[TargetKey::path("opencode_config").check(not_json)];

/// OpenCode reads its config as JSON (with comments): a `.json` or
/// `.jsonc` file.
fn not_json(path: &Path) -> Option<String> {
    let json = path
        .extension()
        .is_some_and(|e| e == "json" || e == "jsonc");
    (!json).then(|| {
        format!(
            "targets.opencode_config must end in .json or .jsonc: OpenCode reads its config from \
             opencode.json or opencode.jsonc, so {} would never be read",
            path.display()
        )
    })
}

/// The status line printed after the file was written.
pub const RESTART: &str = "Restart OpenCode to load the updated permissions.";

/// What OpenCode itself does not confine, raised by every OpenCode command.
pub const NO_SANDBOX: &str = "OpenCode starts no sandbox: its permission rules only decide which \
    tool calls run, its bash tool runs a command with the user's rights and network, and an \
    \"always\" answer to a question adds an allow that wins over every rule for the rest of the \
    session. Start it as `twsrt run --srt -- opencode` to put it inside Sandbox Runtime.";

/// The generation warnings doctor lists for OpenCode (every agent limit
/// it raises).
const DOCTOR_LIMITS: [Code; 4] = [
    Code::SrtKeySkipped,
    codes::COMMAND_TEXT,
    codes::PATH_NAME,
    codes::NO_SANDBOX,
];

/// How to keep an entry twsrt did not write.
const KEEP: &str = "the command to a bash fragment, the path or domain to an srt fragment";

/// The config file, `None` while OpenCode is not configured.
pub fn config_path(config: &Config) -> Option<PathBuf> {
    config
        .targets
        .path("opencode_config")
        .map(Path::to_path_buf)
}

fn unconfigured() -> Error {
    Error::Policy("targets.opencode_config is not set in config.toml".to_string())
}

/// The entries for `ctx`'s rules, and the warnings (the sandbox one last).
fn entries(ctx: &Ctx, warnings: &mut Warnings) -> Result<Vec<Entry>> {
    let entries = mapping::translate(ctx.rules(), warnings)?;
    let quoted = crate::agent::quoted_rules::quoted(ctx);
    if let Some(m) = crate::agent::quoted_rules::message("OpenCode", &quoted) {
        warnings.push(warning(codes::QUOTED_RULE, m));
    }
    warnings.extend(crate::agent::srt_keys::skipped(
        "opencode",
        ctx.compiled.srt(),
        &[
            crate::agent::srt_keys::ENV_VARS,
            crate::agent::srt_keys::STRICT_ALLOWLIST,
            crate::agent::srt_keys::DENIED_DOMAIN_REASONS,
        ],
        "OpenCode starts no sandbox, so nothing of its own hides a variable from its shell \
         commands or refuses a host (credential files are read and edit denies of its file tools)",
    ));
    warnings.extend(crate::agent::srt_keys::skipped(
        "opencode",
        ctx.compiled.srt(),
        &[crate::agent::srt_keys::ALLOW_READ],
        "OpenCode starts no sandbox to re-open them in, and twsrt keeps its file tools' read \
         denies (stricter than srt)",
    ));
    warnings.push(warning(codes::NO_SANDBOX, NO_SANDBOX));
    Ok(entries)
}

/// The preview: `{"permission": {...}}` with twsrt's entries only.
fn preview_text(entries: &[Entry]) -> Result<String> {
    let merged = merge::merge(Some(&Value::Object(Default::default())), entries, &|_| {
        false
    })
    .map_err(Error::Policy)?;
    Ok(to_pretty(&merged.value))
}

/// The existing config, parsed, and whether its text holds more than JSON
/// (comments, trailing commas) that a rewrite does not keep.
fn existing(path: &Path) -> Result<Option<(Value, bool)>> {
    let Some(text) = crate::apply::read_existing_text(path, Error::jsonc_not_utf8)? else {
        return Ok(None);
    };
    let value = crate::fragment::parse_trailing_commas(&text, path)?;
    let plain = serde_json::from_str::<Value>(crate::bom::strip(&text)).is_ok();
    Ok(Some((value, !plain)))
}

/// Every entry twsrt renders for the current policy and the earlier ones
/// of the record, as (key, pattern, action).
fn record_entries(ctx: &Ctx) -> FxHashSet<(&'static str, String, Verdict)> {
    let mut all = FxHashSet::default();
    let mut add = |entries: Vec<Entry>| {
        all.extend(entries.into_iter().map(|e| (e.key, e.pattern, e.verdict)));
    };
    add(mapping::translate(ctx.rules(), &mut Vec::new()).unwrap_or_default());
    record::visit_earlier_rules(ctx, |rules: &[SecurityRule]| {
        add(mapping::translate(rules, &mut Vec::new()).unwrap_or_default());
    });
    all
}

fn stage(ctx: &Ctx, plan: &mut Plan, warnings: &mut Warnings) -> Result<()> {
    let path = config_path(ctx.config).ok_or_else(unconfigured)?;
    let ours = entries(ctx, warnings)?;
    let found = existing(&path)?;
    // Only an entry the merge would drop is looked up in the record, so
    // the everyday write over twsrt's own file never builds it (every
    // other profile compiled).
    let record = std::cell::OnceCell::new();
    let recorded = |r: &Rule| {
        let record = record.get_or_init(|| record_entries(ctx));
        OWNED_KEY_NAMES
            .iter()
            .find(|k| **k == r.key)
            .is_some_and(|k| record.contains(&(*k, r.pattern.clone(), r.verdict)))
    };
    let merged = merge::merge(found.as_ref().map(|(v, _)| v), &ours, &recorded)
        .map_err(|m| Error::target(&path, m))?;
    refuse_undone(&path, &ours, &merged.value)?;
    let removals = merged
        .foreign
        .iter()
        .map(|(section, entry)| Removal {
            agent: "opencode",
            path: path.clone(),
            section: section.clone(),
            entry: entry.clone(),
        })
        .collect();
    record::settle(ctx, plan, &path, removals, KEEP)?;
    warnings.extend(file_warnings(&path, found.as_ref(), &merged));
    let bom = crate::bom::kept_for(&path);
    let text = format!("{bom}{}\n", to_pretty(&merged.value));
    plan.write(path, text, FileKind::AgentTarget);
    plan.show_preview("opencode", preview_text(&ours)?);
    plan.note_after_writes(RESTART);
    Ok(())
}

/// Fails when the merged file, as OpenCode evaluates it, undoes one of
/// twsrt's entries: the `permission` order is twsrt's, but the deprecated
/// `tools` map puts its keys before it ([`evaluated`]).
fn refuse_undone(path: &Path, ours: &[Entry], merged: &Value) -> Result<()> {
    let undone = drift::undone_at_top(ours, merged).map_err(|m| Error::target(path, m))?;
    if undone.is_empty() {
        return Ok(());
    }
    Err(Error::target(
        path,
        format!(
            "OpenCode would not apply {} of twsrt's entries as written ({}); the deprecated \
             `tools` map becomes permission keys placed before `permission`, so remove its \
             entries (or move them into `permission`)",
            undone.len(),
            undone.first().map_or("", String::as_str)
        ),
    ))
}

/// What the merge into this file changes beyond twsrt's entries.
fn file_warnings(
    path: &Path,
    found: Option<&(Value, bool)>,
    merged: &merge::Merged,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let shown = path.display();
    if let Some((_, true)) = found {
        out.push(warning(
            codes::COMMENTS_DROPPED,
            format!(
                "{shown} holds comments or trailing commas, which the rewrite does not keep \
                 (OpenCode reads the file as JSON with comments; twsrt writes plain JSON)"
            ),
        ));
    }
    if merged.reordered {
        out.push(warning(
            codes::FOREIGN_REORDERED,
            format!(
                "{shown}: permission entries twsrt did not write now come before every deny \
                 (OpenCode applies the last matching entry, so an allow or ask after a deny \
                 would undo it); an allow that was meant as an exception to a deny no longer is"
            ),
        ));
    }
    if let Some((doc, _)) = found {
        let agents = merge::agent_permissions(doc);
        if !agents.is_empty() {
            out.push(warning(
                codes::AGENT_PERMISSION,
                format!(
                    "{shown}: the permission of agent {} comes after the top-level permission \
                     OpenCode evaluates, so its allows win over twsrt's rules for that agent",
                    agents.join(", ")
                ),
            ));
        }
    }
    out
}

fn diff(ctx: &Ctx, warnings: &mut Warnings) -> Result<AgentDiff> {
    let path = config_path(ctx.config).ok_or_else(unconfigured)?;
    let Some((on_disk, _)) = existing(&path)? else {
        return Ok(AgentDiff::TargetMissing(format!(
            "opencode target file not found: {}",
            path.display()
        )));
    };
    let mut found = Vec::new();
    let ours = entries(ctx, &mut found)?;
    let allows: Vec<&str> = ctx
        .rules()
        .iter()
        .filter(|r| r.is(Scope::Execute, Action::Allow))
        .map(|r| r.pattern)
        .collect();
    let mut differences =
        drift::compare_granting(&ours, &allows, &on_disk).map_err(|m| Error::target(&path, m))?;
    let xdg = std::env::var_os("XDG_CONFIG_HOME").map(PathBuf::from);
    let xdg = xdg.filter(|p| p.is_absolute());
    let global = siblings::global_dir(&crate::paths::home_dir(), xdg.as_deref());
    differences.extend(siblings::differences(&path, &global));
    warnings.extend(found);
    Ok(AgentDiff::Compared(differences))
}

impl Agent for OpenCode {
    fn codes(&self) -> &'static [crate::diag::Code] {
        codes::ALL
    }

    fn name(&self) -> &'static str {
        "opencode"
    }

    fn home_dir(&self) -> Option<&'static str> {
        Some(".config/opencode")
    }

    fn suggested_targets(&self) -> &'static [&'static str] {
        &["opencode_config = \"~/.config/opencode/opencode.json\""]
    }

    fn launch(&self) -> Option<&'static dyn crate::agent::launch::Launch> {
        Some(&launch::OpenCodeLaunch)
    }

    fn target_keys(&self) -> &'static [TargetKey] {
        KEYS
    }

    fn target(&self, ctx: &Ctx) -> PathBuf {
        config_path(ctx.config).unwrap_or_default()
    }

    fn preview(&self, ctx: &Ctx, warnings: &mut Warnings) -> Result<String> {
        preview_text(&entries(ctx, warnings)?)
    }

    fn stage(&self, ctx: &Ctx, plan: &mut Plan, warnings: &mut Warnings) -> Result<()> {
        stage(ctx, plan, warnings)
    }

    fn diff(&self, ctx: &Ctx, warnings: &mut Warnings) -> Result<AgentDiff> {
        diff(ctx, warnings)
    }

    /// The permission row, only when `opencode_config` is set.
    fn explain<'a>(
        &self,
        ctx: &'a Ctx<'a>,
        places: &'a Places<'a>,
    ) -> Result<Option<Box<dyn ExplainLayers + 'a>>> {
        if !self.configured(ctx.config) {
            return Ok(None);
        }
        Ok(Some(Box::new(explain::Layers::of(ctx, places)?)))
    }

    /// The limits every OpenCode run has (its matching of command text and
    /// path names, no sandbox of its own), as the generator warns about
    /// them with `-v`.
    fn doctor_checks(&self, input: &crate::lint::Input, out: &mut Vec<Diagnostic>) {
        crate::agent::limits::doctor_findings(self, input, &DOCTOR_LIMITS, out);
    }
}

/// A generation warning of this agent.
fn warning(code: Code, message: impl Into<String>) -> Diagnostic {
    crate::agent::warning("opencode", code, message)
}
