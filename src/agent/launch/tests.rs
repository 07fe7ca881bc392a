//! The findings per agent: every risky flag in each spelling, the files the
//! flags point at, the project files, redaction and the exit codes.

use std::path::Path;

use super::fixture::{Inputs, audit};
use super::report::{exit_code, to_json};
use super::{EXIT_UNREADABLE, agent_of};
use crate::diag::{Code, Diagnostic as Finding, Severity};

fn argv(line: &[&str]) -> Vec<String> {
    line.iter().map(|w| w.to_string()).collect()
}

/// Inputs rooted in `dir` (cwd, HOME elsewhere, CODEX_HOME below it).
fn inputs(dir: &Path) -> Inputs {
    Inputs {
        cwd: dir.to_path_buf(),
        home: dir.join("home"),
        codex_home: dir.join("codex-home"),
        ..Inputs::default()
    }
}

fn audit_in(dir: &Path, line: &[&str]) -> Vec<Finding> {
    audit(&argv(line), &inputs(dir)).unwrap_or_else(|e| panic!("{line:?}: {e}"))
}

fn findings(line: &[&str]) -> Vec<Finding> {
    let dir = tempfile::tempdir().unwrap();
    audit_in(dir.path(), line)
}

/// (severity, flag) of each finding.
fn summary(line: &[&str]) -> Vec<(Severity, String)> {
    findings(line)
        .into_iter()
        .map(|f| (f.severity, f.location))
        .collect()
}

/// The findings a case expects, as (severity, flag).
type Expected = Vec<(Severity, String)>;

fn err(flag: &str) -> Vec<(Severity, String)> {
    vec![(Severity::Error, flag.to_string())]
}

fn warn(flag: &str) -> Vec<(Severity, String)> {
    vec![(Severity::Warning, flag.to_string())]
}

#[test]
fn codex_sandbox_flags_are_errors_in_every_spelling() {
    let cases: [(&[&str], &str); 9] = [
        (
            &["codex", "-s", "danger-full-access"],
            "-s danger-full-access",
        ),
        (&["codex", "-sread-only"], "-sread-only"),
        (&["codex", "-s=workspace-write"], "-s=workspace-write"),
        (&["codex", "--sandbox", "read-only"], "--sandbox read-only"),
        (
            &["codex", "--sandbox=danger-full-access"],
            "--sandbox=danger-full-access",
        ),
        (&["codex", "--approve-for-me"], "--approve-for-me"),
        (&["codex", "--yolo"], "--yolo"),
        (
            &[
                "codex",
                "exec",
                "--dangerously-bypass-approvals-and-sandbox",
            ],
            "--dangerously-bypass-approvals-and-sandbox",
        ),
        (&["codex", "e", "-s", "read-only", "go"], "-s read-only"),
    ];
    for (line, flag) in cases {
        assert_eq!(summary(line), err(flag), "{line:?}");
    }
}

#[test]
fn codex_config_overrides_of_owned_keys() {
    let cases: [(&[&str], Expected); 7] = [
        (
            &["codex", "-c", "sandbox_mode=danger-full-access"],
            err("-c sandbox_mode=danger-full-access"),
        ),
        (
            &["codex", "-csandbox_mode=\"read-only\""],
            err("-csandbox_mode=read-only"),
        ),
        (
            &["codex", "--config=default_permissions=mine"],
            err("--config=default_permissions=<value>"),
        ),
        (
            &[
                "codex",
                "--config",
                "permissions.twsrt.network.enabled=true",
            ],
            err("--config permissions.twsrt.<key>=true"),
        ),
        (
            &["codex", "-c", "profiles.x.sandbox_mode=read-only"],
            err("-c <key>.sandbox_mode=read-only"),
        ),
        (
            &["codex", "-c", "approval_policy=never"],
            warn("-c approval_policy=never"),
        ),
        (
            &["codex", "-c", "model=o3", "-a", "never"],
            warn("-a never"),
        ),
    ];
    for (line, want) in cases {
        assert_eq!(summary(line), want, "{line:?}");
    }
    let bad = audit(&argv(&["codex", "-c", "sandbox_mode"]), &Inputs::default());
    assert_eq!(bad.unwrap_err().exit_code(), EXIT_UNREADABLE);
}

#[test]
fn a_risky_word_in_a_value_or_after_the_double_dash_is_no_finding() {
    for line in [
        &["codex", "-m", "danger-full-access", "use --yolo please"][..],
        &["codex", "--", "--yolo"],
        &[
            "claude",
            "--append-system-prompt",
            "--dangerously-skip-permissions",
        ],
        &[
            "claude",
            "-p",
            "--",
            "--settings",
            "{\"sandbox\":{\"enabled\":false}}",
        ],
        &["claude", "--model", "--setting-sources"],
    ] {
        assert!(findings(line).is_empty(), "{line:?}");
    }
}

#[test]
fn the_codex_profile_file_and_project_config() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("codex-home")).unwrap();
    std::fs::write(
        d.join("codex-home/fast.config.toml"),
        "sandbox_mode = \"danger-full-access\"\n",
    )
    .unwrap();
    let got = audit_in(d, &["codex", "--profile", "fast"]);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(
        (got[0].severity, got[0].location.as_str()),
        (Severity::Error, "--profile <value>")
    );
    // A profile without a file adds nothing (Codex starts without it too).
    assert!(audit_in(d, &["codex", "-p", "none"]).is_empty());

    std::fs::create_dir_all(d.join(".codex")).unwrap();
    std::fs::write(
        d.join(".codex/config.toml"),
        "sandbox_mode = \"workspace-write\"\n[profiles.old]\nsandbox_mode = \"read-only\"\n",
    )
    .unwrap();
    let got: Vec<_> = audit_in(d, &["codex"])
        .into_iter()
        .map(|f| (f.severity, f.location))
        .collect();
    assert_eq!(
        got,
        [
            (Severity::Error, ".codex/config.toml".into()),
            (Severity::Error, ".codex/config.toml".into())
        ]
    );

    std::fs::write(d.join(".codex/config.toml"), "sandbox_mode = [").unwrap();
    let broken = audit(&argv(&["codex"]), &inputs(d)).unwrap_err();
    assert_eq!(broken.exit_code(), EXIT_UNREADABLE);
}

#[test]
fn the_legacy_profiles_of_the_codex_target() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("codex-home/config.toml");
    std::fs::create_dir_all(target.parent().unwrap()).unwrap();
    std::fs::write(
        &target,
        "default_permissions = \"twsrt\"\n[profiles.a]\nsandbox_mode = \"danger-full-access\"\n",
    )
    .unwrap();
    let mut inputs = inputs(dir.path());
    inputs.codex_target = Some(target.clone());
    let got = audit(&argv(&["codex"]), &inputs).unwrap();
    // twsrt's own keys in its target are no finding; the legacy table is.
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].location, "$CODEX_HOME/config.toml");
    assert!(
        got[0].message.starts_with("sets profiles.a.sandbox_mode: "),
        "{got:?}"
    );
    // A target Codex does not load ($CODEX_HOME points elsewhere) is an error.
    inputs.codex_home = dir.path().join("other");
    let got = audit(&argv(&["codex"]), &inputs).unwrap();
    assert_eq!(got[0].severity, Severity::Error);
    assert!(
        got[0].message.starts_with("Codex does not load this file"),
        "{got:?}"
    );
}

#[test]
fn claude_flags() {
    let cases: [(&[&str], Expected); 8] = [
        (
            &["claude", "--dangerously-skip-permissions"],
            warn("--dangerously-skip-permissions"),
        ),
        (
            &["claude", "--permission-mode", "bypassPermissions"],
            warn("--permission-mode bypassPermissions"),
        ),
        (
            &["claude", "--permission-mode=acceptEdits"],
            warn("--permission-mode=acceptEdits"),
        ),
        (&["claude", "--permission-mode", "plan"], vec![]),
        (
            &["claude", "--setting-sources", "project,local"],
            err("--setting-sources project,local"),
        ),
        (&["claude", "--setting-sources=user,project"], vec![]),
        (&["claude", "--restricted"], err("--restricted")),
        (
            &["claude", "--allowed-tools", "Bash", "Edit"],
            warn("--allowed-tools <value> <value>"),
        ),
    ];
    for (line, want) in cases {
        assert_eq!(summary(line), want, "{line:?}");
    }
}

#[test]
fn claude_settings_inline_and_from_a_file() {
    let json = r#"{"sandbox": {"enabled": false}, "permissions": {"defaultMode": "bypassPermissions", "allow": ["Bash"]}}"#;
    let got = summary(&["claude", "--settings", json]);
    assert_eq!(
        got,
        [
            (Severity::Error, "--settings <value>".to_string()),
            (Severity::Error, "--settings <value>".to_string()),
            (Severity::Warning, "--settings <value>".to_string()),
        ]
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("extra.json"),
        r#"{"permissions": {"defaultMode": "acceptEdits"}}"#,
    )
    .unwrap();
    let got = audit_in(dir.path(), &["claude", "--settings=extra.json"]);
    assert_eq!(got.len(), 1);
    assert_eq!(
        (got[0].severity, got[0].location.as_str()),
        (Severity::Warning, "--settings=<value>")
    );
    for bad in ["missing.json", "{not json"] {
        let e = audit(&argv(&["claude", "--settings", bad]), &inputs(dir.path())).unwrap_err();
        assert_eq!(e.exit_code(), EXIT_UNREADABLE, "{bad}");
    }
}

#[test]
fn claude_project_settings_that_override_the_policy() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join(".claude")).unwrap();
    std::fs::write(
        d.join(".claude/settings.json"),
        r#"{"sandbox": {"enabled": false}}"#,
    )
    .unwrap();
    std::fs::write(
        d.join(".claude/settings.local.json"),
        r#"{"permissions": {"defaultMode": "bypassPermissions", "allow": ["Bash"]}}"#,
    )
    .unwrap();
    let got: Vec<_> = audit_in(d, &["claude"])
        .into_iter()
        .map(|f| (f.severity, f.location))
        .collect();
    assert_eq!(
        got,
        [
            (Severity::Error, ".claude/settings.json".to_string()),
            (Severity::Error, ".claude/settings.local.json".to_string()),
        ]
    );
    // Left out by --setting-sources user, the project files do not load.
    assert!(audit_in(d, &["claude", "--setting-sources", "user"]).is_empty());
    // In the home directory ./.claude/settings.json is the user settings
    // twsrt writes; settings.local.json still loads as the local layer.
    let mut home = inputs(d);
    home.home = d.to_path_buf();
    let got: Vec<_> = audit(&argv(&["claude"]), &home)
        .unwrap()
        .into_iter()
        .map(|f| f.location)
        .collect();
    assert_eq!(got, [".claude/settings.local.json"]);
}

fn copilot_with(generated: &[&str], line: &[&str]) -> Vec<(Severity, String)> {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = inputs(dir.path());
    inputs.copilot_flags = argv(generated);
    audit(&argv(line), &inputs)
        .unwrap()
        .into_iter()
        .map(|f| (f.severity, f.location))
        .collect()
}

#[test]
fn copilot_needs_every_generated_deny_flag() {
    let generated = [
        "--allow-tool",
        "shell",
        "--deny-tool",
        "shell(rm)",
        "--deny-url",
        "evil.com",
    ];
    assert!(
        copilot_with(
            &generated,
            &[
                "copilot",
                "-p",
                "x",
                "--allow-tool",
                "shell",
                "--deny-tool",
                "shell(rm)",
                "--deny-url",
                "evil.com"
            ]
        )
        .is_empty()
    );
    assert!(
        copilot_with(
            &generated,
            &["copilot", "--deny-tool=shell(rm)", "--deny-url=evil.com"]
        )
        .is_empty()
    );
    assert_eq!(
        copilot_with(&generated, &["copilot", "--deny-url", "evil.com"]),
        err("--deny-tool")
    );
    assert_eq!(
        copilot_with(
            &generated,
            &[
                "copilot",
                "--deny-tool",
                "shell(rm)",
                "--",
                "--deny-url",
                "evil.com"
            ]
        ),
        err("--deny-url")
    );
    let extra = copilot_with(
        &generated,
        &[
            "copilot",
            "--deny-tool",
            "shell(rm)",
            "--deny-url",
            "evil.com",
            "--allow-url",
            "x.com",
        ],
    );
    assert_eq!(extra, warn("--allow-url"));
}

#[test]
fn copilot_allow_all_flags_are_warnings() {
    for flag in [
        "--allow-all-tools",
        "--allow-all-paths",
        "--allow-all-urls",
        "--allow-all",
        "--yolo",
    ] {
        assert_eq!(copilot_with(&[], &["copilot", flag]), warn(flag), "{flag}");
    }
    // In yolo mode --yolo is what twsrt generates.
    let dir = tempfile::tempdir().unwrap();
    let mut yolo = inputs(dir.path());
    yolo.yolo = true;
    yolo.copilot_flags = argv(&["--yolo"]);
    assert!(
        audit(&argv(&["copilot", "--yolo"]), &yolo)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn unknown_agents_and_options_fail_closed() {
    for line in [
        &["vim"][..],
        &["/usr/bin/codex-wrapper"],
        &[],
        &["codex", "--full-auto"],
        &["claude", "--nope"],
    ] {
        let e = audit(&argv(line), &Inputs::default()).unwrap_err();
        assert_eq!(e.exit_code(), EXIT_UNREADABLE, "{line:?}");
    }
    assert_eq!(
        agent_of(&argv(&["/opt/bin/claude"]))
            .unwrap()
            .launch
            .binary(),
        "claude"
    );
}

#[test]
fn planted_secrets_never_reach_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("codex-home")).unwrap();
    std::fs::write(
        d.join("codex-home/SECRET-P.config.toml"),
        "sandbox_mode = \"read-only\"\n",
    )
    .unwrap();
    let lines: [&[&str]; 4] = [
        &[
            "claude",
            "--settings",
            r#"{"apiKeyHelper": "SECRET-K", "sandbox": {"enabled": false}, "permissions": {"allow": ["Bash(SECRET-A)"]}}"#,
            "SECRET-PROMPT",
        ],
        &[
            "claude",
            "--allowed-tools",
            "SECRET-T",
            "--setting-sources",
            "SECRET-S",
        ],
        &[
            "codex",
            "-c",
            "sandbox_mode=SECRET-M",
            "-p",
            "SECRET-P",
            "-s",
            "SECRET-X",
            "SECRET-PROMPT",
        ],
        &[
            "copilot",
            "--allow-url",
            "SECRET-U",
            "--allow-all",
            "-p",
            "SECRET-PROMPT",
        ],
    ];
    for line in lines {
        let got = audit_in(d, line);
        assert!(!got.is_empty(), "{line:?}");
        let json = to_json(line[0], &got);
        assert!(!json.contains("SECRET"), "{json}");
    }
    // Unreadable files are named without the value that named them.
    let e = audit(
        &argv(&["claude", "--settings", "SECRET-F.json"]),
        &inputs(d),
    )
    .unwrap_err();
    assert!(!e.to_string().contains("SECRET"), "{e}");
    std::fs::write(d.join("codex-home/SECRET-B.config.toml"), "x = [").unwrap();
    let e = audit(&argv(&["codex", "-p", "SECRET-B"]), &inputs(d)).unwrap_err();
    assert!(!e.to_string().contains("SECRET"), "{e}");
}

#[test]
fn exit_codes_and_the_json_shape() {
    let w = Finding::new(Severity::Warning, Code::YoloFlag, "--yolo", "why");
    let e = Finding::new(
        Severity::Error,
        Code::SandboxReplaced,
        "-s danger-full-access",
        "why",
    );
    assert_eq!(exit_code(&[], true), 0);
    assert_eq!(exit_code(std::slice::from_ref(&w), false), 0);
    assert_eq!(exit_code(std::slice::from_ref(&w), true), 1);
    assert_eq!(exit_code(&[w, e.clone()], false), 1);
    let doc: serde_json::Value = serde_json::from_str(&to_json("codex", &[e])).unwrap();
    assert_eq!(
        doc,
        serde_json::json!({"agent": "codex", "findings": [
            {"severity": "error", "flag": "-s danger-full-access", "message": "why"}
        ]})
    );
}

#[test]
fn add_dir_widens_every_agent() {
    assert_eq!(
        summary(&["codex", "--add-dir", "/SECRET"]),
        warn("--add-dir <value>")
    );
    assert_eq!(
        summary(&["claude", "--add-dir=/a", "/b"]),
        warn("--add-dir=<value> <value>")
    );
    assert_eq!(
        copilot_with(&[], &["copilot", "--add-dir", "/a"]),
        warn("--add-dir <value>")
    );
}

#[test]
fn claude_risky_flags_in_their_other_spellings() {
    assert_eq!(
        summary(&["claude", "--setting-sources=project"]),
        err("--setting-sources=project")
    );
    assert_eq!(
        summary(&["claude", "--allowedTools", "Bash"]),
        warn("--allowedTools <value>")
    );
    assert_eq!(
        summary(&[
            "claude",
            "-p",
            "x",
            "--settings={\"sandbox\":{\"enabled\":false}}"
        ]),
        err("--settings=<value>")
    );
    // commander takes a required value whatever it looks like: the mode
    // below is the value of --permission-mode, and the prompt a word.
    assert_eq!(
        summary(&[
            "claude",
            "--permission-mode",
            "bypassPermissions",
            "--",
            "--restricted"
        ]),
        warn("--permission-mode bypassPermissions")
    );
}

#[test]
fn launch_args_go_before_the_end_of_options() {
    let grammar = agent_of(&argv(&["copilot"])).unwrap().launch.grammar();
    let mut line = argv(&["copilot", "-p", "x", "--", "rest"]);
    crate::argv::with_options(grammar, &mut line, &argv(&["--deny-url", "a.com"])).unwrap();
    assert_eq!(
        line,
        ["copilot", "-p", "x", "--deny-url", "a.com", "--", "rest"]
    );
    let mut plain = argv(&["copilot", "-s"]);
    crate::argv::with_options(grammar, &mut plain, &argv(&["--yolo"])).unwrap();
    assert_eq!(plain, ["copilot", "-s", "--yolo"]);
}
