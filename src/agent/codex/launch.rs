//! Codex: what on its command line, or in a config layer the launch loads
//! (`agent::codex::layers`: the user config, `--profile` files, project
//! files from the repository root down to the `-C` directory), replaces the
//! `default_permissions` profile twsrt generates.
//!
//! Codex 0.171.0 ignores `default_permissions` when a sandbox mode is
//! selected by any layer: `--sandbox`/`-s`, `--approve-for-me` (automatic
//! review in the workspace-write sandbox),
//! `--dangerously-bypass-approvals-and-sandbox` (alias `--yolo`), `-c
//! sandbox_mode=...`, or `sandbox_mode` in a config layer.

use std::path::{Path, PathBuf};

use toml_edit::DocumentMut;

use super::layers::{self, Effect, Layer, Source};
use crate::agent::launch::redact::{shown, typed};
use crate::agent::launch::{Audit, Launch, Setting, read_optional, unreadable};
use crate::argv::{Grammar, Occurrence, Parsed};
use crate::diag::{Code, Diagnostic, Severity};
use crate::error::Result;

const REPLACES: &str = "replaces the default_permissions profile twsrt generates";

/// Codex's launch part ([`crate::agent::Agent::launch`]).
pub struct CodexLaunch;

impl Launch for CodexLaunch {
    fn binary(&self) -> &'static str {
        "codex"
    }

    fn grammar(&self) -> &'static Grammar {
        &super::grammar::CODEX
    }

    fn listed_at(&self) -> u8 {
        0
    }

    fn vocabulary(&self) -> &'static [&'static str] {
        // Sandbox modes and approval policies.
        &[
            "read-only",
            "workspace-write",
            "danger-full-access",
            "untrusted",
            "on-failure",
            "on-request",
            "never",
        ]
    }

    fn inputs(&self, setting: &Setting) -> Result<Box<dyn Audit>> {
        Ok(Box::new(Inputs {
            cwd: setting.cwd.clone(),
            codex_home: layers::codex_home(&setting.home),
            home: setting.home.clone(),
            target: setting
                .config
                .targets
                .path("codex_config")
                .map(Path::to_path_buf),
            requirements: super::requirements::installed(&setting.managed_root),
        }))
    }
}

/// What the Codex audit reads besides the argv.
#[derive(Debug, Default)]
pub struct Inputs {
    /// The launch directory, where the project layers end (before `-C`).
    pub cwd: PathBuf,
    /// `$CODEX_HOME`, else `~/.codex`: where `--profile NAME` finds
    /// `NAME.config.toml`.
    pub codex_home: PathBuf,
    /// The config.toml twsrt merges into (its legacy `[profiles.*]`).
    pub target: Option<PathBuf>,
    /// The text of the machine's installed requirements.toml, if any.
    pub requirements: Option<String>,
    /// The home directory: `--add-dir` of it (or of the root) is an error.
    pub home: PathBuf,
}

impl Audit for Inputs {
    fn check(&self, parsed: &Parsed) -> Result<Vec<Diagnostic>> {
        let mut out = Vec::new();
        for occ in &parsed.options {
            if occ.name == "--add-dir" && wide_directory(occ, self) {
                out.push(Diagnostic::new(
                    Severity::Error,
                    Code::WideDirectory,
                    typed(occ),
                    "adds the root or the home directory as writable: every file is in \
                     Codex's reach, and no profile entry protects it",
                ));
                continue;
            }
            flag_findings(occ, self.requirements.as_deref(), &mut out)?;
        }
        let launch = launch(parsed, self);
        for layer in layers::layers(&launch) {
            layer_findings(parsed, &layer, &mut out)?;
        }
        Ok(out)
    }
}

/// `--add-dir` names the root or the home directory (`~`, `$HOME`, or a
/// path that is one of them once resolved against the launch directory).
fn wide_directory(occ: &Occurrence, inputs: &Inputs) -> bool {
    let Some(value) = occ.value() else {
        return false;
    };
    let home = inputs.home.to_string_lossy();
    let expanded = match value
        .strip_prefix('~')
        .or_else(|| value.strip_prefix("$HOME"))
    {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => format!("{home}{rest}"),
        _ => value.to_string(),
    };
    let path = crate::paths::absolute_normalised(Path::new(&expanded), &inputs.cwd);
    path == Path::new("/") || path == inputs.home
}

/// The launch the argv describes: `-C`/`--cd` (the last one wins) moves the
/// working directory, `--profile` adds profile files.
fn launch(parsed: &Parsed, inputs: &Inputs) -> layers::Launch {
    let cwd = match parsed.all("--cd").last().and_then(Occurrence::value) {
        Some(dir) => inputs.cwd.join(dir),
        None => inputs.cwd.clone(),
    };
    layers::Launch {
        cwd,
        codex_home: inputs.codex_home.clone(),
        managed: inputs.target.clone(),
        profiles: parsed
            .all("--profile")
            .filter_map(|o| o.value().map(str::to_string))
            .collect(),
    }
}

/// The findings of one layer, named so that no argv value shows: a profile
/// file by its flag, a project file below `-C` as `<-C>/...`.
fn layer_findings(parsed: &Parsed, layer: &Layer, out: &mut Vec<Diagnostic>) -> Result<()> {
    let moved = parsed.all("--cd").next().is_some();
    let (name, flag) = match &layer.source {
        Source::User => ("$CODEX_HOME/config.toml".to_string(), None),
        Source::Managed => (layer.path.display().to_string(), None),
        Source::Profile(_) => {
            let occ = parsed.all("--profile").next();
            let flag = occ.map(|o| format!("{}{}<value>", o.typed, o.joiner));
            ("$CODEX_HOME/<value>.config.toml".to_string(), flag)
        }
        Source::Project { up } => {
            let prefix = if moved { "<-C>/" } else { "" };
            (
                format!("{prefix}{}.codex/config.toml", "../".repeat(*up)),
                None,
            )
        }
    };
    if layer.source == Source::Managed {
        out.push(Diagnostic::new(
            Severity::Error,
            Code::TargetNotLoaded,
            name.as_str(),
            "Codex does not load this file, where twsrt writes the profile: it reads \
             $CODEX_HOME/config.toml (set CODEX_HOME or [targets] codex_config so they agree)",
        ));
    }
    let Some(doc) = read_toml(&layer.path, &name)? else {
        return Ok(());
    };
    for o in layers::overrides(doc.as_table(), &layer.source) {
        let severity = match o.effect {
            Effect::SwitchesOff => Severity::Error,
            Effect::Widens => Severity::Warning,
        };
        let message = match &flag {
            Some(_) => format!("the profile file it selects sets {}: {}", o.key, o.why),
            None => format!("sets {}: {}", o.key, o.why),
        };
        out.push(Diagnostic::new(
            severity,
            Code::LayerOverride,
            flag.clone().unwrap_or_else(|| name.clone()),
            message,
        ));
    }
    Ok(())
}

fn flag_findings(
    occ: &Occurrence,
    requirements: Option<&str>,
    out: &mut Vec<Diagnostic>,
) -> Result<()> {
    let error = |code, why: String| Diagnostic::new(Severity::Error, code, typed(occ), why);
    let warn = |code, why: &str| Diagnostic::new(Severity::Warning, code, typed(occ), why);
    match occ.name {
        "--sandbox" => out.push(error(
            Code::SandboxReplaced,
            format!(
                "selects Codex's own {} sandbox, which {REPLACES}",
                occ.value().map(shown).unwrap_or("<value>")
            ),
        )),
        "--approve-for-me" => out.push(error(
            Code::SandboxReplaced,
            format!(
                "routes approvals to automatic review in the workspace-write sandbox, which \
                 {REPLACES}"
            ),
        )),
        "--dangerously-bypass-approvals-and-sandbox" | "--yolo" => out.push(error(
            Code::YoloFlag,
            "runs every command without a sandbox and without asking: no policy applies".into(),
        )),
        "--ignore-user-config" => out.push(error(
            Code::PolicySkipped,
            "does not load $CODEX_HOME/config.toml, where twsrt writes the default_permissions \
             profile: no policy applies"
                .into(),
        )),
        "--ignore-rules" => out.push(error(
            Code::PolicySkipped,
            "does not load the .rules files, where twsrt writes the command rules".into(),
        )),
        "--dangerously-bypass-hook-trust" => out.push(warn(
            Code::ForeignCode,
            "runs enabled hooks nobody trusted, code the policy never saw",
        )),
        "--trust" => out.push(warn(
            Code::FolderTrust,
            "trusts the project for this and later sessions: its .codex config layers load and \
             its MCP commands run outside the sandbox",
        )),
        "--add-dir" => out.push(warn(
            Code::ExtraDirectory,
            "adds a writable directory the policy does not name",
        )),
        "--ask-for-approval" => out.push(warn(
            Code::ApprovalMode,
            "changes when Codex asks before running a command",
        )),
        "--config" => {
            for value in &occ.values {
                config_override(occ, value, requirements, out)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// `-c key=value`: a key twsrt owns, or one that selects a sandbox.
fn config_override(
    occ: &Occurrence,
    value: &str,
    requirements: Option<&str>,
    out: &mut Vec<Diagnostic>,
) -> Result<()> {
    let Some((key, val)) = value.split_once('=') else {
        return Err(unreadable(format!("codex: {} needs key=value", occ.typed)));
    };
    let key = key.trim();
    let val = val.trim().trim_matches(['"', '\'']);
    let Some((severity, code, why)) = owned_key(key) else {
        return Ok(());
    };
    let (severity, why) = match refused_profile(key, val, requirements) {
        Some(note) => (Severity::Info, note),
        None => (severity, why),
    };
    let flag = format!(
        "{}{}{}={}",
        occ.typed,
        occ.joiner,
        shown_key(key),
        shown(val)
    );
    out.push(Diagnostic::new(severity, code, flag, why));
    Ok(())
}

/// `-c default_permissions=NAME` that this machine's requirements.toml
/// (its text, `requirements`) does not allow: Codex refuses it and keeps
/// the required profile, so the flag cannot widen anything (a note, not an
/// error).
fn refused_profile(key: &str, value: &str, requirements: Option<&str>) -> Option<String> {
    let unquoted: String = key.chars().filter(|c| *c != '"' && *c != '\'').collect();
    if unquoted != "default_permissions"
        || super::requirements::allows_profile(requirements?, value)?
    {
        return None;
    }
    Some(format!(
        "selects the permission profile {}, which this machine's requirements.toml does not \
         allow: Codex keeps the required profile",
        shown(value)
    ))
}

/// What overriding `key` does, for the keys the audit cares about.
fn owned_key(key: &str) -> Option<(Severity, Code, String)> {
    let unquoted: String = key.chars().filter(|c| *c != '"' && *c != '\'').collect();
    if unquoted == "sandbox_mode" || unquoted.ends_with(".sandbox_mode") {
        return Some((
            Severity::Error,
            Code::SandboxReplaced,
            format!("selects a sandbox mode, which {REPLACES}"),
        ));
    }
    if unquoted == "default_permissions" {
        return Some((
            Severity::Error,
            Code::ProfileReplaced,
            "selects another permission profile than the one twsrt generates".into(),
        ));
    }
    if unquoted == "permissions"
        || unquoted == "permissions.twsrt"
        || unquoted.starts_with("permissions.twsrt.")
    {
        return Some((
            Severity::Error,
            Code::ProfileReplaced,
            "overrides the permissions.twsrt profile twsrt generates".into(),
        ));
    }
    if unquoted == "profile" {
        return Some((
            Severity::Warning,
            Code::ConfigProfile,
            "selects a config profile, a layer twsrt did not write".into(),
        ));
    }
    if unquoted == "approval_policy" {
        return Some((
            Severity::Warning,
            Code::ApprovalMode,
            "changes when Codex asks before running a command".into(),
        ));
    }
    None
}

/// A key as shown in a finding: the owned prefix, never a path below it.
fn shown_key(key: &str) -> &str {
    let unquoted: String = key.chars().filter(|c| *c != '"' && *c != '\'').collect();
    match unquoted.as_str() {
        "sandbox_mode" => "sandbox_mode",
        "default_permissions" => "default_permissions",
        "approval_policy" => "approval_policy",
        "profile" => "profile",
        "permissions" => "permissions",
        k if k.starts_with("permissions.") => "permissions.twsrt.<key>",
        _ => "<key>.sandbox_mode",
    }
}

/// The TOML document at `path`, `None` if there is none; `shown` names it
/// in the error.
fn read_toml(path: &Path, shown: &str) -> Result<Option<DocumentMut>> {
    let text = read_optional(path).map_err(|_| unreadable(format!("{shown}: cannot be read")))?;
    let Some(text) = text else {
        return Ok(None);
    };
    text.parse::<DocumentMut>()
        .map(Some)
        .map_err(|e| unreadable(format!("{shown}: not valid TOML: {}", e.message())))
}
