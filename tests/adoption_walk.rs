//! The adoption walk (issue 42, "Done when"): a fresh HOME with hand-kept
//! agent settings goes through the README's and GUIDE's adoption steps
//! (`config --init`, `import` per agent, `generate -w`, `diff --fail-on
//! widening`, `generate --yolo -w claude`, `run`), and afterwards every deny
//! and ask the user wrote is in force in the file each agent loads, and the
//! user's hooks, env, model and MCP settings are in both Claude modes.
//!
//! OpenCode's part of `diff` (a user entry the policy grants too reads as
//! widening) and `import opencode` are track 42b's: the walk asserts what
//! OpenCode's file holds and gates `diff` per agent for Claude and Codex.

use crate::support::*;

/// `~/.srt-settings.json` kept by hand.
const SRT: &str = r#"{"filesystem": {"denyRead": ["~/.gnupg", "~/.ssh"], "allowWrite": ["."], "denyWrite": []},
 "network": {"allowedDomains": ["github.com"], "deniedDomains": ["pastebin.com"]}}
"#;

/// The Claude settings in a dotfiles repository, `settings.json` links there.
const DOTFILE: &str = "dotfiles/claude/settings.json";
const CLAUDE: &str = r#"{"model": "opus", "env": {"AUDIT": "1"},
 "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}]},
 "mcpServers": {"gh": {"command": "gh-mcp"}},
 "permissions": {"deny": ["Read(~/.gnupg/**)", "Edit(~/.gnupg/**)", "Bash(curl:*)", "mcp__github__delete_repo", "WebSearch"],
                 "ask": ["WebFetch(domain:x.example)", "Bash(git push:*)"]}}
"#;

/// Every deny and ask the user wrote, as Claude Code reads them: the
/// entry itself, or for the legacy `Bash(CMD:*)` both rules it means.
const CLAUDE_DENIES: [&str; 6] = [
    "Read(~/.gnupg/**)",
    "Edit(~/.gnupg/**)",
    "Bash(curl)",
    "Bash(curl *)",
    "mcp__github__delete_repo",
    "WebSearch",
];
const CLAUDE_ASKS: [&str; 3] = [
    "WebFetch(domain:x.example)",
    "Bash(git push)",
    "Bash(git push *)",
];

/// A commented Codex config with a profile, stricter than the policy.
const CODEX: &str = "# my codex\nmodel = \"gpt-5\"\n# ask before anything not trusted\n\
    approval_policy = \"untrusted\"\n\n[profiles.work]\nmodel = \"o3\"\n";

const OPENCODE: &str = ".config/opencode/opencode.json";
const OPENCODE_TEXT: &str = r#"{"permission": {"bash": {"rm *": "deny", "git status": "allow"}}}"#;

const STAND_IN: &str = "#!/bin/sh\necho \"ran $(basename \"$0\")\"\n";

fn hand_kept() -> Test {
    Test::new()
        .file(SRT_OUT, SRT)
        .file(DOTFILE, CLAUDE)
        .symlink(ANCHOR, "../dotfiles/claude/settings.json")
        .file(CODEX_CONFIG, CODEX)
        .file(OPENCODE, OPENCODE_TEXT)
        .file("bin/claude", STAND_IN)
        .mode("bin/claude", 0o755)
}

/// `twsrt config --init`, then what its comments say: the srt output the
/// README uses and every detected agent's target uncommented.
fn initialised() -> Output {
    let out = hand_kept()
        .args(&["config", "--init"])
        .stderr_contains("Info: claude is installed")
        .stderr_contains("Info: codex is installed")
        .stderr_contains("Info: opencode is installed")
        .any_stdout()
        .any_stderr()
        .run();
    let mut config = out.read(CONFIG);
    for (commented, line) in [
        (
            "# output = \"~/.srt-settings.json\"",
            "output = \"~/.srt-settings.json\"",
        ),
        ("# claude_settings = ", "claude_settings = "),
        ("# codex_config = ", "codex_config = "),
        ("# codex_rules = ", "codex_rules = "),
        ("# opencode_config = ", "opencode_config = "),
    ] {
        assert!(config.contains(commented), "{commented}: {config}");
        config = config.replacen(commented, line, 1);
    }
    out.then()
        .file(CONFIG, config)
        .args(&["show"])
        .any_stdout()
        .any_stderr()
        .run()
}

fn json(out: &Output, rel: &str) -> serde_json::Value {
    serde_json::from_str(&out.read(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn list(doc: &serde_json::Value, pointer: &str) -> Vec<String> {
    doc.pointer(pointer)
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect()
}

/// What Claude Code loads (`settings.json`, through its link) holds every
/// deny and ask of the user's (asks only in full mode: yolo asks nothing)
/// and the user's own keys.
#[track_caller]
fn claude_holds_the_users_settings(out: &Output, asks: bool) {
    let loaded = json(out, ANCHOR);
    let deny = list(&loaded, "/permissions/deny");
    for entry in CLAUDE_DENIES {
        assert!(deny.iter().any(|d| d == entry), "deny {entry}: {deny:?}");
    }
    if asks {
        let ask = list(&loaded, "/permissions/ask");
        for entry in CLAUDE_ASKS {
            assert!(ask.iter().any(|a| a == entry), "ask {entry}: {ask:?}");
        }
    }
    assert_eq!(loaded["model"], "opus");
    assert_eq!(loaded["env"]["AUDIT"], "1");
    assert_eq!(loaded["mcpServers"]["gh"]["command"], "gh-mcp");
    assert_eq!(
        loaded["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
        "audit.sh"
    );
}

#[test]
fn the_adoption_walk_loses_nothing() {
    let out = initialised();
    // Import every agent with a file (OpenCode's import is track 42b's).
    let mut out = out;
    for agent in ["srt", "claude", "codex"] {
        out = out
            .then()
            .args(&["import", agent, "-w"])
            .any_stdout()
            .any_stderr()
            .run();
    }
    // The hand-written srt file is the policy's now: generate replaces it
    // and loses none of its denies.
    let out = out
        .then()
        .args(&["generate", "-w"])
        .stderr_contains("Info: claude: keeps permissions.deny mcp__github__delete_repo from ")
        .stderr_contains("Info: claude: keeps permissions.ask WebFetch(domain:x.example) from ")
        .stderr_contains("Info: codex: keeps your approval_policy = \"untrusted\"")
        .lacks("Bash(...)")
        .any_stderr()
        .run();
    let srt = json(&out, SRT_OUT);
    let deny_read = list(&srt, "/filesystem/denyRead");
    for path in ["~/.gnupg", "~/.ssh"] {
        assert!(deny_read.iter().any(|p| p == path), "{path}: {deny_read:?}");
    }
    assert!(list(&srt, "/network/deniedDomains").contains(&"pastebin.com".to_string()));
    claude_holds_the_users_settings(&out, true);
    // Codex: the stricter approval policy and its comment stay, the profile
    // stays, and the user's curl deny is a forbidden rule.
    let codex = out.read(CODEX_CONFIG);
    assert!(
        codex.contains("# ask before anything not trusted\napproval_policy = \"untrusted\"\n"),
        "{codex}"
    );
    assert!(codex.contains("[profiles.work]"), "{codex}");
    let rules = out.read(CODEX_RULES);
    assert!(
        rules.contains("\"curl\"") && rules.contains("forbidden"),
        "{rules}"
    );
    // OpenCode keeps the user's deny.
    let opencode = json(&out, OPENCODE);
    assert_eq!(opencode["permission"]["bash"]["rm *"], "deny");
    // The CI gate, per agent this track answers for.
    let mut out = out;
    for agent in ["claude", "codex"] {
        out = out
            .then()
            .args(&["diff", "--fail-on", "widening", agent])
            .any_stdout()
            .any_stderr()
            .run();
    }
    // Yolo keeps the user's keys and denies; its diff passes the gate too.
    let out = out
        .then()
        .args(&["generate", "--yolo", "-w", "claude"])
        .stderr_contains("Info: settings.yolo.json starts from your settings in settings.full.json")
        .any_stderr()
        .run();
    claude_holds_the_users_settings(&out, false);
    let out = out
        .then()
        .args(&["diff", "--yolo", "--fail-on", "widening", "claude"])
        .any_stdout()
        .any_stderr()
        .run();
    // `run` regenerates the full mode and launches; nothing is lost.
    let path = format!("{}/bin:/usr/bin:/bin", out.home().display());
    let out = out
        .then()
        .env("PATH", &path)
        .args(&["run", "--", "claude"])
        .stdout("ran claude\n")
        .lacks("Bash(...)")
        .any_stderr()
        .run();
    claude_holds_the_users_settings(&out, true);
    // Nothing false was said: the dotfile is as the user left it.
    assert_eq!(out.read(DOTFILE), CLAUDE);
}
