//! The agent's own guard is write-protected (issue 27 item 8,
//! doc/compatibility.md row 34): every file a configured `[targets]` key
//! writes, in both modes, joins the compiled denyWrite like the policy
//! files (Claude's `settings.json` is twsrt's symlink to one of them), so every generated layer
//! (srt, Claude's Edit denies, Codex's profile, the guard hook) refuses an
//! agent's attempt to switch its own guard off; `explain` says why.

use crate::support::*;

const ALL_TARGETS: &str = "[targets]\nclaude_settings = \"~/.claude/settings.full.json\"\n\
     codex_config = \"~/.codex/config.toml\"\ncodex_rules = \"~/.codex/rules/twsrt.rules\"\n\
     copilot_output = \"~/flags/copilot.txt\"\ncopilot_settings = \"~/.copilot/settings.json\"\n\
     gemini_policy = \"~/.gemini/policies/twsrt.toml\"\n";

/// Every guard file's spelling, the yolo files derived from their keys included.
const GUARDS: [&str; 11] = [
    "~/.claude/settings.full.json",
    "~/.claude/settings.yolo.json",
    "~/.codex/config.toml",
    "~/.codex/rules/twsrt.rules",
    "~/.copilot/settings.json",
    "~/.copilot/settings.yolo.json",
    "~/.gemini/policies/twsrt.toml",
    "~/.gemini/policies/twsrt.yolo.toml",
    "~/flags/copilot.txt",
    "~/flags/copilot.yolo.txt",
    "~/.config/twsrt/config.toml",
];

fn policy() -> Test {
    Test::with_policy().config_append(ALL_TARGETS)
}

#[test]
fn every_target_file_of_both_modes_is_write_denied_by_srt() {
    let out = policy().args(&["show", "srt"]).any_stdout().run();
    let srt: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let deny_write: Vec<&str> = srt["filesystem"]["denyWrite"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    for guard in GUARDS {
        assert!(deny_write.contains(&guard), "{guard} not in {deny_write:?}");
    }
    // An agent that is not configured has no guard file to protect.
    let out = Test::with_policy()
        .config_append("[targets]\nclaude_settings = \"~/.claude/settings.full.json\"\n")
        .args(&["show", "srt"])
        .any_stdout()
        .run();
    assert!(out.stdout.contains("\"~/.claude/settings.yolo.json\""));
    assert!(!out.stdout.contains(".codex"), "{}", out.stdout);
}

#[test]
fn claude_and_codex_deny_edits_of_the_guard_files() {
    let out = policy()
        .args(&["generate", "claude"])
        .any_stdout()
        .any_stderr()
        .run();
    for guard in [
        "~/.claude/settings.full.json",
        "~/.claude/settings.yolo.json",
        "~/.codex/config.toml",
    ] {
        assert!(
            out.stdout.contains(&format!("\"Edit({guard})\"")),
            "{guard}\n{}",
            out.stdout
        );
    }
    // With ~/.claude there (Claude installed); without it the one entry
    // `"~/.claude" = "read"` holds the guard files (tests/codex_missing_dir.rs).
    let out = out
        .then()
        .file(".claude/keep", "")
        .args(&["generate", "codex"])
        .any_stdout()
        .any_stderr()
        .run();
    for guard in [
        "~/.claude/settings.full.json",
        "~/.codex/config.toml",
        "~/.codex/rules/twsrt.rules",
    ] {
        assert!(
            out.stdout.contains(&format!("\"{guard}\" = \"read\"")),
            "{guard}\n{}",
            out.stdout
        );
    }
}

#[test]
fn the_hook_denies_an_edit_or_a_redirect_onto_a_guard_file() {
    // After `-w`, settings.json is the symlink to settings.full.json.
    let home = policy()
        .args(&["generate", "-w", "claude"])
        .any_stderr()
        .run();
    let edit = format!(
        r#"{{"tool_name":"Edit","tool_input":{{"file_path":"{}/.claude/settings.full.json","old_string":"a","new_string":"b"}},"cwd":"{}","hook_event_name":"PreToolUse"}}"#,
        home.home().display(),
        home.home().display()
    );
    let redirect = format!(
        r#"{{"tool_name":"Bash","tool_input":{{"command":"echo '{{}}' > ~/.claude/settings.full.json"}},"cwd":"{}","hook_event_name":"PreToolUse"}}"#,
        home.home().display()
    );
    let through_the_link = format!(
        r#"{{"tool_name":"Bash","tool_input":{{"command":"ln -sfn /tmp/x.json ~/.claude/settings.json"}},"cwd":"{}","hook_event_name":"PreToolUse"}}"#,
        home.home().display()
    );
    for input in [edit, redirect, through_the_link] {
        let path = home.path("hook-input.json");
        std::fs::write(&path, &input).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_twsrt"))
            .args(["hook", "claude"])
            .env_clear()
            .env("HOME", home.home())
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .stdin(std::fs::File::open(&path).unwrap())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains("\"permissionDecision\":\"deny\"")
                && stdout.contains("~/.claude/settings.full.json"),
            "{input}\n{stdout}"
        );
    }
}

#[test]
fn explain_names_the_guard_file_as_the_reason() {
    // ~/.claude exists: else Codex's row names the one `"~/.claude"` entry
    // that holds it while it is missing (tests/codex_missing_dir.rs).
    let out = policy()
        .file(".claude/keep", "")
        .args(&["explain", "~/.claude/settings.full.json"])
        .any_stdout()
        .run();
    let write_rows: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.contains(" write "))
        .collect();
    for layer in ["srt ", "permissions ", "profile ", "policy "] {
        let row = write_rows
            .iter()
            .find(|r| r.starts_with(layer))
            .unwrap_or_else(|| panic!("no {layer} row in {}", out.stdout));
        assert!(
            row.contains("deny") && row.contains("[targets] (agent guard file)"),
            "{row}"
        );
    }
}
