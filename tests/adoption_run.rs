//! `run` never widens: Copilot, whose policy is the flags `run` adds, runs
//! without any of them while it is no target of config.toml (those flags
//! can allow more than Copilot's own defaults: `--allow-tool shell`), and a
//! warning says the policy does not cover it; `--strict` refuses instead.

use crate::support::*;

const STAND_IN: &str = "#!/bin/sh\necho \"ran $(basename \"$0\")\"\nfor a in \"$@\"; do printf '[%s]\\n' \"$a\"; done\n";

/// The base policy, no Copilot target, a stand-in copilot first on PATH.
fn copilot_not_a_target() -> Test {
    let test = Test::with_policy()
        .file("bin/copilot", STAND_IN)
        .mode("bin/copilot", 0o755);
    let path = format!("{}/bin:/usr/bin:/bin", test.home().display());
    test.env("PATH", &path)
}

#[test]
fn copilot_that_is_no_target_runs_with_no_flag_twsrt_would_add() {
    copilot_not_a_target()
        .args(&["run", "--", "copilot", "-p", "hi"])
        .stdout("ran copilot\n[-p]\n[hi]\n")
        .stderr_contains(
            "Warning: copilot is not configured in [targets] of config.toml: it starts with its \
             own defaults and none of twsrt's flags, so the policy does not cover it",
        )
        .lacks("--allow-tool")
        .run();
}

#[test]
fn strict_refuses_to_start_copilot_that_is_no_target() {
    copilot_not_a_target()
        .args(&["run", "--strict", "--", "copilot", "-p", "hi"])
        .status(1)
        .stderr_contains("copilot was not started: copilot is not configured in [targets]")
        .stderr_contains("run `twsrt generate -w copilot`")
        .unchanged()
        .run();
}
