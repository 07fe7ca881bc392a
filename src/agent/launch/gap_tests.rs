//! The launches that switch the policy off or add code it never saw, one
//! test per gap (argv, project files, environment): the profile, the rules,
//! the hook and the sandbox switched off are errors; tools, plugins and MCP
//! servers the policy never saw are warnings, named.

use std::path::Path;

use super::EXIT_UNREADABLE;
use super::fixture::{Inputs, audit};
use crate::diag::Severity;

fn argv(line: &[&str]) -> Vec<String> {
    line.iter().map(|w| w.to_string()).collect()
}

/// Inputs rooted in `dir`: cwd `dir`, HOME and CODEX_HOME below it, the
/// guard hook installed or not.
fn inputs(dir: &Path, claude_hook: bool) -> Inputs {
    Inputs {
        cwd: dir.to_path_buf(),
        home: dir.join("home"),
        codex_home: dir.join("codex-home"),
        claude_hook,
        ..Inputs::default()
    }
}

fn summary_in(inputs: &Inputs, line: &[&str]) -> Vec<(Severity, String)> {
    audit(&argv(line), inputs)
        .unwrap_or_else(|e| panic!("{line:?}: {e}"))
        .into_iter()
        .map(|f| (f.severity, f.location))
        .collect()
}

fn summary(line: &[&str], claude_hook: bool) -> Vec<(Severity, String)> {
    let dir = tempfile::tempdir().unwrap();
    summary_in(&inputs(dir.path(), claude_hook), line)
}

fn one(severity: Severity, flag: &str) -> Vec<(Severity, String)> {
    vec![(severity, flag.to_string())]
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn codex_launches_that_skip_the_profile_or_the_rules() {
    for sub in ["exec", "e"] {
        assert_eq!(
            summary(&["codex", sub, "--ignore-user-config", "hi"], false),
            one(Severity::Error, "--ignore-user-config"),
        );
        assert_eq!(
            summary(&["codex", sub, "--ignore-rules"], false),
            one(Severity::Error, "--ignore-rules"),
        );
    }
    // The interactive CLI has neither option: clap refuses it, so does twsrt.
    let e = audit(&argv(&["codex", "--ignore-rules"]), &Inputs::default()).unwrap_err();
    assert_eq!(e.exit_code(), EXIT_UNREADABLE);
}

#[test]
fn codex_launches_that_add_hooks_or_select_a_layer() {
    assert_eq!(
        summary(&["codex", "--dangerously-bypass-hook-trust"], false),
        one(Severity::Warning, "--dangerously-bypass-hook-trust"),
    );
    assert_eq!(
        summary(&["codex", "-c", "profile=work"], false),
        one(Severity::Warning, "-c profile=<value>"),
    );
    assert_eq!(
        summary(&["codex", "exec", "--trust", "x"], false),
        one(Severity::Warning, "--trust"),
    );
}

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
fn copilot_flags_that_add_code_or_run_on_their_own() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["copilot", "--additional-mcp-config", "@m.json"],
            "--additional-mcp-config <value>",
        ),
        (&["copilot", "--plugin-dir", "./p"], "--plugin-dir <value>"),
        (&["copilot", "--autopilot"], "--autopilot"),
        (&["copilot", "--mode", "autopilot"], "--mode autopilot"),
    ];
    for (line, flag) in cases {
        assert_eq!(
            summary(line, false),
            one(Severity::Warning, flag),
            "{line:?}"
        );
    }
    assert!(summary(&["copilot", "--mode", "plan"], false).is_empty());
}

#[test]
fn gemini_extensions_the_user_may_have_disabled() {
    assert_eq!(
        summary(&["gemini", "-e", "ext-a"], false),
        one(Severity::Warning, "-e <value>"),
    );
    assert_eq!(
        summary(&["gemini", "--extensions=a,b"], false),
        one(Severity::Warning, "--extensions=<value>"),
    );
    // `none` switches every extension off.
    assert!(summary(&["gemini", "-e", "NONE"], false).is_empty());
}

#[test]
fn an_unknown_option_name_is_redacted_like_a_value() {
    let secret = "--ghp_16C7e42F292c6912E7710c838347Ae178B4a";
    for agent in ["codex", "claude", "copilot", "gemini"] {
        let e = audit(&argv(&[agent, secret]), &Inputs::default()).unwrap_err();
        let said = e.to_string();
        assert!(!said.contains("ghp_"), "{agent}: {said}");
        assert!(said.contains("unknown option <option>"), "{agent}: {said}");
    }
    for (typed, shown) in [
        ("--full-auto", "--full-auto"),
        ("--sk-ant-api03-abcdef", "<option>"),
        ("--averyveryverylongsecretword", "<option>"),
        ("-q", "-q"),
    ] {
        assert_eq!(crate::argv::shown_option(typed), shown);
    }
}

#[test]
fn codex_project_files_of_the_directory_it_runs_in() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        &d.join("other/.codex/config.toml"),
        "sandbox_mode = \"danger-full-access\"\n",
    );
    let inputs = inputs(d, false);
    for line in [
        &["codex", "-C", "other"][..],
        &["codex", "--cd=other"],
        &["codex", "exec", "-Cother", "x"],
    ] {
        let got = summary_in(&inputs, line);
        assert_eq!(
            got,
            one(Severity::Error, "<-C>/.codex/config.toml"),
            "{line:?}"
        );
    }
    assert!(summary_in(&inputs, &["codex"]).is_empty());
}

#[test]
fn codex_project_files_from_the_repository_root_down() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join(".git")).unwrap();
    write(
        &d.join(".codex/config.toml"),
        "sandbox_mode = \"danger-full-access\"\n",
    );
    write(
        &d.join("src/.codex/config.toml"),
        "approval_policy = \"never\"\n",
    );
    std::fs::create_dir_all(d.join("src/deep")).unwrap();
    let mut inputs = inputs(d, false);
    inputs.cwd = d.join("src/deep");
    assert_eq!(
        summary_in(&inputs, &["codex"]),
        [
            (Severity::Error, "../../.codex/config.toml".to_string()),
            (Severity::Warning, "../.codex/config.toml".to_string()),
        ]
    );
}

#[test]
fn codex_home_decides_where_the_user_and_profile_files_are() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        &d.join("codex-home/work.config.toml"),
        "default_permissions = \"other\"\n",
    );
    let inputs = inputs(d, false);
    assert_eq!(
        summary_in(&inputs, &["codex", "--profile", "work"]),
        one(Severity::Error, "--profile <value>"),
    );
    // The same name under another CODEX_HOME is not loaded.
    let mut moved = inputs;
    moved.codex_home = d.join("elsewhere");
    assert!(summary_in(&moved, &["codex", "-p", "work"]).is_empty());
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

#[test]
fn session_subcommands_are_audited_like_the_top_level() {
    let cases: [(&[&str], Severity, &str); 6] = [
        (
            &["codex", "resume", "--last", "--yolo"],
            Severity::Error,
            "--yolo",
        ),
        (
            &["codex", "fork", "-s", "danger-full-access"],
            Severity::Error,
            "-s danger-full-access",
        ),
        (
            &["codex", "exec", "resume", "--ignore-rules"],
            Severity::Error,
            "--ignore-rules",
        ),
        (
            &["codex", "review", "-c", "sandbox_mode=x"],
            Severity::Error,
            "-c sandbox_mode=<value>",
        ),
        (
            &["claude", "agents", "--mcp-config", "m.json"],
            Severity::Warning,
            "--mcp-config <value>",
        ),
        (
            &[
                "claude",
                "mcp",
                "serve",
                "--settings",
                r#"{"sandbox": {"enabled": false}}"#,
            ],
            Severity::Error,
            "--settings <value>",
        ),
    ];
    for (line, severity, flag) in cases {
        // claude mcp serve has no --settings: only the top level's count.
        let line: Vec<&str> = if line[1] == "mcp" {
            vec!["claude", "--settings", line[4], "mcp", "serve"]
        } else {
            line.to_vec()
        };
        assert_eq!(summary(&line, false), one(severity, flag), "{line:?}");
    }
    // The project files count for a session subcommand too.
    let dir = tempfile::tempdir().unwrap();
    write(
        &dir.path().join(".codex/config.toml"),
        "sandbox_mode = \"read-only\"\n",
    );
    let got = summary_in(&inputs(dir.path(), false), &["codex", "resume", "--last"]);
    assert_eq!(got, one(Severity::Error, ".codex/config.toml"));
    // ... but not for one that starts no session.
    assert!(summary_in(&inputs(dir.path(), false), &["codex", "mcp", "list"]).is_empty());
}
