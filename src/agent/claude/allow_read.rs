//! srt's `filesystem.allowRead` in Claude Code's settings: the entries
//! twsrt writes to `sandbox.filesystem.allowRead`, and what it says about
//! the rest (doc/clients.md, "srt 0.0.83's credentials, strict allowlist
//! and allowRead, read").
//!
//! Contract: Claude Code 2.1.332 hands its sandbox the Read deny rules as
//! `denyRead` and `sandbox.filesystem.allowRead` as `allowRead`, and its
//! sandbox re-opens exactly what srt re-opens (a listed path inside a
//! denied one; a more specific deny inside it, or a deny inside a wider
//! allow, stays closed). So every absolute or `~` entry of the policy is
//! written as it is. A relative entry is left out (Claude Code anchors it
//! at the settings file's directory, not where the agent starts, so it
//! would re-open nothing the policy means), and so is an object entry
//! (`{"path": ..}`, which Claude Code's list of strings cannot hold): both
//! leave the path closed, stricter than srt, and are named once. Claude
//! Code's Read tool keeps its deny rules whatever the list says (a deny
//! rule wins over any allow), which is said once too.

use serde_json::Value;

use crate::agent::{Ctx, Warnings};
use crate::diag::Code;

/// The key, in srt's `filesystem` and in Claude's `sandbox.filesystem`.
pub const KEY: &str = "allowRead";

/// The policy's entries Claude Code can hold as meant, in policy order.
pub fn compiled(srt: &Value) -> Vec<&str> {
    entries(srt).filter_map(|e| e.ok()).collect()
}

/// Each entry of the policy's `filesystem.allowRead`: the path when it
/// can be written to Claude, else how it reads in a warning.
fn entries(srt: &Value) -> impl Iterator<Item = Result<&str, String>> {
    let list = srt
        .pointer("/filesystem/allowRead")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    list.iter().map(|entry| match entry {
        Value::String(path) if anchored(path) => Ok(path.as_str()),
        Value::String(path) => Err(path.clone()),
        other => Err(crate::pyjson::to_compact(other)),
    })
}

/// Absolute or under `~`: the same path for Claude Code as for srt.
fn anchored(path: &str) -> bool {
    path.starts_with('/') || path == "~" || path.starts_with("~/")
}

/// The warnings of a run whose policy sets `filesystem.allowRead`: the
/// entries left out, then that the Read tool keeps its denies.
pub fn warnings(ctx: &Ctx, warnings: &mut Warnings) {
    let srt = ctx.compiled.srt();
    let (kept, left_out): (Vec<_>, Vec<_>) = entries(srt).partition(Result::is_ok);
    let left_out: Vec<String> = left_out.into_iter().filter_map(Result::err).collect();
    if !left_out.is_empty() {
        warnings.push(warning(format!(
            "srt filesystem.allowRead entries not compiled for Claude (a relative path is \
             anchored at the settings file's directory there, an object entry cannot be \
             held), so they stay closed to its commands: {}",
            left_out.join(", ")
        )));
    }
    let kept: Vec<&str> = kept.into_iter().filter_map(Result::ok).collect();
    if !kept.is_empty() {
        warnings.push(warning(format!(
            "srt filesystem.allowRead re-opens {} for Claude's sandboxed commands only: \
             its Read tool keeps the Read deny rules of the paths around them (a deny rule \
             wins over any allow), stricter than srt",
            kept.join(", ")
        )));
    }
}

fn warning(message: String) -> crate::diag::Diagnostic {
    crate::agent::warning("claude", Code::SrtKeySkipped, message)
}
