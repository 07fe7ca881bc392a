//! Copilot CLI's own command sandbox (`sandbox` in its settings file), which
//! twsrt writes when `[targets] copilot_sandbox = true`: every shell command
//! Copilot runs then runs inside it (bubblewrap on Linux). What it enforces
//! was measured with Copilot 1.0.102 running shell commands for a stand-in
//! model (doc/clients.md, "Copilot CLI's command sandbox, measured").
//!
//! Contract: [`policy`] gives the whole `sandbox` object twsrt owns:
//! - `enabled: true`, `allowBypass: false` (no command opts out of it) and
//!   `allowDevToolAccess: false` (no build caches written beyond the
//!   policy's allowWrite);
//! - `addCurrentWorkingDirectory`: whether allowWrite holds `.`; without it
//!   `.` is in `readonlyPaths` (measured: a sandbox with no grant of the
//!   working directory cannot start a command there at all);
//! - `userPolicy.filesystem.deniedPaths`: every read-denied path (credential
//!   files included) that is one concrete path: measured to win over a
//!   `readwritePaths` parent, hiding a directory (its writes land in a
//!   throwaway copy) and refusing a file; a relative path is resolved
//!   against the working directory, as srt resolves it;
//! - `readonlyPaths`: every write-denied path of the same shape that is not
//!   read-denied: measured to stay read-only under a `readwritePaths`
//!   parent, relative ones too;
//! - `readwritePaths`: every allowed write path that is one concrete
//!   absolute or `~` path.
//!
//! What it cannot hold is said: a glob (Copilot does not enforce one and
//! creates a file of that literal name) and a relative allowWrite path other
//! than `.` are left out, each listed once ([`codes::SANDBOX_SKIPPED`]); the
//! temp directory stays writable, reads outside Copilot's default places are
//! refused (narrower than srt), and the network is left to Copilot's defaults
//! ([`codes::SANDBOX_LIMIT`], an agent limit).

use serde_json::{Map, Value, json};

use crate::agent::{Ctx, Warnings};
use crate::diag::Code;

use super::codes;
use crate::rules::{Action, Scope};
use crate::srt::glob::has_glob_chars;

/// The `[targets]` switch.
pub const KEY: &str = "copilot_sandbox";
/// The settings key twsrt owns while the switch is on.
pub const SANDBOX: &str = "sandbox";

/// What every run with the switch on comes down to.
pub const LIMIT: &str = "Copilot's command sandbox always lets commands write the temp \
     directory, reads only its default places besides the policy's paths (the working \
     directory, PATH and system directories, the temp directory), and keeps its own network \
     defaults (outbound allowed): the domain rules stay --deny-url and deniedUrls, which match \
     a command's text; `twsrt run --srt -- copilot` is the network boundary";

/// The `sandbox` object for `ctx`'s rules, `None` while the switch is off.
pub fn policy(ctx: &Ctx, warnings: &mut Warnings) -> Option<Value> {
    if !ctx.config.targets.flag(KEY) {
        return None;
    }
    let rules = ctx.rules();
    let read_denied: Vec<&str> = rules
        .iter()
        .filter(|r| r.is(Scope::Read, Action::Deny))
        .map(|r| r.pattern)
        .collect();
    let mut lists: [(&str, Vec<String>); 3] = [
        ("readwritePaths", Vec::new()),
        ("readonlyPaths", Vec::new()),
        ("deniedPaths", Vec::new()),
    ];
    let mut cwd = false;
    let mut skipped: Vec<&str> = Vec::new();
    for rule in rules {
        let slot = match (rule.scope, rule.action) {
            (Scope::Write, Action::Allow) if rule.pattern == "." => {
                cwd = true;
                continue;
            }
            (Scope::Write, Action::Allow) => 0,
            (Scope::Write, Action::Deny) if read_denied.contains(&rule.pattern) => continue,
            (Scope::Write, Action::Deny) => 1,
            (Scope::Read, Action::Deny) => 2,
            _ => continue,
        };
        let relative = !rule.pattern.starts_with(['/', '~']);
        if has_glob_chars(rule.pattern) || (slot == 0 && relative) {
            if !skipped.contains(&rule.pattern) {
                skipped.push(rule.pattern);
            }
            continue;
        }
        let list = &mut lists[slot].1;
        if !list.iter().any(|p| p == rule.pattern) {
            list.push(rule.pattern.to_string());
        }
    }
    if !skipped.is_empty() {
        warnings.push(warning(
            codes::SANDBOX_SKIPPED,
            format!(
                "paths left out of Copilot's command sandbox (a glob it does not enforce, or a \
                 relative allowWrite path other than '.'): {}",
                skipped.join(", ")
            ),
        ));
    }
    warnings.push(warning(codes::SANDBOX_LIMIT, LIMIT));
    if !cwd {
        lists[1].1.insert(0, ".".to_string());
    }
    let filesystem: Map<String, Value> = lists
        .into_iter()
        .map(|(key, paths)| (key.to_string(), json!(paths)))
        .collect();
    Some(json!({
        "enabled": true,
        "allowBypass": false,
        "allowDevToolAccess": false,
        "addCurrentWorkingDirectory": cwd,
        "userPolicy": {"filesystem": filesystem},
    }))
}

fn warning(code: Code, message: impl Into<String>) -> crate::diag::Diagnostic {
    crate::agent::warning("copilot", code, message)
}
