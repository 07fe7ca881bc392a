//! The launch findings across agents: a risky word inside a value is none,
//! unknown binaries and options fail closed, planted secrets never reach a
//! finding, `--add-dir` widens every agent, the exit codes and the JSON
//! shape, and where launch arguments go.

use super::fixture::flags::*;

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
            {"code": "sandbox-replaced", "severity": "error", "flag": "-s danger-full-access",
             "message": "why"}
        ]})
    );
}

#[test]
fn every_finding_carries_the_code_of_its_kind() {
    let cases: [(&[&str], Code); 14] = [
        (&["codex", "--yolo"], Code::YoloFlag),
        (&["codex", "-s", "read-only"], Code::SandboxReplaced),
        (
            &["codex", "-c", "default_permissions=x"],
            Code::ProfileReplaced,
        ),
        (&["codex", "-c", "profile=x"], Code::ConfigProfile),
        (&["codex", "exec", "--ignore-rules"], Code::PolicySkipped),
        (&["codex", "exec", "--trust"], Code::FolderTrust),
        (&["claude", "--permission-mode", "auto"], Code::ApprovalMode),
        (&["claude", "--allowedTools", "x"], Code::AllowRules),
        (&["claude", "--mcp-config", "x"], Code::ForeignCode),
        (&["claude", "--add-dir", "x"], Code::ExtraDirectory),
        (
            &["claude", "--settings", r#"{"sandbox":{"enabled":false}}"#],
            Code::SandboxOff,
        ),
        (&["copilot", "--allow-all"], Code::AllowAll),
        (&["gemini", "--yolo"], Code::ApprovalMode),
        (&["gemini", "-e", "x"], Code::ForeignCode),
    ];
    for (line, code) in cases {
        let codes: Vec<Code> = findings(line).iter().map(|f| f.code).collect();
        assert!(codes.contains(&code), "{line:?}: {codes:?}");
    }
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = inputs(dir.path());
    inputs.copilot_flags = argv(&["--deny-url", "a.com"]);
    let missing = audit(&argv(&["copilot"]), &inputs).unwrap();
    assert_eq!(missing[0].code, Code::MissingDenyFlags);
}
