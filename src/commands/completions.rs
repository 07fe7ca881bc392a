//! `twsrt completions`: print a shell completion script on stdout.
//!
//! The script describes the whole command line, so the caller hands in the
//! root `clap::Command`; this module never names the root itself (that
//! would make the commands depend on the module that lists them). The
//! script also offers the values twsrt knows when it is generated: the
//! agents of the registry (and `all`) for every `AGENT` argument, the
//! source kinds for `KIND`, and the profiles of config.toml (when it
//! loads) for `--profile`. Parsing is not restricted by them: an unknown
//! name still gets twsrt's own answer.

use clap::Args;
use clap::builder::PossibleValuesParser;

use crate::commands::Global;
use crate::error::Result;
use crate::source::SourceKind;

/// Print a shell completion script for bash, zsh, fish, elvish or powershell.
///
/// Install it where the shell looks for completions, for example:
/// bash: `twsrt completions bash > ~/.local/share/bash-completion/completions/twsrt`;
/// zsh: `twsrt completions zsh > ~/.zfunc/_twsrt` (with `fpath+=~/.zfunc` before
/// `compinit` in ~/.zshrc); fish: `twsrt completions fish >
/// ~/.config/fish/completions/twsrt.fish`; elvish: `eval (twsrt completions elvish |
/// slurp)` in rc.elv; powershell: `twsrt completions powershell | Out-String |
/// Invoke-Expression` in $PROFILE. Profile names are those of config.toml when the
/// script is made: make it again after adding a profile.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// bash, zsh, fish, elvish or powershell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// The script is rendered into memory first: clap_complete panics when its
/// writer fails, and stdout's failures are `ui`'s to judge.
pub fn run(global: &Global, args: &CompletionsArgs, root: clap::Command) -> Result<i32> {
    let mut root = with_candidates(root, &candidates(global));
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut root, "twsrt", &mut script);
    crate::ui::raw(&script);
    Ok(0)
}

/// The values offered per argument id.
struct Candidates {
    agents: Vec<String>,
    kinds: Vec<String>,
    profiles: Vec<String>,
}

fn candidates(global: &Global) -> Candidates {
    let mut agents: Vec<String> = crate::agent::registry()
        .iter()
        .map(|a| a.name().to_string())
        .collect();
    agents.push("all".into());
    let mut kinds: Vec<String> = SourceKind::ALL
        .iter()
        .map(|k| k.name().to_string())
        .collect();
    kinds.push("all".into());
    // A config.toml that does not load offers no profile names; the
    // script is still made.
    let profiles = crate::config::load(&global.config_path, &crate::agent::config_tables())
        .map(|c| c.profiles.into_iter().map(|(name, _)| name).collect())
        .unwrap_or_default();
    Candidates {
        agents,
        kinds,
        profiles,
    }
}

/// `cmd` and its subcommands with the candidates set on the arguments they
/// fit: `agent` positionals without a parser of their own, `kind`, `profile`.
fn with_candidates(cmd: clap::Command, c: &Candidates) -> clap::Command {
    let ids: Vec<String> = cmd
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect();
    let mut cmd = cmd;
    for id in ids {
        let values = match id.as_str() {
            "agent" => &c.agents,
            "kind" => &c.kinds,
            "profile" if !c.profiles.is_empty() => &c.profiles,
            _ => continue,
        };
        let keep = cmd
            .get_arguments()
            .find(|a| a.get_id() == id.as_str())
            .is_some_and(|a| !a.get_possible_values().is_empty());
        if keep {
            continue;
        }
        let values = values.clone();
        cmd = cmd.mut_arg(id, |a| a.value_parser(PossibleValuesParser::new(values)));
    }
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        cmd = cmd.mut_subcommand(name, |sub| with_candidates(sub, c));
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> clap::Command {
        clap::Command::new("t")
            .subcommand(
                clap::Command::new("generate")
                    .arg(clap::Arg::new("agent"))
                    .arg(clap::Arg::new("profile").long("profile")),
            )
            .subcommand(
                clap::Command::new("hook").arg(clap::Arg::new("agent").value_parser(["alpha"])),
            )
    }

    fn values(cmd: &clap::Command, sub: &str, arg: &str) -> Vec<String> {
        cmd.find_subcommand(sub)
            .and_then(|s| s.get_arguments().find(|a| a.get_id() == arg))
            .map(|a| {
                a.get_possible_values()
                    .iter()
                    .map(|v| v.get_name().to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    #[test]
    fn agents_and_profiles_are_offered_and_an_own_parser_is_kept() {
        let c = Candidates {
            agents: vec!["alpha".into(), "all".into()],
            kinds: vec![],
            profiles: vec!["default".into(), "strict".into()],
        };
        let cmd = with_candidates(root(), &c);
        assert_eq!(values(&cmd, "generate", "agent"), ["alpha", "all"]);
        assert_eq!(values(&cmd, "generate", "profile"), ["default", "strict"]);
        assert_eq!(values(&cmd, "hook", "agent"), ["alpha"]);
    }
}
