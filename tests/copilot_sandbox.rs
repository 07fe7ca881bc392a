//! `[targets] copilot_sandbox = true`: Copilot CLI's own command sandbox in
//! its settings file, written, diffed and said (tests/clients/
//! copilot_sandbox.py runs it with the real Copilot).

use serde_json::Value;

use crate::support::*;

const SETTINGS: &str = ".copilot/settings.json";

const TARGETS: &str = "\n[targets]\ncopilot_output = \"~/flags/copilot.txt\"\n\
                       copilot_settings = \"~/.copilot/settings.json\"\ncopilot_sandbox = true\n";

fn policy() -> Test {
    Test::with_policy().config_append(TARGETS)
}

#[test]
fn the_sandbox_is_written_beside_the_url_lists_and_its_limit_said_with_verbose() {
    let out = policy()
        .args(&["generate", "copilot", "-w"])
        .stderr_contains("Wrote agent target: {HOME}/.copilot/settings.json\n")
        .lacks("Copilot's command sandbox always lets")
        .any_stderr()
        .any_stdout()
        .run();
    let settings: Value = serde_json::from_str(&out.read(SETTINGS)).unwrap();
    let sandbox = &settings["sandbox"];
    assert_eq!(sandbox["enabled"], true);
    assert_eq!(sandbox["allowBypass"], false);
    assert_eq!(sandbox["addCurrentWorkingDirectory"], true);
    assert_eq!(
        sandbox["userPolicy"]["filesystem"]["deniedPaths"],
        serde_json::json!(["~/.ssh"])
    );
    assert_eq!(settings["deniedUrls"][0], "evil.com");
    // Clean right after the write; a sandbox switched off by hand widens.
    let clean = out
        .then()
        .args(&["diff", "copilot"])
        .any_stdout()
        .any_stderr()
        .run();
    let path = clean.path(SETTINGS);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replacen("\"enabled\": true", "\"enabled\": false", 1),
    )
    .unwrap();
    clean
        .then()
        .args(&["diff", "copilot"])
        .status(1)
        .stdout_contains("sandbox")
        .any_stdout()
        .stderr_contains("widen")
        .any_stderr()
        .run();
    policy()
        .args(&["generate", "copilot", "-v"])
        .stderr_contains(
            "Warning: Copilot's command sandbox always lets commands write the temp directory",
        )
        .any_stderr()
        .any_stdout()
        .run();
}

#[test]
fn the_switch_needs_the_settings_target_and_without_it_the_sandbox_key_is_not_touched() {
    Test::with_policy()
        .config_append(
            "\n[targets]\ncopilot_output = \"~/flags/copilot.txt\"\ncopilot_sandbox = true\n",
        )
        .args(&["generate", "copilot"])
        .status(1)
        .stderr_contains("copilot_sandbox")
        .any_stderr()
        .run();
    let out = Test::with_policy()
        .config_append(
            "\n[targets]\ncopilot_output = \"~/flags/copilot.txt\"\n\
             copilot_settings = \"~/.copilot/settings.json\"\n",
        )
        .file(SETTINGS, "{\"sandbox\": {\"enabled\": false}}\n")
        .args(&["generate", "copilot", "-w"])
        .any_stderr()
        .any_stdout()
        .run();
    let settings: Value = serde_json::from_str(&out.read(SETTINGS)).unwrap();
    assert_eq!(settings["sandbox"], serde_json::json!({"enabled": false}));
}

#[test]
fn explain_shows_the_command_sandbox_row() {
    let out = policy()
        .args(&["explain", "~/.ssh/id"])
        .any_stdout()
        .any_stderr()
        .run();
    let rows: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("sandbox      copilot"))
        .collect();
    assert_eq!(rows.len(), 2, "{}", out.stdout);
    assert!(
        rows.iter()
            .all(|r| r.contains(" deny ") && r.contains("deniedPaths ~/.ssh")),
        "{rows:?}"
    );
    let without = Test::with_policy()
        .config_append("\n[targets]\ncopilot_output = \"~/flags/copilot.txt\"\n")
        .args(&["explain", "~/.ssh/id"])
        .any_stdout()
        .any_stderr()
        .run();
    assert!(
        !without.stdout.contains("sandbox      copilot"),
        "{}",
        without.stdout
    );
}
