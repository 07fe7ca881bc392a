//! Gaps across agents, one test each: an unknown option's name is redacted
//! like a value, and session subcommands are audited like the top level.

use super::fixture::gaps::*;

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
