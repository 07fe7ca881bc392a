//! `twsrt audit`: read an agent's launch command line with that CLI's own
//! grammar and report what in it (or in the agent files it loads) switches
//! the generated policy off or widens it.
//!
//! `run` calls [`audit`] on the argv it is about to exec.

mod claude;
mod codex;
mod copilot;
pub mod finding;
mod gemini;
mod gemini_files;
pub mod grammar;

use std::path::{Path, PathBuf};

use clap::Args;

use crate::commands::Global;
use crate::error::{Error, Result};
use crate::ui;
use finding::{Finding, Severity};

/// The exit code of an argv (or a file it points at) that cannot be read.
pub const EXIT_UNREADABLE: i32 = 2;

/// Check an agent launch command line against the generated policy.
///
/// Reads the words after `--` with the grammar of the agent's own CLI
/// (codex 0.171.0, claude 2.1.332, copilot 1.0.102, gemini 0.61.0) and
/// prints one line per finding: error (the generated policy is not in
/// force or is bypassed), warning (it is widened) or info. It also reads
/// what flags point at (a `--settings` file or JSON, the Codex profile
/// `--profile` selects, Gemini's `--policy`/`--admin-policy` files) and
/// the files the launch loads that override the policy: every Codex config
/// layer ($CODEX_HOME/config.toml, the --profile files, .codex/config.toml
/// from the repository root down to the working directory or the -C
/// directory), Claude Code's user settings ($CLAUDE_CONFIG_DIR) and
/// ./.claude/settings{,.local}.json, Gemini's settings layers and the
/// other files of ~/.gemini/policies. Values are
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

    /// The agent and its arguments, after `--`.
    #[arg(
        last = true,
        value_name = "AGENT ARGS",
        required_unless_present = "dump_grammar"
    )]
    pub argv: Vec<String>,
}

/// What the checks read besides the argv.
#[derive(Debug, Default)]
pub struct Inputs {
    /// The launch directory: where `./.claude` is looked up, and where the
    /// Codex project layers end (before `-C`).
    pub cwd: PathBuf,
    /// The home directory (Gemini's layers, and `~/.claude` when
    /// `claude_config_dir` is left empty).
    pub home: PathBuf,
    /// `$CODEX_HOME`, else `~/.codex`: where `--profile NAME` finds
    /// `NAME.config.toml`.
    pub codex_home: PathBuf,
    /// The Codex config.toml twsrt merges into (its legacy `[profiles.*]`).
    pub codex_target: Option<PathBuf>,
    /// Claude Code's config directory (`$CLAUDE_CONFIG_DIR`, else
    /// `~/.claude`): its settings.json is the user layer.
    pub claude_config_dir: PathBuf,
    /// The settings.json anchor twsrt points at its Claude settings, when
    /// `[targets] claude_settings` is set.
    pub claude_anchor: Option<PathBuf>,
    /// twsrt installs its guard hook in the Claude settings (`[targets]
    /// claude_hook`): a launch that skips hooks switches it off.
    pub claude_hook: bool,
    /// The Copilot flags the policy generates, as argv words.
    pub copilot_flags: Vec<String>,
    /// The yolo variant is in force (Copilot's `--yolo` is then the policy).
    pub yolo: bool,
    /// The Gemini CLI policy file twsrt writes for this mode (`[targets]
    /// gemini_policy`, in yolo mode `gemini_policy_yolo` or its derived
    /// name).
    pub gemini_policy: Option<PathBuf>,
    /// Both of twsrt's Gemini policy files (full and yolo): twsrt's own,
    /// wherever a policy directory holds them.
    pub gemini_owned: Vec<PathBuf>,
    /// What Gemini CLI reads from its environment.
    pub gemini: gemini::GeminiEnv,
    /// The Claude settings the launch loads, against what twsrt keeps there
    /// (`audit` only: `run` writes them before it starts the agent).
    pub claude_loaded: Option<crate::agent::claude::Loaded>,
}

impl Inputs {
    /// The inputs for the current directory and environment.
    pub fn from_env(config: &crate::config::Config, yolo: bool) -> Result<Self> {
        let cwd = std::env::current_dir().map_err(|e| Error::io(Path::new("."), e))?;
        let codex_home = crate::agent::codex::layers::codex_home(&crate::paths::home_dir());
        let (gemini_policy, gemini_owned) = gemini_targets(config, yolo);
        Ok(Inputs {
            cwd,
            home: crate::paths::home_dir(),
            codex_home,
            codex_target: config.targets.path("codex_config").map(Path::to_path_buf),
            claude_config_dir: crate::agent::claude::layers::config_dir(
                &crate::paths::home_dir(),
                std::env::var_os("CLAUDE_CONFIG_DIR"),
            ),
            claude_anchor: config
                .targets
                .path("claude_settings")
                .map(|_| crate::agent::claude::anchor_path(config)),
            claude_hook: config.targets.flag("claude_hook"),
            copilot_flags: Vec::new(),
            yolo,
            gemini_policy,
            gemini_owned,
            gemini: gemini::GeminiEnv::from_env(),
            claude_loaded: None,
        })
    }
}

/// twsrt's Gemini policy file for the mode, and both files, as the Gemini
/// agent names them (the yolo file defaults to the full one's yolo variant).
fn gemini_targets(config: &crate::config::Config, yolo: bool) -> (Option<PathBuf>, Vec<PathBuf>) {
    use crate::agent::gemini::policy_path;
    let (Some(full), Some(yolo_file)) = (policy_path(config, false), policy_path(config, true))
    else {
        return (None, Vec::new());
    };
    let in_force = if yolo { &yolo_file } else { &full };
    (Some(in_force.clone()), vec![full, yolo_file])
}

/// The agent an argv starts: its binary's file name, which must be one of
/// the CLIs twsrt has a grammar for.
pub fn agent_of(argv: &[String]) -> Result<&'static str> {
    let Some(first) = argv.first() else {
        return Err(unreadable("no agent given after --".to_string()));
    };
    let base = Path::new(first)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    ["codex", "claude", "copilot", "gemini"]
        .into_iter()
        .find(|a| *a == base)
        .ok_or_else(|| {
            unreadable(format!(
                "unknown agent binary '{base}': twsrt can read the command lines of codex, \
                 claude, copilot and gemini only"
            ))
        })
}

/// The findings for `argv` (binary first). An argv or file that cannot be
/// read is an error with exit code 2.
/// A subcommand that starts no agent session (`claude mcp list`) has no
/// findings: the launch passes untouched.
pub fn audit(argv: &[String], inputs: &Inputs) -> Result<Vec<Finding>> {
    let (agent, parsed) = read(argv)?;
    if !parsed.session {
        return Ok(Vec::new());
    }
    match agent {
        "codex" => codex::check(&parsed, inputs),
        "claude" => claude::check(&parsed, inputs),
        "gemini" => gemini::check(&parsed, inputs),
        _ => copilot::check(&parsed, inputs),
    }
}

/// The agent and the argv read with its grammar; what cannot be read is an
/// error of exit code 2.
fn read(argv: &[String]) -> Result<(&'static str, grammar::Parsed)> {
    let agent = agent_of(argv)?;
    let table =
        grammar::for_agent(agent).ok_or_else(|| unreadable(format!("no grammar for {agent}")))?;
    let parsed = grammar::parse(table, &argv[1..]).map_err(|e| unreadable(e.to_string()))?;
    Ok((agent, parsed))
}

/// Whether `argv` starts an agent session; `None` for a subcommand that
/// starts none (the command it names, `claude mcp`). Errors as [`audit`].
pub fn passed_through(argv: &[String]) -> Result<Option<String>> {
    let (_, parsed) = read(argv)?;
    if parsed.session {
        return Ok(None);
    }
    // A passed subcommand is the first word left unread; a group is its table.
    Ok(Some(match parsed.positionals.first() {
        Some(sub) if parsed.terminator.is_none() => format!("{} {sub}", parsed.command),
        _ => parsed.command.to_string(),
    }))
}

/// An error of exit code 2: the audit could not read what it must.
pub fn unreadable(message: String) -> Error {
    Error::WithCode {
        message,
        code: EXIT_UNREADABLE,
    }
}

/// Read a file an audit looks at: `None` when it does not exist.
pub fn read_optional(path: &Path) -> Result<Option<String>> {
    match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| unreadable(format!("{}: the file is not valid UTF-8", path.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(unreadable(format!("{}: {e}", path.display()))),
    }
}

pub fn run(global: &Global, args: &AuditArgs) -> Result<i32> {
    if let Some(agent) = &args.dump_grammar {
        return dump_grammar(agent);
    }
    // The agent is checked before the policy is loaded: an unknown binary
    // is a usage fact, whatever the policy.
    let agent = agent_of(&args.argv)?;
    if let Some(command) = passed_through(&args.argv)? {
        ui::success(&format!(
            "{command}: starts no agent session, nothing to audit (twsrt run passes it through)"
        ));
        return Ok(0);
    }
    let inputs = policy_inputs(global, args.profile.as_deref(), args.yolo, agent)
        .map_err(|e| unreadable(e.to_string()))?;
    let findings = audit(&args.argv, &inputs)?;
    if args.json {
        ui::data(&finding::to_json(agent, &findings));
    } else if findings.is_empty() {
        ui::success(&format!("{agent}: no findings"));
    } else {
        for f in &findings {
            print_finding(f, false);
        }
    }
    Ok(finding::exit_code(&findings, args.strict))
}

/// The inputs with the policy compiled when the agent needs it (Copilot's
/// generated flags).
fn policy_inputs(
    global: &Global,
    profile: Option<&str>,
    yolo: bool,
    agent: &str,
) -> Result<Inputs> {
    let config = crate::commands::load_config(&global.config_path)?;
    let mut inputs = Inputs::from_env(&config, yolo)?;
    if agent == "claude" && config.targets.contains("claude_settings") {
        inputs.claude_loaded = Some(crate::agent::claude::loaded(&config, yolo));
    }
    if agent == "copilot" {
        let compiled = crate::compile::compile(&config, profile)?;
        let ctx = crate::agent::Ctx::new(&config, &compiled, yolo);
        inputs.copilot_flags = crate::agent::copilot::Copilot::launch_args(&ctx, &mut Vec::new())?;
        drop(ctx);
        crate::commands::generate::exit_without_freeing(compiled);
    }
    Ok(inputs)
}

/// One finding as a line: on stdout for `audit` (its report), on stderr
/// with the usual labels for `run` (`stderr`).
pub fn print_finding(f: &Finding, stderr: bool) {
    let text = format!("{}: {}", f.flag, f.message);
    if stderr {
        match f.severity {
            Severity::Error => ui::error(&text),
            Severity::Warning => ui::warning(&text),
            Severity::Info => ui::note(&text),
        }
    } else {
        ui::plain(&format!("{}: {text}", f.severity.name()));
    }
}

/// `--dump-grammar AGENT`: one line per option, `TABLE<TAB>SPELLINGS<TAB>
/// ARITY[<TAB>hidden]`, and one per subcommand,
/// `TABLE<TAB>command<TAB>NAMES<TAB>table|pass|refuse`.
fn dump_grammar(agent: &str) -> Result<i32> {
    let root =
        grammar::for_agent(agent).ok_or_else(|| unreadable(format!("no grammar for '{agent}'")))?;
    for table in grammar::all_tables(root) {
        for opt in table.options {
            let hidden = if opt.hidden { "\thidden" } else { "" };
            ui::data(&format!(
                "{}\t{}\t{}{hidden}",
                table.name,
                opt.names.join(","),
                opt.arity.name()
            ));
        }
        for sub in table.subcommands {
            ui::data(&format!(
                "{}\tcommand\t{}\t{}",
                table.name,
                sub.names.join(","),
                sub.kind()
            ));
        }
    }
    Ok(0)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod gemini_tests;

#[cfg(test)]
mod gap_tests;
