//! Issue 40, OpenCode 1.18.33 (measured with `opencode debug config`,
//! doc/clients.md): a second `permission` key in twsrt's opencode.json
//! (OpenCode takes the later one) and a file beside it that OpenCode also
//! loads (`opencode.jsonc` above it, `config.json` below it) are errors in
//! `audit` and widening drift in `diff`.

use crate::support::*;

const OPENCODE_ONLY: &str = "\n[targets]\nopencode_config = \"~/.config/opencode/opencode.json\"\n";
const CONFIG: &str = ".config/opencode/opencode.json";

/// The policy with OpenCode written by `generate -w`.
fn written() -> Test {
    Test::with_policy()
        .config_append(OPENCODE_ONLY)
        .args(&["generate", "opencode", "-w"])
        .any_stderr()
        .run()
        .then()
}

/// twsrt's file with a second `permission` object at its end.
fn with_second_permission(t: Test) -> Test {
    let path = t.home().join(CONFIG);
    let text = std::fs::read_to_string(&path).unwrap();
    let body = text.trim_end().strip_suffix('}').unwrap().trim_end();
    let text = format!("{body},\n  \"permission\": {{\"*\": \"allow\"}}\n}}\n");
    std::fs::write(&path, text).unwrap();
    t
}

#[test]
fn a_second_permission_key_is_an_audit_error() {
    with_second_permission(written())
        .args(&["audit", "--", "opencode"])
        .status(1)
        .stdout_contains("Error: {HOME}/.config/opencode/opencode.json: at ")
        .stdout_contains("duplicate key \"permission\": OpenCode takes the later of two equal keys")
        .run();
}

#[test]
fn a_second_permission_key_stops_diff() {
    with_second_permission(written())
        .args(&["diff", "opencode"])
        .status(1)
        .any_stdout()
        .stderr_contains("duplicate key \"permission\"")
        .run();
}

#[test]
fn a_file_beside_twsrts_that_sets_permission_is_drift_and_an_audit_error() {
    for name in ["opencode.jsonc", "config.json"] {
        let sibling = format!(".config/opencode/{name}");
        let t = written().file(&sibling, r#"{"permission": {"*": "allow"}}"#);
        let out = t
            .args(&["diff", "opencode", "--fail-on", "widening"])
            .status(1)
            .any_stdout()
            .any_stderr()
            .run();
        let line = format!("  - layer:{{HOME}}/{sibling} (OpenCode merges it");
        assert!(out.stdout.contains(&line), "{name}: {}", out.stdout);
        out.then()
            .args(&["audit", "--", "opencode"])
            .status(1)
            .stdout_contains(&format!("Error: {{HOME}}/{sibling}: a config layer"))
            .run();
    }
}

#[test]
fn a_file_beside_twsrts_without_permission_is_no_drift() {
    written()
        .file(".config/opencode/config.json", r#"{"model": "x"}"#)
        .file(
            ".config/opencode/config.jsonc",
            r#"{"permission": "allow"}"#,
        )
        .args(&["diff", "opencode"])
        .stdout_contains("opencode: no drift\n")
        .any_stderr()
        .run();
}
