//! The one `hooks.PreToolUse` entry twsrt owns when `[targets]
//! claude_hook = true` or `"sandbox"`: it runs `twsrt -c <config> hook
//! claude` (plus `--sandbox` for `"sandbox"`, and `--yolo` in the yolo
//! file) before every Bash and file tool call. The
//! entry is recognised again by its command (the `twsrt` program with the
//! words `hook claude`), so a moved binary or config is replaced, not
//! duplicated; every other hook stays as it is.

use std::path::Path;

use serde_json::{Map, Value, json};

use crate::config::{Config, Targets};
use crate::error::{Error, Result};
use crate::paths::absolute_normalised;
use crate::shellwords::quote;

/// The tools the guard decides for (a regular expression to Claude Code:
/// `mcp__.*` is every MCP tool).
pub const MATCHER: &str = "Bash|Read|Grep|Glob|Edit|Write|MultiEdit|NotebookEdit|LS|mcp__.*";

/// The `[targets]` key that installs the guard hook, and the word that
/// turns its sandbox mode on.
pub const HOOK_KEY: &str = "claude_hook";
pub const WORD: &str = "sandbox";
/// The word that keeps the hook to its analysis (no srt).
pub const ANALYSIS: &str = "analysis";

/// How `[targets] claude_hook` installs the hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Install {
    /// `true`: the hook's sandbox mode wherever srt is usable when it
    /// runs, else its analysis alone.
    Check,
    /// `"sandbox"`: the sandbox mode; without a usable srt an ask's reason
    /// says why.
    Sandbox,
    /// `"analysis"`: the hook answers pass, ask or deny, never srt.
    Analysis,
}

/// The hook `targets` configures, if any.
pub fn install(targets: &Targets) -> Option<Install> {
    if targets.flag(HOOK_KEY) {
        Some(Install::Check)
    } else if targets.word(HOOK_KEY) == Some(WORD) {
        Some(Install::Sandbox)
    } else if targets.word(HOOK_KEY) == Some(ANALYSIS) {
        Some(Install::Analysis)
    } else {
        None
    }
}

/// The generated `hooks` object, or `None` when the hook is not configured.
pub fn generated(config: &Config, yolo: bool) -> Option<Value> {
    let install = install(&config.targets)?;
    let cwd = std::env::current_dir().unwrap_or_default();
    let exe = program().unwrap_or_else(|| "twsrt".into());
    let config_path = absolute_normalised(&config.path, &cwd);
    let mut command = format!(
        "{} -c {} hook claude",
        quote(&exe.to_string_lossy()),
        quote(&config_path.to_string_lossy())
    );
    match install {
        Install::Sandbox => command.push_str(" --sandbox"),
        Install::Analysis => command.push_str(" --analysis"),
        Install::Check => {}
    }
    if yolo {
        command.push_str(" --yolo");
    }
    Some(json!({ "PreToolUse": [entry(&command)] }))
}

/// The program the generated entry runs: the running twsrt.
pub fn program() -> Option<std::path::PathBuf> {
    std::env::current_exe().ok()
}

/// `onFailure: "block"`: Claude Code 2.1.332 blocks the tool call when the
/// hook cannot start, times out, exits other than 0 or 2, or prints JSON
/// it rejects; without it every such failure lets the call go ahead.
fn entry(command: &str) -> Value {
    json!({
        "matcher": MATCHER,
        "hooks": [{ "type": "command", "command": command, "onFailure": ON_FAILURE }],
    })
}

const ON_FAILURE: &str = "block";

/// Whether a `PreToolUse` entry is twsrt's: one of its commands runs a
/// program named `twsrt` with the words `hook claude`.
pub fn is_ours(entry: &Value) -> bool {
    let commands = entry
        .get("hooks")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|h| h.get("command").and_then(Value::as_str));
    commands.into_iter().any(|command| {
        let Ok(words) = crate::shellwords::split(command) else {
            return false;
        };
        let program = words.first().map(|w| w.rsplit('/').next().unwrap_or(w));
        program == Some("twsrt") && words.windows(2).any(|w| w == ["hook", "claude"])
    })
}

/// Put the generated entry into `hooks` (the settings' `hooks` object):
/// twsrt's entries are replaced by it, at the place of the first one, or
/// appended.
pub fn place(hooks: &mut Map<String, Value>, generated: &Value, path: &Path) -> Result<()> {
    let list = hooks
        .entry("PreToolUse".to_string())
        .or_insert_with(|| Value::Array(Vec::new()));
    if list.is_null() {
        *list = Value::Array(Vec::new());
    }
    let Value::Array(items) = list else {
        return Err(Error::target(
            path,
            "`hooks.PreToolUse` is not a list, so twsrt cannot add its hook; fix it first",
        ));
    };
    let at = items.iter().position(is_ours).unwrap_or(items.len());
    items.retain(|e| !is_ours(e));
    items.insert(at.min(items.len()), generated.clone());
    Ok(())
}

/// twsrt's entries in a settings document, spelled for `diff`
/// (`PreToolUse <matcher> <command>`, and ` (onFailure not block)` after a
/// command whose hook lacks it, so a removed setting is a drift).
pub fn entries(doc: &Map<String, Value>) -> Vec<Value> {
    let list = doc
        .get("hooks")
        .and_then(|h| h.get("PreToolUse"))
        .and_then(Value::as_array);
    list.into_iter()
        .flatten()
        .filter(|e| is_ours(e))
        .map(|e| {
            let matcher = e.get("matcher").and_then(Value::as_str).unwrap_or("");
            let commands = e
                .get("hooks")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|h| {
                    let command = h.get("command").and_then(Value::as_str)?;
                    Some(if h.get("onFailure") == Some(&json!(ON_FAILURE)) {
                        command.to_string()
                    } else {
                        format!("{command} (onFailure not {ON_FAILURE})")
                    })
                })
                .collect::<Vec<String>>();
            Value::String(format!("PreToolUse {matcher} {}", commands.join(" ; ")))
        })
        .collect()
}

#[cfg(test)]
mod tests;
