//! All-or-nothing writes, end to end through the real binary.

use crate::support::*;

fn policy_with_copilot_file() -> Test {
    Test::with_policy()
        .config_append("\n[targets]\ncopilot_output = \"~/flags/copilot.txt\"\n")
        .file(".srt-settings.json", "{\"old\": true}\n")
        .mode(".srt-settings.json", 0o644)
}

#[test]
fn a_rename_failing_midway_restores_every_file() {
    for fail_at in 0..3 {
        let t = policy_with_copilot_file();
        let before = t.tree();
        let out = t
            .args(&["generate", "-w", "copilot"])
            .env("TWSRT_FAULT_COMMIT", &fail_at.to_string())
            .status(1)
            .stderr_contains("injected fault")
            .run();
        assert_eq!(tree(out.home.path()), before, "fault at {fail_at}");
        assert!(
            out.stdout.is_empty(),
            "status lines for a rolled-back write: {}",
            out.stdout
        );
    }
}

#[test]
fn without_a_fault_every_file_is_written_and_modes_are_kept() {
    let out = policy_with_copilot_file()
        .args(&["generate", "-w", "copilot"])
        .run();
    assert_eq!(
        out.stdout,
        "Wrote canonical: {HOME}/.srt-settings.json\nWrote canonical: {HOME}/.config/twsrt/bash-rules.json\nWrote: {HOME}/flags/copilot.txt\n"
    );
    let t = tree(out.home.path());
    assert!(t[std::path::Path::new(".srt-settings.json")].starts_with("644 {\n"));
    assert!(t[std::path::Path::new("flags/copilot.txt")].starts_with("600 --allow-tool"));
    assert!(t[std::path::Path::new(".config/twsrt/bash-rules.json")].starts_with("600 "));
}

#[test]
fn a_directory_that_cannot_be_created_fails_before_anything_changes() {
    // A regular file sits where the target's directory should be.
    let t = policy_with_copilot_file().file("flags", "not a directory");
    let before = t.tree();
    let out = t
        .args(&["generate", "-w", "copilot"])
        .status(1)
        .stderr_contains("{HOME}/flags")
        .run();
    assert_eq!(tree(out.home.path()), before);
}

#[test]
fn a_target_that_is_a_directory_is_an_error_naming_it() {
    let t = policy_with_copilot_file().dir("flags/copilot.txt");
    let before = t.tree();
    let out = t
        .args(&["generate", "-w", "copilot"])
        .status(1)
        .stderr_contains("{HOME}/flags/copilot.txt")
        .run();
    assert_eq!(tree(out.home.path()), before);
}

#[test]
fn a_dry_run_writes_nothing() {
    let t = policy_with_copilot_file();
    let before = t.tree();
    let out = t.args(&["generate", "-w", "-n", "copilot"]).run();
    assert_eq!(tree(out.home.path()), before);
    assert!(
        out.stdout
            .starts_with("Would write canonical: {HOME}/.srt-settings.json\n")
    );
    assert!(out.stdout.contains(
        "Would write agent target: {HOME}/flags/copilot.txt\n--- Dry run: copilot ---\n--allow-tool"
    ));
}

#[test]
fn a_dry_run_fails_on_the_targets_a_real_run_would_fail_on() {
    for blocker in ["flags/copilot.txt/", "flags"] {
        let t = if blocker.ends_with('/') {
            policy_with_copilot_file().dir(blocker.trim_end_matches('/'))
        } else {
            policy_with_copilot_file().file(blocker, "a file where a directory belongs")
        };
        let before = t.tree();
        let out = t
            .args(&["generate", "-w", "-n", "copilot"])
            .status(1)
            .stderr_contains("{HOME}/flags")
            .run();
        assert!(out.stdout.is_empty(), "{}", out.stdout);
        assert_eq!(tree(out.home.path()), before);
    }
}

#[test]
fn diff_never_opens_a_fifo_in_place_of_a_canonical_output() {
    let t = policy_with_copilot_file();
    let fifo = t.home().join(".config/twsrt/bash-rules.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    // A FIFO would block a reader forever; it must be reported as drift.
    let out = t.args(&["diff", "copilot"]).status_any().run();
    assert!(
        out.stdout.contains("bash canonical: drift"),
        "{}",
        out.stdout
    );
}
