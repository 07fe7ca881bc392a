//! The launch guard's side of the agents (`twsrt audit`, `twsrt run`): each
//! agent's [`Launch`] part says which binary it reads, with which grammar
//! ([`crate::argv`]), what its audit gathers from the environment and the
//! config, and what `run` adds to its argv. This module finds the agent of
//! an argv in the registry, reads the argv and runs that agent's checks;
//! it names no agent. A binary no agent claims is an error, never another
//! agent's checks.

pub mod redact;
pub mod report;

use std::path::{Path, PathBuf};

use crate::agent::{Agent, Ctx, registry};
use crate::argv::{Grammar, Parsed};
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::error::{Error, Result};

/// The exit code of an argv (or a file it points at) that cannot be read.
pub const EXIT_UNREADABLE: i32 = 2;

/// What an agent knows about starting it.
pub trait Launch: Sync {
    /// The binary's file name (`argv[0]` without its directory).
    fn binary(&self) -> &'static str;

    /// The grammar of the binary's own argument parser, root table first.
    fn grammar(&self) -> &'static Grammar;

    /// Where the binary stands in the list of readable CLIs that the error
    /// for an unknown binary prints (a new agent takes the next number).
    fn listed_at(&self) -> u8;

    /// Words of the CLI's own vocabulary (modes, setting sources) a finding
    /// may repeat; any other value is redacted ([`redact`]).
    fn vocabulary(&self) -> &'static [&'static str];

    /// The policy travels in the argv: `run` adds [`Launch::launch_args`]
    /// to it, the audit compares the argv with them, and no target file is
    /// needed for the agent to start under the policy.
    fn policy_in_argv(&self) -> bool {
        false
    }

    /// The arguments the policy compiles to for this launch (only asked
    /// when [`Launch::policy_in_argv`]).
    fn launch_args(&self, _ctx: &Ctx) -> Result<Vec<String>> {
        Ok(Vec::new())
    }

    /// What this agent's audit reads besides the argv, gathered for the
    /// launch `setting` describes.
    fn inputs(&self, setting: &Setting) -> Result<Box<dyn Audit>>;
}

/// One agent's audit inputs, ready to judge an argv read with its grammar.
pub trait Audit {
    /// The findings for an argv that starts a session.
    fn check(&self, parsed: &Parsed) -> Result<Vec<Diagnostic>>;
}

/// What every agent's inputs are gathered from.
pub struct Setting<'a> {
    pub config: &'a Config,
    /// The yolo variant of the policy is in force.
    pub yolo: bool,
    /// The launch directory.
    pub cwd: PathBuf,
    pub home: PathBuf,
    /// The agent's files are judged as they are on disk (`audit`); `run`
    /// writes them before it starts the agent, so it leaves this false.
    pub as_on_disk: bool,
    /// [`Launch::launch_args`] of this launch, when the agent has any.
    pub launch_args: Vec<String>,
    /// Where the machine's installed managed files are read from: `/`
    /// unless `audit --root DIR`.
    pub managed_root: crate::agent::managed::Root,
    /// The agent runs inside Sandbox Runtime (`twsrt run --srt`).
    pub sandboxed: bool,
}

impl<'a> Setting<'a> {
    /// The setting of the current directory and home.
    pub fn from_env(config: &'a Config, yolo: bool, as_on_disk: bool) -> Result<Self> {
        let cwd = std::env::current_dir().map_err(|e| Error::io(Path::new("."), e))?;
        Ok(Setting {
            config,
            yolo,
            cwd,
            home: crate::paths::home_dir(),
            as_on_disk,
            launch_args: Vec::new(),
            managed_root: crate::agent::managed::Root::new(None),
            sandboxed: false,
        })
    }
}

/// An agent of the registry with its launch part.
pub struct Launcher {
    pub agent: Box<dyn Agent>,
    pub launch: &'static dyn Launch,
}

/// Every agent's launch part, in registry order.
pub fn launchers() -> Vec<Launcher> {
    registry()
        .into_iter()
        .filter_map(|agent| agent.launch().map(|launch| Launcher { agent, launch }))
        .collect()
}

/// The agent an argv starts: the one whose binary is the file name of
/// `argv[0]`.
pub fn agent_of(argv: &[String]) -> Result<Launcher> {
    let Some(first) = argv.first() else {
        return Err(unreadable("no agent given after --".to_string()));
    };
    let base = Path::new(first)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let mut all = launchers();
    match all.iter().position(|l| l.launch.binary() == base) {
        Some(i) => Ok(all.swap_remove(i)),
        None => Err(unreadable(format!(
            "unknown agent binary '{base}': twsrt can read the command lines of {} only",
            readable_list(&all)
        ))),
    }
}

/// The hint for a command line whose agent was typed without `--` before
/// it (`twsrt audit claude --yolo`), which the argument parser refuses:
/// `Some` when the first word after `audit` or `run` that is no option of
/// theirs is the binary of an agent twsrt can read. The agent's own words
/// are not repeated (they may hold a secret).
pub fn dash_dash_hint(args: &[String]) -> Option<String> {
    let at = args
        .iter()
        .position(|a| a == "audit" || a == "run" || a == "--")?;
    let command = args[at].as_str();
    if command == "--" {
        return None;
    }
    let rest = &args[at + 1..];
    if rest.iter().any(|a| a == "--") {
        return None;
    }
    let first = rest.iter().find(|a| !a.starts_with('-'))?;
    let base = Path::new(first).file_name().and_then(|n| n.to_str())?;
    launchers()
        .iter()
        .any(|l| l.launch.binary() == base)
        .then(|| {
            format!(
                "tip: the agent's command line goes after `--`: twsrt {command} [OPTIONS] -- \
                 {base} ..."
            )
        })
}

/// `a, b, c and d`, in [`Launch::listed_at`] order.
fn readable_list(all: &[Launcher]) -> String {
    let mut names: Vec<(u8, &str)> = all
        .iter()
        .map(|l| (l.launch.listed_at(), l.launch.binary()))
        .collect();
    names.sort_unstable();
    let names: Vec<&str> = names.into_iter().map(|(_, n)| n).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.to_string(),
        None => String::new(),
    }
}

/// The argv (binary first) read with the agent's grammar; what cannot be
/// read is an error of exit code 2.
pub fn read(launch: &dyn Launch, argv: &[String]) -> Result<Parsed> {
    crate::argv::parse(launch.grammar(), argv.get(1..).unwrap_or_default())
        .map_err(|e| unreadable(e.to_string()))
}

/// Whether `argv` starts an agent session; `None` for a subcommand that
/// starts none (the command it names, `tool plugin`). Errors as [`audit`].
pub fn passed_through(launch: &dyn Launch, argv: &[String]) -> Result<Option<String>> {
    let parsed = read(launch, argv)?;
    if parsed.session {
        return Ok(None);
    }
    // A passed subcommand is the first word left unread; a group is its table.
    Ok(Some(match parsed.positionals.first() {
        Some(sub) if parsed.terminator.is_none() => format!("{} {sub}", parsed.command),
        _ => parsed.command.to_string(),
    }))
}

/// The findings for `argv` (binary first). An argv or file that cannot be
/// read is an error with exit code 2. A subcommand that starts no agent
/// session has no findings: the launch passes untouched.
pub fn audit(launch: &dyn Launch, argv: &[String], inputs: &dyn Audit) -> Result<Vec<Diagnostic>> {
    let parsed = read(launch, argv)?;
    if !parsed.session {
        return Ok(Vec::new());
    }
    inputs.check(&parsed)
}

/// `--dump-grammar BINARY`: the grammar of the agent whose binary it is.
pub fn dump_grammar(binary: &str) -> Result<Vec<String>> {
    launchers()
        .iter()
        .find(|l| l.launch.binary() == binary)
        .map(|l| crate::argv::dump(l.launch.grammar()))
        .ok_or_else(|| unreadable(format!("no grammar for '{binary}'")))
}

/// An error of exit code 2: the audit could not read what it must.
pub fn unreadable(message: String) -> Error {
    Error::Unreadable(message)
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

#[cfg(test)]
mod registry_tests;

#[cfg(test)]
pub(crate) mod fixture;

#[cfg(test)]
mod grammar_tests;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod gap_tests;
