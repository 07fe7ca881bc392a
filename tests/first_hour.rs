//! The first hour of a new user: a command line that is not UTF-8, an
//! editor without a terminal, a launch whose agent is missing, options that
//! exclude each other. Each ends in one clear line, never a panic, and
//! writes nothing it should not.

use crate::support::*;

/// `test` run through a wrapper that gives twsrt its arguments, then one
/// word whose bytes `printf` makes from `escaped` (`\377/x`: a word no
/// `&str` holds), then `after`.
fn wrapped_then(test: Test, escaped: &str, after: &str) -> Test {
    let script = format!("exec \"$0\" \"$@\" \"$(printf '{escaped}')\" {after}");
    test.wrapper(&["sh", "-c", &script])
}

fn wrapped(test: Test, escaped: &str) -> Test {
    wrapped_then(test, escaped, "")
}

/// A stand-in agent printing the bytes of its arguments in hex.
const HEX_AGENT: &str = "#!/bin/sh\nfor a in \"$@\"; do printf '%s' \"$a\" | od -An -tx1; done\n";

#[test]
fn a_query_that_is_not_utf8_is_explained_as_a_path() {
    wrapped(Test::with_policy(), r"\377/x")
        .args(&["explain"])
        .stdout_contains("explain \u{FFFD}/x\n")
        .stdout_contains("srt          srt      read ")
        .any_stderr()
        .unchanged()
        .run();
}

#[test]
fn run_hands_a_word_that_is_not_utf8_to_the_agent_byte_for_byte() {
    let test = Test::with_policy()
        .file("bin/claude", HEX_AGENT)
        .mode("bin/claude", 0o755);
    let path = format!("{}/bin:/usr/bin:/bin", test.home().display());
    wrapped(test.env("PATH", &path), r"caf\351.txt")
        .args(&["run", "--", "claude"])
        .stdout(" 63 61 66 e9 2e 74 78 74\n")
        .any_stderr()
        .run();
}

#[test]
fn audit_reads_a_word_that_is_not_utf8() {
    wrapped(Test::with_policy(), r"caf\351.txt")
        .args(&["audit", "--", "claude"])
        .stdout("claude: no findings\n")
        .any_stderr()
        .unchanged()
        .run();
}

#[test]
fn a_config_path_that_is_not_utf8_is_used_as_a_path() {
    wrapped_then(Test::with_policy(), r"/nonexistent/x\377.toml", "generate")
        .args(&["--config"])
        .status(1)
        .stderr(
            "Error: config file not found: /nonexistent/x\u{FFFD}.toml; run `twsrt config \
             --init` to create a starter\n",
        )
        .unchanged()
        .run();
}

#[test]
fn a_launch_whose_agent_is_missing_writes_nothing() {
    // The target files are stale (never generated): a launch that found
    // claude would write them first.
    Test::with_policy()
        .targets()
        .env("PATH", "/nonexistent")
        .args(&["run", "--", "claude", "-p", "hi"])
        .status(127)
        .stderr(
            "Error: cannot start claude: not found (looked for an executable claude in \
             PATH=/nonexistent)\n",
        )
        .unchanged()
        .run();
}

/// A HOME whose `vi` (the default editor) marks that it ran.
fn with_marking_vi() -> Test {
    let test = Test::with_policy()
        .file("bin/vi", "#!/bin/sh\ntouch \"$HOME/vi-ran\"\n")
        .mode("bin/vi", 0o755);
    let path = format!("{}/bin:/usr/bin:/bin", test.home().display());
    test.env("PATH", &path)
}

const NO_TERMINAL: &str = "Error: stdin is not a terminal, and the editor 'vi' runs in one: run \
     this command from a terminal, or set EDITOR to an editor that opens a window of its own \
     (`code -w`)\n";

#[test]
fn config_without_a_terminal_starts_no_vi() {
    with_marking_vi()
        .args(&["config"])
        .status(1)
        .stderr(NO_TERMINAL)
        .unchanged()
        .run();
}

#[test]
fn edit_without_a_terminal_starts_no_vi() {
    with_marking_vi()
        .args(&["edit", "srt"])
        .status(1)
        .stderr(NO_TERMINAL)
        .unchanged()
        .run();
}

#[test]
fn quiet_and_verbose_name_no_usage_that_does_not_work() {
    Test::with_policy()
        .args(&["-q", "-v", "generate"])
        .status(2)
        .stderr(
            "error: the argument '--quiet' cannot be used with '--verbose'\n\n\
             For more information, try '--help'.\n",
        )
        .unchanged()
        .run();
}
