//! The command line: clap definitions and dispatch to one function per command.

use clap::{Args, Parser, Subcommand};

use crate::error::Result;

#[derive(Debug, Parser)]
#[command(
    name = "twsrt",
    about = "Compile one security policy into Claude Code, Copilot CLI, Codex and Sandbox Runtime configuration.",
    disable_version_flag = true
)]
pub struct Cli {
    /// Print lifecycle facts (profile, mode, agents, counts, paths) on stderr.
    #[arg(short, long, global = true)]
    pub verbose: bool,

    /// Print the version and exit.
    #[arg(short = 'V', long)]
    pub version: bool,

    /// The config.toml to use.
    #[arg(short, long, value_name = "PATH", default_value = crate::config::DEFAULT_CONFIG_PATH)]
    pub config: String,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compile the policy and print or write each agent's configuration.
    Generate(GenerateArgs),
    /// Compare the compiled policy with the files on disk (exit 0 clean, 1 drift, 2 missing).
    Diff(DiffArgs),
    /// Open config.toml in $EDITOR.
    Config(ConfigArgs),
    /// Print a shell completion script.
    Completions(CompletionsArgs),
    /// Prove with the real Sandbox Runtime that the compiled srt policy is enforced.
    Test(crate::commands::test::TestArgs),
}

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// claude, copilot, codex or all.
    #[arg(value_name = "AGENT", default_value = "all")]
    pub agent: String,

    /// Write the canonical outputs and the agent targets.
    #[arg(short, long)]
    pub write: bool,

    /// With --write: show what would be written, write nothing.
    #[arg(short = 'n', long)]
    pub dry_run: bool,

    /// Generate the deny-only yolo variant (targets get a .yolo name).
    #[arg(long)]
    pub yolo: bool,

    /// The profile to compile instead of default_profile.
    #[arg(short, long, value_name = "NAME")]
    pub profile: Option<String>,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// claude, copilot, codex or all.
    #[arg(value_name = "AGENT", default_value = "all")]
    pub agent: String,

    /// Compare against the yolo targets.
    #[arg(long)]
    pub yolo: bool,

    /// The profile to compile instead of default_profile.
    #[arg(short, long, value_name = "NAME")]
    pub profile: Option<String>,
}

#[derive(Debug, Args)]
pub struct ConfigArgs {
    /// Write a commented starter config.toml and base fragments first (existing files are kept).
    #[arg(long)]
    pub init: bool,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// bash, zsh or fish.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

pub fn run(cli: Cli) -> Result<i32> {
    crate::ui::set_verbose(cli.verbose);
    if cli.version {
        crate::ui::plain(&format!("twsrt version: {}", env!("CARGO_PKG_VERSION")));
        return Ok(0);
    }
    let config_path = crate::config::config_path(Some(&cli.config));
    match cli.command {
        None => {
            use clap::CommandFactory;
            let _ = Cli::command().print_help();
            Ok(2)
        }
        Some(Command::Generate(args)) => crate::commands::generate::run(&config_path, &args),
        Some(Command::Diff(args)) => crate::commands::diff::run(&config_path, &args),
        Some(Command::Config(args)) => crate::commands::config::run(&config_path, &args),
        Some(Command::Test(args)) => crate::commands::test::run(&config_path, &args),
        Some(Command::Completions(args)) => {
            use clap::CommandFactory;
            clap_complete::generate(
                args.shell,
                &mut Cli::command(),
                "twsrt",
                &mut std::io::stdout(),
            );
            Ok(0)
        }
    }
}
