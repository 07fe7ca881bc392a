//! `twsrt hook AGENT`: the agent's guard hook. One event on stdin, one
//! answer on stdout; the protocol is the agent's ([`crate::agent::Agent::hook`]),
//! the decision [`crate::hook`].

use clap::Args;

use crate::agent::HookCall;
use crate::commands::Global;
use crate::error::{Error, Result};

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
    #[arg(value_name = "AGENT", value_parser = clap::builder::PossibleValuesParser::new(crate::agent::hook_names()))]
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

pub fn run(global: &Global, args: &HookArgs) -> Result<i32> {
    let call = HookCall {
        config: &global.config_path,
        profile: args.profile.as_deref(),
        yolo: args.yolo,
        sandbox: args.sandbox,
    };
    let protocol = crate::agent::registry()
        .into_iter()
        .find(|a| a.name() == args.agent)
        .and_then(|a| a.hook());
    match protocol {
        Some(answer) => answer(&call),
        None => Err(Error::Usage(format!(
            "agent '{}' has no guard hook",
            args.agent
        ))),
    }
}
