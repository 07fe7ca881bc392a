//! OpenCode launch findings: the approval flags in their spellings, the
//! environment that adds permission entries, the project layers, where
//! twsrt's file sits; the grammar's subcommands.

use std::path::Path;

use super::launch::{Env, Inputs, OpenCodeLaunch};
use crate::diag::{Code, Severity};

fn argv(line: &[&str]) -> Vec<String> {
    line.iter().map(|w| w.to_string()).collect()
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A HOME below `dir` with twsrt's file at ~/.config/opencode/opencode.json
/// and the launch directory `dir/proj`.
fn inputs(dir: &Path) -> Inputs {
    let home = dir.join("home");
    let target = home.join(".config/opencode/opencode.json");
    write(&target, r#"{"permission": {"bash": {"sudo *": "deny"}}}"#);
    std::fs::create_dir_all(dir.join("proj")).unwrap();
    Inputs {
        cwd: dir.join("proj"),
        home,
        target: Some(target),
        as_on_disk: true,
        env: Env::default(),
        ..Inputs::default()
    }
}

fn findings(inputs: &Inputs, line: &[&str]) -> Vec<(Severity, Code, String)> {
    let mut full = vec!["opencode"];
    full.extend_from_slice(line);
    crate::agent::launch::audit(&OpenCodeLaunch, &argv(&full), inputs)
        .unwrap_or_else(|e| panic!("{line:?}: {e}"))
        .into_iter()
        .map(|f| (f.severity, f.code, f.location))
        .collect()
}

#[test]
fn a_plain_launch_has_nothing_to_say() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = inputs(dir.path());
    assert!(findings(&inputs, &[]).is_empty());
    assert!(findings(&inputs, &["run", "hello"]).is_empty());
    assert!(findings(&inputs, &["--model", "a/b", "."]).is_empty());
}

#[test]
fn every_spelling_of_auto_approval_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = inputs(dir.path());
    for line in [
        &["--auto"][..],
        &["--yolo"],
        &["--dangerously-skip-permissions"],
        &["run", "--auto", "fix it"],
        &["run", "--yolo", "x"],
    ] {
        let found = findings(&inputs, line);
        assert_eq!(found.len(), 1, "{line:?}: {found:?}");
        assert_eq!(found[0].1, Code::ApprovalMode);
    }
    assert!(findings(&inputs, &["--auto=false"]).is_empty());
}

#[test]
fn the_environment_that_adds_permission_entries_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = inputs(dir.path());
    inputs.env.permission = true;
    inputs.env.config_content = true;
    inputs.env.config_dir = Some(dir.path().join("empty"));
    let found = findings(&inputs, &[]);
    let locations: Vec<&str> = found.iter().map(|f| f.2.as_str()).collect();
    assert_eq!(
        locations,
        [
            "OPENCODE_PERMISSION",
            "OPENCODE_CONFIG_CONTENT",
            "OPENCODE_CONFIG_DIR"
        ]
    );
    // Each replaces what twsrt's file allows, so the launch is refused.
    assert!(found.iter().all(|f| f.1 == Code::LayerOverride));
    assert!(found.iter().all(|f| f.0 == Severity::Error), "{found:?}");
}

#[test]
fn a_project_layer_with_permissions_is_found_unless_disabled() {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = inputs(dir.path());
    write(&inputs.cwd.join("opencode.json"), r#"{"theme": "x"}"#);
    assert!(findings(&inputs, &[]).is_empty(), "no permission key");
    write(
        &inputs.cwd.join(".opencode/opencode.jsonc"),
        "{\"permission\": {\"bash\": {\"git *\": \"allow\"},},}",
    );
    let found = findings(&inputs, &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].1, Code::LayerOverride);
    assert!(found[0].2.ends_with(".opencode/opencode.jsonc"));
    inputs.env.no_project = true;
    assert!(findings(&inputs, &[]).is_empty());
}

#[test]
fn a_target_opencode_does_not_load_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = inputs(dir.path());
    let elsewhere = dir.path().join("elsewhere/opencode.json");
    write(&elsewhere, "{}");
    // The global file, no longer twsrt's, would be a layer of its own.
    std::fs::remove_file(inputs.target.as_ref().unwrap()).unwrap();
    inputs.target = Some(elsewhere.clone());
    let found = findings(&inputs, &[]);
    assert_eq!(
        found,
        [(
            Severity::Error,
            Code::TargetNotLoaded,
            elsewhere.display().to_string()
        )]
    );
    // Loaded through OPENCODE_CONFIG, it is fine.
    inputs.env.config = Some(elsewhere);
    assert!(findings(&inputs, &[]).is_empty());
}

#[test]
fn a_missing_target_is_an_error_when_judged_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = inputs(dir.path());
    std::fs::remove_file(inputs.target.as_ref().unwrap()).unwrap();
    assert_eq!(findings(&inputs, &[])[0].1, Code::TargetNotLoaded);
    inputs.as_on_disk = false;
    assert!(findings(&inputs, &[]).is_empty());
}

#[test]
fn sessions_through_a_server_fail_closed_and_tools_pass() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = inputs(dir.path());
    for sub in ["serve", "web", "acp", "attach", "pr", "github"] {
        let argv = argv(&["opencode", sub]);
        assert!(
            crate::agent::launch::audit(&OpenCodeLaunch, &argv, &inputs).is_err(),
            "{sub}"
        );
    }
    for sub in ["models", "auth", "providers", "mcp", "stats"] {
        let argv = argv(&["opencode", sub, "--whatever"]);
        assert!(
            crate::agent::launch::audit(&OpenCodeLaunch, &argv, &inputs).is_ok(),
            "{sub}"
        );
    }
}

#[test]
fn every_other_layer_that_sets_entries_is_found() {
    // Beside the project layers: the global files other than twsrt's,
    // OPENCODE_CONFIG, OPENCODE_CONFIG_DIR; and besides `permission`, the
    // `tools` map and an agent's or mode's own permission.
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = inputs(dir.path());
    let global = inputs.home.join(".config/opencode");
    let custom = dir.path().join("custom.json");
    let config_dir = dir.path().join("cfgdir");
    write(&global.join("opencode.jsonc"), r#"{"tools": {"*": true}}"#);
    write(
        &custom,
        r#"{"mode": {"build": {"permission": {"*": "allow"}}}}"#,
    );
    write(
        &config_dir.join("opencode.json"),
        r#"{"agent": {"build": {"permission": {"read": "allow"}}}}"#,
    );
    write(
        &inputs.cwd.join("opencode.json"),
        r#"{"permission": {env:P}}"#,
    );
    inputs.env.config = Some(custom.clone());
    inputs.env.config_dir = Some(config_dir.clone());
    let found = findings(&inputs, &[]);
    let mut locations: Vec<String> = found.iter().map(|f| f.2.clone()).collect();
    locations.sort();
    let mut want = vec![
        global.join("opencode.jsonc").display().to_string(),
        custom.display().to_string(),
        config_dir.join("opencode.json").display().to_string(),
        inputs.cwd.join("opencode.json").display().to_string(),
        "OPENCODE_CONFIG_DIR".to_string(),
    ];
    want.sort();
    assert_eq!(locations, want, "{found:?}");
    assert!(found.iter().all(|f| f.1 == Code::LayerOverride));
}

#[test]
fn agent_files_that_set_entries_are_found() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = inputs(dir.path());
    let global = inputs.home.join(".config/opencode");
    write(
        &global.join("agents/x/build.md"),
        "---\npermission:\n  \"*\": allow\n---\nhi\n",
    );
    write(
        &inputs.cwd.join(".opencode/mode/plan.md"),
        "---\ntools:\n  bash: true\n---\n",
    );
    write(
        &global.join("agent/plain.md"),
        "---\ndescription: d\n---\nhi\n",
    );
    let found = findings(&inputs, &[]);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found.iter().all(|f| f.1 == Code::LayerOverride));
    assert!(found.iter().any(|f| f.2.ends_with("agents/x/build.md")));
    assert!(
        found
            .iter()
            .any(|f| f.2.ends_with(".opencode/mode/plan.md"))
    );
}

#[test]
fn a_policy_path_inside_the_git_worktree_is_an_error_unless_sandboxed() {
    use crate::rules::{Action, Scope, SecurityRule};
    let dir = tempfile::tempdir().unwrap();
    let mut inputs = inputs(dir.path());
    let repo = inputs.cwd.clone();
    let inside = repo.join("secrets.txt").display().to_string();
    let glob = format!("{}/*.key", repo.display());
    let rule = |scope, pattern| SecurityRule {
        scope,
        action: Action::Deny,
        pattern,
    };
    let rules = [
        rule(Scope::Read, &inside),
        rule(Scope::Read, &glob),
        rule(Scope::Read, "~/.ssh"),
        rule(Scope::Write, "**/.env"),
    ];
    inputs.entries = super::mapping::translate(&rules, &mut Vec::new()).unwrap();
    // No repository: OpenCode matches from `/`, which the tails cover.
    assert!(findings(&inputs, &[]).is_empty());
    std::fs::create_dir(repo.join(".git")).unwrap();
    inputs.cwd = repo.join("sub");
    std::fs::create_dir(&inputs.cwd).unwrap();
    let found = findings(&inputs, &[]);
    let locations: Vec<&str> = found.iter().map(|f| f.2.as_str()).collect();
    assert_eq!(locations, [inside.as_str(), glob.as_str()], "{found:?}");
    assert!(
        found
            .iter()
            .all(|f| f.0 == Severity::Error && f.1 == super::codes::PATH_NAME)
    );
    inputs.sandboxed = true;
    assert!(
        findings(&inputs, &[])
            .iter()
            .all(|f| f.0 == Severity::Warning)
    );
}

#[test]
fn plugins_and_custom_tools_are_found() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = inputs(dir.path());
    let global = inputs.home.join(".config/opencode");
    write(
        &inputs.cwd.join(".opencode/plugin/auto.ts"),
        "export default {}\n",
    );
    write(&global.join("tools/cat.js"), "export default {}\n");
    write(&inputs.cwd.join(".opencode/tool/notes.md"), "not code\n");
    write(
        &inputs.cwd.join("opencode.json"),
        r#"{"plugin": ["opencode-auto-approve"]}"#,
    );
    let found = findings(&inputs, &[]);
    let mut locations: Vec<String> = found.iter().map(|f| f.2.clone()).collect();
    locations.sort();
    let mut want = vec![
        inputs
            .cwd
            .join(".opencode/plugin/auto.ts")
            .display()
            .to_string(),
        global.join("tools/cat.js").display().to_string(),
        inputs.cwd.join("opencode.json").display().to_string(),
    ];
    want.sort();
    assert_eq!(locations, want, "{found:?}");
    assert!(found.iter().all(|f| f.1 == Code::LayerOverride));
}
