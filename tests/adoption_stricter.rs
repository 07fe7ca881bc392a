//! A stricter user value wins: Codex `approval_policy = "untrusted"` asks
//! more often than the policy's `on-request`, so `generate -w` keeps it (and
//! the user's comment beside it), says so when it writes, and `diff` finds
//! no drift; a looser value is replaced and `diff` calls it widening.

use crate::support::*;

const CODEX_ONLY: &str = "[targets]\ncodex_config = \"~/.codex/config.toml\"\n";

const USER_CODEX: &str = "# My Codex settings\nmodel = \"gpt-5\"\n\
    # ask before anything not trusted\napproval_policy = \"untrusted\"\n";

fn with_codex(text: &str) -> Test {
    Test::with_policy()
        .config_append(CODEX_ONLY)
        .file(CODEX_CONFIG, text)
}

#[test]
fn a_stricter_approval_policy_is_kept_said_and_clean_in_diff() {
    let out = with_codex(USER_CODEX)
        .args(&["generate", "-w", "codex"])
        .stderr_contains(
            "Info: codex: keeps your approval_policy = \"untrusted\", which asks more often than \
             the policy's \"on-request\"",
        )
        .run();
    let written = out.read(CODEX_CONFIG);
    assert!(
        written.contains("# ask before anything not trusted\napproval_policy = \"untrusted\"\n"),
        "{written}"
    );
    assert!(!written.contains("on-request"), "{written}");
    let out = out
        .then()
        .args(&["diff", "--fail-on", "widening", "codex"])
        .stdout_contains("codex: no drift")
        .any_stderr()
        .run();
    // An unchanged file: the note is not repeated on every run.
    out.then()
        .args(&["generate", "-w", "codex"])
        .lacks("keeps your approval_policy")
        .any_stderr()
        .run();
}

#[test]
fn a_looser_approval_policy_is_replaced() {
    let out = with_codex("approval_policy = \"never\"\n")
        .args(&["diff", "codex"])
        .status(1)
        .any_stdout()
        .stderr_contains("approval_policy changed (the policy has on-request) (widening)")
        .run();
    let out = out
        .then()
        .args(&["generate", "-w", "codex"])
        .lacks("keeps your approval_policy")
        .any_stderr()
        .run();
    assert!(
        out.read(CODEX_CONFIG)
            .contains("approval_policy = \"on-request\"\n")
    );
}

/// Claude Code's `defaultMode`, strictest first: `plan`, `dontAsk`, then
/// `default` (what the policy assumes), `acceptEdits`, `auto`,
/// `bypassPermissions`. twsrt writes none: a stricter value is kept and
/// said once, diff finds nothing widening; a looser one is kept too (the
/// user's key) and diff calls it widening.
#[test]
fn a_stricter_claude_default_mode_is_kept_and_said_once() {
    for mode in ["plan", "dontAsk"] {
        let out = Test::with_policy()
            .config_append("\n[targets]\nclaude_settings = \"~/.claude/settings.full.json\"\n")
            .file(
                ANCHOR,
                format!("{{\"permissions\": {{\"defaultMode\": \"{mode}\"}}}}\n"),
            )
            .args(&["generate", "-w", "claude"])
            .stderr_contains(&format!(
                "Info: claude: keeps your permissions.defaultMode \"{mode}\", which asks or runs \
                 less than Claude Code's \"default\" the policy assumes"
            ))
            .any_stderr()
            .run();
        let loaded: serde_json::Value = serde_json::from_str(&out.read(ANCHOR)).unwrap();
        assert_eq!(loaded["permissions"]["defaultMode"], mode);
        let out = out
            .then()
            .args(&["diff", "claude", "--fail-on", "widening"])
            .stdout_contains("claude: no drift")
            .any_stderr()
            .run();
        out.then()
            .args(&["generate", "-w", "claude"])
            .lacks("defaultMode")
            .any_stderr()
            .run();
    }
}

#[test]
fn a_looser_claude_default_mode_is_widening_in_diff() {
    let out = Test::with_policy()
        .config_append("\n[targets]\nclaude_settings = \"~/.claude/settings.full.json\"\n")
        .file(
            ANCHOR,
            "{\"permissions\": {\"defaultMode\": \"acceptEdits\"}}\n",
        )
        .args(&["generate", "-w", "claude"])
        .lacks("keeps your permissions.defaultMode")
        .any_stderr()
        .run();
    out.then()
        .args(&["diff", "claude", "--fail-on", "widening"])
        .status(1)
        .stdout_contains("permissions.defaultMode:acceptEdits")
        .stderr_contains("claude: 1 of 1 differences widen")
        .any_stderr()
        .run();
}
