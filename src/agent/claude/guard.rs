//! `twsrt hook claude`: Claude Code's PreToolUse protocol around the guard
//! ([`crate::hook`]). One event on stdin, one answer on stdout: the
//! `hookSpecificOutput` line of the verdict, nothing for a pass. Claude
//! Code runs a tool call whose hook dies, times out or prints nothing, so
//! the decision runs under [`hook::on_analysis_thread`]; a malformed event
//! or a policy that does not compile is denied; an answer that cannot be
//! written exits 2, the one failure Claude Code answers by blocking the call.

use std::io::{Read, Write};
use std::path::Path;

use crate::agent::HookCall;
use crate::compile::Compiled;
use crate::config::Config;
use crate::error::Result;
use crate::hook::{self, Mode, Policy, Sandbox, Verdict};
use crate::paths::home_dir;

/// Answer one PreToolUse event: the exit code (0 answered, whatever the
/// decision; 2 the answer could not be written).
pub fn answer(call: &HookCall) -> Result<i32> {
    let mode = if call.yolo { Mode::Yolo } else { Mode::Full };
    let mut text = String::new();
    let verdict = match std::io::stdin().read_to_string(&mut text) {
        Err(e) => Verdict::Deny(format!("twsrt hook: cannot read the event: {e}")),
        Ok(_) => {
            let config = call.config.to_path_buf();
            let profile = call.profile.map(str::to_string);
            let choice = match (call.sandbox, call.analysis) {
                (_, true) => Choice::Analysis,
                (true, false) => Choice::Sandbox,
                (false, false) => Choice::Default,
            };
            hook::on_analysis_thread(mode, hook::DEADLINE, move || {
                verdict(&config, profile.as_deref(), choice, &text, mode)
            })
        }
    };
    let Some(answer) = answer_line(&verdict) else {
        return Ok(0);
    };
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{answer}")
        .and_then(|()| out.flush())
        .is_err()
    {
        eprintln!("twsrt hook: cannot write the answer; the call is blocked");
        return Ok(2);
    }
    Ok(0)
}

/// Whether Bash commands run inside srt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Choice {
    /// Wherever srt is usable; elsewhere the analysis answers alone.
    Default,
    /// The sandbox mode, which says why where srt is not usable.
    Sandbox,
    /// Never.
    Analysis,
}

fn verdict(
    config: &Path,
    profile: Option<&str>,
    choice: Choice,
    text: &str,
    mode: Mode,
) -> Verdict {
    let event = match hook::parse_event(text) {
        Ok(event) => event,
        Err(reason) => return Verdict::Deny(format!("twsrt hook: {reason}")),
    };
    let layers = settings_layers(&event.cwd);
    let moved = super::settings_env::moved(&layers);
    if let Some(m) = moved.iter().find(|m| m.key == "HOME") {
        return Verdict::Deny(format!(
            "twsrt hook: {} sets env.HOME, which moves where the policy's `~` rules point, \
             so nothing passes; remove it outside the agent",
            m.file.display()
        ));
    }
    let compiled = crate::agent::load_config(config).and_then(|config| {
        let compiled = crate::compile::compile(&config, profile)?;
        let own = own_sandbox_on(&config, &compiled, mode);
        let held = own
            && kernel_holds_bash(&config, &compiled, mode)
            && super::settings_env::loosens(&layers).is_none();
        Ok(((own, held), compiled))
    });
    let ((own_sandbox, kernel_held), compiled) = match compiled {
        Ok(c) => c,
        Err(e) => {
            return Verdict::Deny(format!(
                "twsrt hook: the policy does not compile, so nothing passes: {e}"
            ));
        }
    };
    let mut policy = Policy::new(&compiled, &home_dir(), &event.cwd);
    let exe = std::env::current_exe().ok();
    let claude_dir = std::env::var_os("CLAUDE_CONFIG_DIR").map(std::path::PathBuf::from);
    let config =
        crate::paths::absolute_normalised(config, &std::env::current_dir().unwrap_or_default());
    policy.guard_also(
        &super::switches::guard_files(&config, exe.as_deref(), claude_dir.as_deref(), &event.cwd),
        &event.cwd,
    );
    // A denied host is denied in every mode; one not allowed is asked
    // about where no sandbox holds the command.
    let by_domain = hook::judge_domains(&event, compiled.srt());
    if matches!(by_domain, Verdict::Deny(_)) {
        return by_domain;
    }
    if kernel_held {
        return hook::decide_kernel_held(&event, &policy, mode);
    }
    if choice == Choice::Analysis {
        return hook::with_domains(hook::decide(&event, &policy, mode), by_domain, mode);
    }
    let sandbox = find_sandbox(&moved, own_sandbox, &compiled);
    match &sandbox {
        Ok(sandbox) => policy.deny_writes_also(&sandbox.protected(), &event.cwd),
        Err(_) if choice == Choice::Default => {
            return hook::with_domains(hook::decide(&event, &policy, mode), by_domain, mode);
        }
        Err(_) => {}
    }
    let verdict = hook::decide_sandboxed(&event, &policy, mode, &sandbox);
    hook::with_domains(verdict, by_domain, mode)
}

/// The srt the sandbox mode wraps with, started in the project root
/// (`$CLAUDE_PROJECT_DIR`, where srt anchors the relative entries, the
/// project's settings files among them), or why there is none.
fn find_sandbox(
    moved: &[super::settings_env::Moved],
    own_sandbox: bool,
    compiled: &Compiled,
) -> std::result::Result<Sandbox, String> {
    let env = |key: &str| std::env::var(key).ok();
    if let Some(m) = moved.iter().find(|m| m.key != "HOME") {
        return Err(format!(
            "{} sets env.{}, so the hook takes no srt from its environment",
            m.file.display(),
            m.key
        ));
    }
    if own_sandbox {
        // Measured: srt cannot start inside srt (`listen EPERM` on its
        // proxy socket), so a wrapped command would only fail there.
        return Err(
            "Claude Code's own sandbox is on in this mode, and srt cannot start inside it".into(),
        );
    }
    let mut sandbox = Sandbox::find(
        compiled,
        env("TWSRT_SRT").as_deref(),
        env("PATH").as_deref(),
    )?;
    sandbox.root = std::env::var_os("CLAUDE_PROJECT_DIR")
        .map(std::path::PathBuf::from)
        .filter(|p| p.is_absolute());
    Ok(sandbox)
}

/// The Claude settings files around `cwd` ([`super::settings_env::layers`]).
fn settings_layers(
    cwd: &Path,
) -> Vec<(
    std::path::PathBuf,
    serde_json::Map<String, serde_json::Value>,
)> {
    let var = |key: &str| std::env::var_os(key).map(std::path::PathBuf::from);
    let user_dirs: Vec<std::path::PathBuf> = var("CLAUDE_CONFIG_DIR").into_iter().collect();
    let project = var("CLAUDE_PROJECT_DIR");
    super::settings_env::layers(cwd, &home_dir(), &user_dirs, project.as_deref())
}

/// Whether the Claude settings of `mode` turn Claude Code's own sandbox on
/// (the mode's override, else srt's `enabled`), as `generate claude` writes
/// them.
fn own_sandbox_on(config: &Config, compiled: &Compiled, mode: Mode) -> bool {
    let enabled = config
        .overrides(mode == Mode::Yolo)
        .get("enabled")
        .or_else(|| compiled.srt().get("enabled"));
    enabled == Some(&serde_json::Value::Bool(true))
}

/// Whether no Bash command can leave Claude Code's own sandbox in `mode`
/// (checked with it on): `allowUnsandboxedCommands` is false (Claude Code's
/// default is true: a command may ask to run outside), `failIfUnavailable`
/// is true (by default Claude Code runs commands unsandboxed when its
/// sandbox cannot start) and no `excludedCommands` run outside it.
fn kernel_holds_bash(config: &Config, compiled: &Compiled, mode: Mode) -> bool {
    let key = |name: &str| {
        config
            .overrides(mode == Mode::Yolo)
            .get(name)
            .or_else(|| compiled.srt().get(name))
            .cloned()
    };
    let excluded = match key("excludedCommands") {
        None | Some(serde_json::Value::Null) => false,
        Some(serde_json::Value::Array(list)) => !list.is_empty(),
        Some(_) => true,
    };
    key("allowUnsandboxedCommands") == Some(serde_json::Value::Bool(false))
        && key("failIfUnavailable") == Some(serde_json::Value::Bool(true))
        && !excluded
}

/// The JSON line Claude Code reads for `verdict`, or `None` for a pass (no output).
/// A sandboxed call is `allow` with `updatedInput`, which Claude Code
/// runs instead of the input the model wrote.
fn answer_line(verdict: &Verdict) -> Option<String> {
    let (decision, reason) = match verdict {
        Verdict::Pass => return None,
        Verdict::Sandbox { reason, .. } => ("allow", reason),
        Verdict::Ask(r) => ("ask", r),
        Verdict::Deny(r) => ("deny", r),
    };
    let mut output = serde_json::json!({
        "hookEventName": "PreToolUse",
        "permissionDecision": decision,
        "permissionDecisionReason": reason,
    });
    if let Verdict::Sandbox { input, .. } = verdict {
        output["updatedInput"] = input.clone();
    }
    Some(serde_json::json!({ "hookSpecificOutput": output }).to_string())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_answer_is_the_object_claude_code_reads() {
        assert_eq!(answer_line(&Verdict::Pass), None);
        let deny: serde_json::Value =
            serde_json::from_str(&answer_line(&Verdict::Deny("no".into())).unwrap()).unwrap();
        assert_eq!(
            deny,
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                "permissionDecision": "deny", "permissionDecisionReason": "no"}})
        );
        let ask: serde_json::Value =
            serde_json::from_str(&answer_line(&Verdict::Ask("why".into())).unwrap()).unwrap();
        assert_eq!(ask["hookSpecificOutput"]["permissionDecision"], "ask");
        let wrapped = Verdict::Sandbox {
            input: json!({"command": "srt -c x", "timeout": 5}),
            reason: "why".into(),
        };
        let wrapped: serde_json::Value =
            serde_json::from_str(&answer_line(&wrapped).unwrap()).unwrap();
        assert_eq!(
            wrapped,
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                "permissionDecision": "allow", "permissionDecisionReason": "why",
                "updatedInput": {"command": "srt -c x", "timeout": 5}}})
        );
    }
}
