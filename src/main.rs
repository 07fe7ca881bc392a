//! Entry point: parse arguments, run, and turn an error into its exit code.
//! This is the only place the process exits.
//!
//! Output that could not be written is judged here, once for every
//! command: a reader that closed the pipe early (`| head`) wanted no more,
//! so the run ends quietly with the command's own code; any other failed
//! write to stdout (`> /dev/full`) is an error, exit 2, so a script never
//! reads success for output that was lost.

use clap::Parser;
use clap::error::ErrorKind;

use twsrt::error::Error;

fn main() {
    let cli = match twsrt::cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => usage_error(err),
    };
    let code = match twsrt::cli::run(cli) {
        Ok(code) => code,
        Err(err) => {
            twsrt::ui::error(&err.to_string());
            err.exit_code()
        }
    };
    let code = match twsrt::ui::stdout_failure() {
        None => code,
        Some(e) if e.kind() == std::io::ErrorKind::BrokenPipe => code,
        Some(e) => {
            let err = Error::StdoutFailed(e);
            twsrt::ui::error(&err.to_string());
            err.exit_code()
        }
    };
    std::process::exit(code);
}

/// A command line clap refuses: its message (or `--help`/`--version`
/// output), plus a hint where the agent of `audit`/`run` lacks its `--`.
fn usage_error(err: clap::Error) -> ! {
    let refused = !matches!(
        err.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    );
    // Read as bytes: a word that is not UTF-8 must not end the run in a panic.
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if err.kind() == ErrorKind::ArgumentConflict {
        conflict_error(&err);
    }
    match twsrt::agent::launch::dash_dash_hint(&args).filter(|_| refused) {
        Some(hint) => {
            let _ = err.print();
            eprintln!("\n{hint}");
            std::process::exit(err.exit_code());
        }
        None => err.exit(),
    }
}

/// Two options that exclude each other: clap's message without its usage
/// paragraph, which names only the options given (`Usage: twsrt --quiet`),
/// not a command line that works.
fn conflict_error(err: &clap::Error) -> ! {
    let text = err.render().to_string();
    let kept: Vec<&str> = text
        .trim_end()
        .split("\n\n")
        .filter(|part| !part.starts_with("Usage:"))
        .collect();
    eprintln!("{}", kept.join("\n\n"));
    std::process::exit(err.exit_code());
}
