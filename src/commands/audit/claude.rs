//! Claude Code: flags that leave out the user settings twsrt writes, add a
//! settings layer above them, or change what runs without asking; and the
//! project settings files that override the policy.
//!
//! What 2.1.332 still enforces (doc/clients.md): deny rules apply in every
//! permission mode, `bypassPermissions` included, and the sandbox is a
//! setting, not a mode, so `--dangerously-skip-permissions` and
//! `--permission-mode` leave both in force; what they drop is the asking.

use serde_json::Value;

use super::finding::{Finding, Severity, shown, shown_list, typed};
use super::grammar::{Occurrence, Parsed};
use super::{Inputs, read_optional, unreadable};
use crate::error::Result;

pub fn check(parsed: &Parsed, inputs: &Inputs) -> Result<Vec<Finding>> {
    let mut out = Vec::new();
    let mut project_loaded = true;
    for occ in &parsed.options {
        match occ.name {
            "--setting-sources" => {
                let list = occ.value().unwrap_or_default();
                let sources: Vec<&str> = list.split(',').map(str::trim).collect();
                if !sources.contains(&"user") {
                    out.push(Finding::new(
                        Severity::Error,
                        format!("{}{}{}", occ.typed, occ.joiner, shown_list(list)),
                        "leaves out the user settings, where twsrt writes the policy",
                    ));
                }
                project_loaded = sources.iter().any(|s| *s == "project" || *s == "local");
            }
            "--restricted" => {
                out.push(Finding::new(
                    Severity::Error,
                    typed(occ),
                    "ignores the user settings files, where twsrt writes the policy",
                ));
                project_loaded = false;
            }
            "--settings" => settings_flag(occ, inputs, &mut out)?,
            _ => flag_finding(occ, &mut out),
        }
    }
    if let Some(loaded) = &inputs.claude_loaded
        && let Some(why) = loaded.problem()
    {
        let anchor = loaded.anchor.display().to_string();
        out.push(Finding::new(Severity::Error, anchor, why));
    }
    let in_home = super::codex::same_file(&inputs.cwd, &inputs.home);
    if project_loaded && !in_home {
        for name in [".claude/settings.json", ".claude/settings.local.json"] {
            project_file(inputs, name, &mut out)?;
        }
    }
    Ok(out)
}

fn flag_finding(occ: &Occurrence, out: &mut Vec<Finding>) {
    let warn = |why: &str| Finding::new(Severity::Warning, typed(occ), why);
    match occ.name {
        "--dangerously-skip-permissions" => out.push(warn(
            "runs every tool without asking; deny rules and the sandbox still apply",
        )),
        "--allow-dangerously-skip-permissions" => out.push(Finding::new(
            Severity::Info,
            typed(occ),
            "lets the session switch to bypassPermissions later",
        )),
        "--permission-mode" => {
            if let Some(why) = occ.value().and_then(mode_effect) {
                out.push(warn(why));
            }
        }
        "--allowedTools" => out.push(warn("adds allow rules on top of the generated policy")),
        "--add-dir" => out.push(warn(
            "gives the tools more directories without asking; deny rules still apply",
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
fn settings_flag(occ: &Occurrence, inputs: &Inputs, out: &mut Vec<Finding>) -> Result<()> {
    let flag = format!("{}{}<value>", occ.typed, occ.joiner);
    let Some(value) = occ.value() else {
        return Ok(());
    };
    let text = if value.trim_start().starts_with('{') {
        value.to_string()
    } else {
        let path = inputs.cwd.join(value);
        match read_optional(&path) {
            Ok(Some(text)) => text,
            _ => {
                return Err(unreadable(format!(
                    "claude: {flag}: the settings file cannot be read"
                )));
            }
        }
    };
    let doc: Value = serde_json::from_str(&text)
        .map_err(|_| unreadable(format!("claude: {flag}: the settings are not valid JSON")))?;
    settings_findings(&doc, &flag, true, out);
    Ok(())
}

/// The findings of one settings document; `layer` adds the checks that
/// only a layer the launch adds gets (allow rules, the softer modes).
fn settings_findings(doc: &Value, flag: &str, layer: bool, out: &mut Vec<Finding>) {
    if doc.pointer("/sandbox/enabled") == Some(&Value::Bool(false)) {
        out.push(Finding::new(
            Severity::Error,
            flag,
            "sets sandbox.enabled false: commands run outside the sandbox",
        ));
    }
    let mode = doc
        .pointer("/permissions/defaultMode")
        .and_then(Value::as_str);
    if mode == Some("bypassPermissions") {
        out.push(Finding::new(
            Severity::Error,
            flag,
            "sets permissions.defaultMode bypassPermissions: nothing asks before it runs",
        ));
    } else if let Some(why) = mode.filter(|_| layer).and_then(mode_effect) {
        out.push(Finding::new(
            Severity::Warning,
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
        out.push(Finding::new(
            Severity::Warning,
            flag,
            format!("adds {allow} allow rule(s) on top of the generated policy"),
        ));
    }
}

/// `./.claude/settings.json` or `settings.local.json`: files twsrt does not
/// own, loaded above the user settings.
fn project_file(inputs: &Inputs, name: &str, out: &mut Vec<Finding>) -> Result<()> {
    let path = inputs.cwd.join(name);
    let Some(text) = read_optional(&path)? else {
        return Ok(());
    };
    let doc: Value = serde_json::from_str(&text).map_err(|e| {
        unreadable(format!(
            "{}:{}:{}: not valid JSON",
            path.display(),
            e.line(),
            e.column()
        ))
    })?;
    settings_findings(&doc, name, false, out);
    Ok(())
}
