//! `twsrt completions`: print a shell completion script on stdout.
//!
//! The script describes the whole command line, so the caller hands in the
//! root `clap::Command`; this module never names the root itself (that
//! would make the commands depend on the module that lists them).

use clap::Args;

use crate::error::Result;

/// Print a shell completion script.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// bash, zsh or fish.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// The script is rendered into memory first: clap_complete panics when its
/// writer fails, and stdout's failures are `ui`'s to judge.
pub fn run(args: &CompletionsArgs, mut root: clap::Command) -> Result<i32> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut root, "twsrt", &mut script);
    crate::ui::raw(&script);
    Ok(0)
}
