//! The clap root: the global options, the list of commands, and dispatch.
//!
//! Each command module owns its arguments (`commands::<name>::*Args`, whose
//! doc comments are the help text) and its `run`; nothing here knows a
//! command's flags. The dependency runs one way: this module imports the
//! commands, no command imports this module. What a command needs from the
//! global options reaches it as a `commands::Global`.

use clap::{CommandFactory, Parser, Subcommand};

use crate::commands::{self, Global};
use crate::error::Result;

#[derive(Debug, Parser)]
#[command(
    name = "twsrt",
    about = "Compile one security policy into Claude Code, Codex, Copilot CLI, Gemini CLI, OpenCode and Sandbox Runtime configuration.",
    disable_version_flag = true
)]
pub struct Cli {
    /// Print lifecycle facts (profile, mode, agents, counts, paths) on stderr.
    /// With generate and diff, also print the agent limits among the
    /// generation warnings (what an agent leaves unguarded on every run).
    #[arg(short, long, global = true)]
    pub verbose: bool,

    /// Print no notes (`Info:`) and no warnings on stderr; errors, the
    /// command's output and the lines naming written files stay.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,

    /// Print the version and exit.
    #[arg(short = 'V')]
    pub short_version: bool,

    /// Print the version and the twsrt release whose behaviour it follows, and exit.
    #[arg(long = "version")]
    pub long_version: bool,

    /// The config.toml to use.
    // Read as bytes: a path that is not UTF-8 is used as it is.
    #[arg(short, long, value_name = "PATH", default_value = crate::config::DEFAULT_CONFIG_PATH)]
    pub config: std::ffi::OsString,

    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The commands, in the order `--help` lists them. Each one's summary line is
/// the doc comment of its arguments struct.
#[derive(Debug, Subcommand)]
pub enum Command {
    Generate(commands::generate::GenerateArgs),
    Diff(commands::diff::DiffArgs),
    Show(commands::show::ShowArgs),
    Profiles(commands::profiles::ProfilesArgs),
    Edit(commands::edit::EditArgs),
    Config(commands::config::ConfigArgs),
    Completions(commands::completions::CompletionsArgs),
    Test(commands::test::TestArgs),
    Doctor(commands::doctor::DoctorArgs),
    Audit(commands::audit::AuditArgs),
    Run(commands::run::RunArgs),
    Explain(commands::explain::ExplainArgs),
    Hook(commands::hook::HookArgs),
    Import(commands::import::ImportArgs),
}

/// The twsrt (Python) release whose files, status lines and exit codes this
/// tool follows; the deliberate differences are in doc/compatibility.md.
pub const FOLLOWS: &str = "3.3.3";

/// `twsrt X.Y.Z` (`-V`), plus `follows twsrt 3.3.3` on a second line
/// (`--version`): the project's own semver, then the release it follows.
pub fn version_text(long: bool) -> String {
    let short = format!("twsrt {}", env!("CARGO_PKG_VERSION"));
    if long {
        format!("{short}\nfollows twsrt {FOLLOWS}")
    } else {
        short
    }
}

/// The clap definition with the version filled in, for the generated command
/// reference (`make man`, examples/man.rs): `--help` and the man pages come
/// from the same doc comments. The flag stays ours (`-V`/`--version` above).
pub fn reference() -> clap::Command {
    Cli::command()
        .version(env!("CARGO_PKG_VERSION"))
        .long_version(format!(
            "{}\nfollows twsrt {FOLLOWS}",
            env!("CARGO_PKG_VERSION")
        ))
}

/// Run the parsed command line; the value is the process exit code.
pub fn run(cli: Cli) -> Result<i32> {
    crate::ui::set_verbose(cli.verbose);
    crate::ui::set_quiet(cli.quiet);
    if cli.short_version || cli.long_version {
        crate::ui::plain(&version_text(cli.long_version));
        return Ok(0);
    }
    let global = Global {
        config_path: match cli.config.to_str() {
            Some(text) => crate::config::config_path(Some(text)),
            None => std::path::PathBuf::from(&cli.config),
        },
    };
    match cli.command {
        None => {
            // Help goes to stdout, judged like every output (ui::stdout_failure).
            crate::ui::data(Cli::command().render_help().to_string().trim_end());
            Ok(2)
        }
        Some(Command::Generate(args)) => commands::generate::run(&global, &args),
        Some(Command::Diff(args)) => commands::diff::run(&global, &args),
        Some(Command::Show(args)) => commands::show::run(&global, &args),
        Some(Command::Profiles(args)) => commands::profiles::run(&global, &args),
        Some(Command::Edit(args)) => commands::edit::run(&global, &args),
        Some(Command::Config(args)) => commands::config::run(&global, &args),
        Some(Command::Test(args)) => commands::test::run(&global, &args),
        Some(Command::Explain(args)) => commands::explain::run(&global, &args),
        Some(Command::Doctor(args)) => commands::doctor::run(&global, &args),
        Some(Command::Audit(args)) => commands::audit::run(&global, &args),
        Some(Command::Run(args)) => commands::run::run(&global, &args),
        Some(Command::Hook(args)) => commands::hook::run(&global, &args),
        Some(Command::Import(args)) => commands::import::run(&global, &args),
        Some(Command::Completions(args)) => {
            commands::completions::run(&global, &args, Cli::command())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_short_version_is_the_crate_version_and_the_long_one_adds_the_release_it_follows() {
        let crate_version = env!("CARGO_PKG_VERSION");
        assert_eq!(version_text(false), format!("twsrt {crate_version}"));
        assert_eq!(
            version_text(true),
            format!("twsrt {crate_version}\nfollows twsrt 3.3.3")
        );
    }

    #[test]
    fn the_reference_command_carries_both_versions() {
        let cmd = reference();
        assert_eq!(cmd.get_version(), Some(env!("CARGO_PKG_VERSION")));
        let long = cmd.get_long_version().map(|v| format!("twsrt {v}"));
        assert_eq!(long, Some(version_text(true)));
    }
}
