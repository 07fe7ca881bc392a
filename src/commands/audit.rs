//! `twsrt audit`: read an agent's launch command line with that CLI's own
//! grammar and report what in it (or in the agent files it loads) switches
//! the generated policy off or widens it. The agents' launch parts
//! ([`crate::agent::launch`]) do the reading and judging.

use clap::Args;

use crate::agent::launch::{self, Setting, report, unreadable};
use crate::commands::Global;
use crate::error::Result;
use crate::ui;

/// Check an agent launch command line against the generated policy.
///
/// Reads the words after `--` with the grammar of the agent's own CLI
/// (codex 0.171.0, claude 2.1.332, copilot 1.0.102, gemini 0.61.0,
/// opencode 1.18.33) and
/// prints one line per finding: error (the generated policy is not in
/// force or is bypassed), warning (it is widened) or info. It also reads
/// what flags point at (a `--settings` file or JSON, the Codex profile
/// `--profile` selects, Gemini's `--policy`/`--admin-policy` files) and
/// the files the launch loads that override the policy: every Codex config
/// layer ($CODEX_HOME/config.toml, the --profile files, .codex/config.toml
/// from the repository root down to the working directory or the -C
/// directory), Claude Code's user settings ($CLAUDE_CONFIG_DIR) and
/// ./.claude/settings{,.local}.json, Gemini's settings layers and the
/// other files of ~/.gemini/policies, OpenCode's project opencode.json and
/// its OPENCODE_CONFIG, OPENCODE_CONFIG_CONTENT and OPENCODE_PERMISSION
/// layers. The installed managed files (under /etc, or under --root DIR)
/// soften two findings: allow rules a managed
/// `allowManagedPermissionRulesOnly` makes inert, and a Codex
/// `default_permissions` its requirements.toml does not allow. Values are
/// shown only when they are words of the CLI's own vocabulary; anything
/// else reads `<value>`.
///
/// Exit codes: 0 no error finding (warnings allowed unless --strict), 1 an
/// error finding (or any finding with --strict), 2 the argv or a file it
/// points at could not be read (an unknown agent, an unknown option, a
/// value missing, unreadable settings), or the policy could not be loaded.
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// The profile to compile instead of default_profile.
    #[arg(short, long, value_name = "NAME")]
    pub profile: Option<String>,

    /// Audit against the yolo variant of the policy.
    #[arg(long)]
    pub yolo: bool,

    /// Print one JSON object: {"agent": ..., "findings": [...]}.
    #[arg(long)]
    pub json: bool,

    /// Fail (exit 1) on any finding, not only on errors.
    #[arg(long)]
    pub strict: bool,

    /// Print the grammar table of AGENT (for `make test-clients`).
    #[arg(long, value_name = "AGENT", hide = true, conflicts_with = "argv")]
    pub dump_grammar: Option<String>,

    #[command(flatten)]
    pub root: crate::commands::scope::RootArgs,

    /// The agent and its arguments, after `--`.
    // Read as bytes: a word that is not UTF-8 is audited with U+FFFD for
    // each invalid byte (crate::argv::os).
    #[arg(
        last = true,
        value_name = "AGENT ARGS",
        required_unless_present = "dump_grammar"
    )]
    pub argv: Vec<std::ffi::OsString>,
}

pub fn run(global: &Global, args: &AuditArgs) -> Result<i32> {
    if let Some(binary) = &args.dump_grammar {
        for line in launch::dump_grammar(binary)? {
            ui::data(&line);
        }
        return Ok(0);
    }
    // The agent is checked before the policy is loaded: an unknown binary
    // is a usage fact, whatever the policy.
    let argv = crate::argv::os::text(&args.argv);
    let agent = launch::agent_of(&argv)?;
    let binary = agent.launch.binary();
    if let Some(command) = launch::passed_through(agent.launch, &argv)? {
        ui::success(&format!(
            "{command}: starts no agent session, nothing to audit (twsrt run passes it through)"
        ));
        return Ok(0);
    }
    let inputs = gather(global, args, agent.launch).map_err(|e| unreadable(e.to_string()))?;
    let findings = launch::audit(agent.launch, &argv, inputs.as_ref())?;
    if args.json {
        ui::data(&report::to_json(binary, &findings));
    } else if findings.is_empty() {
        ui::success(&format!("{binary}: no findings"));
    } else {
        for f in &findings {
            report::print(f, false);
        }
    }
    Ok(report::exit_code(&findings, args.strict))
}

/// The agent's audit inputs, the policy compiled only when the agent's
/// policy travels in its argv (the arguments `run` would add).
fn gather(
    global: &Global,
    args: &AuditArgs,
    agent: &dyn launch::Launch,
) -> Result<Box<dyn launch::Audit>> {
    let config = crate::commands::load_config(&global.config_path)?;
    let mut setting = Setting::from_env(&config, args.yolo, true)?;
    setting.managed_root = args.root.managed_root();
    if agent.policy_in_argv() {
        let compiled = crate::compile::compile(&config, args.profile.as_deref())?;
        let ctx = crate::agent::Ctx::new(&config, &compiled, args.yolo);
        setting.launch_args = agent.launch_args(&ctx)?;
        drop(ctx);
        crate::heap::forget_until_exit(compiled);
    }
    agent.inputs(&setting)
}
