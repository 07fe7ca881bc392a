//! All-or-nothing writes, end to end through the real binary.

use crate::support::*;

fn policy_with_copilot_file() -> Test {
    Test::with_policy()
        .targets()
        .file_by_twsrt(SRT_OUT, "{\"old\": true}\n")
        .mode(SRT_OUT, 0o644)
}

#[test]
fn a_rename_failing_midway_restores_every_file() {
    // The three renames of `generate -w copilot`, in commit order.
    for (fail_at, file) in [SRT_OUT, BASH_OUT, COPILOT].iter().enumerate() {
        policy_with_copilot_file()
            .args(&["generate", "-w", "copilot"])
            .env("TWSRT_FAULT_COMMIT", &fail_at.to_string())
            .status(1)
            // The warnings precede the writes; a rolled-back write gets no
            // status line.
            .stderr(&format!(
                "{NO_ASK_TIER}Error: {{HOME}}/{file}: injected fault: rename refused\n"
            ))
            .unchanged()
            .run();
    }
}

#[test]
fn without_a_fault_every_file_is_written_and_modes_are_kept() {
    let out = policy_with_copilot_file()
        .args(&["generate", "-w", "copilot"])
        .stderr(&format!(
            "{NO_ASK_TIER}\
             Wrote canonical: {{HOME}}/.srt-settings.json\n\
             Wrote canonical: {{HOME}}/.config/twsrt/bash-rules.json\n\
             Wrote: {{HOME}}/flags/copilot.txt\n"
        ))
        .run();
    let t = out.snapshot();
    let entry = |rel: &str| &t[std::path::Path::new(rel)];
    assert!(entry(SRT_OUT).starts_with("644 {\n"));
    assert!(entry(COPILOT).starts_with("600 --allow-tool"));
    assert!(entry(BASH_OUT).starts_with("600 "));
}

#[test]
fn a_directory_that_cannot_be_created_fails_before_anything_changes() {
    // A regular file sits where the target's directory should be.
    policy_with_copilot_file()
        .file("flags", "not a directory")
        .args(&["generate", "-w", "copilot"])
        .status(1)
        .stderr("Error: {HOME}/flags: is not a directory, so {HOME}/flags/copilot.txt cannot be read or written\n")
        .unchanged()
        .run();
}

#[test]
fn a_target_that_is_a_directory_is_an_error_naming_it() {
    policy_with_copilot_file()
        .dir(COPILOT)
        .args(&["generate", "-w", "copilot"])
        .status(1)
        .stderr("Error: {HOME}/flags/copilot.txt: is a directory, not a file\n")
        .unchanged()
        .run();
}

/// The preview, and `-n` with or without `-w` (kept from 1.0.0 for scripts;
/// 3.3.3 refuses it): the same output, and nothing written.
const PREVIEWS: [&[&str]; 3] = [
    &["generate", "copilot"],
    &["generate", "-n", "copilot"],
    &["generate", "-w", "-n", "copilot"],
];

#[test]
fn a_dry_run_is_the_preview_and_writes_nothing() {
    for args in PREVIEWS {
        policy_with_copilot_file()
            .args(args)
            .stdout(
                "--allow-tool 'shell' \\\n\
                 --allow-tool 'read' \\\n\
                 --allow-tool 'edit' \\\n\
                 --allow-tool 'write' \\\n\
                 --allow-url 'github.com' \\\n\
                 --deny-url 'evil.com' \\\n\
                 --deny-url 'http://evil.com' \\\n\
                 --deny-tool 'shell(git push:*)' \\\n\
                 --deny-tool 'shell(rm:*)' \\\n",
            )
            .stderr(&format!(
                "{NO_ASK_TIER}{WOULD_WRITE_CANONICAL}\
                 Would write agent target: {{HOME}}/flags/copilot.txt\n{PREVIEW_END}"
            ))
            .unchanged()
            .run();
    }
}

#[test]
fn a_preview_fails_on_the_targets_a_real_run_would_fail_on() {
    for args in PREVIEWS {
        let blocked_dir = policy_with_copilot_file().dir(COPILOT);
        let blocked_parent =
            policy_with_copilot_file().file("flags", "a file where a directory belongs");
        for (t, stderr) in [
            (
                blocked_dir,
                "Error: {HOME}/flags/copilot.txt: is a directory, not a file\n",
            ),
            (
                blocked_parent,
                "Error: {HOME}/flags: is not a directory, so {HOME}/flags/copilot.txt cannot be read or written\n",
            ),
        ] {
            t.args(args).status(1).stderr(stderr).unchanged().run();
        }
    }
}

#[test]
fn diff_never_opens_a_fifo_in_place_of_a_canonical_output() {
    // A FIFO would block a reader forever (the builder's timeout would fail
    // the test); it must be reported as drift. (Exit 2: the Copilot target
    // was never written.)
    policy_with_copilot_file()
        .fifo(BASH_OUT)
        .args(&["diff", "copilot"])
        .status(2)
        .stdout("srt canonical: drift\nbash canonical: drift\n")
        .stderr("Error: copilot target file not found: {HOME}/flags/copilot.txt; run `twsrt generate -w copilot` to write it\n")
        .unchanged()
        .run();
}
