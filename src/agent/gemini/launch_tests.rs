//! Gemini CLI findings: the flags in their spellings, the sandbox and its
//! precedence, the policy paths (flags and settings), the settings layers,
//! where twsrt's policy file sits, and redaction.

use std::path::Path;

use super::launch::{GeminiEnv, GeminiLaunch, Inputs};
use crate::agent::launch::EXIT_UNREADABLE;
use crate::agent::launch::report::to_json;
use crate::diag::{Diagnostic, Severity};
use crate::error::Result;

fn argv(line: &[&str]) -> Vec<String> {
    line.iter().map(|w| w.to_string()).collect()
}

fn audit(argv: &[String], inputs: &Inputs) -> Result<Vec<Diagnostic>> {
    crate::agent::launch::audit(&GeminiLaunch, argv, inputs)
}

/// A HOME below `dir` with twsrt's policy file in ~/.gemini/policies, the
/// working directory `dir/proj`, no system settings.
fn inputs(dir: &Path) -> Inputs {
    let home = dir.join("home");
    let target = home.join(".gemini/policies/twsrt.toml");
    write(
        &target,
        "[[rule]]\ntoolName = \"run_shell_command\"\ndecision = \"deny\"\npriority = 999\n",
    );
    std::fs::create_dir_all(dir.join("proj")).unwrap();
    Inputs {
        cwd: dir.join("proj"),
        home,
        policy: Some(target),
        ..Inputs::default()
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn summary_with(inputs: &Inputs, line: &[&str]) -> Vec<(Severity, String)> {
    let mut full = vec!["gemini"];
    full.extend_from_slice(line);
    audit(&argv(&full), inputs)
        .unwrap_or_else(|e| panic!("{line:?}: {e}"))
        .into_iter()
        .map(|f| (f.severity, f.location))
        .collect()
}

fn summary(line: &[&str]) -> Vec<(Severity, String)> {
    let dir = tempfile::tempdir().unwrap();
    summary_with(&inputs(dir.path()), line)
}

fn one(severity: Severity, flag: &str) -> Vec<(Severity, String)> {
    vec![(severity, flag.to_string())]
}

#[test]
fn yolo_and_auto_edit_in_every_spelling() {
    for (line, flag) in [
        (&["--yolo"][..], "--yolo"),
        (&["-y"], "-y"),
        (&["--YOLO-"], "--YOLO-"),
        (&["-yd"], "-y"),
        (&["--yolo", "true"], "--yolo true"),
        (&["--approval-mode", "yolo"], "--approval-mode yolo"),
        (&["--approvalMode=yolo"], "--approvalMode=yolo"),
        (
            &["--approval-mode", "auto_edit"],
            "--approval-mode auto_edit",
        ),
    ] {
        assert_eq!(summary(line), one(Severity::Warning, flag), "{line:?}");
    }
    for line in [
        &["-y", "false"][..],
        &["--no-yolo"],
        &["--approval-mode", "plan"],
        &["--approval-mode=default"],
        &["-p", "use --yolo please"],
        &["-p=--yolo please"],
        &["--", "--yolo"],
    ] {
        assert!(summary(line).is_empty(), "{line:?}");
    }
}

#[test]
fn flags_that_run_more_without_asking() {
    for (line, flag) in [
        (
            &["--allowed-tools", "run_shell_command"][..],
            "--allowed-tools <value>",
        ),
        (&["--allowedTools=x"], "--allowedTools=<value>"),
        (
            &["--allowed-mcp-server-names", "s"],
            "--allowed-mcp-server-names <value>",
        ),
        (
            &["--include-directories", "/a"],
            "--include-directories <value>",
        ),
        (&["--skip-trust"], "--skip-trust"),
    ] {
        assert_eq!(summary(line), one(Severity::Warning, flag), "{line:?}");
    }
    assert!(summary(&["--skip-trust", "false"]).is_empty());
}

#[test]
fn the_container_sandbox_and_its_precedence() {
    let dir = tempfile::tempdir().unwrap();
    let mut inp = inputs(dir.path());
    let container = if cfg!(target_os = "macos") {
        Severity::Info
    } else {
        Severity::Error
    };
    assert_eq!(summary_with(&inp, &["-s"]), one(container, "-s"));
    assert!(summary_with(&inp, &["--no-sandbox"]).is_empty());
    // A project setting turns it on; the last flag wins over settings.
    write(
        &dir.path().join("proj/.gemini/settings.json"),
        r#"{"tools": {"sandbox": "docker"}}"#,
    );
    assert_eq!(
        summary_with(&inp, &[]),
        one(Severity::Error, ".gemini/settings.json")
    );
    assert!(summary_with(&inp, &["-s", "false"]).is_empty());
    // $GEMINI_SANDBOX is above every flag.
    inp.env.sandbox = Some("podman".into());
    assert_eq!(
        summary_with(&inp, &["--no-sandbox"]),
        one(Severity::Error, "GEMINI_SANDBOX")
    );
    inp.env.sandbox = Some("sandbox-exec".into());
    assert_eq!(
        summary_with(&inp, &[]),
        one(Severity::Info, "GEMINI_SANDBOX")
    );
    inp.env.sandbox = Some("false".into());
    assert!(summary_with(&inp, &[]).is_empty());
    // Inside Gemini's sandbox already ($SANDBOX), it starts none.
    inp.env.sandbox = None;
    inp.env.in_sandbox = true;
    assert!(summary_with(&inp, &["-s"]).is_empty());
}

#[test]
fn policy_paths_replace_the_user_directory() {
    let dir = tempfile::tempdir().unwrap();
    let inp = inputs(dir.path());
    assert_eq!(
        summary_with(&inp, &["--policy", "/elsewhere"]),
        one(Severity::Error, "--policy <value>")
    );
    // Naming twsrt's file or its directory (with ~ or in a comma list)
    // keeps it loaded.
    for value in [
        "~/.gemini/policies/twsrt.toml",
        "~/.gemini/policies",
        "x.toml,~/.gemini/policies",
    ] {
        let mut i = inputs(dir.path());
        i.env.cli_home = Some(i.home.clone());
        assert!(summary_with(&i, &["--policy", value]).is_empty(), "{value}");
    }
    // Another file next to it: only allow rules that tie or beat twsrt's count.
    write(
        &dir.path().join("proj/mine.toml"),
        "[[rule]]\ntoolName = \"*\"\ndecision = \"allow\"\npriority = 999\n",
    );
    write(
        &dir.path().join("proj/low.toml"),
        "[[rule]]\ntoolName = \"*\"\ndecision = \"allow\"\npriority = 950\n",
    );
    let home_dir = inp.home.join(".gemini/policies").display().to_string();
    assert_eq!(
        summary_with(&inp, &["--policy", &home_dir, "--policy", "mine.toml"]),
        one(Severity::Warning, "--policy <value>")
    );
    assert!(summary_with(&inp, &["--policy", &home_dir, "--policy", "low.toml"]).is_empty());
}

#[test]
fn admin_policy_files_with_allow_rules() {
    let dir = tempfile::tempdir().unwrap();
    let inp = inputs(dir.path());
    let proj = dir.path().join("proj");
    write(
        &proj.join("admin/a.toml"),
        "rule = [{ toolName = \"*\", decision = \"allow\", priority = 1 }]\n",
    );
    write(
        &proj.join("deny.toml"),
        "[[rule]]\ntoolName = \"*\"\ndecision = \"deny\"\npriority = 1\n",
    );
    assert_eq!(
        summary_with(&inp, &["--admin-policy", "admin"]),
        one(Severity::Error, "--admin-policy <value>")
    );
    assert!(summary_with(&inp, &["--admin-policy", "deny.toml"]).is_empty());
    assert!(summary_with(&inp, &["--admin-policy", "missing"]).is_empty());
    write(&proj.join("broken.toml"), "rule = [");
    let e = audit(&argv(&["gemini", "--admin-policy", "broken.toml"]), &inp).unwrap_err();
    assert_eq!(e.exit_code(), EXIT_UNREADABLE);
}

#[test]
fn settings_layers() {
    let dir = tempfile::tempdir().unwrap();
    let mut inp = inputs(dir.path());
    let user = inp.home.join(".gemini/settings.json");
    write(
        &user,
        r#"{"policyPaths": ["/x"], "security": {"folderTrust": {"enabled": false}}}"#,
    );
    let project = dir.path().join("proj/.gemini/settings.json");
    write(
        &project,
        "// comments are allowed\n{\"tools\": {\"allowed\": [\"run_shell_command\"]}, \
         \"general\": {\"defaultApprovalMode\": \"auto_edit\"}, \
         \"security\": {\"folderTrust\": {\"enabled\": false}}}",
    );
    let system = dir.path().join("system.json");
    write(&system, r#"{"adminPolicyPaths": ["admin.toml"]}"#);
    write(
        &dir.path().join("proj/admin.toml"),
        "[[rule]]\ntoolName = \"*\"\ndecision = \"allow\"\npriority = 5\n",
    );
    inp.env.system_files = vec![(system, "$GEMINI_CLI_SYSTEM_SETTINGS_PATH".into())];
    let user_label = "~/.gemini/settings.json".to_string();
    let project_label = ".gemini/settings.json".to_string();
    assert_eq!(
        summary_with(&inp, &[]),
        [
            (Severity::Error, "$GEMINI_CLI_SYSTEM_SETTINGS_PATH".into()),
            (Severity::Error, user_label.clone()),
            (Severity::Warning, user_label.clone()),
            (Severity::Warning, project_label.clone()),
            (Severity::Warning, project_label),
        ]
    );
    // The flags that override a setting silence it.
    let got = summary_with(
        &inp,
        &[
            "--policy",
            "~/.gemini/policies",
            "--admin-policy",
            "/none",
            "--allowed-tools",
            "x",
            "--approval-mode",
            "plan",
        ],
    );
    assert_eq!(
        got,
        [
            (Severity::Warning, "--allowed-tools <value>".into()),
            (Severity::Warning, user_label),
        ]
    );
    write(&project, "{not json");
    let e = audit(&argv(&["gemini"]), &inp).unwrap_err();
    assert_eq!(e.exit_code(), EXIT_UNREADABLE);
    assert!(e.to_string().contains(".gemini/settings.json"), "{e}");
}

#[test]
fn mcp_servers_that_run_without_asking() {
    let dir = tempfile::tempdir().unwrap();
    let inp = inputs(dir.path());
    write(
        &inp.home.join(".gemini/settings.json"),
        r#"{"mcp": {"allowed": ["a"]}, "mcpServers": {"a": {"trust": true}, "b": {"trust": false}}}"#,
    );
    let label = "~/.gemini/settings.json".to_string();
    assert_eq!(
        summary_with(&inp, &[]),
        [
            (Severity::Warning, label.clone()),
            (Severity::Warning, label.clone())
        ]
    );
    let core = dir.path().join("proj/.gemini/settings.json");
    write(
        &core,
        r#"{"tools": {"core": ["run_shell_command"], "exclude": ["x"]}}"#,
    );
    let got = summary_with(&inp, &[]);
    assert_eq!(
        got.last(),
        Some(&(Severity::Warning, ".gemini/settings.json".to_string()))
    );
    assert_eq!(got.len(), 3, "{got:?}");
    std::fs::remove_file(&core).unwrap();
    // The flag replaces mcp.allowed; the trusted server stays.
    assert_eq!(
        summary_with(&inp, &["--allowed-mcp-server-names", "a"]),
        [
            (
                Severity::Warning,
                "--allowed-mcp-server-names <value>".into()
            ),
            (Severity::Warning, label)
        ]
    );
}

#[test]
fn the_project_settings_are_the_user_settings_in_the_home_directory() {
    let dir = tempfile::tempdir().unwrap();
    let mut inp = inputs(dir.path());
    write(
        &inp.home.join(".gemini/settings.json"),
        r#"{"tools": {"allowed": ["x"]}}"#,
    );
    inp.cwd = inp.home.clone();
    assert_eq!(
        summary_with(&inp, &[]),
        one(Severity::Warning, "~/.gemini/settings.json")
    );
}

#[test]
fn where_twsrt_policy_file_must_be() {
    let dir = tempfile::tempdir().unwrap();
    let mut inp = inputs(dir.path());
    assert!(summary_with(&inp, &[]).is_empty());
    // Gemini's home moved: its user policies are elsewhere.
    inp.env.cli_home = Some(dir.path().join("other"));
    assert_eq!(
        summary_with(&inp, &[]),
        one(Severity::Error, "GEMINI_CLI_HOME")
    );
    inp.env.cli_home = None;
    let elsewhere = dir.path().join("twsrt.toml");
    inp.policy = Some(elsewhere.clone());
    assert_eq!(
        summary_with(&inp, &[]),
        one(Severity::Error, &elsewhere.display().to_string())
    );
    // Unless --policy names it: Gemini then loads it from there.
    let named = elsewhere.display().to_string();
    assert!(summary_with(&inp, &["--policy", &named]).is_empty());
    // A symbolic link is skipped by Gemini's directory reader.
    let target = inp.home.join(".gemini/policies/twsrt.toml");
    std::fs::rename(&target, &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &target).unwrap();
    inp.policy = Some(target.clone());
    assert_eq!(
        summary_with(&inp, &[]),
        one(Severity::Error, &target.display().to_string())
    );
}

#[test]
fn other_files_in_the_user_policy_directory() {
    let dir = tempfile::tempdir().unwrap();
    let inp = inputs(dir.path());
    let policies = inp.home.join(".gemini/policies");
    // "Allow always and save" writes priority 950: below twsrt's rules.
    write(
        &policies.join("auto-saved.toml"),
        "[[rule]]\ntoolName = \"run_shell_command\"\ndecision = \"allow\"\npriority = 950\n",
    );
    write(
        &policies.join("notes.txt"),
        "[[rule]]\ndecision = \"allow\"\npriority = 999\n",
    );
    assert!(summary_with(&inp, &[]).is_empty());
    let mine = policies.join("mine.toml");
    write(
        &mine,
        "[[rule]]\ntoolName = \"*\"\ndecision = \"allow\"\npriority = 998\n",
    );
    assert_eq!(
        summary_with(&inp, &[]),
        one(Severity::Warning, &mine.display().to_string())
    );
}

#[test]
fn gemini_values_never_reach_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    let inp = inputs(dir.path());
    let line = [
        "gemini",
        "--policy",
        "SECRET-P",
        "--allowed-tools",
        "SECRET-T",
        "--include-directories=SECRET-D",
        "-m",
        "SECRET-M",
        "-p",
        "SECRET-PROMPT",
    ];
    let got = audit(&argv(&line), &inp).unwrap();
    assert_eq!(got.len(), 3, "{got:?}");
    let json = to_json("gemini", &got);
    assert!(!json.contains("SECRET"), "{json}");
    write(&dir.path().join("proj/SECRET-B.toml"), "rule = [");
    let e = audit(&argv(&["gemini", "--admin-policy", "SECRET-B.toml"]), &inp).unwrap_err();
    assert!(!e.to_string().contains("SECRET"), "{e}");
}

#[test]
fn the_system_settings_paths_without_the_variables() {
    // The variables are unset in the test environment; where one is set
    // (a developer's shell), its own label is checked instead.
    let env = GeminiEnv::from_env();
    let labels: Vec<&str> = env.system_files.iter().map(|(_, l)| l.as_str()).collect();
    let want_settings = match std::env::var_os("GEMINI_CLI_SYSTEM_SETTINGS_PATH") {
        Some(_) => "$GEMINI_CLI_SYSTEM_SETTINGS_PATH",
        None => "/etc/gemini-cli/settings.json",
    };
    assert_eq!(labels[1], want_settings);
    if std::env::var_os("GEMINI_CLI_SYSTEM_SETTINGS_PATH").is_none()
        && std::env::var_os("GEMINI_CLI_SYSTEM_DEFAULTS_PATH").is_none()
    {
        assert_eq!(labels[0], "/etc/gemini-cli/system-defaults.json");
    }
}
