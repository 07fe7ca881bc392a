//! Issue 40: a Claude settings file that Claude Code's settings schema
//! refuses (it drops the whole file, every rule in it) and the allow-shaped
//! keys twsrt did not write are what `generate`, `diff` and `audit` report.

use serde_json::Value;

use crate::support::*;

const CLAUDE_ONLY: &str = "\n[targets]\nclaude_settings = \"~/.claude/settings.full.json\"\n";

/// The base policy with Claude written by `generate -w`.
fn written() -> Test {
    Test::with_policy()
        .config_append(CLAUDE_ONLY)
        .args(&["generate", "-w", "claude"])
        .any_stderr()
        .run()
        .then()
}

/// The written target changed by `change`.
fn edited(t: Test, change: impl FnOnce(&mut Value)) -> Test {
    let path = t.home().join(CLAUDE_TARGET);
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    change(&mut doc);
    std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    t
}

/// A change to a settings document.
type Change = fn(&mut Value);

/// The four values the issue measured Claude Code 2.1.337 dropping a file
/// for (tests/clients/claude_schema.py measures it with the real client).
fn refused() -> [(&'static str, Change); 4] {
    [
        ("/sandbox/enabled", |d| d["sandbox"]["enabled"] = 1.into()),
        ("/permissions/defaultMode", |d| {
            d["permissions"]["defaultMode"] = "plan2".into()
        }),
        ("/model", |d| d["model"] = 5.into()),
        ("/cleanupPeriodDays", |d| {
            d["cleanupPeriodDays"] = "x".into()
        }),
    ]
}

#[test]
fn diff_reports_a_file_claude_code_drops_as_widening_drift() {
    for (pointer, change) in refused() {
        let out = edited(written(), change)
            .args(&["diff", "claude", "--fail-on", "widening"])
            .status(1)
            .any_stdout()
            .any_stderr()
            .run();
        let line = format!("  - schema:{pointer} (Claude Code drops the whole file)\n");
        assert!(out.stdout.contains(&line), "{pointer}: {}", out.stdout);
    }
}

#[test]
fn generate_refuses_to_write_into_a_file_claude_code_drops() {
    for (pointer, change) in refused() {
        let t = edited(written(), change);
        let before = std::fs::read_to_string(t.home().join(CLAUDE_TARGET)).unwrap();
        let out = t
            .args(&["generate", "-w", "claude"])
            .status(1)
            .any_stdout()
            .stderr_contains(&format!(
                "{{HOME}}/.claude/settings.full.json: {pointer} is "
            ))
            .stderr_contains("so Claude Code drops the whole file")
            .run();
        assert_eq!(out.read(CLAUDE_TARGET), before, "{pointer}");
    }
}

#[test]
fn a_value_the_schema_takes_is_no_drift() {
    edited(written(), |d| d["fooBarTwsrt"] = 1.into())
        .args(&["diff", "claude"])
        .stdout_contains("claude: no drift\n")
        .run();
}

#[test]
fn an_srt_key_claude_code_refuses_is_refused_before_it_is_written() {
    Test::with_policy()
        .config_append(CLAUDE_ONLY)
        .file(".config/twsrt/srt/base.jsonc", r#"{"enabled": "yes"}"#)
        .args(&["generate", "-w", "claude"])
        .status(1)
        .stderr_contains("/sandbox/enabled is a string where Claude Code")
        .run();
}

/// The issue's hand-added allows, each widening drift of the user file.
#[test]
fn foreign_allows_modes_and_directories_are_widening_drift() {
    let t = edited(written(), |d| {
        let allow = d["permissions"]["allow"].as_array_mut().unwrap();
        for rule in [
            "Write",
            "WebFetch",
            "WebFetch(*)",
            "Bash(rm:*)",
            "mcp__x__y",
        ] {
            allow.push(rule.into());
        }
        d["permissions"]["defaultMode"] = "bypassPermissions".into();
        d["permissions"]["additionalDirectories"] = serde_json::json!(["/"]);
        d["sandbox"]["allowUnsandboxedCommands"] = true.into();
    });
    let out = t
        .args(&["diff", "claude", "--fail-on", "widening"])
        .status(1)
        .any_stdout()
        .any_stderr()
        .run();
    for line in [
        "] Write\n",
        "] WebFetch\n",
        "] WebFetch(...)\n",
        "] Bash(...)\n",
        "  - permissions.defaultMode:bypassPermissions\n",
        "  - permissions.additionalDirectories:[0]\n",
        "  - sandbox:allowUnsandboxedCommands\n",
    ] {
        assert!(out.stdout.contains(line), "{line}: {}", out.stdout);
    }
    assert!(!out.stdout.contains("mcp__x__y"), "{}", out.stdout);
}

#[test]
fn audit_reports_a_user_file_claude_code_drops() {
    for (pointer, change) in refused() {
        edited(written(), change)
            .args(&["audit", "--", "claude"])
            .status(1)
            .stdout_contains(&format!(
                "Error: $CLAUDE_CONFIG_DIR/settings.json: {pointer} is "
            ))
            .run();
    }
}

#[test]
fn audit_reports_the_grants_of_the_user_file() {
    let t = edited(written(), |d| {
        d["permissions"]["allow"]
            .as_array_mut()
            .unwrap()
            .push("Write".into());
        d["permissions"]["defaultMode"] = "acceptEdits".into();
    });
    t.args(&["audit", "--strict", "--", "claude"])
        .status(1)
        .stdout_contains("Warning: $CLAUDE_CONFIG_DIR/settings.json: permissions.allow [")
        .stdout_contains("] Write: runs a tool the policy restricts without asking\n")
        .stdout_contains(
            "Warning: $CLAUDE_CONFIG_DIR/settings.json: permissions.defaultMode acceptEdits: \
             runs tools without asking\n",
        )
        .run();
}

/// The issue's project layers: a sandboxed `cat` reads what allowRead
/// re-opens, allowWrite opens the home, a `Write` allow writes unasked.
#[test]
fn audit_reports_project_files_that_reopen_or_grant() {
    for (file, body, finding) in [
        (
            ".claude/settings.local.json",
            r#"{"sandbox": {"filesystem": {"allowRead": ["~/.aws"]}}}"#,
            "Error: .claude/settings.local.json: sets sandbox.filesystem.allowRead (1 path(s))",
        ),
        (
            ".claude/settings.json",
            r#"{"sandbox": {"filesystem": {"allowWrite": ["//$HOME"]}}}"#,
            "Error: .claude/settings.json: sets sandbox.filesystem.allowWrite (1 path(s))",
        ),
        (
            ".claude/settings.json",
            r#"{"permissions": {"allow": ["Write"]}}"#,
            "Warning: .claude/settings.json: permissions.allow [0] Write: runs a tool",
        ),
        (
            ".claude/settings.json",
            r#"{"model": 5}"#,
            "Warning: .claude/settings.json: /model is a number where Claude Code",
        ),
    ] {
        written()
            .file(&format!("proj/{file}"), body)
            .cwd("proj")
            .args(&["audit", "--strict", "--", "claude"])
            .status(1)
            .stdout_contains(finding)
            .run();
    }
}

/// The issue's managed drop-in: `60-team.json` re-opening `~/.aws` for the
/// sandbox (Claude read the secret) and the other allow-shaped keys it can
/// set beside twsrt's drop-in are widening drift of `--scope managed`.
#[test]
fn a_managed_drop_in_that_reopens_or_grants_is_widening_drift() {
    for (body, line) in [
        (
            r#"{"sandbox": {"filesystem": {"allowRead": ["~/.aws"]}}}"#,
            "60-team.json sandbox.filesystem.allowRead: \"~/.aws\"",
        ),
        (
            r#"{"permissions": {"additionalDirectories": ["/"]}}"#,
            "60-team.json permissions.additionalDirectories: \"/\"",
        ),
        (
            r#"{"permissions": {"defaultMode": "bypassPermissions"}}"#,
            "60-team.json permissions.defaultMode: bypassPermissions",
        ),
        (
            r#"{"sandbox": {"excludedCommands": ["curl"]}}"#,
            "60-team.json sandbox: excludedCommands",
        ),
    ] {
        let out = Test::with_policy()
            .config_append(CLAUDE_ONLY)
            .args(&[
                "generate", "-w", "claude", "--scope", "managed", "--root", "root",
            ])
            .any_stderr()
            .any_stdout()
            .run()
            .then()
            .file("root/etc/claude-code/managed-settings.d/60-team.json", body)
            .args(&[
                "diff",
                "claude",
                "--scope",
                "managed",
                "--root",
                "root",
                "--fail-on",
                "widening",
            ])
            .status(1)
            .any_stdout()
            .any_stderr()
            .run();
        assert!(out.stdout.contains(line), "{line}: {}", out.stdout);
    }
}
