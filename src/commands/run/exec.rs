//! Wrapping the final command line in srt and replacing twsrt with it.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;

use crate::argv::os;

use crate::compile::Compiled;
use crate::error::{Error, Result};
use crate::source::SourceKind;
use crate::ui;

/// `SRT -s <srt output> -c '<word>' '<word>' ...`: every word single-quoted
/// (byte for byte) for the shell srt hands the command to. SRT is found as
/// `twsrt test` finds it (`TWSRT_SRT`, then `srt` on PATH); `-v` says which.
pub fn wrap_srt(compiled: &Compiled, argv: &[OsString]) -> Result<Vec<OsString>> {
    let settings = compiled
        .canonical
        .iter()
        .find(|d| d.kind == SourceKind::Srt)
        .map(|d| d.output.clone().into_os_string())
        .ok_or_else(|| super::refused("--srt needs the srt canonical output".into()))?;
    let srt = crate::probe::find_srt().map_err(|e| Error::NotFound(format!("--srt: {e}")))?;
    ui::debug(|| format!("srt: {}", srt.display()));
    let mut command = OsString::new();
    for (i, w) in argv.iter().enumerate() {
        if i > 0 {
            command.push(" ");
        }
        command.push(os::single_quote(w));
    }
    Ok(vec![
        srt.into_os_string(),
        "-s".into(),
        settings,
        "-c".into(),
        command,
    ])
}

/// Whether `program` can be started: a path to an executable file, or a
/// name found as one in PATH. The error is the one [`exec`] gives for a
/// program that is not there, so nothing is written before it is known.
pub fn locate(program: &OsStr) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let found = if program.as_bytes().contains(&b'/') {
        std::fs::metadata(program).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    } else {
        crate::probe::find_program(&os::word(program)).is_some()
    };
    if found {
        Ok(())
    } else {
        Err(not_found(program))
    }
}

/// Replace this process with `command`; returns only when that failed. A
/// program that is not there is named with where it was looked for.
pub fn exec(command: &[OsString]) -> Error {
    let Some((program, rest)) = command.split_first() else {
        return super::refused("nothing to run".into());
    };
    let err = std::process::Command::new(program).args(rest).exec();
    if err.kind() != std::io::ErrorKind::NotFound {
        return Error::CannotStart(format!("cannot start {}: {err}", os::word(program)));
    }
    not_found(program)
}

/// The error of a program that is not there, naming where it was looked for.
fn not_found(program: &OsStr) -> Error {
    let name = os::word(program);
    let place = if program.as_bytes().contains(&b'/') {
        "there is no such file".to_string()
    } else {
        let path = std::env::var_os("PATH").unwrap_or_default();
        match crate::probe::find_program(&name) {
            // Found now, so what failed was its interpreter (`#!`).
            Some(found) => format!("{} exists, but its interpreter does not", found.display()),
            None if path.is_empty() => "PATH is empty".to_string(),
            None => format!(
                "looked for an executable {name} in PATH={}",
                path.to_string_lossy()
            ),
        }
    };
    Error::NotFound(format!("cannot start {name}: not found ({place})"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_quoted_word_survives_spaces_and_quotes() {
        let words = ["a b", "it's", "\"x\"", ""];
        let line: Vec<String> = words
            .iter()
            .map(|w| crate::shellwords::single_quote(w))
            .collect();
        let back = crate::shellwords::split(&line.join(" ")).unwrap();
        assert_eq!(back, words);
    }
}
