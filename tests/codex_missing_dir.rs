//! Codex profile entries under a directory that does not exist (issue 40):
//! two or more of them make Codex 0.171 start no command, so they become one
//! entry for the directory, said once. A directory twsrt's own writes create
//! (a configured target's parent) counts as existing, so the profile does
//! not depend on which agent was written first.

use crate::support::*;

const SRT: &str = r#"{"filesystem": {"denyRead": ["~/.ssh"],
  "denyWrite": ["~/.x/a/b", "~/.x/c"], "allowWrite": ["."]}}"#;
const LIFTED: &str = "starts no command when two or more rules lie under one missing directory";

fn policy() -> Test {
    Test::with_policy().targets().file(SRT_FRAGMENT, SRT)
}

#[test]
fn two_rules_under_a_missing_directory_are_one_entry_for_it() {
    let out = policy()
        .args(&["generate", "-w", "codex"])
        .any_stderr()
        .stderr_contains(LIFTED)
        .run();
    assert!(out.stderr.contains(": ~/.x\n"), "{}", out.stderr);
    let config = out.read(CODEX_CONFIG);
    assert!(config.contains("\"~/.x\" = \"read\""), "{config}");
    assert!(!config.contains("\"~/.x/c\""), "{config}");
    // The guard files of the configured targets stay one by one, although
    // ~/.claude does not exist yet: `generate -w` creates it.
    assert!(
        config.contains("\"~/.claude/settings.full.json\" = \"read\""),
        "{config}"
    );
    out.then()
        .args(&["diff", "codex"])
        .stdout_contains("codex: no drift")
        .any_stderr()
        .unchanged()
        .run();
}

#[test]
fn an_existing_directory_keeps_its_rules() {
    let out = policy()
        .file(".x/keep", "")
        .args(&["generate", "-w", "codex"])
        .any_stderr()
        .lacks(LIFTED)
        .run();
    let config = out.read(CODEX_CONFIG);
    for entry in ["\"~/.x/a/b\" = \"read\"", "\"~/.x/c\" = \"read\""] {
        assert!(config.contains(entry), "{config}");
    }
    assert!(!config.contains("\"~/.x\" = "), "{config}");
}
