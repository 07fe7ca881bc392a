//! Gemini CLI 0.61.0: what on its command line, in its environment or in
//! its settings and policy files keeps twsrt's policy file from loading,
//! puts rules above it, or runs more without asking (doc/clients.md,
//! "Gemini CLI: launch options", cites the shipped code for each).
//!
//! twsrt's rules sit in Gemini's user tier at priority 999 (deny) and
//! [`ASK_PRIORITY`] (ask_user), that is 4.999 and 4.998 after Gemini's tier
//! scaling. Every
//! approval mode keeps them: yolo's allow-all is a default-tier rule
//! (1.998) and auto_edit only skips the asking of edit and fetch tools.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::ASK_PRIORITY;
pub use super::launch_env::GeminiEnv;
use super::launch_files::{Layer, allow_rules, allow_rules_under, layer, resolve, strings};
use crate::agent::launch::redact::{shown, typed};
use crate::agent::launch::{Audit, Launch, Setting};
use crate::argv::{Grammar, Occurrence, Parsed};
use crate::config::Config;
use crate::diag::{Code, Diagnostic, Severity};
use crate::error::Result;
use crate::paths::same_file;

/// An allow rule at this TOML priority or above in twsrt's tier ties or
/// beats twsrt's ask_user ([`ASK_PRIORITY`]) and deny rules.
const TIES_TWSRT: i64 = ASK_PRIORITY as i64;

/// Gemini CLI's launch part ([`crate::agent::Agent::launch`]).
pub struct GeminiLaunch;

impl Launch for GeminiLaunch {
    fn binary(&self) -> &'static str {
        "gemini"
    }

    fn grammar(&self) -> &'static Grammar {
        &super::grammar::GEMINI
    }

    fn listed_at(&self) -> u8 {
        3
    }

    fn vocabulary(&self) -> &'static [&'static str] {
        // Approval modes.
        &["default", "auto_edit", "yolo", "plan"]
    }

    fn inputs(&self, setting: &Setting) -> Result<Box<dyn Audit>> {
        let (policy, owned) = targets(setting.config, setting.yolo);
        Ok(Box::new(Inputs {
            cwd: setting.cwd.clone(),
            home: setting.home.clone(),
            policy,
            owned,
            env: GeminiEnv::from_env(),
        }))
    }
}

/// What the Gemini audit reads besides the argv.
#[derive(Debug, Default)]
pub struct Inputs {
    /// The launch directory (the project layer, relative policy paths).
    pub cwd: PathBuf,
    /// The home directory (Gemini's, unless `$GEMINI_CLI_HOME` moves it).
    pub home: PathBuf,
    /// The policy file twsrt writes for this mode (`[targets]
    /// gemini_policy`, in yolo mode `gemini_policy_yolo` or its derived
    /// name).
    pub policy: Option<PathBuf>,
    /// Both of twsrt's policy files (full and yolo): twsrt's own, wherever
    /// a policy directory holds them.
    pub owned: Vec<PathBuf>,
    /// What Gemini CLI reads from its environment.
    pub env: GeminiEnv,
}

impl Audit for Inputs {
    fn check(&self, parsed: &Parsed) -> Result<Vec<Diagnostic>> {
        check(parsed, self)
    }
}

/// twsrt's policy file for the mode, and both files, as the Gemini agent
/// names them (the yolo file defaults to the full one's yolo variant).
fn targets(config: &Config, yolo: bool) -> (Option<PathBuf>, Vec<PathBuf>) {
    let (Some(full), Some(yolo_file)) = (
        super::policy_path(config, false),
        super::policy_path(config, true),
    ) else {
        return (None, Vec::new());
    };
    let in_force = if yolo { &yolo_file } else { &full };
    (Some(in_force.clone()), vec![full, yolo_file])
}

fn check(parsed: &Parsed, inputs: &Inputs) -> Result<Vec<Diagnostic>> {
    let gemini_home = inputs.env.cli_home.clone().unwrap_or(inputs.home.clone());
    let mut out = Vec::new();
    for occ in &parsed.options {
        flag_finding(occ, &mut out);
    }
    let layers = layers(inputs, &gemini_home)?;
    // Gemini joins every occurrence into one list (a yargs array).
    for name in ["--policy", "--admin-policy"] {
        let Some(first) = parsed.all(name).next() else {
            continue;
        };
        let label = format!("{}{}<value>", first.typed, first.joiner);
        let values: Vec<String> = parsed.all(name).flat_map(|o| o.values.clone()).collect();
        if name == "--policy" {
            user_paths(&values, &label, "", inputs, &gemini_home, &mut out)?;
        } else {
            admin_paths(&values, &label, inputs, &gemini_home, &mut out)?;
        }
    }
    settings_findings(parsed, &layers, inputs, &gemini_home, &mut out)?;
    sandbox_findings(parsed, &layers, inputs, &mut out);
    let named = named_by_policy_paths(parsed, &layers, inputs, &gemini_home);
    target_findings(inputs, &gemini_home, named, &mut out)?;
    Ok(out)
}

/// Whether `--policy` (or, without it, a `policyPaths` setting) names
/// twsrt's file or directory: Gemini then loads it wherever it is.
fn named_by_policy_paths(
    parsed: &Parsed,
    layers: &[Layer],
    inputs: &Inputs,
    gemini_home: &Path,
) -> bool {
    let flag: Vec<String> = parsed
        .all("--policy")
        .flat_map(|o| o.values.clone())
        .collect();
    let lists: Vec<Vec<String>> = if flag.is_empty() {
        layers
            .iter()
            .map(|l| strings(&l.doc, "/policyPaths"))
            .collect()
    } else {
        vec![flag]
    };
    lists.iter().any(|values| {
        comma_split(values).any(|v| names_twsrt(&resolve(v, gemini_home, &inputs.cwd), inputs))
    })
}

fn flag_finding(occ: &Occurrence, out: &mut Vec<Diagnostic>) {
    let warn = |code, why: &str| Diagnostic::new(Severity::Warning, code, typed(occ), why);
    match occ.name {
        "--yolo" if occ.on() => out.push(warn(Code::ApprovalMode, YOLO)),
        "--approval-mode" => match occ.value() {
            Some("yolo") => out.push(warn(Code::ApprovalMode, YOLO)),
            Some("auto_edit") => out.push(warn(Code::ApprovalMode, AUTO_EDIT)),
            _ => {}
        },
        "--allowed-tools" => out.push(warn(
            Code::AllowRules,
            "runs the named tools without asking where no deny or ask_user rule matches \
             (priority 4.3, below twsrt's rules)",
        )),
        "--allowed-mcp-server-names" => out.push(warn(
            Code::AllowRules,
            "runs the named MCP servers' tools without asking where no deny or ask_user rule \
             matches",
        )),
        "--extensions" if !comma_split(&occ.values).all(|v| v.eq_ignore_ascii_case("none")) => {
            out.push(warn(
                Code::ForeignCode,
                "enables the named extensions, even ones the user disabled: their MCP servers, \
                 tools, hooks and policy rules are code the policy never saw",
            ));
        }
        "--include-directories" => out.push(warn(
            Code::ExtraDirectory,
            "adds directories to the workspace the file tools work in; deny rules still apply",
        )),
        "--skip-trust" if occ.on() => out.push(warn(
            Code::FolderTrust,
            "trusts the folder for this session: its .gemini/settings.json loads, and yolo or \
             auto_edit take effect",
        )),
        _ => {}
    }
}

const YOLO: &str = "runs every tool call no rule matches without asking (the yolo allow-all \
                    is a default-tier rule); twsrt's deny and ask_user rules still apply";
const AUTO_EDIT: &str = "runs file edits and web fetches without asking, even where an \
                         ask_user rule matches; deny rules still apply";
const REPLACES: &str = "replaces Gemini's user policy directory, so twsrt's policy file is not \
                        loaded";

/// Whether a policy path Gemini loads is twsrt's file or its directory.
fn names_twsrt(path: &Path, inputs: &Inputs) -> bool {
    inputs.policy.iter().any(|target| {
        same_file(path, target) || target.parent().is_some_and(|dir| same_file(path, dir))
    })
}

/// Policy paths that replace the user directory `~/.gemini/policies`
/// (`--policy` or the `policyPaths` setting, getPolicyDirectories; `what`
/// prefixes the message).
fn user_paths(
    values: &[String],
    label: &str,
    what: &str,
    inputs: &Inputs,
    gemini_home: &Path,
    out: &mut Vec<Diagnostic>,
) -> Result<()> {
    let paths: Vec<PathBuf> = comma_split(values)
        .map(|v| resolve(v, gemini_home, &inputs.cwd))
        .collect();
    if !paths.iter().any(|p| names_twsrt(p, inputs)) {
        out.push(Diagnostic::new(
            Severity::Error,
            Code::PolicySkipped,
            label,
            format!("{what}{REPLACES}"),
        ));
        return Ok(());
    }
    let mut allows = 0;
    for path in paths.iter().filter(|p| !names_twsrt(p, inputs)) {
        allows += allow_rules_under(path, label, TIES_TWSRT)?;
    }
    if allows > 0 {
        out.push(Diagnostic::new(
            Severity::Warning,
            Code::OutrankingRules,
            label,
            format!(
                "{what}loads {allows} allow rule(s) of priority {ASK_PRIORITY} or more in \
                 twsrt's tier, where they can win over its deny or ask_user rules"
            ),
        ));
    }
    Ok(())
}

/// Admin-tier policy paths (`--admin-policy`, `adminPolicyPaths`): every
/// allow rule in them is above twsrt's tier.
fn admin_paths(
    values: &[String],
    label: &str,
    inputs: &Inputs,
    gemini_home: &Path,
    out: &mut Vec<Diagnostic>,
) -> Result<()> {
    let mut allows = 0;
    for value in comma_split(values) {
        let path = resolve(value, gemini_home, &inputs.cwd);
        allows += allow_rules_under(&path, label, 0)?;
    }
    if allows > 0 {
        out.push(Diagnostic::new(
            Severity::Error,
            Code::OutrankingRules,
            label,
            format!(
                "loads {allows} allow rule(s) at the admin tier, above twsrt's rules: they \
                 override its deny rules"
            ),
        ));
    }
    Ok(())
}

/// Gemini splits each list value at commas (coerceCommaSeparated).
fn comma_split(values: &[String]) -> impl Iterator<Item = &str> {
    values
        .iter()
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|v| !v.is_empty())
}

/// The settings layers that exist, lowest precedence first: system
/// defaults, user, project (not in Gemini's home), system.
fn layers(inputs: &Inputs, gemini_home: &Path) -> Result<Vec<Layer>> {
    let mut out = Vec::new();
    let mut system = inputs.env.system_files.iter();
    if let Some((path, label)) = system.next() {
        out.extend(layer(path, label.clone(), false)?);
    }
    let user = gemini_home.join(".gemini/settings.json");
    out.extend(layer(&user, "~/.gemini/settings.json".into(), false)?);
    let at_home = [gemini_home, inputs.home.as_path()]
        .iter()
        .any(|h| same_file(&inputs.cwd, h));
    if !at_home {
        let project = inputs.cwd.join(".gemini/settings.json");
        out.extend(layer(&project, ".gemini/settings.json".into(), true)?);
    }
    for (path, label) in system {
        out.extend(layer(path, label.clone(), false)?);
    }
    Ok(out)
}

/// The settings keys that matter, each unless a flag overrides it.
fn settings_findings(
    parsed: &Parsed,
    layers: &[Layer],
    inputs: &Inputs,
    gemini_home: &Path,
    out: &mut Vec<Diagnostic>,
) -> Result<()> {
    let flag = |name: &str| parsed.all(name).next().is_some();
    let mode_flag = flag("--approval-mode") || parsed.all("--yolo").any(Occurrence::on);
    for l in layers {
        let warn =
            |code, why: String| Diagnostic::new(Severity::Warning, code, l.label.clone(), why);
        let policy = strings(&l.doc, "/policyPaths");
        if !policy.is_empty() && !flag("--policy") {
            user_paths(
                &policy,
                &l.label,
                "sets policyPaths, which ",
                inputs,
                gemini_home,
                out,
            )?;
        }
        let admin = strings(&l.doc, "/adminPolicyPaths");
        if !admin.is_empty() && !flag("--admin-policy") {
            admin_paths(&admin, &l.label, inputs, gemini_home, out)?;
        }
        if !strings(&l.doc, "/tools/allowed").is_empty() && !flag("--allowed-tools") {
            out.push(warn(
                Code::AllowRules,
                "sets tools.allowed: those tools run without asking where no deny or ask_user \
                 rule matches"
                    .into(),
            ));
        }
        if !strings(&l.doc, "/tools/core").is_empty() {
            // An allowlist, but its tools become allow rules at 4.25
            // (doc/clients.md, "Gemini CLI: launch options"): they no
            // longer ask either.
            out.push(warn(
                Code::AllowRules,
                "sets tools.core: those tools run without asking where no deny or ask_user rule \
                 matches (every other tool is denied)"
                    .into(),
            ));
        }
        mcp_findings(l, flag("--allowed-mcp-server-names"), out);
        let mode = l.doc.pointer("/general/defaultApprovalMode");
        if mode.and_then(Value::as_str) == Some("auto_edit") && !mode_flag {
            out.push(warn(
                Code::ApprovalMode,
                format!("sets general.defaultApprovalMode auto_edit: {AUTO_EDIT}"),
            ));
        }
        let trust = l.doc.pointer("/security/folderTrust/enabled");
        if trust == Some(&Value::Bool(false)) && !l.project {
            out.push(warn(
                Code::FolderTrust,
                "sets security.folderTrust.enabled false: every folder is trusted, so a \
                 project's .gemini/settings.json loads"
                    .into(),
            ));
        }
    }
    Ok(())
}

/// MCP servers whose tools run without asking: `mcp.allowed` (unless the
/// flag replaces it) at 4.1 and `mcpServers.NAME.trust` at 4.2
/// (createPolicyEngineConfig), both below twsrt's rules.
fn mcp_findings(l: &Layer, flag: bool, out: &mut Vec<Diagnostic>) {
    if !strings(&l.doc, "/mcp/allowed").is_empty() && !flag {
        out.push(Diagnostic::new(
            Severity::Warning,
            Code::AllowRules,
            l.label.clone(),
            "sets mcp.allowed: those MCP servers' tools run without asking where no deny or \
             ask_user rule matches",
        ));
    }
    let trusted = l
        .doc
        .pointer("/mcpServers")
        .and_then(Value::as_object)
        .map_or(0, |servers| {
            servers
                .values()
                .filter(|s| s.get("trust") == Some(&Value::Bool(true)))
                .count()
        });
    if trusted > 0 {
        out.push(Diagnostic::new(
            Severity::Warning,
            Code::AllowRules,
            l.label.clone(),
            format!(
                "trusts {trusted} MCP server(s): their tools run without asking where no deny \
                 or ask_user rule matches"
            ),
        ));
    }
}

/// The sandbox Gemini starts: `$GEMINI_SANDBOX` above the last `-s`, above
/// `tools.sandbox` of the highest settings layer (getSandboxCommand and
/// loadSandboxConfig).
fn sandbox_findings(parsed: &Parsed, layers: &[Layer], inputs: &Inputs, out: &mut Vec<Diagnostic>) {
    if inputs.env.in_sandbox {
        return;
    }
    if let Some(value) = &inputs.env.sandbox {
        if let Some((severity, why)) = sandbox_effect(value) {
            out.push(Diagnostic::new(
                severity,
                Code::AgentSandbox,
                "GEMINI_SANDBOX",
                why,
            ));
        }
        return;
    }
    if let Some(occ) = parsed.all("--sandbox").last() {
        if let Some((severity, why)) = occ.on().then(|| sandbox_effect("true")).flatten() {
            out.push(Diagnostic::new(
                severity,
                Code::AgentSandbox,
                typed(occ),
                why,
            ));
        }
        return;
    }
    let setting = layers.iter().rev().find_map(|l| {
        let value = l.doc.pointer("/tools/sandbox")?;
        let command = match value {
            Value::Bool(b) => b.to_string(),
            Value::String(s) => s.clone(),
            Value::Object(o) if o.get("enabled") == Some(&Value::Bool(true)) => o
                .get("command")
                .and_then(Value::as_str)
                .unwrap_or("true")
                .to_string(),
            _ => return None,
        };
        Some((l, command))
    });
    if let Some((l, command)) = setting
        && let Some((severity, why)) = sandbox_effect(&command)
    {
        out.push(Diagnostic::new(
            severity,
            Code::AgentSandbox,
            l.label.clone(),
            format!("sets tools.sandbox: {why}"),
        ));
    }
}

/// What a sandbox value starts: none, macOS Seatbelt (same HOME, the
/// policy file loads), or a container whose `~/.gemini` holds only a copy of
/// settings.json (start_sandbox).
fn sandbox_effect(value: &str) -> Option<(Severity, String)> {
    let command = match value {
        "" | "0" | "false" => return None,
        "1" | "true" if cfg!(target_os = "macos") => "sandbox-exec",
        "1" | "true" => "docker or podman",
        other => other,
    };
    if command == "sandbox-exec" {
        return Some((
            Severity::Info,
            "runs Gemini under its macOS Seatbelt profile; the policy file still loads".into(),
        ));
    }
    Some((
        Severity::Error,
        format!(
            "starts Gemini in a {} container whose ~/.gemini holds only a copy of \
             settings.json: twsrt's policy file is not loaded there",
            shown_command(command)
        ),
    ))
}

fn shown_command(command: &str) -> &str {
    match command {
        "docker" | "podman" | "runsc" | "lxc" | "docker or podman" => command,
        other => shown(other),
    }
}

/// twsrt's policy file where Gemini looks for user policies, a regular
/// file, and the other files of that directory.
fn target_findings(
    inputs: &Inputs,
    gemini_home: &Path,
    named: bool,
    out: &mut Vec<Diagnostic>,
) -> Result<()> {
    let Some(target) = &inputs.policy else {
        return Ok(());
    };
    let shown_target = target.display().to_string();
    let user_dir = gemini_home.join(".gemini/policies");
    let in_user_dir = target.parent().is_some_and(|d| same_file(d, &user_dir));
    if !in_user_dir && !named {
        let (flag, why) = match &inputs.env.cli_home {
            Some(_) => (
                "GEMINI_CLI_HOME",
                "Gemini loads user policies from $GEMINI_CLI_HOME/.gemini/policies, not from the \
                 directory of twsrt's policy file"
                    .to_string(),
            ),
            None => (
                shown_target.as_str(),
                "is not in ~/.gemini/policies, the only user policy directory Gemini loads"
                    .to_string(),
            ),
        };
        out.push(Diagnostic::new(
            Severity::Error,
            Code::TargetNotLoaded,
            flag,
            why,
        ));
        return Ok(());
    }
    if !in_user_dir {
        return Ok(());
    }
    let link = std::fs::symlink_metadata(target).is_ok_and(|m| m.file_type().is_symlink());
    if link {
        out.push(Diagnostic::new(
            Severity::Error,
            Code::TargetNotLoaded,
            shown_target.as_str(),
            "is a symbolic link: Gemini loads only regular files from a policy directory",
        ));
    }
    for file in super::launch_files::policy_files(&user_dir, "~/.gemini/policies")? {
        let own = (inputs.owned.iter()).chain(Some(target));
        if own.into_iter().any(|o| same_file(&file, o)) {
            continue;
        }
        let shown_file = file.display().to_string();
        let allows = allow_rules(&file, &shown_file, TIES_TWSRT)?;
        if allows > 0 {
            out.push(Diagnostic::new(
                Severity::Warning,
                Code::OutrankingRules,
                shown_file,
                format!(
                    "{allows} allow rule(s) of priority {ASK_PRIORITY} or more sit in twsrt's \
                     tier, where they can win over its deny or ask_user rules"
                ),
            ));
        }
    }
    Ok(())
}
