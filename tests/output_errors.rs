//! Output that could not be written is never a success (issue 27 item 7):
//! a full stdout (`> /dev/full`) is exit 2 with one `Error:` line, for
//! every command that prints; a reader that closed the pipe (`| head -c1`)
//! ends the run quietly, with the command's own exit code, no error text
//! and no panic.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::support::*;

enum Sink {
    /// `/dev/full`: every write fails with ENOSPC.
    Full,
    /// A pipe whose reader is gone before the command starts: EPIPE.
    ClosedPipe,
}

/// Run twsrt with `args` in `home`, stdout into `sink`: (exit code, stderr).
fn run(home: &Path, args: &[&str], sink: Sink) -> (i32, String) {
    let stdout = match sink {
        Sink::Full => Stdio::from(std::fs::File::create("/dev/full").unwrap()),
        Sink::ClosedPipe => {
            let (reader, writer) = std::io::pipe().unwrap();
            drop(reader);
            Stdio::from(writer)
        }
    };
    let out = Command::new(env!("CARGO_BIN_EXE_twsrt"))
        .args(args)
        .current_dir(home)
        .env_clear()
        .env("HOME", home)
        .env("NO_COLOR", "1")
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stderr =
        String::from_utf8_lossy(&out.stderr).replace(&home.display().to_string(), "{HOME}");
    (out.status.code().unwrap_or(-1), stderr)
}

const FULL: &str =
    "Error: cannot write the output to stdout: No space left on device (os error 28)\n";

/// A HOME where every printing command has something to print: the policy
/// written, one agent configured.
fn home() -> Output {
    Test::with_policy()
        .config_append("[targets]\nclaude_settings = \"~/.claude/settings.full.json\"\n")
        .args(&["generate", "-w"])
        .any_stderr()
        .run()
}

#[test]
fn a_full_stdout_is_exit_2_with_one_error_line_for_every_printing_command() {
    let out = home();
    for args in [
        &["show"][..],
        &["show", "srt"],
        &["generate"],
        &["generate", "claude"],
        &["diff"],
        &["diff", "--json"],
        &["completions", "bash"],
        &["profiles"],
        &["explain", "~/.ssh/id_rsa"],
        &["--version"],
    ] {
        let (code, stderr) = run(out.home(), args, Sink::Full);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert_eq!(stderr.matches("Error:").count(), 1, "{args:?}: {stderr}");
        assert!(stderr.ends_with(FULL), "{args:?}: {stderr}");
    }
}

#[test]
fn a_closed_pipe_ends_quietly_with_the_commands_own_code() {
    let out = home();
    for (args, code) in [
        (&["completions", "bash"][..], 0),
        (&["show"], 0),
        (&["diff", "claude", "--json"], 0),
    ] {
        let (got, stderr) = run(out.home(), args, Sink::ClosedPipe);
        assert_eq!((got, stderr.as_str()), (code, ""), "{args:?}");
    }
    // A preview (and explain, naming the agents without a target) narrates
    // on stderr as always; only the lost stdout is quiet.
    for args in [&["generate", "claude"][..], &["explain", "~/.ssh/id_rsa"]] {
        let (got, stderr) = run(out.home(), args, Sink::ClosedPipe);
        assert_eq!(got, 0, "{args:?}");
        assert!(
            !stderr.contains("Error") && !stderr.contains("panicked"),
            "{args:?}: {stderr}"
        );
    }
}
