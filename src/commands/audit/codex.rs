//! Codex: what on its command line, in the profile `--profile` layers in,
//! or in a project or legacy config replaces the `default_permissions`
//! profile twsrt generates.
//!
//! Codex 0.171.0 ignores `default_permissions` when a sandbox mode is
//! selected by any layer: `--sandbox`/`-s`, `--approve-for-me` (automatic
//! review in the workspace-write sandbox),
//! `--dangerously-bypass-approvals-and-sandbox` (alias `--yolo`), `-c
//! sandbox_mode=...`, or `sandbox_mode` in a config layer.

use std::path::Path;

use toml_edit::{DocumentMut, Item};

use super::finding::{Finding, Severity, shown, typed};
use super::grammar::{Occurrence, Parsed};
use super::{Inputs, read_optional, unreadable};
use crate::error::Result;

const REPLACES: &str = "replaces the default_permissions profile twsrt generates";

pub fn check(parsed: &Parsed, inputs: &Inputs) -> Result<Vec<Finding>> {
    let mut out = Vec::new();
    for occ in &parsed.options {
        flag_findings(occ, &mut out)?;
    }
    for occ in parsed.all("--profile") {
        if let Some(name) = occ.value() {
            profile_findings(occ, name, inputs, &mut out)?;
        }
    }
    // In the home directory ./.codex/config.toml is the user config (what
    // twsrt merges into), not a project's.
    let project = inputs.cwd.join(".codex/config.toml");
    let user = [
        Some(inputs.codex_home.join("config.toml")),
        inputs.codex_target.clone(),
    ];
    if !user.iter().flatten().any(|u| same_file(u, &project)) {
        file_findings(&project, ".codex/config.toml", true, &mut out)?;
    }
    if let Some(target) = &inputs.codex_target {
        let shown_path = target.display().to_string();
        file_findings(target, &shown_path, false, &mut out)?;
    }
    Ok(out)
}

fn flag_findings(occ: &Occurrence, out: &mut Vec<Finding>) -> Result<()> {
    let error = |why: String| Finding::new(Severity::Error, typed(occ), why);
    match occ.name {
        "--sandbox" => out.push(error(format!(
            "selects Codex's own {} sandbox, which {REPLACES}",
            occ.value().map(shown).unwrap_or("<value>")
        ))),
        "--approve-for-me" => out.push(error(format!(
            "routes approvals to automatic review in the workspace-write sandbox, which {REPLACES}"
        ))),
        "--dangerously-bypass-approvals-and-sandbox" | "--yolo" => out.push(error(
            "runs every command without a sandbox and without asking: no policy applies".into(),
        )),
        "--ignore-user-config" => out.push(error(
            "does not load $CODEX_HOME/config.toml, where twsrt writes the default_permissions \
             profile: no policy applies"
                .into(),
        )),
        "--ignore-rules" => out.push(error(
            "does not load the .rules files, where twsrt writes the command rules".into(),
        )),
        "--dangerously-bypass-hook-trust" => out.push(Finding::new(
            Severity::Warning,
            typed(occ),
            "runs enabled hooks nobody trusted, code the policy never saw",
        )),
        "--trust" => out.push(Finding::new(
            Severity::Warning,
            typed(occ),
            "trusts the project for this and later sessions: its .codex config layers load and \
             its MCP commands run outside the sandbox",
        )),
        "--add-dir" => out.push(Finding::new(
            Severity::Warning,
            typed(occ),
            "adds a writable directory the policy does not name",
        )),
        "--ask-for-approval" => out.push(Finding::new(
            Severity::Warning,
            typed(occ),
            "changes when Codex asks before running a command",
        )),
        "--config" => {
            for value in &occ.values {
                config_override(occ, value, out)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// `-c key=value`: a key twsrt owns, or one that selects a sandbox.
fn config_override(occ: &Occurrence, value: &str, out: &mut Vec<Finding>) -> Result<()> {
    let Some((key, val)) = value.split_once('=') else {
        return Err(unreadable(format!("codex: {} needs key=value", occ.typed)));
    };
    let key = key.trim();
    let val = val.trim().trim_matches(['"', '\'']);
    let Some((severity, why)) = owned_key(key) else {
        return Ok(());
    };
    let flag = format!(
        "{}{}{}={}",
        occ.typed,
        occ.joiner,
        shown_key(key),
        shown(val)
    );
    out.push(Finding::new(severity, flag, why));
    Ok(())
}

/// What overriding `key` does, for the keys the audit cares about.
fn owned_key(key: &str) -> Option<(Severity, String)> {
    let unquoted: String = key.chars().filter(|c| *c != '"' && *c != '\'').collect();
    if unquoted == "sandbox_mode" || unquoted.ends_with(".sandbox_mode") {
        return Some((
            Severity::Error,
            format!("selects a sandbox mode, which {REPLACES}"),
        ));
    }
    if unquoted == "default_permissions" {
        return Some((
            Severity::Error,
            "selects another permission profile than the one twsrt generates".into(),
        ));
    }
    if unquoted == "permissions"
        || unquoted == "permissions.twsrt"
        || unquoted.starts_with("permissions.twsrt.")
    {
        return Some((
            Severity::Error,
            "overrides the permissions.twsrt profile twsrt generates".into(),
        ));
    }
    if unquoted == "profile" {
        return Some((
            Severity::Warning,
            "selects a config profile, a layer twsrt did not write".into(),
        ));
    }
    if unquoted == "approval_policy" {
        return Some((
            Severity::Warning,
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

/// The profile file `--profile NAME` layers in: `$CODEX_HOME/NAME.config.toml`
/// (a missing one is not an error to Codex, nor here).
fn profile_findings(
    occ: &Occurrence,
    name: &str,
    inputs: &Inputs,
    out: &mut Vec<Finding>,
) -> Result<()> {
    let path = inputs.codex_home.join(format!("{name}.config.toml"));
    // The name is an argv value: the path is never shown.
    let Some(doc) = read_toml(&path, "$CODEX_HOME/<value>.config.toml")? else {
        return Ok(());
    };
    let flag = format!("{}{}<value>", occ.typed, occ.joiner);
    for (key, (severity, why)) in top_keys(&doc) {
        out.push(Finding::new(
            severity,
            flag.clone(),
            format!("the profile file it selects sets {key}: {why}"),
        ));
    }
    Ok(())
}

/// The keys of a config layer that override twsrt's.
fn top_keys(doc: &DocumentMut) -> Vec<(&'static str, (Severity, String))> {
    let mut found = Vec::new();
    for key in ["sandbox_mode", "default_permissions", "approval_policy"] {
        if doc.get(key).is_some() {
            found.extend(owned_key(key).map(|f| (key, f)));
        }
    }
    if doc
        .get("permissions")
        .and_then(|p| p.get("twsrt"))
        .is_some()
    {
        found.extend(owned_key("permissions.twsrt").map(|f| ("permissions.twsrt", f)));
    }
    found
}

/// A project config (`project`: its own top-level keys count) or twsrt's
/// Codex target (only legacy `[profiles.*]` tables count: the rest is
/// twsrt's to merge).
fn file_findings(
    path: &Path,
    shown_path: &str,
    project: bool,
    out: &mut Vec<Finding>,
) -> Result<()> {
    let Some(doc) = read_toml(path, shown_path)? else {
        return Ok(());
    };
    if project {
        for (key, (severity, why)) in top_keys(&doc) {
            out.push(Finding::new(
                severity,
                shown_path,
                format!("sets {key}: {why}"),
            ));
        }
    }
    if let Some(Item::Table(profiles)) = doc.get("profiles") {
        let legacy = profiles
            .iter()
            .filter(|(_, p)| p.get("sandbox_mode").is_some())
            .count();
        if legacy > 0 {
            out.push(Finding::new(
                Severity::Error,
                shown_path,
                format!(
                    "{legacy} legacy [profiles.*] table(s) set sandbox_mode, which {REPLACES} \
                     when that profile is selected"
                ),
            ));
        }
    }
    Ok(())
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

/// Whether two paths name one file (both resolved when they exist).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}
