//! Yolo keeps the user's keys: without `[claude_sync]`, the first yolo file
//! starts with the full file's hooks, env, model, MCP and status-line
//! settings (everything twsrt does not write), and a yolo file that keeps
//! them differently is named on every switch.

use crate::support::*;

const USER_SETTINGS: &str = r#"{
  "model": "opus",
  "env": {"AUDIT": "1"},
  "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}]},
  "mcpServers": {"gh": {"command": "gh-mcp"}},
  "statusLine": {"type": "command", "command": "status.sh"}
}
"#;

const USER_KEYS: [&str; 5] = ["model", "env", "hooks", "mcpServers", "statusLine"];

fn full_written() -> Output {
    Test::with_policy()
        .targets()
        .file(ANCHOR, USER_SETTINGS)
        .args(&["generate", "-w", "claude"])
        .any_stderr()
        .run()
}

fn json(out: &Output, rel: &str) -> serde_json::Value {
    serde_json::from_str(&out.read(rel)).unwrap()
}

#[test]
fn the_first_yolo_file_keeps_the_users_hooks_env_model_mcp_and_status_line() {
    let full = full_written();
    let out = full
        .then()
        .args(&["generate", "--yolo", "-w", "claude"])
        .stderr_contains(
            "Info: settings.yolo.json starts from your settings in settings.full.json: \
             model, env, hooks, mcpServers, statusLine",
        )
        .run();
    let (full, yolo) = (json(&out, CLAUDE_TARGET), json(&out, CLAUDE_YOLO));
    for key in USER_KEYS {
        assert_eq!(yolo[key], full[key], "{key}");
    }
    assert_eq!(
        yolo["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
        "audit.sh"
    );
}

#[test]
fn a_yolo_file_that_keeps_a_key_otherwise_is_named() {
    let out = full_written()
        .then()
        .args(&["generate", "--yolo", "-w", "claude"])
        .any_stderr()
        .run();
    let mut yolo = json(&out, CLAUDE_YOLO);
    yolo["env"] = serde_json::json!({"AUDIT": "0"});
    out.then()
        .file(CLAUDE_YOLO, yolo.to_string())
        .args(&["generate", "-w", "claude"])
        .any_stderr()
        .run()
        .then()
        .args(&["generate", "--yolo", "-w", "claude"])
        .stderr_contains(
            "Info: settings.yolo.json keeps its own env (different in settings.full.json)",
        )
        .run();
}

/// A deny the user wrote into the full file holds in the first yolo file
/// too (said as kept, from the full file); twsrt's own entries are the
/// yolo policy's, and the full file's asks stay in full mode.
#[test]
fn the_first_yolo_file_keeps_the_users_own_denies() {
    let full = Test::with_policy()
        .targets()
        .file(
            ANCHOR,
            r#"{"model": "opus", "permissions": {"deny": ["mcp__github__delete_repo"], "ask": ["WebSearch"]}}"#,
        )
        .args(&["generate", "-w", "claude"])
        .any_stderr()
        .run();
    let out = full
        .then()
        .args(&["generate", "--yolo", "-w", "claude"])
        .stderr_contains(
            "Info: claude: keeps permissions.deny mcp__github__delete_repo from \
             {HOME}/.claude/settings.full.json beside the policy's entries",
        )
        .stderr_contains(
            "Info: claude: the yolo file does not carry your asks in \
             {HOME}/.claude/settings.full.json (WebSearch): yolo mode asks nothing",
        )
        .any_stderr()
        .run();
    let yolo = json(&out, CLAUDE_YOLO);
    let deny = yolo["permissions"]["deny"].as_array().unwrap();
    assert!(
        deny.contains(&"mcp__github__delete_repo".into()),
        "{deny:?}"
    );
    assert!(deny.contains(&"Bash(rm)".into()), "{deny:?}");
    let deny_count = |d: &serde_json::Value| d.as_array().unwrap().len();
    // No twsrt entry twice.
    let full_doc = json(&out, CLAUDE_TARGET);
    assert!(
        deny_count(&yolo["permissions"]["deny"]) <= deny_count(&full_doc["permissions"]["deny"])
    );
    assert!(!out.read(CLAUDE_YOLO).contains("WebSearch"));
    assert_eq!(yolo["model"], "opus");
}
