//! Wrapping the final command line in srt and replacing twsrt with it.

use std::os::unix::process::CommandExt;

use crate::compile::Compiled;
use crate::error::{Error, Result};
use crate::shellwords::single_quote;
use crate::source::SourceKind;
use crate::ui;

/// `SRT -s <srt output> -c '<word>' '<word>' ...`: every word single-quoted
/// for the shell srt hands the command to. SRT is found as `twsrt test`
/// finds it (`TWSRT_SRT`, then `srt` on PATH); `-v` says which one.
pub fn wrap_srt(compiled: &Compiled, argv: &[String]) -> Result<Vec<String>> {
    let settings = compiled
        .canonical
        .iter()
        .find(|d| d.kind == SourceKind::Srt)
        .map(|d| d.output.display().to_string())
        .ok_or_else(|| super::refused("--srt needs the srt canonical output".into()))?;
    let srt = crate::probe::find_srt().map_err(|e| Error::NotFound(format!("--srt: {e}")))?;
    ui::debug(|| format!("srt: {}", srt.display()));
    let command: Vec<String> = argv.iter().map(|w| single_quote(w)).collect();
    Ok(vec![
        srt.display().to_string(),
        "-s".into(),
        settings,
        "-c".into(),
        command.join(" "),
    ])
}

/// Replace this process with `command`; returns only when that failed. A
/// program that is not there is named with where it was looked for.
pub fn exec(command: &[String]) -> Error {
    let Some((program, rest)) = command.split_first() else {
        return super::refused("nothing to run".into());
    };
    let err = std::process::Command::new(program).args(rest).exec();
    if err.kind() != std::io::ErrorKind::NotFound {
        return Error::CannotStart(format!("cannot start {program}: {err}"));
    }
    let place = if program.contains('/') {
        "there is no such file".to_string()
    } else {
        let path = std::env::var("PATH").unwrap_or_default();
        match crate::probe::find_program(program) {
            // Found now, so what failed was its interpreter (`#!`).
            Some(found) => format!("{} exists, but its interpreter does not", found.display()),
            None if path.is_empty() => "PATH is empty".to_string(),
            None => format!("looked for an executable {program} in PATH={path}"),
        }
    };
    Error::NotFound(format!("cannot start {program}: not found ({place})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quoted_word_survives_spaces_and_quotes() {
        let words = ["a b", "it's", "\"x\"", ""];
        let line: Vec<String> = words.iter().map(|w| single_quote(w)).collect();
        let back = crate::shellwords::split(&line.join(" ")).unwrap();
        assert_eq!(back, words);
    }
}
