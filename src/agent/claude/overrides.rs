//! What the Claude agent refuses or warns about in the mode's
//! `[sandbox_overrides]` before rendering.

use crate::agent::claude::codes;
use crate::diag::Code;
use serde_json::Value;

use crate::agent::claude::render::MANAGED_PATH_LISTS;
use crate::agent::{Ctx, Warnings};
use crate::error::{Error, Result};

/// A `filesystem` override must be a table: the managed path lists are
/// emptied inside it. Each managed list it sets is dropped, so say so
/// rather than lose the paths silently (the reference does).
pub fn check(ctx: &Ctx, warnings: &mut Warnings) -> Result<()> {
    let mode = if ctx.yolo { "yolo" } else { "full" };
    let Some(filesystem) = ctx.config.overrides(ctx.yolo).get("filesystem") else {
        return Ok(());
    };
    let Value::Object(filesystem) = filesystem else {
        return Err(Error::config(
            &ctx.config.path,
            format!(
                "sandbox_overrides.{mode}.filesystem must be a table (Claude Code's \
                 sandbox.filesystem is an object)"
            ),
        ));
    };
    for key in MANAGED_PATH_LISTS {
        if filesystem.contains_key(key) {
            warnings.push(warning(
                codes::OVERRIDE_IGNORED,
                format!(
                    "sandbox_overrides.{mode}.filesystem.{key} has no effect: twsrt writes \
                 Claude's sandbox.filesystem.{key} as an empty list and turns policy paths \
                 into permission rules; put these paths into the srt fragments instead"
                ),
            ));
        }
    }
    Ok(())
}

/// A generation warning of this agent.
/// What of srt's issue-33 keys Claude Code's settings cannot hold as
/// meant (doc/clients.md, "srt 0.0.83's credentials, strict allowlist and
/// allowRead, read").
pub fn srt_keys(ctx: &Ctx, warnings: &mut Warnings) {
    use crate::agent::srt_keys::{DENIED_DOMAIN_REASONS, skipped};
    use crate::srt::credentials::{Mode, files};
    let srt = ctx.compiled.srt();
    warnings.extend(skipped(
        "claude",
        srt,
        &[DENIED_DOMAIN_REASONS],
        "Claude Code's sandbox settings have no such key (a denied host gets its generic reason)",
    ));
    crate::agent::claude::allow_read::warnings(ctx, warnings);
    let masked: Vec<&str> = files(srt)
        .filter(|f| f.mode == Mode::Mask)
        .map(|f| f.name)
        .collect();
    if !masked.is_empty() {
        warnings.push(warning(
            Code::SrtKeySkipped,
            format!(
                "masked credential files are denied outright in Claude Code (their Read deny \
                 rule is a sandbox read deny too, which shadows the mask): {}",
                masked.join(", ")
            ),
        ));
    }
}

fn warning(code: Code, message: impl Into<String>) -> crate::diag::Diagnostic {
    crate::agent::warning("claude", code, message)
}
