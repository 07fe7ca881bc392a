//! The agents twsrt generates for. Each agent is one file implementing
//! [`Agent`]; adding an agent means one new file and one line in [`registry`].

pub mod claude;
pub mod codex;
pub mod copilot;
pub mod gemini;
pub mod import;
pub mod launch;
pub mod limits;
pub mod managed;
pub mod opencode;
pub mod prove;
pub mod quoted_rules;
pub mod record;
pub mod srt_keys;

use std::path::PathBuf;

use crate::compile::Compiled;
use crate::config::{Config, TargetKey};
use crate::diag::{Code, Diagnostic, Severity};
pub use crate::drift::AgentDiff;
use crate::error::Result;
use crate::explain::ExplainLayers;
use crate::plan::Plan;
use crate::rules::SecurityRule;
use crate::srt::path::Places;

/// Everything a generator may look at. Generators never write; they read
/// their own existing target files only in `stage` and `diff`.
pub struct Ctx<'a> {
    pub config: &'a Config,
    pub compiled: &'a Compiled,
    rules: Vec<SecurityRule<'a>>,
    pub yolo: bool,
    /// The user accepts that a write removes entries twsrt did not write
    /// (`generate --drop-foreign`); otherwise staging refuses such a write.
    pub drop_foreign: bool,
    /// Where the installed managed files are read from (explain's managed
    /// rows): `/` unless `--root DIR`.
    pub managed_root: managed::Root,
    /// The agents whose files this command writes or compares (generate,
    /// diff, run set it; empty: only the agent rendering). Their target
    /// directories are ones this command's writes create.
    pub written: Vec<&'static str>,
}

impl<'a> Ctx<'a> {
    pub fn new(config: &'a Config, compiled: &'a Compiled, yolo: bool) -> Self {
        Self::with_rules(config, compiled, compiled.rules(), yolo)
    }

    /// A context whose rules are `rules` rather than those of `compiled`
    /// (the fuzz targets).
    pub fn with_rules(
        config: &'a Config,
        compiled: &'a Compiled,
        rules: Vec<SecurityRule<'a>>,
        yolo: bool,
    ) -> Self {
        Ctx {
            config,
            compiled,
            rules,
            yolo,
            drop_foreign: false,
            managed_root: managed::Root::new(None),
            written: Vec::new(),
        }
    }

    /// The normalized rules, in order.
    pub fn rules(&self) -> &[SecurityRule<'a>] {
        &self.rules
    }
}

/// Warnings are collected while rendering and printed to stderr after the
/// rendering, in the order they were raised: each one a [`Diagnostic`]
/// located at the agent's name, printed as `Warning: MESSAGE`. Those whose
/// code [`is_agent_limit`](crate::diag::Code::is_agent_limit) are printed
/// only with `-v`.
pub type Warnings = Vec<Diagnostic>;

/// The messages of `warnings`, in order (what the tests compare).
#[cfg(test)]
pub fn messages(warnings: &Warnings) -> Vec<String> {
    warnings.iter().map(|w| w.message.clone()).collect()
}

/// A generation warning of `agent` (its name), with its code.
pub fn warning(agent: &str, code: Code, message: impl Into<String>) -> Diagnostic {
    Diagnostic::new(Severity::Warning, code, agent, message)
}

pub trait Agent {
    fn name(&self) -> &'static str;

    /// The `[targets]` keys this agent reads, its primary key first: the
    /// one whose presence configures the agent.
    fn target_keys(&self) -> &'static [TargetKey];

    /// The primary `[targets]` key (named in the `Info:` line when the
    /// agent is skipped).
    fn target_key(&self) -> &'static str {
        self.target_keys()[0].name
    }

    /// Whether the agent's primary key is set. Agents are opt-in: commands
    /// skip an unconfigured agent, whether named or reached through `all`,
    /// so no other method is called for it (except
    /// [`Agent::doctor_checks`], which decides for itself).
    fn configured(&self, config: &Config) -> bool {
        config.targets.contains(self.target_key())
    }

    /// The files this agent's targets write in either mode (set keys, and
    /// a `KEY_yolo` file derived when only `KEY` is set): its guard, which
    /// compiling write-denies. Only called for a configured agent. Claude's
    /// `settings.json` anchor is not one: after `-w` it is always twsrt's
    /// symlink to a mode file, so a write through it is a write to a
    /// protected file, and Codex 0.171 refuses to start its sandbox when a
    /// read-only entry is a symlink in a writable place (doc/clients.md).
    fn guard_files(&self, config: &Config) -> Vec<PathBuf> {
        declared_files(self.target_keys(), config)
    }

    /// Write-deny rules as written that this agent's guard implies
    /// ([`Config::guard_rules`]). Only called for a configured agent.
    fn guard_rules(&self, _config: &Config) -> Vec<String> {
        Vec::new()
    }

    /// The file the mode's `diff` header names (for Codex, config.toml also
    /// when the drift is in its rules file).
    fn target(&self, ctx: &Ctx) -> PathBuf;

    /// The generated configuration the preview prints to stdout (followed
    /// by one newline): what this agent contributes, never the file it is
    /// merged into. [`Agent::stage`] records the same text in
    /// [`Plan::show_preview`], which is what `generate` prints.
    fn preview(&self, ctx: &Ctx, warnings: &mut Warnings) -> Result<String>;

    /// Add this agent's writes to the plan: read the existing target, merge,
    /// and stage every file fully rendered, plus the preview text
    /// ([`Plan::show_preview`]). The preview and `-w` both stage, so a target
    /// that cannot be merged fails either before anything is written.
    fn stage(&self, ctx: &Ctx, plan: &mut Plan, warnings: &mut Warnings) -> Result<()>;

    /// Compare what would be generated with what is on disk.
    fn diff(&self, ctx: &Ctx, warnings: &mut Warnings) -> Result<AgentDiff>;

    /// This agent's rows in `twsrt explain` ([`crate::explain`]), its
    /// documents rendered once for `ctx`'s mode, paths resolving at
    /// `places`: `None` when the agent shows no row for this
    /// configuration. Called for every agent, configured or not; which
    /// rows appear is the agent's decision. An error is one the mode's
    /// rendering fails with.
    fn explain<'a>(
        &self,
        ctx: &'a Ctx<'a>,
        places: &'a Places<'a>,
    ) -> Result<Option<Box<dyn ExplainLayers + 'a>>>;

    /// `twsrt doctor`'s checks of what only this agent reads (its settings
    /// layers, its measured limits), appended to `out` in report order.
    /// The one method called for every registered agent, configured or
    /// not: the agent decides what applies (Claude reads the settings
    /// layers a launch here loads whether or not a Claude target is set).
    /// By default an agent adds nothing.
    fn doctor_checks(&self, _input: &crate::lint::Input, _out: &mut Vec<crate::diag::Diagnostic>) {}
    /// The diagnostic codes this agent declares in its folder (its
    /// `codes::ALL`), each named after the agent; the registry test holds
    /// them unique across every agent and the codes no agent owns.
    fn codes(&self) -> &'static [crate::diag::Code] {
        &[]
    }
    /// The top-level table of config.toml this agent owns, if any
    /// (`[claude_sync]`): config.toml's loader reads it with the agent's
    /// reader ([`config_tables`]).
    fn config_table(&self) -> Option<&'static crate::config::AgentTable> {
        None
    }
    /// What `twsrt audit` and `twsrt run` know about starting this agent:
    /// its binary, launch grammar, audit checks and launch arguments.
    /// `None` for an agent whose command line twsrt cannot read.
    fn launch(&self) -> Option<&'static dyn launch::Launch> {
        None
    }

    /// How `twsrt test --agent NAME` asks this agent about each bash rule;
    /// `None` while it has no prover (every rule is then a SKIP saying so).
    fn prover(&self) -> Option<&'static dyn prove::Prover> {
        None
    }

    /// `twsrt hook AGENT`: this agent's guard hook protocol around
    /// [`crate::hook`] (read the event, answer it), returning the exit
    /// code. `None` for an agent twsrt has no guard hook for.
    fn hook(&self) -> Option<fn(&HookCall) -> Result<i32>> {
        None
    }

    /// `twsrt import AGENT`: this agent's configuration read back into
    /// policy terms ([`import`], written by `crate::import`). `None` for an agent twsrt cannot
    /// import from.
    fn import(&self) -> Option<&'static dyn import::Importer> {
        None
    }

    /// The directory under the home directory where the agent keeps its
    /// own configuration (`.claude`): its presence says the agent is
    /// installed (`config --init`). `None` when the agent has none.
    fn home_dir(&self) -> Option<&'static str> {
        None
    }

    /// The `[targets]` lines that enable this agent in a new config.toml
    /// (`config --init` prints them for an installed agent).
    fn suggested_targets(&self) -> &'static [&'static str] {
        &[]
    }

    /// The agent's managed (system-wide) policy layer, for `--scope
    /// managed` ([`managed`]). `None` for an agent that has none.
    fn managed(&self) -> Option<&'static dyn managed::Managed> {
        None
    }
}

/// An agent whose configuration directory exists under `home`.
pub struct Installed {
    pub name: &'static str,
    /// Its configuration directory.
    pub dir: PathBuf,
    pub targets: &'static [&'static str],
    /// Whether `twsrt import NAME` reads it.
    pub importable: bool,
}

/// The agents installed for `home` ([`Agent::home_dir`] exists), in
/// registry order.
pub fn installed(home: &std::path::Path) -> Vec<Installed> {
    registry()
        .iter()
        .filter_map(|agent| {
            let dir = home.join(agent.home_dir()?);
            dir.is_dir().then(|| Installed {
                name: agent.name(),
                dir,
                targets: agent.suggested_targets(),
                importable: agent.import().is_some(),
            })
        })
        .collect()
}

/// What `twsrt hook AGENT` was asked for.
pub struct HookCall<'a> {
    /// config.toml.
    pub config: &'a std::path::Path,
    /// The profile to compile instead of default_profile.
    pub profile: Option<&'a str>,
    /// Nobody is asked: what would be asked is denied.
    pub yolo: bool,
    /// The sandbox mode even where srt is not usable (an ask then says
    /// why); without it or `analysis`, the mode wherever srt is usable.
    pub sandbox: bool,
    /// The analysis alone: no command runs inside srt.
    pub analysis: bool,
}

/// Every agent, in the order `all` runs them.
pub fn registry() -> Vec<Box<dyn Agent>> {
    vec![
        Box::new(claude::Claude),
        Box::new(copilot::Copilot),
        Box::new(codex::Codex),
        Box::new(gemini::Gemini),
        Box::new(opencode::OpenCode),
    ]
}

/// Every agent's `[targets]` keys, in registry order.
pub fn target_keys() -> Vec<&'static TargetKey> {
    registry().iter().flat_map(|a| a.target_keys()).collect()
}

/// The guard files of every configured agent ([`Agent::guard_files`]).
pub fn guard_files(config: &Config) -> Vec<PathBuf> {
    registry()
        .iter()
        .filter(|a| a.configured(config))
        .flat_map(|a| a.guard_files(config))
        .collect()
}

/// The implied write-deny rules of every configured agent ([`Agent::guard_rules`]).
pub fn guard_rules(config: &Config) -> Vec<String> {
    registry()
        .iter()
        .filter(|a| a.configured(config))
        .flat_map(|a| a.guard_rules(config))
        .collect()
}

/// Every agent's doctor checks, in registry order ([`Agent::doctor_checks`]).
pub fn doctor_checks(input: &crate::lint::Input, out: &mut Vec<crate::diag::Diagnostic>) {
    for agent in registry() {
        agent.doctor_checks(input, out);
    }
}

/// Every path `keys` set in config.toml, and for a key `K` with a declared
/// `K_yolo` the yolo file the agent writes (`K_yolo`'s, or derived from
/// `K`'s path).
pub fn declared_files(keys: &[TargetKey], config: &Config) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for key in keys {
        if let Some(path) = config.targets.path(key.name) {
            files.push(path.to_path_buf());
        }
        let yolo = format!("{}_yolo", key.name);
        if keys.iter().any(|k| k.name == yolo)
            && let Some(path) = config.targets.for_mode(key.name, &yolo, true)
        {
            files.push(path);
        }
    }
    files
}

/// config.toml, with `[targets]` held to the keys the agents declare: every
/// command loads it this way.
/// The agents' guard files are filled in here, so every command compiles
/// the same write-denies.
pub fn load_config(path: &std::path::Path) -> Result<Config> {
    let mut config = crate::config::load(path, &config_tables())?;
    check_targets(&config)?;
    managed::check_switches(&config)?;
    config.guard_files = guard_files(&config);
    config.guard_rules = guard_rules(&config);
    Ok(config)
}

/// The top-level tables of config.toml the agents own, in registry order.
pub fn config_tables() -> Vec<&'static crate::config::AgentTable> {
    registry().iter().filter_map(|a| a.config_table()).collect()
}

/// Hold config.toml's `[targets]` to the keys the agents declare.
pub fn check_targets(config: &Config) -> Result<()> {
    config.targets.check(&target_keys(), &config.path)
}

pub fn names() -> Vec<&'static str> {
    registry().iter().map(|a| a.name()).collect()
}

/// The agents with a guard hook ([`Agent::hook`]), in registry order.
pub fn hook_names() -> Vec<&'static str> {
    registry()
        .iter()
        .filter(|a| a.hook().is_some())
        .map(|a| a.name())
        .collect()
}

#[cfg(test)]
mod folder_tests;
#[cfg(test)]
mod registry_tests;
