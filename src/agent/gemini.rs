//! Gemini CLI: a policy-engine file (`~/.gemini/policies/twsrt.toml` in the
//! docs) that twsrt owns whole, written from `[targets] gemini_policy` (or,
//! in yolo mode, `gemini_policy_yolo` or its derived name). Gemini loads
//! every `.toml` file of its user policy directory at start-up, in the user
//! tier, above its built-in rules (yolo's allow-everything among them).
//! What the rules say is in [`mapping`]; doc/clients.md "Gemini CLI" has
//! the facts from the pinned client behind each choice.

mod admin;
mod adoption;
pub mod codes;
mod drift;
pub mod engine;
mod explain;
mod explain_admin;
mod grammar;
mod import;
pub mod launch;
mod launch_env;
mod launch_files;
mod mapping;
mod pattern;
mod prove;
mod render;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod grammar_tests;

#[cfg(test)]
mod launch_tests;

#[cfg(test)]
mod launch_gap_tests;

use crate::diag::Code;
use std::path::{Path, PathBuf};

pub use render::{ASK_PRIORITY, Origin};

use crate::agent::{Agent, AgentDiff, Ctx, Warnings};
use crate::config::{Config, TargetKey};
use crate::error::{Error, Result};
use crate::explain::ExplainLayers;
use crate::paths::home_dir;
use crate::plan::{FileKind, Plan};
use crate::srt::path::Places;

pub struct Gemini;

/// `gemini_policy` configures Gemini; `gemini_policy_yolo` names the yolo
/// file (default: [`crate::paths::yolo_variant`] of the full one).
const KEYS: &[TargetKey] = &[
    TargetKey::path("gemini_policy").check(|p| not_toml("gemini_policy", p)),
    TargetKey::path("gemini_policy_yolo")
        .needs("gemini_policy")
        .check(|p| not_toml("gemini_policy_yolo", p)),
];

/// Gemini loads only files ending in `.toml` from a policy directory
/// (`readPolicyFiles`): any other name would be written and never read.
fn not_toml(key: &str, path: &Path) -> Option<String> {
    let toml = path.extension().is_some_and(|e| e == "toml");
    (!toml).then(|| {
        format!(
            "targets.{key} must end in .toml: Gemini CLI loads only .toml files from its policy \
             directory, so {} would never be read",
            path.display()
        )
    })
}

/// The status line printed after the file was written.
pub const RESTART: &str = "Restart Gemini CLI to load the updated policy.";

/// What Gemini itself does not confine, raised by every Gemini command.
pub const NO_SANDBOX: &str = "Gemini CLI confines shell commands only inside a sandbox it does \
    not start by default (a container with --sandbox, its opt-in bubblewrap tool sandbox \
    security.toolSandboxing on Linux, Seatbelt on macOS), and this policy file turns none of them \
    on: its rules only decide which tool calls run. Start it as `twsrt run --srt -- gemini` to put \
    it inside Sandbox Runtime.";

/// The generation warnings doctor lists for Gemini (every agent limit it
/// raises).
const DOCTOR_LIMITS: [Code; 5] = [
    Code::SrtKeySkipped,
    codes::COMMAND_TEXT,
    codes::PATH_SPELLING,
    codes::FETCH_ONLY,
    codes::NO_SANDBOX,
];

/// The policy file of the mode: `gemini_policy`, or in yolo mode
/// `gemini_policy_yolo` or the full one's [`crate::paths::yolo_variant`]. `None` while
/// Gemini is not configured. `twsrt audit` names the same files.
pub fn policy_path(config: &Config, yolo: bool) -> Option<PathBuf> {
    config
        .targets
        .for_mode("gemini_policy", "gemini_policy_yolo", yolo)
}

impl Gemini {
    /// The policy file for the mode. `None` only while Gemini is not
    /// configured (the commands skip it then).
    fn target(ctx: &Ctx) -> Option<PathBuf> {
        policy_path(ctx.config, ctx.yolo)
    }

    fn unconfigured() -> Error {
        Error::Policy("targets.gemini_policy is not set in config.toml".to_string())
    }
}

/// The file's text (without its final newline) and the warnings; `~` is
/// `home`.
fn render(ctx: &Ctx, home: &Path, warnings: &mut Warnings) -> Result<String> {
    let rules = mapping::translate(ctx.rules(), ctx.yolo, home, warnings)?;
    let quoted = crate::agent::quoted_rules::quoted(ctx);
    if let Some(m) = crate::agent::quoted_rules::message("Gemini CLI", &quoted) {
        warnings.push(warning(codes::QUOTED_RULE, m));
    }
    warnings.extend(elsewhere(ctx, home).map(|m| warning(codes::POLICY_ELSEWHERE, m)));
    if ctx.yolo {
        warnings.extend(both_loaded(ctx).map(|m| warning(codes::BOTH_LOADED, m)));
    }
    warnings.extend(crate::agent::srt_keys::skipped(
        "gemini",
        ctx.compiled.srt(),
        &[
            crate::agent::srt_keys::ENV_VARS,
            crate::agent::srt_keys::STRICT_ALLOWLIST,
            crate::agent::srt_keys::DENIED_DOMAIN_REASONS,
        ],
        "Gemini CLI starts no sandbox, so nothing of its own hides a variable from its shell \
         commands or refuses a host (credential files are read denies of its file tools)",
    ));
    warnings.extend(crate::agent::srt_keys::skipped(
        "gemini",
        ctx.compiled.srt(),
        &[crate::agent::srt_keys::ALLOW_READ],
        "Gemini CLI starts no sandbox to re-open them in, and twsrt keeps its file tools' read \
         denies (stricter than srt)",
    ));
    // Last: what every Gemini run comes down to.
    warnings.push(warning(codes::NO_SANDBOX, NO_SANDBOX));
    Ok(render::file(&rules))
}

/// The policy file `generate` renders for `ctx`'s mode, loaded into
/// [`engine`], with the policy rule behind each of its `[[rule]]` tables in
/// file order (`explain` decides its Gemini row on it).
pub fn rendered_policy(ctx: &Ctx, home: &Path) -> Result<(engine::Policy, Vec<Origin>)> {
    let origins = mapping::translate(ctx.rules(), ctx.yolo, home, &mut Vec::new())?
        .into_iter()
        .map(|rule| rule.origin)
        .collect();
    let text = render(ctx, home, &mut Vec::new())?;
    let policy = engine::Policy::load(&text)
        .map_err(|e| Error::Policy(format!("the rendered Gemini policy does not load: {e}")))?;
    Ok((policy, origins))
}

/// A file outside `~/.gemini/policies` is read only when Gemini is started
/// with `--policy FILE`, which then replaces that directory
/// (`getPolicyDirectories`).
fn elsewhere(ctx: &Ctx, home: &Path) -> Option<String> {
    let path = Gemini::target(ctx)?;
    let dir = home.join(".gemini/policies");
    (path.parent() != Some(dir.as_path())).then(|| {
        format!(
            "Gemini CLI reads its user policies from {} only; it loads {} only when started \
             with `--policy {}`, which replaces that directory",
            dir.display(),
            path.display(),
            path.display()
        )
    })
}

/// Gemini loads every `.toml` file of a policy directory: with the full
/// and the yolo file side by side, the full file's ask rules apply in yolo
/// runs too (`readPolicyFiles`).
fn both_loaded(ctx: &Ctx) -> Option<String> {
    let full = ctx.config.targets.path("gemini_policy")?;
    let yolo = Gemini::target(ctx)?;
    let toml = |p: &Path| p.extension().is_some_and(|e| e == "toml");
    let same_dir = full.parent() == yolo.parent();
    (same_dir && toml(full) && toml(&yolo)).then(|| {
        format!(
            "Gemini CLI loads every .toml file in {}: while {} is there as well, its ask rules \
             apply in yolo runs too; remove the file of the mode you do not run",
            full.parent().unwrap_or(Path::new("")).display(),
            full.display()
        )
    })
}

impl Agent for Gemini {
    fn codes(&self) -> &'static [crate::diag::Code] {
        codes::ALL
    }

    fn prover(&self) -> Option<&'static dyn crate::agent::prove::Prover> {
        Some(&prove::GeminiProver)
    }

    fn name(&self) -> &'static str {
        "gemini"
    }

    fn home_dir(&self) -> Option<&'static str> {
        Some(".gemini")
    }

    fn import(&self) -> Option<&'static dyn crate::agent::import::Importer> {
        Some(&import::GeminiImport)
    }

    fn suggested_targets(&self) -> &'static [&'static str] {
        &["gemini_policy = \"~/.gemini/policies/twsrt.toml\""]
    }

    fn managed(&self) -> Option<&'static dyn crate::agent::managed::Managed> {
        Some(&admin::Layer)
    }

    fn launch(&self) -> Option<&'static dyn crate::agent::launch::Launch> {
        Some(&launch::GeminiLaunch)
    }

    fn target_keys(&self) -> &'static [TargetKey] {
        KEYS
    }

    fn target(&self, ctx: &Ctx) -> PathBuf {
        Self::target(ctx).unwrap_or_default()
    }

    fn preview(&self, ctx: &Ctx, warnings: &mut Warnings) -> Result<String> {
        render(ctx, &home_dir(), warnings)
    }

    fn stage(&self, ctx: &Ctx, plan: &mut Plan, warnings: &mut Warnings) -> Result<()> {
        stage(ctx, plan, &home_dir(), warnings)
    }

    fn diff(&self, ctx: &Ctx, warnings: &mut Warnings) -> Result<AgentDiff> {
        diff(ctx, &home_dir(), warnings)
    }

    /// The policy row, only when `gemini_policy` is set; the admin row when
    /// an admin policy is installed.
    fn explain<'a>(
        &self,
        ctx: &'a Ctx<'a>,
        places: &'a Places<'a>,
    ) -> Result<Option<Box<dyn ExplainLayers + 'a>>> {
        let configured = self.configured(ctx.config);
        Ok(explain::Layers::of(ctx, places.home, configured)
            .map(|layers| Box::new(layers) as Box<dyn ExplainLayers + 'a>))
    }

    /// The limits every Gemini run has (its matching of command text, path
    /// spellings and fetch URLs, no sandbox of its own), as the generator
    /// warns about them with `-v`.
    fn doctor_checks(&self, input: &crate::lint::Input, out: &mut Vec<crate::diag::Diagnostic>) {
        crate::agent::limits::doctor_findings(self, input, &DOCTOR_LIMITS, out);
    }
}

// The commands run with `~` as $HOME; the unit tests pass their own home.

fn stage(ctx: &Ctx, plan: &mut Plan, home: &Path, warnings: &mut Warnings) -> Result<()> {
    let path = Gemini::target(ctx).ok_or_else(Gemini::unconfigured)?;
    let text = render(ctx, home, warnings)?;
    let existing = crate::apply::read_existing_text(&path, Error::toml_not_utf8)?;
    adoption::guard(ctx, plan, &path, existing.as_deref(), &text, home)?;
    plan.write_shown(Gemini.name(), path, text, FileKind::AgentTarget);
    plan.note_after_writes(RESTART);
    Ok(())
}

fn diff(ctx: &Ctx, home: &Path, warnings: &mut Warnings) -> Result<AgentDiff> {
    let path = Gemini::target(ctx).ok_or_else(Gemini::unconfigured)?;
    let Some(on_disk) = crate::apply::read_existing_text(&path, Error::toml_not_utf8)? else {
        return Ok(AgentDiff::TargetMissing(format!(
            "gemini target file not found: {}",
            path.display()
        )));
    };
    // Warnings are only shown when the comparison itself succeeds.
    let mut found = Vec::new();
    let mut generated = render(ctx, home, &mut found)?;
    generated.push('\n');
    let differences = drift::compare(&generated, &on_disk, &path)?;
    warnings.extend(found);
    Ok(AgentDiff::Compared(differences))
}

/// A generation warning of this agent.
fn warning(code: Code, message: impl Into<String>) -> crate::diag::Diagnostic {
    crate::agent::warning("gemini", code, message)
}
