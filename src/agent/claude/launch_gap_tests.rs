//! Claude Code launches that switch the policy off or add code it never
//! saw, one test per gap: the guard hook, the sandbox, plugins and MCP
//! servers, and the user layer `CLAUDE_CONFIG_DIR` decides.

use crate::agent::launch::fixture::gaps::*;

#[test]
fn claude_launches_that_skip_the_guard_hook() {
    for flag in ["--bare", "--safe-mode"] {
        assert_eq!(
            summary(&["claude", flag, "-p", "x"], true),
            one(Severity::Error, flag),
        );
        // Without the hook they leave the policy as it is.
        assert!(summary(&["claude", flag], false).is_empty(), "{flag}");
    }
    let off = r#"{"disableAllHooks": true}"#;
    assert_eq!(
        summary(&["claude", "--settings", off], true),
        one(Severity::Error, "--settings <value>"),
    );
    assert!(summary(&["claude", "--settings", off], false).is_empty());
    // The same key in a project settings file.
    for name in [".claude/settings.json", ".claude/settings.local.json"] {
        let dir = tempfile::tempdir().unwrap();
        write(&dir.path().join(name), off);
        let inputs = inputs(dir.path(), true);
        assert_eq!(
            summary_in(&inputs, &["claude"]),
            one(Severity::Error, name),
            "{name}"
        );
    }
}

#[test]
fn claude_settings_that_open_the_sandbox() {
    let cases: [(&str, Severity); 5] = [
        (
            r#"{"sandbox": {"allowUnsandboxedCommands": true}}"#,
            Severity::Error,
        ),
        (
            r#"{"permissions": {"additionalDirectories": ["/"]}}"#,
            Severity::Error,
        ),
        (
            r#"{"permissions": {"additionalDirectories": ["~/"]}}"#,
            Severity::Error,
        ),
        (
            r#"{"permissions": {"additionalDirectories": ["/data"]}}"#,
            Severity::Warning,
        ),
        (
            r#"{"sandbox": {"allowUnsandboxedCommands": false}}"#,
            Severity::Info,
        ),
    ];
    for (json, severity) in cases {
        let got = summary(&["claude", "--settings", json], false);
        if severity == Severity::Info {
            assert!(got.is_empty(), "{json}: {got:?}");
        } else {
            assert_eq!(got, one(severity, "--settings <value>"), "{json}");
        }
    }
    // In a project file the root counts; another directory is the project's own business.
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join(".claude/settings.json"),
        r#"{"permissions": {"additionalDirectories": ["/"]}, "sandbox": {"allowUnsandboxedCommands": true}}"#,
    );
    let got = summary_in(&inputs(dir.path(), false), &["claude"]);
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(
        got.iter()
            .all(|(s, f)| *s == Severity::Error && f == ".claude/settings.json")
    );
}

#[test]
fn claude_flags_that_add_code_the_policy_never_saw() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["claude", "--mcp-config", "servers.json"],
            "--mcp-config <value>",
        ),
        (&["claude", "--plugin-dir", "./p"], "--plugin-dir <value>"),
        (
            &["claude", "--plugin-url=https://x/p.zip"],
            "--plugin-url=<value>",
        ),
        (
            &[
                "claude",
                "--agents",
                r#"{"r": {"prompt": "x", "permissionMode": "bypassPermissions"}}"#,
            ],
            "--agents <value>",
        ),
    ];
    for (line, flag) in cases {
        assert_eq!(
            summary(line, false),
            one(Severity::Warning, flag),
            "{line:?}"
        );
    }
    // Agents without a mode of their own are the policy's.
    assert!(summary(&["claude", "--agents", r#"{"r": {"prompt": "x"}}"#], false).is_empty());
    let e = audit(&argv(&["claude", "--agents", "{nope"]), &Inputs::default()).unwrap_err();
    assert_eq!(e.exit_code(), EXIT_UNREADABLE);
}

#[test]
fn claude_config_dir_decides_the_user_layer() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut inputs = inputs(d, false);
    inputs.cwd = inputs.home.clone();
    inputs.claude_anchor = Some(inputs.home.join(".claude/settings.json"));
    write(
        &inputs.home.join(".claude/settings.json"),
        r#"{"sandbox": {"enabled": false}}"#,
    );
    // The default directory: twsrt's anchor is the user layer, and in HOME
    // ./.claude is not a project.
    inputs.claude_config_dir = inputs.home.join(".claude");
    assert!(summary_in(&inputs, &["claude"]).is_empty());
    // CLAUDE_CONFIG_DIR elsewhere: twsrt's file is not loaded, and HOME's
    // .claude/settings.json is now a project file.
    inputs.claude_config_dir = d.join("cfg");
    assert_eq!(
        summary_in(&inputs, &["claude"]),
        [
            (
                Severity::Error,
                "$CLAUDE_CONFIG_DIR/settings.json".to_string()
            ),
            (Severity::Error, ".claude/settings.json".to_string()),
        ]
    );
}
