//! `[claude_sync]`: a mode switch rebuilds the target from the file
//! `settings.json` pointed at; a bad table is a config error.

use crate::support::*;

const SYNC: &str = "\n[targets]\nclaude_settings = \"~/.claude/settings.full.json\"\n\
    \n[claude_sync]\nmode_specific = [\"model\"]\n";
const INFO: &str = "Info: Synced invariant settings from settings.full.json\n";

fn switching_to_yolo() -> Test {
    Test::with_policy()
        .config_append(SYNC)
        .file(
            CLAUDE_TARGET,
            "{\"model\": \"opus\", \"hooks\": {\"Stop\": []}}\n",
        )
        .file(CLAUDE_YOLO, "{\"model\": \"sonnet\", \"onlyYolo\": 1}\n")
        .symlink(ANCHOR, "settings.full.json")
}

#[test]
fn a_preview_says_it_synced_and_writes_nothing() {
    switching_to_yolo()
        .args(&["generate", "--yolo", "claude"])
        .any_stdout()
        .stderr(&format!(
            "{INFO}{WOULD_WRITE_CANONICAL}Would write agent target: {{HOME}}/{CLAUDE_YOLO}\n\
             Info: would repoint the symlink {{HOME}}/{ANCHOR} to settings.yolo.json \
             (it points to settings.full.json): the agent would then load \
             settings.yolo.json\n{PREVIEW_END}"
        ))
        .unchanged()
        .run();
}

#[test]
fn a_write_copies_the_donor_keeps_the_mode_specific_value_and_relinks() {
    let out = switching_to_yolo()
        .args(&["generate", "--yolo", "claude", "-w"])
        .stderr_contains(INFO)
        .run();
    let yolo = out.read(CLAUDE_YOLO);
    assert!(
        yolo.starts_with("{\n  \"model\": \"sonnet\",\n  \"hooks\""),
        "{yolo}"
    );
    assert!(!yolo.contains("onlyYolo"), "{yolo}");
    let link = std::fs::read_link(out.path(ANCHOR)).unwrap();
    assert_eq!(link, std::path::Path::new("settings.yolo.json"));
}

#[test]
fn without_the_table_a_switch_merges_onto_the_target_alone() {
    // The same HOME, with config.toml replaced by one without [claude_sync].
    let out = switching_to_yolo()
        .file(
            CONFIG,
            format!(
                "{BASE_CONFIG}\n[targets]\nclaude_settings = \"~/.claude/settings.full.json\"\n"
            ),
        )
        .args(&["generate", "--yolo", "claude", "-w"])
        .any_stderr()
        .lacks("Synced")
        .run();
    assert!(out.read(CLAUDE_YOLO).contains("onlyYolo"));
}

/// 3.3.3 crashes with a traceback on a donor that is not an object.
#[test]
fn a_donor_that_is_not_an_object_is_an_error_and_nothing_is_written() {
    switching_to_yolo()
        .file(CLAUDE_TARGET, "[1]\n")
        .args(&["generate", "--yolo", "claude", "-w"])
        .status(1)
        .stderr_contains("Error: {HOME}/.claude/settings.full.json: does not hold a JSON object")
        .unchanged()
        .run();
}

#[test]
fn a_bad_table_fails_every_command_naming_the_key() {
    for command in [
        &["generate", "codex"][..],
        &["diff"][..],
        &["generate", "-w"][..],
    ] {
        Test::with_policy()
            .config_append("\n[claude_sync]\nmode_specific = [\"\"]\n")
            .args(command)
            .status(1)
            .stderr(
                "Error: {HOME}/.config/twsrt/config.toml: claude_sync.mode_specific entries \
                 must be non-empty strings, got ''\n",
            )
            .unchanged()
            .run();
    }
}
