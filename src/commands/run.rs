//! `twsrt run`: the launch wrapper. Compile, bring the agent's files up to
//! date, audit the final argv, and exec the agent in twsrt's place.

mod exec;
mod stale;

use std::ffi::OsString;

use clap::Args;

use crate::agent::launch::{self, Setting, report};
use crate::agent::{Ctx, Warnings};
use crate::argv::os;
use crate::commands::Global;
use crate::compile::compile;
use crate::error::{Error, Result};
use crate::ui;

/// Launch an agent under the generated policy.
///
/// Compiles the policy in memory. When a file of AGENT's or a canonical
/// output differs from it, writes them all as `generate AGENT -w` does (one
/// transaction); with --no-generate a stale setup is refused instead. For
/// Copilot, appends the generated --deny-tool/--deny-url/... flags when it
/// is a target (otherwise it starts without them, with a warning; refused
/// with --strict). Then
/// audits the final command line as `twsrt audit` does and refuses to start
/// the agent on an error finding. With --srt the command runs as `srt -s
/// <srt output> -c <command>`. Finally twsrt replaces itself with the agent
/// (exec): signals, terminal and exit code are the agent's own.
///
/// A subcommand that starts no agent session (`codex resume` does, `claude
/// mcp list`, `codex login`, `claude update` do not) is started untouched:
/// no files written, no flags added, no audit (with --srt still inside srt).
///
/// Everything twsrt says goes to stderr, and nothing when all is well:
/// generation warnings are counted in one line (`twsrt generate AGENT -v`
/// lists them); audit findings and errors are always shown (with -q,
/// errors only).
///
/// Exit codes (before the exec; after it, the agent's own): 1 an error
/// finding (or any finding with --strict), a stale setup with
/// --no-generate, or a config, policy or target error; 2 the argv or a file
/// it points at could not be read (an unknown agent binary or option, a
/// subcommand twsrt cannot audit); 126 the agent could not be started; 127
/// the agent or srt was not found (the message names what was looked for
/// and where).
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The profile to compile instead of default_profile.
    #[arg(short, long, value_name = "NAME")]
    pub profile: Option<String>,

    /// Launch under the yolo variant (its targets, Copilot's --yolo flags).
    #[arg(long)]
    pub yolo: bool,

    /// Refuse on any audit finding, not only on errors.
    #[arg(long)]
    pub strict: bool,

    /// Run the agent inside Sandbox Runtime: srt -s <srt output> -c <command>.
    /// srt is `TWSRT_SRT` if set, else `srt` on PATH (as for `twsrt test`);
    /// -v says which.
    #[arg(long)]
    pub srt: bool,

    /// Never write: refuse when a file differs from the policy.
    #[arg(long)]
    pub no_generate: bool,

    /// The agent and its arguments, after `--`.
    // Read as bytes: a word that is not UTF-8 reaches the agent unchanged.
    #[arg(last = true, required = true, value_name = "AGENT ARGS")]
    pub argv: Vec<OsString>,
}

pub fn run(global: &Global, args: &RunArgs) -> Result<i32> {
    let words = os::text(&args.argv);
    let launcher = launch::agent_of(&words)?;
    let (agent, name) = (launcher.launch, launcher.agent.name());
    let passed = launch::passed_through(agent, &words)?.is_some();
    if passed && !args.srt {
        // A subcommand that starts no session (`tool plugin list`) loads no
        // policy: it runs untouched, without generating or auditing.
        return Err(exec::exec(&args.argv));
    }
    let config = crate::commands::load_config(&global.config_path)?;
    let compiled = compile(&config, args.profile.as_deref())?;
    let ctx = Ctx::new(&config, &compiled, args.yolo);
    let mut warnings: Warnings = Vec::new();

    if passed {
        let command = exec::wrap_srt(&compiled, &args.argv)?;
        drop(ctx);
        crate::heap::forget_until_exit(compiled);
        return Err(exec::exec(&command));
    }
    let mut setting = Setting::from_env(&config, args.yolo, false)?;
    setting.sandboxed = args.srt;
    let (mut text, mut argv) = (words, args.argv.clone());
    let covered = launcher.agent.configured(&config);
    if agent.policy_in_argv() && !covered {
        not_covered(name, args.strict)?;
    }
    if agent.policy_in_argv() && covered {
        setting.launch_args = agent.launch_args(&ctx)?;
        let at = crate::argv::option_insert_at(agent.grammar(), &text)
            .map_err(|e| launch::unreadable(e.to_string()))?;
        text.splice(at..at, setting.launch_args.iter().cloned());
        argv.splice(at..at, setting.launch_args.iter().map(OsString::from));
    }
    let findings = launch::audit(agent, &text, agent.inputs(&setting)?.as_ref())?;
    for f in &findings {
        report::print(f, true);
    }
    if report::exit_code(&findings, args.strict) != 0 {
        ui::error(&format!(
            "{name} was not started: the launch defeats the policy"
        ));
        return Ok(1);
    }

    let generate = args.no_generate.then(|| generate_line(name, args, true));
    // Nothing is written for a launch that cannot start: the agent (and
    // srt, with --srt) must be there before the first write.
    let ready = || {
        if args.srt {
            crate::probe::find_srt().map_err(|e| Error::NotFound(format!("--srt: {e}")))?;
        }
        exec::locate(&argv[0])
    };
    stale::bring_up_to_date(&ctx, &launcher, generate.as_deref(), &mut warnings, &ready)?;
    let command = if args.srt {
        Some(exec::wrap_srt(&compiled, &argv)?)
    } else {
        None
    };
    if !warnings.is_empty() {
        ui::note(&count_line(
            warnings.len(),
            &generate_line(name, args, false),
        ));
    }
    drop(ctx);
    crate::heap::forget_until_exit(compiled);
    Err(exec::exec(&command.unwrap_or(argv)))
}

/// An agent whose policy is the arguments `run` adds, but which is no
/// target of config.toml: it starts with none of them (the flags the
/// policy would generate can allow more than the agent's own defaults), a
/// warning says the policy does not cover it; with `--strict` it is
/// refused instead.
fn not_covered(name: &str, strict: bool) -> Result<()> {
    let what = format!("{name} is not configured in [targets] of config.toml");
    if strict {
        return Err(refused(format!(
            "{name} was not started: {what}, so the policy does not cover it (--strict); \
             set its target, then run `twsrt generate -w {name}`"
        )));
    }
    ui::warning(&format!(
        "{what}: it starts with its own defaults and none of twsrt's flags, so the policy does \
         not cover it; set its target to launch it under the policy (`--strict` refuses instead)"
    ));
    Ok(())
}

/// The line counting a launch's generation warnings: `generate -v` lists
/// every one of them (the agent limits too), for the same profile and mode.
fn count_line(count: usize, generate: &str) -> String {
    format!("{count} generation warning(s); `{generate} -v` lists them")
}

/// The `generate` (with `write`: `generate -w`) of this launch's policy.
fn generate_line(agent: &str, args: &RunArgs, write: bool) -> String {
    let mut line = format!("twsrt generate {agent}");
    if write {
        line.push_str(" -w");
    }
    if let Some(profile) = &args.profile {
        line.push_str(&format!(" -p {}", crate::source::quoted(profile)));
    }
    if args.yolo {
        line.push_str(" --yolo");
    }
    line
}

/// The error of a command that cannot be launched: exit 1.
pub(crate) fn refused(message: String) -> Error {
    Error::Refused(message)
}
