//! Codex launches that switch the policy off or add code it never saw, one
//! test per gap: skipped profile or rules, hooks, layers, project files and
//! `$CODEX_HOME`.

use crate::agent::launch::fixture::gaps::*;

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
