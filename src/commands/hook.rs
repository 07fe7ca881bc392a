//! `twsrt hook claude`: the Claude Code PreToolUse guard. One event on
//! stdin, one answer on stdout; the decision itself is [`crate::hook`].

use std::io::Read;

use clap::Args;

use crate::commands::Global;
use crate::hook::{self, Mode, Policy, Sandbox, Verdict};
use crate::paths::home_dir;
use crate::ui;

/// Guard Claude Code's tool calls: a PreToolUse hook.
///
/// Reads one PreToolUse event (JSON) on stdin. Bash commands are parsed
/// with a shell grammar and their file operands and redirections compared
/// with the compiled policy; Read, Grep and Glob paths are compared with
/// denyRead, Edit, Write and NotebookEdit paths with the compiled
/// denyWrite. Prints a `hookSpecificOutput` object with
/// `permissionDecision` `deny` (a read or write of a denied path) or `ask`
/// (an operand the text does not determine, or a recursive reader whose
/// start holds a denied path; `deny` with --yolo), and nothing when the
/// call may go on. The policy is compiled from the fragments on every call.
/// A malformed event or a policy that does not compile is denied.
///
/// With --sandbox, a Bash command that would be asked about (denied with
/// --yolo) is allowed instead, rewritten to run inside srt
/// (`srt -s <the srt output> -c '<command>'`, as `updatedInput`); srt is
/// $TWSRT_SRT or `srt` on PATH, and the srt output file must hold exactly
/// the compiled settings, or the command is answered as without --sandbox.
///
/// Exit codes: 0 answered (whatever the decision); 2 a usage error.
#[derive(Debug, Args)]
pub struct HookArgs {
    /// The agent whose hook protocol to speak: claude.
    #[arg(value_name = "AGENT", value_parser = ["claude"])]
    pub agent: String,

    /// The profile to compile instead of default_profile.
    #[arg(short, long, value_name = "NAME")]
    pub profile: Option<String>,

    /// Nobody is asked in yolo mode: what would be asked is denied.
    #[arg(long)]
    pub yolo: bool,

    /// Run the Bash commands it cannot see through inside srt instead of
    /// asking (or, with --yolo, denying).
    #[arg(long)]
    pub sandbox: bool,
}

pub fn run(global: &Global, args: &HookArgs) -> crate::error::Result<i32> {
    let mode = if args.yolo { Mode::Yolo } else { Mode::Full };
    // A bug must not let a call through: a panic is answered with a deny
    // (a hook that dies is a pass to Claude Code).
    let verdict = std::panic::catch_unwind(|| verdict(global, args, mode)).unwrap_or_else(|_| {
        Verdict::Deny("twsrt hook: internal error while deciding; denied to be safe".into())
    });
    if let Some(answer) = verdict.answer() {
        ui::data(&answer);
    }
    Ok(0)
}

fn verdict(global: &Global, args: &HookArgs, mode: Mode) -> Verdict {
    let mut text = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut text) {
        return Verdict::Deny(format!("twsrt hook: cannot read the event: {e}"));
    }
    let event = match hook::parse_event(&text) {
        Ok(event) => event,
        Err(reason) => return Verdict::Deny(format!("twsrt hook: {reason}")),
    };
    let compiled = crate::commands::load_config(&global.config_path).and_then(|config| {
        let compiled = crate::compile::compile(&config, args.profile.as_deref())?;
        Ok((claude_sandbox_on(&config, &compiled, mode), compiled))
    });
    let (claude_sandbox, compiled) = match compiled {
        Ok(c) => c,
        Err(e) => {
            return Verdict::Deny(format!(
                "twsrt hook: the policy does not compile, so nothing passes: {e}"
            ));
        }
    };
    let mut policy = Policy::new(&compiled, &home_dir(), &event.cwd);
    if !args.sandbox {
        return hook::decide(&event, &policy, mode);
    }
    let env = |key: &str| std::env::var(key).ok();
    let sandbox = if claude_sandbox {
        // Measured: srt cannot start inside srt (`listen EPERM` on its
        // proxy socket), so a wrapped command would only fail there.
        Err("Claude Code's own sandbox is on in this mode, and srt cannot start inside it".into())
    } else {
        Sandbox::find(
            &compiled,
            env("TWSRT_SRT").as_deref(),
            env("PATH").as_deref(),
        )
    };
    if let Ok(sandbox) = &sandbox {
        policy.deny_writes_also(&sandbox.protected(), &event.cwd);
    }
    hook::decide_sandboxed(&event, &policy, mode, &sandbox)
}

/// Whether the Claude settings of `mode` turn Claude Code's own sandbox on
/// (the mode's override, else srt's `enabled`), as `generate claude` writes
/// them.
fn claude_sandbox_on(
    config: &crate::config::Config,
    compiled: &crate::compile::Compiled,
    mode: Mode,
) -> bool {
    let enabled = config
        .overrides(mode == Mode::Yolo)
        .get("enabled")
        .or_else(|| compiled.srt().get("enabled"));
    enabled == Some(&serde_json::Value::Bool(true))
}
