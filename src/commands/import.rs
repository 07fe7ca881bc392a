//! `twsrt import AGENT`: the agent's existing configuration as new policy
//! fragments ([`crate::import`]).

use std::path::PathBuf;

use clap::Args;

use crate::commands::Global;
use crate::error::Result;

/// Import an agent's existing configuration into new policy fragments.
///
/// Reads the agent's files (or --from FILE), prints the fragments it would
/// write (srt/imported-AGENT.jsonc, bash/imported-AGENT.jsonc, each entry
/// with a comment naming where it came from) and the config.toml change;
/// with -w writes them and registers them for the profile, in one
/// transaction. An existing fragment of that name is refused, never
/// overwritten. What has no policy meaning is listed as left in the agent's
/// file.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The agent whose configuration to read.
    #[arg(value_name = "AGENT")]
    pub agent: String,

    /// Read this file instead of the agent's own (for Copilot: a file of
    /// flags or a shell line).
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,

    /// The profile to add the fragments to (default: default_profile).
    #[arg(short, long, value_name = "NAME")]
    pub profile: Option<String>,

    /// Write the fragments and config.toml (default: preview only).
    #[arg(short, long)]
    pub write: bool,
}

pub fn run(global: &Global, args: &ImportArgs) -> Result<i32> {
    // `~` expanded as for `-c`: a quoted `~/x` reaches twsrt as it is.
    let from = args
        .from
        .as_deref()
        .map(|p| crate::paths::tidy(&crate::paths::expand_tilde(&p.to_string_lossy())));
    crate::import::run(&crate::import::Request {
        agent: &args.agent,
        from: from.as_deref(),
        profile: args.profile.as_deref(),
        write: args.write,
        config_path: &global.config_path,
    })
}
