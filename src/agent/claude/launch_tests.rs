//! Claude Code launch findings: the risky flags in each spelling, the
//! `--settings` layer inline and from a file, and the project settings.

use crate::agent::launch::fixture::flags::*;

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
            // The bare `Bash` allow runs every command unasked (issue 40).
            (Severity::Warning, ".claude/settings.local.json".to_string()),
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
    assert_eq!(
        got,
        [".claude/settings.local.json", ".claude/settings.local.json"]
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
