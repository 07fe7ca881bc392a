//! Building the final command line and replacing twsrt with it.

use std::os::unix::process::CommandExt;

use crate::commands::audit::grammar;
use crate::compile::Compiled;
use crate::error::{Error, Result};
use crate::source::SourceKind;

/// Add the generated Copilot flags to `argv`: at the end, or before the
/// `--` that ends Copilot's options (after it they would be words).
pub fn append_flags(argv: &mut Vec<String>, flags: &[String]) -> Result<()> {
    let parsed = grammar::parse(&grammar::COPILOT, &argv[1..])
        .map_err(|e| crate::commands::audit::unreadable(e.to_string()))?;
    let at = parsed.terminator.map_or(argv.len(), |i| i + 1);
    argv.splice(at..at, flags.iter().cloned());
    Ok(())
}

/// `srt -s <srt output> -c '<word>' '<word>' ...`: every word single-quoted
/// for the shell srt hands the command to.
pub fn wrap_srt(compiled: &Compiled, argv: &[String]) -> Result<Vec<String>> {
    let settings = compiled
        .canonical
        .iter()
        .find(|d| d.kind == SourceKind::Srt)
        .map(|d| d.output.display().to_string())
        .ok_or_else(|| super::refused("--srt needs the srt canonical output".into()))?;
    let command: Vec<String> = argv.iter().map(|w| quote(w)).collect();
    Ok(vec![
        "srt".into(),
        "-s".into(),
        settings,
        "-c".into(),
        command.join(" "),
    ])
}

/// `word` in single quotes, each `'` inside closed, escaped and reopened.
pub fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// Replace this process with `command`; returns only when that failed.
pub fn exec(command: &[String]) -> Error {
    let Some((program, rest)) = command.split_first() else {
        return super::refused("nothing to run".into());
    };
    let err = std::process::Command::new(program).args(rest).exec();
    let code = if err.kind() == std::io::ErrorKind::NotFound {
        127
    } else {
        126
    };
    Error::WithCode {
        message: format!("cannot start {program}: {err}"),
        code,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quoted_word_survives_spaces_and_quotes() {
        let words = ["a b", "it's", "\"x\"", ""];
        let line: Vec<String> = words.iter().map(|w| quote(w)).collect();
        let back = crate::shellwords::split(&line.join(" ")).unwrap();
        assert_eq!(back, words);
    }

    #[test]
    fn flags_go_before_the_end_of_options() {
        let mut argv: Vec<String> = ["copilot", "-p", "x", "--", "rest"]
            .map(String::from)
            .into();
        append_flags(&mut argv, &["--deny-url".into(), "a.com".into()]).unwrap();
        assert_eq!(
            argv,
            ["copilot", "-p", "x", "--deny-url", "a.com", "--", "rest"]
        );
        let mut plain: Vec<String> = ["copilot", "-s"].map(String::from).into();
        append_flags(&mut plain, &["--yolo".into()]).unwrap();
        assert_eq!(plain, ["copilot", "-s", "--yolo"]);
    }
}
