//! `twsrt test` setup failures that need no Sandbox Runtime: each exits 2
//! with a message that says what to do.

use crate::support::*;

#[test]
fn a_missing_settings_file_asks_for_generate() {
    Test::with_policy()
        .args(&["test"])
        .env("TWSRT_SRT", "/nonexistent/srt")
        .status(2)
        .stderr_contains(
            "Error: {HOME}/.srt-settings.json does not exist: run `twsrt generate -w` first",
        )
        .stdout("")
        .run();
}

#[test]
fn srt_that_cannot_be_found_is_a_setup_failure() {
    let out = Test::with_policy()
        .file(".srt-settings.json", "{}")
        .args(&["test"])
        .env("TWSRT_SRT", "/nonexistent/srt")
        .status(2)
        .stderr_contains("TWSRT_SRT=/nonexistent/srt is not an executable srt")
        .run();
    // The file on disk is not what the policy compiles to: warned first.
    assert!(
        out.stderr
            .contains("differs from what profile 'default' compiles to")
    );

    Test::with_policy()
        .file(".srt-settings.json", "{}")
        .args(&["test"])
        .env("PATH", "/nonexistent")
        .status(2)
        .stderr_contains("srt (Sandbox Runtime) not found on PATH")
        .run();
}

#[test]
fn an_unparsable_settings_file_is_named_with_its_position() {
    Test::with_policy()
        .file(".srt-settings.json", "{\n  \"network\": ,\n}")
        .args(&["test"])
        .status(2)
        .stderr_contains("Error: {HOME}/.srt-settings.json:2:")
        .stderr_contains("not valid JSON")
        .run();
}

#[test]
fn config_and_profile_errors_exit_2_too() {
    Test::new()
        .args(&["test"])
        .status(2)
        .stderr_contains("config file not found")
        .run();
    Test::with_policy()
        .args(&["test", "-p", "nope"])
        .status(2)
        .stderr_contains("nope")
        .run();
}

#[test]
fn the_options_are_documented() {
    let out = Test::new().args(&["test", "--help"]).run();
    for option in [
        "-p, --profile",
        "-k <TEXT>",
        "--json",
        "--timeout <SECS>",
        "--deny-read",
        "--deny-write",
        "--allow-write",
        "--allowed-domains",
        "--denied-domains",
    ] {
        assert!(out.stdout.contains(option), "{option}\n{}", out.stdout);
    }
    Test::new()
        .args(&["test", "--timeout", "0"])
        .status(2)
        .stderr_contains("--timeout")
        .run();
}
