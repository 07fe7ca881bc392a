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
/// In the sandbox mode (the default wherever srt is usable; --analysis
/// turns it off) a Bash command is allowed rewritten to run inside srt
/// (`srt -s <the srt output> -c '<command>'`, as `updatedInput`): one that
/// would be asked about (denied with --yolo), and every other one the
/// analysis passes but a few inert ones (`cd`, `pwd`, `echo`, `ls`, `wc`
/// with plain words). srt is $TWSRT_SRT or `srt` on PATH, and the srt
/// output file must hold exactly the compiled settings, or the command is
/// answered by the analysis alone. Where Claude Code's own sandbox is on
/// for the mode, srt cannot start, and the analysis answers.
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

    /// The sandbox mode, also where srt is not usable (an ask then says
    /// why). Without --sandbox or --analysis the mode is on wherever srt is
    /// usable, and the analysis answers alone elsewhere.
    #[arg(long, conflicts_with = "analysis")]
    pub sandbox: bool,

    /// The analysis alone: no command runs inside srt (ask, or deny with
    /// --yolo, what it cannot see through).
    #[arg(long)]
    pub analysis: bool,
}

pub fn run(global: &Global, args: &HookArgs) -> Result<i32> {
    let call = HookCall {
        config: &global.config_path,
        profile: args.profile.as_deref(),
        yolo: args.yolo,
        sandbox: args.sandbox,
        analysis: args.analysis,
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
