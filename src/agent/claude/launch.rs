//! Claude Code: flags that leave out the user settings twsrt writes, add a
//! settings layer above them, or change what runs without asking; and the
//! project settings files that override the policy.
//!
//! What 2.1.332 still enforces (doc/clients.md): deny rules apply in every
//! permission mode, `bypassPermissions` included, and the sandbox is a
//! setting, not a mode, so `--dangerously-skip-permissions` and
//! `--permission-mode` leave both in force; what they drop is the asking.

use std::path::PathBuf;

use serde_json::Value;

use super::layer_audit::{self, Layer as LayerKind};
use super::layers::{self, Layer, Source};
use crate::agent::launch::redact::{shown, shown_list, typed};
use crate::agent::launch::{Audit, Launch, Setting, read_optional, unreadable};
use crate::argv::{Grammar, Occurrence, Parsed};
use crate::diag::{Code, Diagnostic, Severity};
use crate::error::Result;
use crate::paths::same_file;

/// Claude Code's launch part ([`crate::agent::Agent::launch`]).
pub struct ClaudeLaunch;

impl Launch for ClaudeLaunch {
    fn binary(&self) -> &'static str {
        "claude"
    }

    fn grammar(&self) -> &'static Grammar {
        &super::grammar::CLAUDE
    }

    fn listed_at(&self) -> u8 {
        1
    }

    fn vocabulary(&self) -> &'static [&'static str] {
        // Permission modes and setting sources.
        &[
            "acceptEdits",
            "auto",
            "bypassPermissions",
            "default",
            "manual",
            "dontAsk",
            "plan",
            "user",
            "project",
            "local",
        ]
    }

    fn inputs(&self, setting: &Setting) -> Result<Box<dyn Audit>> {
        let config = setting.config;
        let anchored = config.targets.path("claude_settings").is_some();
        let loads = setting.as_on_disk && config.targets.contains("claude_settings");
        Ok(Box::new(Inputs {
            cwd: setting.cwd.clone(),
            home: setting.home.clone(),
            config_dir: layers::config_dir(&setting.home, std::env::var_os("CLAUDE_CONFIG_DIR")),
            anchor: anchored.then(|| super::anchor_path(config)),
            hook: super::hook_entry::install(&config.targets).is_some(),
            loaded: loads.then(|| super::loaded(config, setting.yolo)),
            locked: super::managed::permission_rules_locked(&setting.managed_root),
            generated: generated_keys(config, setting.yolo),
        }))
    }
}

/// What the Claude Code audit reads besides the argv.
#[derive(Debug, Default)]
pub struct Inputs {
    /// The launch directory, where `./.claude` is looked up.
    pub cwd: PathBuf,
    /// The home directory (`~/.claude` when `config_dir` is left empty).
    pub home: PathBuf,
    /// Claude Code's config directory (`$CLAUDE_CONFIG_DIR`, else
    /// `~/.claude`): its settings.json is the user layer.
    pub config_dir: PathBuf,
    /// The settings.json anchor twsrt points at its Claude settings, when
    /// `[targets] claude_settings` is set.
    pub anchor: Option<PathBuf>,
    /// twsrt installs its guard hook in the Claude settings (`[targets]
    /// claude_hook`, `true` or `"sandbox"`): a launch that skips hooks
    /// switches it off.
    pub hook: bool,
    /// The Claude settings the launch loads, against what twsrt keeps there
    /// (`audit` only: `run` writes them before it starts the agent).
    pub loaded: Option<super::Loaded>,
    /// The machine's managed settings set `allowManagedPermissionRulesOnly`:
    /// the allow rules a launch adds are inert.
    pub locked: bool,
    /// What twsrt writes into the user file that the layer checks would
    /// otherwise count as a grant (the mode's sandbox overrides).
    pub generated: serde_json::Map<String, Value>,
}

/// The mode's sandbox overrides as the user file holds them.
fn generated_keys(config: &crate::config::Config, yolo: bool) -> serde_json::Map<String, Value> {
    let sandbox = Value::Object(config.overrides(yolo).clone());
    std::iter::once(("sandbox".to_string(), sandbox)).collect()
}

impl Audit for Inputs {
    fn check(&self, parsed: &Parsed) -> Result<Vec<Diagnostic>> {
        check(parsed, self)
    }
}

fn check(parsed: &Parsed, inputs: &Inputs) -> Result<Vec<Diagnostic>> {
    let mut out = Vec::new();
    let mut project_loaded = true;
    for occ in &parsed.options {
        match occ.name {
            "--setting-sources" => {
                let list = occ.value().unwrap_or_default();
                let sources: Vec<&str> = list.split(',').map(str::trim).collect();
                if !sources.contains(&"user") {
                    out.push(Diagnostic::new(
                        Severity::Error,
                        Code::PolicySkipped,
                        format!("{}{}{}", occ.typed, occ.joiner, shown_list(list)),
                        "leaves out the user settings, where twsrt writes the policy",
                    ));
                }
                project_loaded = sources.iter().any(|s| *s == "project" || *s == "local");
            }
            "--restricted" => {
                out.push(Diagnostic::new(
                    Severity::Error,
                    Code::PolicySkipped,
                    typed(occ),
                    "ignores the user settings files, where twsrt writes the policy",
                ));
                project_loaded = false;
            }
            "--settings" => settings_flag(occ, inputs, &mut out)?,
            "--agents" => agents_flag(occ, inputs, &mut out)?,
            "--bare" | "--safe-mode" if inputs.hook => out.push(Diagnostic::new(
                Severity::Error,
                Code::HookSkipped,
                typed(occ),
                "skips the hooks of the settings files: the guard hook twsrt installs does not run",
            )),
            _ => flag_finding(occ, inputs.locked, &mut out),
        }
    }
    if let Some(loaded) = &inputs.loaded
        && let Some(why) = loaded.problem()
    {
        let anchor = loaded.anchor.display().to_string();
        out.push(Diagnostic::new(
            Severity::Error,
            Code::TargetNotLoaded,
            anchor,
            why,
        ));
    }
    for layer in layers::layers(&inputs.cwd, &config_dir(inputs)) {
        match layer.source {
            Source::User => {
                user_layer(&layer, inputs, &mut out);
                user_file(&layer, inputs, &mut out)?;
            }
            _ if project_loaded => project_file(&layer, inputs, &mut out)?,
            _ => {}
        }
    }
    Ok(out)
}

fn flag_finding(occ: &Occurrence, locked: bool, out: &mut Vec<Diagnostic>) {
    let warn = |code, why: &str| Diagnostic::new(Severity::Warning, code, typed(occ), why);
    match occ.name {
        "--dangerously-skip-permissions" => out.push(warn(
            Code::ApprovalMode,
            "runs every tool without asking; deny rules and the sandbox still apply",
        )),
        "--allow-dangerously-skip-permissions" => out.push(Diagnostic::new(
            Severity::Info,
            Code::ApprovalMode,
            typed(occ),
            "lets the session switch to bypassPermissions later",
        )),
        "--permission-mode" => {
            if let Some(why) = occ.value().and_then(mode_effect) {
                out.push(warn(Code::ApprovalMode, why));
            }
        }
        "--allowedTools" => out.push(allow_finding(
            typed(occ),
            "adds allow rules on top of the generated policy".to_string(),
            locked,
        )),
        "--add-dir" => out.push(warn(
            Code::ExtraDirectory,
            "gives the tools more directories without asking; deny rules still apply",
        )),
        "--mcp-config" => out.push(warn(
            Code::ForeignCode,
            "loads MCP servers the policy never saw",
        )),
        "--plugin-dir" | "--plugin-url" => out.push(warn(
            Code::ForeignCode,
            "loads a plugin (its hooks, commands, agents and MCP servers) the policy never saw",
        )),
        _ => {}
    }
}

/// What a permission mode drops, for the modes that run more without
/// asking than the default.
fn mode_effect(mode: &str) -> Option<&'static str> {
    match mode {
        "bypassPermissions" => {
            Some("runs every tool without asking; deny rules and the sandbox still apply")
        }
        "acceptEdits" => Some("accepts file edits without asking; deny rules still apply"),
        "auto" => Some("lets a classifier approve tool calls; deny rules still apply"),
        _ => None,
    }
}

/// `--settings FILE|JSON`: a layer above the user settings.
fn settings_flag(occ: &Occurrence, inputs: &Inputs, out: &mut Vec<Diagnostic>) -> Result<()> {
    let flag = format!("{}{}<value>", occ.typed, occ.joiner);
    let Some(value) = occ.value() else {
        return Ok(());
    };
    let doc = json_or_file(value, &flag, "settings", inputs)?;
    settings_findings(&doc, &flag, Added::Yes, inputs, out);
    Ok(())
}

/// Whether a settings document is a layer this launch adds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Added {
    /// Added by this launch (`--settings`): its allow rules, softer modes
    /// and extra directories widen the policy too.
    Yes,
    /// A project's own file: only what switches the policy off counts.
    No,
}

/// The findings of one settings document.
fn settings_findings(
    doc: &Value,
    flag: &str,
    layer: Added,
    inputs: &Inputs,
    out: &mut Vec<Diagnostic>,
) {
    let layer = layer == Added::Yes;
    let error = |code, why: &str| Diagnostic::new(Severity::Error, code, flag, why);
    if doc.pointer("/sandbox/enabled") == Some(&Value::Bool(false)) {
        out.push(error(
            Code::SandboxOff,
            "sets sandbox.enabled false: commands run outside the sandbox",
        ));
    }
    if doc.pointer("/sandbox/allowUnsandboxedCommands") == Some(&Value::Bool(true)) {
        out.push(error(
            Code::SandboxEscape,
            "sets sandbox.allowUnsandboxedCommands true: a command may ask to run outside the \
             sandbox",
        ));
    }
    if inputs.hook && doc.pointer("/disableAllHooks") == Some(&Value::Bool(true)) {
        out.push(error(
            Code::HookSkipped,
            "sets disableAllHooks true: the guard hook twsrt installs does not run",
        ));
    }
    directories_findings(doc, flag, layer, inputs, out);
    super::launch_env::findings(doc, flag, layer, out);
    let mode = doc
        .pointer("/permissions/defaultMode")
        .and_then(Value::as_str);
    if mode == Some("bypassPermissions") {
        out.push(Diagnostic::new(
            Severity::Error,
            Code::ApprovalMode,
            flag,
            "sets permissions.defaultMode bypassPermissions: nothing asks before it runs",
        ));
    } else if let Some(why) = mode.filter(|_| layer).and_then(mode_effect) {
        out.push(Diagnostic::new(
            Severity::Warning,
            Code::ApprovalMode,
            flag,
            format!(
                "sets permissions.defaultMode {}: {why}",
                shown(mode.unwrap_or_default())
            ),
        ));
    }
    let allow = doc
        .pointer("/permissions/allow")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    if layer && allow > 0 {
        out.push(allow_finding(
            flag.to_string(),
            format!("adds {allow} allow rule(s) on top of the generated policy"),
            inputs.locked,
        ));
    }
}

/// The finding of allow rules a launch adds: a warning, or only a note when
/// the machine's managed settings lock the permission rules
/// (`allowManagedPermissionRulesOnly`), which makes them inert.
fn allow_finding(location: String, what: String, locked: bool) -> Diagnostic {
    if locked {
        Diagnostic::new(
            Severity::Info,
            Code::AllowRules,
            location,
            format!(
                "{what}, but they are inert: this machine's managed settings set \
                 allowManagedPermissionRulesOnly"
            ),
        )
    } else {
        Diagnostic::new(Severity::Warning, Code::AllowRules, location, what)
    }
}

/// `permissions.additionalDirectories`: a root or the home directory opens
/// the whole tree to the tools and the sandbox's writes (an error in any
/// layer); other directories widen a layer the launch adds.
fn directories_findings(
    doc: &Value,
    flag: &str,
    layer: bool,
    inputs: &Inputs,
    out: &mut Vec<Diagnostic>,
) {
    let dirs: Vec<&str> = doc
        .pointer("/permissions/additionalDirectories")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let home = inputs.home.to_string_lossy();
    let wide = |d: &&str| {
        let d = d.trim_end_matches('/');
        d.is_empty() || d == "~" || d == "$HOME" || d == home.trim_end_matches('/')
    };
    if dirs.iter().any(wide) {
        out.push(Diagnostic::new(
            Severity::Error,
            Code::WideDirectory,
            flag,
            "sets permissions.additionalDirectories to the root or the home directory: every \
             file is in the tools' reach without asking, and writable in the sandbox",
        ));
    } else if layer && !dirs.is_empty() {
        out.push(Diagnostic::new(
            Severity::Warning,
            Code::ExtraDirectory,
            flag,
            format!(
                "adds {} directory(ies) the tools reach without asking; deny rules still apply",
                dirs.len()
            ),
        ));
    }
}

/// `--agents JSON|FILE`: custom agents; one with its own `permissionMode`
/// runs under a mode the policy did not set.
fn agents_flag(occ: &Occurrence, inputs: &Inputs, out: &mut Vec<Diagnostic>) -> Result<()> {
    let flag = format!("{}{}<value>", occ.typed, occ.joiner);
    let Some(value) = occ.value() else {
        return Ok(());
    };
    let doc = json_or_file(value, &flag, "agents", inputs)?;
    let modes = doc.as_object().map_or(0, |agents| {
        agents
            .values()
            .filter(|a| a.get("permissionMode").is_some())
            .count()
    });
    if modes > 0 {
        out.push(Diagnostic::new(
            Severity::Warning,
            Code::ApprovalMode,
            flag,
            format!(
                "defines {modes} agent(s) with their own permissionMode, which the policy did \
                 not set; deny rules and the sandbox still apply"
            ),
        ));
    }
    Ok(())
}

/// A flag's value read as inline JSON (it starts with `{`) or as the file it
/// names (relative to the working directory); `what` names it in errors.
fn json_or_file(value: &str, flag: &str, what: &str, inputs: &Inputs) -> Result<Value> {
    let text = if value.trim_start().starts_with('{') {
        value.to_string()
    } else {
        match read_optional(&inputs.cwd.join(value)) {
            Ok(Some(text)) => text,
            _ => {
                return Err(unreadable(format!(
                    "claude: {flag}: the {what} file cannot be read"
                )));
            }
        }
    };
    serde_json::from_str(crate::bom::strip(&text))
        .map_err(|_| unreadable(format!("claude: {flag}: the {what} are not valid JSON")))
}

/// The config directory: the one the inputs name, else the home's
/// `.claude` (inputs built by hand leave it empty).
fn config_dir(inputs: &Inputs) -> std::path::PathBuf {
    if inputs.config_dir.as_os_str().is_empty() {
        inputs.home.join(".claude")
    } else {
        inputs.config_dir.clone()
    }
}

/// The user settings Claude Code loads must be twsrt's anchor, or the
/// policy twsrt writes is not loaded at all.
fn user_layer(layer: &Layer, inputs: &Inputs, out: &mut Vec<Diagnostic>) {
    let Some(anchor) = &inputs.anchor else {
        return;
    };
    if !same_file(&layer.path, anchor) {
        out.push(Diagnostic::new(
            Severity::Error,
            Code::TargetNotLoaded,
            layer.shown.as_str(),
            format!(
                "Claude Code loads this file, not {} where twsrt writes the policy (set \
                 CLAUDE_CONFIG_DIR or [targets] claude_settings so they agree)",
                anchor.display()
            ),
        ));
    }
}

/// `./.claude/settings.json` or `settings.local.json`: files twsrt does not
/// own, loaded above the user settings.
fn project_file(layer: &Layer, inputs: &Inputs, out: &mut Vec<Diagnostic>) -> Result<()> {
    let path = &layer.path;
    let name = layer.shown.as_str();
    let Some(doc) = read_json(path)? else {
        return Ok(());
    };
    settings_findings(&doc, name, Added::No, inputs, out);
    let empty = serde_json::Map::new();
    layer_audit::findings(&doc, name, LayerKind::Project, &empty, inputs.locked, out);
    Ok(())
}

/// The user settings Claude Code loads (through the anchor's link): a value
/// its schema refuses, and the grants twsrt did not write.
/// What does not load twsrt's file at all is reported on its own (the
/// anchor's problem) and not read; a file that is no JSON is an error.
fn user_file(layer: &Layer, inputs: &Inputs, out: &mut Vec<Diagnostic>) -> Result<()> {
    if inputs
        .loaded
        .as_ref()
        .is_some_and(|l| l.problem().is_some())
    {
        return Ok(());
    }
    let name = layer.shown.as_str();
    let doc = match read_json(&layer.path) {
        Ok(Some(doc)) => doc,
        Ok(None) => return Ok(()),
        Err(_) => {
            out.push(Diagnostic::new(
                Severity::Error,
                Code::TargetNotLoaded,
                name,
                "is not valid JSON: Claude Code loads none of it",
            ));
            return Ok(());
        }
    };
    let generated = &inputs.generated;
    layer_audit::findings(&doc, name, LayerKind::User, generated, inputs.locked, out);
    Ok(())
}

/// A settings file's JSON, `None` when there is none; an error names the
/// file, line and column of a syntax error.
fn read_json(path: &std::path::Path) -> Result<Option<Value>> {
    let Some(text) = read_optional(path)? else {
        return Ok(None);
    };
    serde_json::from_str(crate::bom::strip(&text))
        .map(Some)
        .map_err(|e| {
            unreadable(format!(
                "{}:{}:{}: not valid JSON",
                path.display(),
                e.line(),
                e.column()
            ))
        })
}

#[cfg(test)]
mod managed_lock_tests {
    use super::*;

    #[test]
    fn allow_rules_under_a_managed_lock_are_a_note_not_a_warning() {
        let open = allow_finding("--allowedTools".into(), "adds".into(), false);
        assert_eq!(open.severity, Severity::Warning);
        assert_eq!(open.message, "adds");
        let locked = allow_finding("--allowedTools".into(), "adds".into(), true);
        assert_eq!(locked.severity, Severity::Info);
        assert!(locked.message.contains("inert"), "{}", locked.message);
        assert_eq!(locked.code, Code::AllowRules);
    }
}
