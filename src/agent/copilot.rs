//! Copilot CLI: it has no settings file for tool permissions, so twsrt emits
//! launch flags, one per line, each ending in ` \` to paste into a command.
//! With `[targets] copilot_settings`, the URL lists also go into Copilot's
//! own settings file ([`settings`]), which every launch reads, flags or not.
//! A denied domain without a scheme is denied twice, bare and with `http://`,
//! in the flags as in the settings file: Copilot reads a bare pattern as
//! HTTPS only (twsrt 3.3.3 emits the bare `--deny-url` alone).

pub mod codes;
mod drift;
mod explain;
mod grammar;
mod import;
pub mod launch;
mod sandbox;
mod settings;
mod shell;

use crate::diag::Code;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::agent::{Agent, AgentDiff, Ctx, Warnings};
use crate::config::TargetKey;
use crate::error::{Error, Result};
use crate::explain::ExplainLayers;
use crate::plan::{FileKind, Plan};
use crate::rules::{Action, Scope};
use crate::shellwords::single_quote;
use crate::srt::path::Places;
use drift::{compare, flag_lines};

pub struct Copilot;

/// The flags file, and the yolo mode's own one; then the settings file and
/// its yolo mode's one. The settings file needs the flags: it can hold only
/// the URL lists (Copilot's settings have no tool rules), so alone it would
/// drop every bash rule without a word.
const TARGET_KEYS: [TargetKey; 5] = [
    TargetKey::path("copilot_output"),
    TargetKey::path("copilot_output_yolo").needs("copilot_output"),
    TargetKey::path("copilot_settings").needs("copilot_output"),
    TargetKey::path("copilot_settings_yolo").needs("copilot_settings"),
    TargetKey::flag(sandbox::KEY).needs("copilot_settings"),
];

/// The tools a write permission opens, emitted once for the first allowWrite.
const WRITE_TOOLS: [&str; 4] = ["shell", "read", "edit", "write"];

impl Copilot {
    /// The flag lines, without the ` \` continuation. A value holding NUL is
    /// an error: no command line can carry it (the shell would cut the
    /// argument short, leaving a different pattern).
    fn flags(ctx: &Ctx, warnings: &mut Warnings) -> Result<Vec<String>> {
        let mut flags = Vec::new();
        if ctx.yolo {
            flags.push("--yolo".to_string());
        }
        let mut write_tools_done = false;
        let mut denied_urls = HashSet::new();
        let mut compound = Vec::new();
        for rule in ctx.rules() {
            match (rule.scope, rule.action) {
                (Scope::Write, Action::Allow) if !ctx.yolo && !write_tools_done => {
                    write_tools_done = true;
                    warnings.push(warning(
                        codes::SHELL_ALLOWED,
                        format!(
                            "allowWrite {} emits --allow-tool 'shell' (with read, edit and \
                             write), which lets Copilot run every shell command without asking; \
                             only the --deny-tool rules still stop one",
                            crate::source::quoted(rule.pattern)
                        ),
                    ));
                    for tool in WRITE_TOOLS {
                        flags.push(flag("--allow-tool", tool));
                    }
                }
                (Scope::Network, Action::Allow) if !ctx.yolo => {
                    flags.push(flag("--allow-url", rule.pattern));
                }
                (Scope::Network, Action::Deny) => {
                    // The pattern, then its http:// twin (a bare pattern is
                    // HTTPS only to Copilot); each once, as a twin may be a
                    // rule the policy lists too.
                    for value in std::iter::once(rule.pattern.to_string())
                        .chain(settings::http_twin(rule.pattern))
                    {
                        if denied_urls.insert(value.clone()) {
                            flags.push(flag("--deny-url", &value));
                        }
                    }
                }
                (Scope::Execute, Action::Ask | Action::Deny)
                    if shell::is_compound(rule.pattern)
                        && (!ctx.yolo || rule.action == Action::Deny) =>
                {
                    compound.push(crate::source::quoted(rule.pattern));
                }
                (Scope::Execute, Action::Ask) if !ctx.yolo => {
                    warnings.push(warning(
                        codes::ASK_AS_DENY,
                        format!(
                            "Copilot has no ask tier: bash ask rule {} becomes --deny-tool",
                            crate::source::quoted(rule.pattern)
                        ),
                    ));
                    flags.push(shell_flag("--deny-tool", rule.pattern));
                }
                (Scope::Execute, Action::Deny) => {
                    flags.push(shell_flag("--deny-tool", rule.pattern));
                }
                _ => {}
            }
        }
        warn_compound(&compound, warnings);
        let quoted = crate::agent::quoted_rules::quoted(ctx);
        if let Some(m) = crate::agent::quoted_rules::message("Copilot CLI", &quoted) {
            warnings.push(warning(codes::QUOTED_RULE, m));
        }
        if let Some(line) = flags.iter().find(|l| l.contains('\0')) {
            return Err(Error::Policy(format!(
                "Copilot flag {} holds a NUL character, which no command line can carry; \
                 remove it from the rule",
                line.escape_debug()
            )));
        }
        Ok(flags)
    }

    /// The generated flags as argv words (`--deny-tool`, `shell(rm)`, ...),
    /// for `twsrt run` to append to a Copilot launch.
    pub fn launch_args(ctx: &Ctx, warnings: &mut Warnings) -> Result<Vec<String>> {
        let mut words = Vec::new();
        for line in Self::flags(ctx, warnings)? {
            // Each line is a flag and its single-quoted value, which split
            // back exactly (a quote inside was written as '\'').
            let split = crate::shellwords::split(&line).map_err(|e| {
                Error::Policy(format!(
                    "Copilot flag {}: {}",
                    line.escape_debug(),
                    e.describe()
                ))
            })?;
            words.extend(split);
        }
        Ok(words)
    }

    fn render(ctx: &Ctx, warnings: &mut Warnings) -> Result<String> {
        use crate::agent::srt_keys::{DENIED_DOMAIN_REASONS, ENV_VARS, FILES, STRICT_ALLOWLIST};
        // With its command sandbox on, the credential files are deniedPaths.
        let keys: &[&str] = if ctx.config.targets.flag(sandbox::KEY) {
            &[ENV_VARS, STRICT_ALLOWLIST, DENIED_DOMAIN_REASONS]
        } else {
            &[FILES, ENV_VARS, STRICT_ALLOWLIST, DENIED_DOMAIN_REASONS]
        };
        warnings.extend(crate::agent::srt_keys::skipped(
            "copilot",
            ctx.compiled.srt(),
            keys,
            "Copilot CLI's flags and settings have no path or environment rules (but the \
             command sandbox, `copilot_sandbox = true`, for files), and no setting refuses an \
             unlisted host without asking",
        ));
        warnings.extend(crate::agent::srt_keys::skipped(
            "copilot",
            ctx.compiled.srt(),
            &[crate::agent::srt_keys::ALLOW_READ],
            "Copilot CLI's flags and command sandbox have no re-allow inside a denied path, so \
             the denied paths stay closed (stricter than srt)",
        ));
        let mut out = String::new();
        for (i, line) in Self::flags(ctx, warnings)?.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(line);
            out.push_str(" \\");
        }
        Ok(out)
    }

    /// The flags file for the mode: `copilot_output`, or in yolo mode
    /// `copilot_output_yolo` or its derived name. `None` only while Copilot
    /// is not configured (the commands skip it then).
    fn target(ctx: &Ctx) -> Option<PathBuf> {
        let targets = &ctx.config.targets;
        targets.for_mode("copilot_output", "copilot_output_yolo", ctx.yolo)
    }

    /// The settings file for the mode: `copilot_settings`, or in yolo mode
    /// `copilot_settings_yolo` or its derived name (`settings.yolo.json`).
    /// `None` when twsrt does not write Copilot's settings.
    fn settings_target(ctx: &Ctx) -> Option<PathBuf> {
        let targets = &ctx.config.targets;
        targets.for_mode("copilot_settings", "copilot_settings_yolo", ctx.yolo)
    }

    /// The preview: the flags, and with a settings file the owned keys too,
    /// each under a header naming its file.
    fn preview_text(ctx: &Ctx, flags: &str, settings: Option<(&Path, &str)>) -> String {
        let Some((path, rendered)) = settings else {
            return flags.to_string();
        };
        let flags_path = Self::target(ctx).unwrap_or_default();
        format!(
            "--- flags: {} ---\n{flags}\n--- settings: {} (managed keys) ---\n{rendered}",
            flags_path.display(),
            path.display()
        )
    }

    fn unconfigured() -> Error {
        Error::Policy("targets.copilot_output is not set in config.toml".to_string())
    }
}

/// The bash rules joining commands, which got no flag: said once.
fn warn_compound(compound: &[String], warnings: &mut Warnings) {
    if !compound.is_empty() {
        warnings.push(warning(
            codes::COMPOUND_RULE,
            format!(
                "Copilot checks each command of a list or pipeline on its own, so it cannot \
                 hold these bash rules joining commands; they are not enforced for Copilot \
                 (no --deny-tool): {}",
                compound.join(", ")
            ),
        ));
    }
}

/// `--flag 'value'`, with a single quote inside the value closed, escaped and
/// reopened (`'it'\''s'`) so no pattern can break out of its quotes. The
/// reference leaves such quotes as they are (doc/compatibility.md).
fn flag(name: &str, value: &str) -> String {
    format!("{name} {}", single_quote(value))
}

/// [`flag`] for the `shell(...)` pattern of a bash rule that joins no
/// commands ([`shell::pattern`]; the caller sets compound rules aside).
fn shell_flag(name: &str, command: &str) -> String {
    let value = shell::pattern(command).unwrap_or_else(|| format!("shell({command}:*)"));
    flag(name, &value)
}

impl Agent for Copilot {
    fn codes(&self) -> &'static [crate::diag::Code] {
        codes::ALL
    }

    fn doctor_checks(&self, input: &crate::lint::Input, out: &mut Vec<crate::diag::Diagnostic>) {
        crate::agent::limits::doctor_findings(
            self,
            input,
            &[
                Code::SrtKeySkipped,
                codes::SANDBOX_LIMIT,
                codes::COMPOUND_RULE,
            ],
            out,
        );
    }

    fn name(&self) -> &'static str {
        "copilot"
    }

    fn home_dir(&self) -> Option<&'static str> {
        Some(".copilot")
    }

    fn import(&self) -> Option<&'static dyn crate::agent::import::Importer> {
        Some(&import::CopilotImport)
    }

    fn suggested_targets(&self) -> &'static [&'static str] {
        &[
            "copilot_output = \"copilot-flags.txt\"",
            "copilot_settings = \"~/.copilot/settings.json\"",
        ]
    }

    fn launch(&self) -> Option<&'static dyn crate::agent::launch::Launch> {
        Some(&launch::CopilotLaunch)
    }

    fn target_keys(&self) -> &'static [TargetKey] {
        &TARGET_KEYS
    }

    fn target(&self, ctx: &Ctx) -> PathBuf {
        Self::target(ctx).unwrap_or_default()
    }

    fn preview(&self, ctx: &Ctx, warnings: &mut Warnings) -> Result<String> {
        let flags = Self::render(ctx, warnings)?;
        let Some(path) = Self::settings_target(ctx) else {
            return Ok(flags);
        };
        let rendered = settings::render(&settings::Lists::of(ctx, warnings));
        Ok(Self::preview_text(ctx, &flags, Some((&path, &rendered))))
    }

    fn stage(&self, ctx: &Ctx, plan: &mut Plan, warnings: &mut Warnings) -> Result<()> {
        let path = Self::target(ctx).ok_or_else(Self::unconfigured)?;
        let rendering = Self::render(ctx, warnings)?;
        let mut content = rendering.clone();
        content.push('\n');
        plan.write(path, content, FileKind::AgentTarget);
        let Some(settings_path) = Self::settings_target(ctx) else {
            plan.show_preview(self.name(), rendering);
            return Ok(());
        };
        let lists = settings::Lists::of(ctx, warnings);
        let existing = read_settings(&settings_path)?;
        let mut written = lists.clone();
        if let Some(text) = &existing {
            let kept = keep_foreign_denies(ctx, plan, text, &lists, &settings_path)?;
            written.denied.extend(kept);
        }
        let merged = settings::merge(existing.as_deref(), &written, &settings_path)?;
        if existing.as_deref() != Some(merged.as_str()) || crate::ui::verbose() {
            for entry in &written.denied[lists.denied.len()..] {
                plan.note_before_writes(format!(
                    "copilot: keeps {} {entry} in {} beside the policy's entries (twsrt did \
                     not write it, and keeping it only narrows; generate -w --drop-foreign \
                     removes it)",
                    settings::DENIED,
                    settings_path.display()
                ));
            }
        }
        plan.write(settings_path.clone(), merged, FileKind::AgentTarget);
        let rendered = settings::render(&lists);
        plan.show_preview(
            self.name(),
            Self::preview_text(ctx, &rendering, Some((&settings_path, &rendered))),
        );
        Ok(())
    }

    fn diff(&self, ctx: &Ctx, warnings: &mut Warnings) -> Result<AgentDiff> {
        let path = Self::target(ctx).ok_or_else(Self::unconfigured)?;
        let existing = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(AgentDiff::TargetMissing(format!(
                    "copilot target file not found: {}",
                    path.display()
                )));
            }
            Err(e) => return Err(Error::io(&path, e)),
        };
        let settings = match Self::settings_target(ctx) {
            None => None,
            Some(settings_path) => match read_settings(&settings_path)? {
                Some(text) => Some((settings_path, text)),
                None => {
                    return Ok(AgentDiff::TargetMissing(format!(
                        "copilot settings file not found: {}",
                        settings_path.display()
                    )));
                }
            },
        };
        let generated = Self::flags(ctx, warnings)?;
        let mut result = compare(&generated, &flag_lines(&existing));
        if let (Some((settings_path, text)), AgentDiff::Compared(differences)) =
            (settings, &mut result)
        {
            let lists = settings::Lists::of(ctx, warnings);
            differences.extend(settings::compare(&text, &lists, &settings_path)?);
        }
        Ok(result)
    }

    /// The flags row always, rendered whether or not Copilot is configured.
    fn explain<'a>(
        &self,
        ctx: &'a Ctx<'a>,
        places: &'a Places<'a>,
    ) -> Result<Option<Box<dyn ExplainLayers + 'a>>> {
        Ok(Some(Box::new(explain::Layers::of(ctx, places)?)))
    }
}

/// The `deniedUrls` entries twsrt did not write (a `copilot config
/// deniedUrls ...` of the user's) that the write would drop: returned to be
/// kept beside twsrt's, or with `--drop-foreign` recorded for the
/// `Warning:` lines and left out ([`crate::agent::record`]).
fn keep_foreign_denies(
    ctx: &Ctx,
    plan: &mut Plan,
    text: &str,
    lists: &settings::Lists,
    path: &Path,
) -> Result<Vec<String>> {
    let dropped = settings::dropped_denies(text, lists, path)?;
    if dropped.is_empty() {
        return Ok(Vec::new());
    }
    let mut ours = std::collections::HashSet::new();
    for docs in crate::agent::record::earlier_policies(ctx) {
        for doc in docs
            .iter()
            .filter(|d| d.kind == crate::source::SourceKind::Srt)
        {
            ours.extend(settings::denies_of(doc.value()));
        }
    }
    let foreign: Vec<String> = dropped
        .into_iter()
        .filter(|entry| !ours.contains(entry))
        .collect();
    if !ctx.drop_foreign {
        return Ok(foreign);
    }
    for entry in foreign {
        plan.removal(crate::plan::Removal {
            agent: "copilot",
            path: path.to_path_buf(),
            section: settings::DENIED.to_string(),
            entry,
        });
    }
    Ok(Vec::new())
}

/// The settings file's text, `None` when it does not exist.
fn read_settings(path: &Path) -> Result<Option<String>> {
    crate::apply::read_existing_text(path, Error::jsonc_not_utf8)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod launch_tests;

#[cfg(test)]
mod launch_gap_tests;

/// A generation warning of this agent.
fn warning(code: Code, message: impl Into<String>) -> crate::diag::Diagnostic {
    crate::agent::warning("copilot", code, message)
}

#[cfg(test)]
mod sandbox_tests;
