//! Writes the command reference as man pages, generated from the clap
//! definitions (`twsrt::cli::reference`): `twsrt.1` and one `twsrt-NAME.1`
//! per subcommand, into the directory given as the only argument (default
//! `man`). `make man` runs it. An example, not a binary target, so that
//! clap_mangen stays a dev-dependency and never enters the twsrt binary.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let dir = std::env::args_os()
        .nth(1)
        .map_or_else(|| PathBuf::from("man"), PathBuf::from);
    let written = std::fs::create_dir_all(&dir)
        .and_then(|()| clap_mangen::generate_to(twsrt::cli::reference(), &dir));
    match written {
        Ok(()) => {
            println!("{}", dir.join("twsrt.1").display());
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("Error: {}: {err}", dir.display());
            ExitCode::FAILURE
        }
    }
}
