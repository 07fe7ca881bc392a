//! `twsrt test` setup failures that need no Sandbox Runtime: each exits 2
//! with a message that says what to do.

use crate::support::*;

#[test]
fn a_missing_settings_file_asks_for_generate() {
    Test::with_policy()
        .args(&["test"])
        .env("TWSRT_SRT", "/nonexistent/srt")
        .status(2)
        .stderr(
            "Error: {HOME}/.srt-settings.json does not exist: run `twsrt generate -w` first \
             (twsrt test probes the settings file srt reads)\n",
        )
        .unchanged()
        .run();
}

#[test]
fn srt_that_cannot_be_found_is_a_setup_failure() {
    // The file on disk is not what the policy compiles to: warned first.
    Test::with_policy()
        .file(SRT_OUT, "{}")
        .args(&["test"])
        .env("TWSRT_SRT", "/nonexistent/srt")
        .status(2)
        .stderr(&format!("{DIFFERS}Error: TWSRT_SRT=/nonexistent/srt is not an executable srt (Sandbox Runtime) binary\n"))
        .unchanged()
        .run();

    Test::with_policy()
        .file(SRT_OUT, "{}")
        .args(&["test"])
        .env("PATH", "/nonexistent")
        .status(2)
        .stderr(&format!(
            "{DIFFERS}Error: srt (Sandbox Runtime) not found on PATH: install it with \
             `npm install -g @anthropic-ai/sandbox-runtime` (it needs bubblewrap, socat and \
             ripgrep on Linux; scripts/install-srt.sh does all of it) or set TWSRT_SRT to its path\n"
        ))
        .unchanged()
        .run();
}

#[test]
fn an_unparsable_settings_file_is_named_with_its_position() {
    Test::with_policy()
        .file(SRT_OUT, "{\n  \"network\": ,\n}")
        .args(&["test"])
        .status(2)
        .stderr("Error: {HOME}/.srt-settings.json:2:14: not valid JSON, srt refuses it: expected value at line 2 column 14\n")
        .unchanged()
        .run();
}

#[test]
fn config_and_profile_errors_exit_2_too() {
    Test::new()
        .args(&["test"])
        .status(2)
        .stderr(
            "Error: config file not found: {HOME}/.config/twsrt/config.toml; run `twsrt config \
             --init` to create a starter\n",
        )
        .unchanged()
        .run();
    Test::with_policy()
        .args(&["test", "-p", "nope"])
        .status(2)
        .stderr(
            "Error: profile 'nope' is not defined in {HOME}/.config/twsrt/config.toml; \
             defined profiles: default\n",
        )
        .unchanged()
        .run();
}

#[test]
fn the_options_are_documented() {
    // clap lays the help out; twsrt owns which options it lists.
    let mut help = Test::new().args(&["test", "--help"]);
    for option in [
        "-p, --profile",
        "-k, --keyword <TEXT>",
        "--json",
        "--timeout <SECS>",
        "--deny-read",
        "--deny-write",
        "--allow-write",
        "--allowed-domains",
        "--denied-domains",
        // 3.3.3's spelling of the section flags.
        "[alias: --denyRead]",
        "[alias: --deniedDomains]",
    ] {
        help = help.stdout_contains(option);
    }
    help.run();
    Test::new()
        .args(&["test", "--timeout", "0"])
        .status(2)
        .stderr(
            "error: invalid value '0' for '--timeout <SECS>': 0 is not a number of seconds \
             above 0 (at most 86400)\n\n\
             For more information, try '--help'.\n",
        )
        .run();
}
