//! Entry point: parse arguments, run, and turn an error into its exit code.
//! This is the only place the process exits.

use clap::Parser;

fn main() {
    let cli = twsrt::cli::Cli::parse();
    let code = match twsrt::cli::run(cli) {
        Ok(code) => code,
        Err(err) => {
            twsrt::ui::error(&err.to_string());
            err.exit_code()
        }
    };
    std::process::exit(code);
}
