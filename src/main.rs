//! Entry point: parse arguments, run, and turn an error into its exit code.
//! This is the only place the process exits.
//!
//! Output that could not be written is judged here, once for every
//! command: a reader that closed the pipe early (`| head`) wanted no more,
//! so the run ends quietly with the command's own code; any other failed
//! write to stdout (`> /dev/full`) is an error, exit 2, so a script never
//! reads success for output that was lost.

use clap::Parser;

use twsrt::error::Error;

fn main() {
    let cli = twsrt::cli::Cli::parse();
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
