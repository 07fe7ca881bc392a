//! `twsrt hook claude`: the Claude Code PreToolUse guard. One event on
//! stdin, one answer on stdout; the decision itself is [`crate::hook`].
//!
//! Claude Code runs a tool call whose hook dies, times out or prints
//! nothing, so every way this command can end is an answer: the decision
//! runs on its own thread, with a stack the walk's limits fit in
//! ([`ANALYSIS_STACK`]) and under a deadline ([`DEADLINE`]); a panic, a
//! deadline passed or a thread that cannot start is answered like a
//! command the hook cannot read (ask, deny in yolo mode).

use std::io::{Read, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use clap::Args;

use crate::commands::Global;
use crate::hook::{self, Mode, Policy, Sandbox, Verdict};
use crate::paths::home_dir;

/// The stack of the analysis thread. The walk's limits (command size,
/// nesting) bound its depth: at the largest command analysed, the deepest
/// nesting of every form the limits let through needed at most 4 MiB on
/// the debug build (SECURITY_CONCEPT.md, "It always answers"), a sixteenth of
/// this. The memory is only reserved: pages are used as the stack grows.
pub const ANALYSIS_STACK: usize = 64 << 20;

/// How long the analysis may take. Claude Code waits 60 s for a hook and
/// then runs the call; an answer comes well before that.
pub const DEADLINE: Duration = Duration::from_secs(5);

/// Guard Claude Code's tool calls: a PreToolUse hook.
///
/// Reads one PreToolUse event (JSON) on stdin. Bash commands are parsed
/// with a shell grammar and their file operands and redirections compared
/// with the compiled policy; Read, Grep and Glob paths are compared with
/// denyRead, Edit, Write and NotebookEdit paths with the compiled
/// denyWrite. Prints a `hookSpecificOutput` object with
/// `permissionDecision` `deny` (a read or write of a denied path) or `ask`
/// (an operand the text does not determine, a command whose text is not
/// in the command line, or a recursive reader whose start holds a denied
/// path; `deny` with --yolo), and nothing when the call may go on. The
/// policy is compiled from the fragments on every call. A malformed event
/// or a policy that does not compile is denied; an analysis that fails or
/// takes longer than 5 s is answered like an unreadable command.
///
/// With --sandbox, a Bash command that would be asked about (denied with
/// --yolo) is allowed instead, rewritten to run inside srt
/// (`srt -s <the srt output> -c '<command>'`, as `updatedInput`); srt is
/// $TWSRT_SRT or `srt` on PATH, and the srt output file must hold exactly
/// the compiled settings, or the command is answered as without --sandbox.
///
/// Exit codes: 0 answered (whatever the decision); 2 a usage error, or the
/// answer could not be written (Claude Code blocks the call on exit 2).
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
    let mut text = String::new();
    let verdict = match std::io::stdin().read_to_string(&mut text) {
        Err(e) => Verdict::Deny(format!("twsrt hook: cannot read the event: {e}")),
        Ok(_) => guarded(
            global.config_path.clone(),
            args.profile.clone(),
            args.sandbox,
            text,
            mode,
        ),
    };
    let Some(answer) = verdict.answer() else {
        return Ok(0);
    };
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{answer}")
        .and_then(|()| out.flush())
        .is_err()
    {
        // Exit 2 is the one failure Claude Code answers by blocking the call.
        eprintln!("twsrt hook: cannot write the answer; the call is blocked");
        return Ok(2);
    }
    Ok(0)
}

/// The verdict on `event`, computed on the analysis thread.
fn guarded(
    config: PathBuf,
    profile: Option<String>,
    sandbox: bool,
    event: String,
    mode: Mode,
) -> Verdict {
    on_analysis_thread(mode, DEADLINE, move || {
        verdict(&config, profile.as_deref(), sandbox, &event, mode)
    })
}

/// `work`'s verdict, computed on a thread of its own: whatever happens
/// there (a panic, no answer by `deadline`, no thread), an answer.
fn on_analysis_thread(
    mode: Mode,
    deadline: Duration,
    work: impl FnOnce() -> Verdict + Send + 'static,
) -> Verdict {
    let (send, receive) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("hook analysis".into())
        .stack_size(ANALYSIS_STACK)
        .spawn(move || {
            let outcome = catch_unwind(AssertUnwindSafe(work));
            // The receiver is gone only once the deadline answered.
            let _ = send.send(outcome);
        });
    if let Err(e) = spawned {
        return unreadable(mode, &format!("the analysis could not start ({e})"));
    }
    match receive.recv_timeout(deadline) {
        Ok(Ok(verdict)) => verdict,
        Ok(Err(_)) => unreadable(mode, "an internal error while deciding"),
        Err(mpsc::RecvTimeoutError::Timeout) => unreadable(
            mode,
            &format!("the analysis took longer than {} s", deadline.as_secs()),
        ),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            unreadable(mode, "the analysis ended without a decision")
        }
    }
}

/// What an analysis that failed answers: what a command the hook cannot
/// read answers (ask; nobody is asked in yolo mode, so deny).
fn unreadable(mode: Mode, why: &str) -> Verdict {
    let reason = format!("twsrt hook: {why}; the command was not checked");
    match mode {
        Mode::Full => Verdict::Ask(reason),
        Mode::Yolo => Verdict::Deny(reason),
    }
}

fn verdict(
    config: &std::path::Path,
    profile: Option<&str>,
    sandboxed: bool,
    text: &str,
    mode: Mode,
) -> Verdict {
    let event = match hook::parse_event(text) {
        Ok(event) => event,
        Err(reason) => return Verdict::Deny(format!("twsrt hook: {reason}")),
    };
    let compiled = crate::commands::load_config(config).and_then(|config| {
        let compiled = crate::compile::compile(&config, profile)?;
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
    if !sandboxed {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_answered_like_an_unreadable_command() {
        let work = || -> Verdict { panic!("a bug") };
        let full = on_analysis_thread(Mode::Full, DEADLINE, work);
        assert!(
            matches!(full, Verdict::Ask(ref r) if r.contains("internal error")),
            "{full:?}"
        );
        let yolo = on_analysis_thread(Mode::Yolo, DEADLINE, work);
        assert!(matches!(yolo, Verdict::Deny(_)), "{yolo:?}");
    }

    #[test]
    fn an_analysis_past_the_deadline_is_answered() {
        let slow = || {
            std::thread::sleep(Duration::from_secs(2));
            Verdict::Pass
        };
        let got = on_analysis_thread(Mode::Yolo, Duration::from_millis(50), slow);
        assert!(
            matches!(got, Verdict::Deny(ref r) if r.contains("longer than")),
            "{got:?}"
        );
    }

    #[test]
    fn the_analysis_runs_on_the_large_stack() {
        // Recursion that needs more than a default thread's 2 MiB.
        fn deep(n: usize) -> usize {
            let pad = [n as u8; 1024];
            if n == 0 {
                0
            } else {
                deep(n - 1) + std::hint::black_box(pad)[0] as usize
            }
        }
        let got = on_analysis_thread(Mode::Full, DEADLINE, || {
            deep(20_000);
            Verdict::Pass
        });
        assert_eq!(got, Verdict::Pass);
    }
}
