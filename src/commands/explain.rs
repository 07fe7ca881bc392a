//! `twsrt explain`: the arguments, then one report from
//! [`crate::explain`] on the layers of every registered agent.

use clap::Args;

use crate::commands::Global;
use crate::error::{Error, Result};
use crate::explain::{ExplainLayers, Format, Query};
use crate::srt::path::Places;
use crate::ui;

/// Explain how each layer decides one access: a path (read and write), a
/// domain or URL, or a shell command (`--command`).
///
/// One row per layer and agent: the srt sandbox on this platform, then each
/// agent's layers (Claude's permissions, sandbox and guard hook when
/// installed; Codex's profile and rules; Copilot's flags; Gemini's policy
/// when configured; OpenCode's permission block). Above an agent's own
/// rows, a `managed` row for its installed system-wide policy (Claude's
/// managed drop-in, Codex's requirements.toml, Gemini's admin policies
/// under /etc, or under --root DIR), which ranks above every user setting.
/// Each gives the decision
/// (deny, ask, allow, not covered), the deciding rule, its fragment `file:line` and what the layer
/// cannot decide. Agents without a `[targets]` entry still get their rows
/// (what `generate` would write for them); stderr names them. Exit codes: 0
/// explained, 1 an error in the policy, 2 the query is not a path, domain,
/// URL or command.
#[derive(Debug, Args)]
#[command(override_usage = "twsrt explain [OPTIONS] <PATH|DOMAIN|URL>\n       \
                            twsrt explain [OPTIONS] --command <CMD>")]
pub struct ExplainArgs {
    /// A path (it has a `/` or starts with `~` or `.`), a domain
    /// (`api.github.com`, `*.github.com`) or a URL (`https://github.com/x`
    /// asks about github.com).
    // Read as bytes: a query that is not UTF-8 is explained with U+FFFD for
    // each invalid byte (crate::argv::os), a path as any other.
    #[arg(value_name = "PATH|DOMAIN|URL", required_unless_present = "command")]
    pub query: Option<std::ffi::OsString>,

    /// A shell command to explain instead, as one argument.
    #[arg(long, value_name = "CMD", conflicts_with = "query")]
    pub command: Option<String>,

    /// The profile to compile instead of default_profile.
    #[arg(short, long, value_name = "NAME")]
    pub profile: Option<String>,

    /// Explain the yolo mode (its sandbox overrides, Copilot's --yolo).
    #[arg(long)]
    pub yolo: bool,

    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub root: crate::commands::scope::RootArgs,
}

pub fn run(global: &Global, args: &ExplainArgs) -> Result<i32> {
    let config = crate::commands::load_config(&global.config_path)?;
    let compiled = crate::explain::compile(&config, args.profile.as_deref())?;
    let home = crate::paths::home_dir();
    let cwd = std::env::current_dir().map_err(|e| Error::io(std::path::Path::new("."), e))?;
    let places = Places {
        home: &home,
        cwd: &cwd,
    };
    let typed = args.query.as_deref().map(crate::argv::os::word);
    let query = Query::classify(typed.as_deref(), args.command.as_deref(), &places)?;
    let mut ctx = crate::agent::Ctx::new(&config, &compiled, args.yolo);
    ctx.managed_root = args.root.managed_root();
    let mut agents: Vec<Box<dyn ExplainLayers + '_>> = Vec::new();
    let mut unconfigured = Vec::new();
    for agent in crate::agent::registry() {
        if let Some(layers) = agent.explain(&ctx, &places)? {
            if !agent.configured(&config) {
                unconfigured.push(agent.name());
            }
            agents.push(layers);
        }
    }
    let format = if args.json {
        Format::Json
    } else {
        Format::Table
    };
    let report = crate::explain::report(
        &query,
        &compiled,
        &global.config_path,
        &places,
        &agents,
        format,
    );
    ui::data(&report);
    if !unconfigured.is_empty() {
        ui::note(&format!(
            "not configured in [targets]: {}; their rows show what `generate` would write for \
             them",
            unconfigured.join(", ")
        ));
    }
    Ok(0)
}
