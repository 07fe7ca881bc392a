//! Codex target: a native permission profile `twsrt` in config.toml (merged
//! into the user's file) and optional `forbidden` escalation rules.
//!
//! Output does not depend on the mode: yolo and full render the same files.

mod adoption;
pub mod codes;
mod directions;
mod doctor;
mod drift;
mod explain;
mod explain_managed;
mod feature;
mod grammar;
mod grammar_sessions;
mod import;
mod import_rules;
mod import_sandbox;
mod joined;
pub mod launch;
pub mod layers;
mod merge;
mod missing;
mod pathshape;
mod policy;
mod prove;
mod prove_paths;
mod render;
pub mod requirements;
mod stricter;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod launch_tests;

#[cfg(test)]
mod launch_gap_tests;

use crate::diag::Code;
use std::path::{Path, PathBuf};

use crate::agent::{Agent, AgentDiff, Ctx, Warnings};
use crate::config::{Config, TargetKey};
use crate::error::{Error, Result};
use crate::explain::ExplainLayers;
use crate::paths::home_dir;
use crate::plan::{FileKind, Plan};
use crate::rules::{Action, Scope};
use crate::srt::path::Places;
use crate::ui;

pub struct Codex;

/// `codex_config` names the config.toml the profile is merged into;
/// `codex_rules` adds the execution rules file.
const TARGET_KEYS: [TargetKey; 2] = [
    TargetKey::path("codex_config"),
    TargetKey::path("codex_rules").needs("codex_config"),
];

// What `twsrt doctor` checks against the Codex layers it can see (the
// measured facts behind the generator's own warnings).
pub use merge::LEGACY_KEYS;
pub use policy::network_proxy_enabled;

/// The status line printed after the Codex files were written.
pub const RESTART: &str = "Restart Codex to load the updated permission profile and rules.";

/// The config.toml twsrt manages. Only called for a configured Codex (the
/// commands skip Codex while `codex_config` is not set): there is no
/// default path that could quietly rewrite a file nobody named.
pub fn config_path(config: &Config) -> Result<&Path> {
    config
        .targets
        .path("codex_config")
        .ok_or_else(|| Error::Policy("targets.codex_config is not set in config.toml".to_string()))
}

/// The managed config fragment, with the policy warnings; `~` is `home`.
fn render_config(ctx: &Ctx, home: &Path, warnings: &mut Warnings) -> Result<String> {
    let fragment = render_profile(ctx, home, Some(&made_dirs(ctx)), warnings)?;
    Ok(feature::with_network_proxy(fragment))
}

/// The directories this command's writes create: the parents of the
/// canonical outputs and of the targets of Codex and of every agent the
/// command writes or compares with it ([`Ctx::written`]). They count as
/// existing for [`missing::lift`]; another agent's directory that neither
/// exists nor is written now does not (Codex would start no command).
fn made_dirs(ctx: &Ctx) -> Vec<std::path::PathBuf> {
    let targets = crate::agent::registry()
        .into_iter()
        .filter(|a| a.name() == "codex" || ctx.written.contains(&a.name()))
        .flat_map(|a| a.target_keys())
        .filter_map(|key| ctx.config.targets.path(key.name))
        .map(Path::to_path_buf)
        .collect::<Vec<_>>();
    let outputs = ctx.compiled.canonical.iter().map(|doc| doc.output.clone());
    targets
        .into_iter()
        .chain(outputs)
        .filter_map(|path| std::path::absolute(path).ok())
        .filter_map(|path| path.parent().map(Path::to_path_buf))
        .collect()
}

/// [`render_config`], with the entries under a missing directory of this
/// machine merged ([`missing::lift`]) only when `made_dirs` is given: the
/// machine-wide requirements hold for every user's home, not this one.
fn render_profile(
    ctx: &Ctx,
    home: &Path,
    made_dirs: Option<&[std::path::PathBuf]>,
    warnings: &mut Warnings,
) -> Result<String> {
    let profile = policy::translate(
        ctx.rules(),
        ctx.compiled.srt(),
        ctx.config.overrides(ctx.yolo),
        (home, made_dirs),
        warnings,
    )?;
    Ok(render::fragment(&profile))
}

/// What `diff` compares config.toml's text `existing` with: [`render_config`],
/// keeping an entry written for a directory while it was missing that is as
/// strict as the rules below it ([`missing::keep_written`], said as a warning).
fn compared_config(
    ctx: &Ctx,
    home: &Path,
    existing: &str,
    warnings: &mut Warnings,
) -> Result<String> {
    let mut profile = policy::translate(
        ctx.rules(),
        ctx.compiled.srt(),
        ctx.config.overrides(ctx.yolo),
        (home, Some(&made_dirs(ctx))),
        warnings,
    )?;
    for note in missing::keep_written(&mut profile, existing) {
        warnings.push(warning(codes::LIFTED_DIR_EXISTS, note));
    }
    Ok(feature::with_network_proxy(render::fragment(&profile)))
}

/// What `generate codex` renders for `ctx`'s mode, for `explain`: the
/// managed config fragment and the rules text (rendered whether or not
/// `codex_rules` is set).
pub fn rendered(ctx: &Ctx) -> Result<(String, String)> {
    let fragment = render_config(ctx, &home_dir(), &mut Vec::new())?;
    let deny = ctx
        .rules()
        .iter()
        .filter(|r| r.is(Scope::Execute, Action::Deny))
        .map(|r| r.pattern);
    Ok((fragment, render::rules_file(deny)?))
}

/// Fuzzing entry point (`fuzz/`), not a stable API: the managed config.toml
/// fragment rendered for `ctx`.
#[doc(hidden)]
pub fn fuzz_fragment(ctx: &Ctx) -> Result<String> {
    render_config(ctx, &home_dir(), &mut Vec::new())
}

/// Fuzzing entry point (`fuzz/`), not a stable API: `fragment` merged into
/// the text of an existing config.toml, as `generate codex -w` does it.
#[doc(hidden)]
pub fn fuzz_merge(existing: &str, fragment: &str) -> Result<String> {
    merge::merge(existing, fragment, Path::new("config.toml"))
}

/// The rules file and its path, when `codex_rules` is set.
fn render_rules(ctx: &Ctx) -> Result<Option<(PathBuf, String)>> {
    let Some(path) = ctx.config.targets.path("codex_rules") else {
        return Ok(None);
    };
    let deny = ctx
        .rules()
        .iter()
        .filter(|r| r.is(Scope::Execute, Action::Deny))
        .map(|r| r.pattern);
    Ok(Some((path.to_path_buf(), render::rules_file(deny)?)))
}

/// The two reminders every Codex command ends with.
fn reminders(ctx: &Ctx, warnings: &mut Warnings) {
    joined::warn(ctx, warnings);
    if ctx.config.targets.contains("codex_rules") {
        warnings.push(warning(
            codes::RULES_OUTSIDE_SANDBOX,
            "Codex execution rules are consulted only for requests to run outside the sandbox; \
             commands inside the sandbox never see them.",
        ));
    }
    warnings.push(warning(
        codes::LEGACY_LAYERS,
        "A legacy sandbox_mode setting (or the --sandbox flag) in any other Codex config layer \
         silently switches the twsrt permission profile off; twsrt checks only the managed \
         config.toml, so run `codex doctor` after changing other layers.",
    ));
}

/// The `network_proxy` warning, when the fragment writes domain lists that
/// the managed config (`managed`) does not let Codex enforce.
fn network_reminder(fragment: &str, managed: Option<&str>, warnings: &mut Warnings) {
    warnings.extend(
        policy::network_proxy_warning(fragment, managed)
            .map(|m| warning(codes::DOMAINS_IGNORED, m)),
    );
}

fn preview_text(config: &Path, fragment: &str, rules: Option<&(PathBuf, String)>) -> String {
    let mut out = format!(
        "--- config: {} (managed fragment) ---\n{}",
        config.display(),
        fragment.trim_end()
    );
    if let Some((path, text)) = rules {
        out.push_str(&format!(
            "\n--- rules: {} ---\n{}",
            path.display(),
            text.trim_end()
        ));
    }
    out
}

/// A file's text, `None` when it does not exist.
fn read_text(path: &Path) -> Result<Option<String>> {
    crate::apply::read_existing_text(path, Error::toml_not_utf8)
}

impl Agent for Codex {
    fn codes(&self) -> &'static [crate::diag::Code] {
        codes::ALL
    }

    fn name(&self) -> &'static str {
        "codex"
    }

    fn home_dir(&self) -> Option<&'static str> {
        Some(".codex")
    }

    fn import(&self) -> Option<&'static dyn crate::agent::import::Importer> {
        Some(&import::CodexImport)
    }

    fn suggested_targets(&self) -> &'static [&'static str] {
        &[
            "codex_config = \"~/.codex/config.toml\"",
            "codex_rules = \"~/.codex/rules/twsrt.rules\"",
        ]
    }

    fn managed(&self) -> Option<&'static dyn crate::agent::managed::Managed> {
        Some(&requirements::Layer)
    }

    fn prover(&self) -> Option<&'static dyn crate::agent::prove::Prover> {
        Some(&prove::CodexProver)
    }

    fn launch(&self) -> Option<&'static dyn crate::agent::launch::Launch> {
        Some(&launch::CodexLaunch)
    }

    fn target_keys(&self) -> &'static [TargetKey] {
        &TARGET_KEYS
    }

    /// One target for both modes: the profile serves full and yolo alike.
    fn target(&self, ctx: &Ctx) -> PathBuf {
        config_path(ctx.config)
            .map(Path::to_path_buf)
            .unwrap_or_default()
    }

    fn preview(&self, ctx: &Ctx, warnings: &mut Warnings) -> Result<String> {
        preview(ctx, &home_dir(), warnings)
    }

    fn stage(&self, ctx: &Ctx, plan: &mut Plan, warnings: &mut Warnings) -> Result<()> {
        stage(ctx, plan, &home_dir(), warnings)
    }

    fn diff(&self, ctx: &Ctx, warnings: &mut Warnings) -> Result<AgentDiff> {
        diff(ctx, &home_dir(), warnings)
    }

    /// The profile and rules rows always, rendered whether or not Codex is
    /// configured (a policy it refuses makes each say why).
    fn explain<'a>(
        &self,
        ctx: &'a Ctx<'a>,
        places: &'a Places<'a>,
    ) -> Result<Option<Box<dyn ExplainLayers + 'a>>> {
        Ok(Some(Box::new(explain::Layers::of(ctx, places))))
    }

    fn doctor_checks(&self, input: &crate::lint::Input, out: &mut Vec<crate::diag::Diagnostic>) {
        doctor::check(input, out);
    }
}

// The commands run with `~` as $HOME; the unit tests pass their own home so
// that what exists under the real one cannot change their warnings.

fn preview(ctx: &Ctx, home: &Path, warnings: &mut Warnings) -> Result<String> {
    let mut found = Vec::new();
    let fragment = render_config(ctx, home, &mut found)?;
    let rules = render_rules(ctx)?;
    reminders(ctx, &mut found);
    // A preview writes nothing: a managed file it cannot read counts as
    // one that does not enable the proxy.
    let path = config_path(ctx.config)?;
    let managed = read_text(path).ok().flatten();
    let (fragment, _) = stricter::keep(fragment, managed.as_deref());
    network_reminder(&fragment, managed.as_deref(), &mut found);
    warnings.extend(found);
    Ok(preview_text(path, &fragment, rules.as_ref()))
}

fn stage(ctx: &Ctx, plan: &mut Plan, home: &Path, warnings: &mut Warnings) -> Result<()> {
    let mut found = Vec::new();
    let fragment = render_config(ctx, home, &mut found)?;
    let rules = render_rules(ctx)?;
    reminders(ctx, &mut found);
    let path = config_path(ctx.config)?;
    let existing = read_text(path)?;
    let (fragment, kept) = stricter::keep(fragment, existing.as_deref());
    network_reminder(&fragment, existing.as_deref(), &mut found);
    let merged = match existing.as_deref() {
        // A new file is the fragment itself, and so is a file that holds
        // just the fragment, as `-w` wrote it (a test holds the merge to
        // both): our own text is not parsed again.
        None | Some("") => fragment.clone(),
        Some(text) if text == fragment => fragment.clone(),
        // A file `diff` finds no drift in is left as it is, byte for byte
        // (comments and layout inside the profile included).
        Some(text) if no_drift(text, &fragment, path)? => text.to_string(),
        Some(text) => merge::merge(text, &fragment, path)?,
    };
    // Said when this write changes the file; on every run only with -v.
    let changes = existing.as_ref() != Some(&merged);
    if let Some(note) = kept.filter(|_| changes || ui::verbose()) {
        plan.note_before_writes(note);
    }
    if let Some(note) = feature::note(&fragment, existing.as_deref(), path) {
        plan.note_before_writes(note);
    }
    plan.write(path.to_path_buf(), merged, FileKind::AgentTarget);
    if let Some((rules_path, text)) = &rules {
        adoption::guard(
            ctx,
            plan,
            rules_path,
            read_text(rules_path)?.as_deref(),
            text,
        )?;
        plan.write(rules_path.clone(), text.clone(), FileKind::AgentTarget);
    }
    plan.note_after_writes(RESTART);
    plan.show_preview(Codex.name(), preview_text(path, &fragment, rules.as_ref()));
    warnings.extend(found);
    Ok(())
}

/// Whether `diff` finds the managed keys and profile of `existing` to be
/// the generated ones.
fn no_drift(existing: &str, fragment: &str, path: &Path) -> Result<bool> {
    Ok(drift::compare_config(existing, fragment, path)?
        .differences
        .is_empty())
}

fn diff(ctx: &Ctx, home: &Path, warnings: &mut Warnings) -> Result<AgentDiff> {
    let path = config_path(ctx.config)?;
    let rules_path = ctx.config.targets.path("codex_rules");
    for target in std::iter::once(path).chain(rules_path) {
        if !target.exists() {
            return Ok(AgentDiff::TargetMissing(format!(
                "codex target file not found: {}",
                target.display()
            )));
        }
    }
    // Warnings are only shown when the comparison itself succeeds.
    let mut found = Vec::new();
    let existing = read_text(path)?.unwrap_or_default();
    let fragment = compared_config(ctx, home, &existing, &mut found)?;
    let (fragment, _) = stricter::keep(fragment, Some(&existing));
    let mut result = drift::compare_config(&existing, &fragment, path)?;
    if let Some(rules_path) = rules_path {
        let expected = render_rules(ctx)?.map(|(_, text)| text).unwrap_or_default();
        drift::compare_rules(rules_path, &expected, &mut result)?;
    }
    reminders(ctx, &mut found);
    network_reminder(&fragment, Some(&existing), &mut found);
    warnings.extend(found);
    Ok(AgentDiff::Listed {
        differences: result.differences,
        lines: result.lines,
    })
}

/// A generation warning of this agent.
fn warning(code: Code, message: impl Into<String>) -> crate::diag::Diagnostic {
    crate::agent::warning("codex", code, message)
}
