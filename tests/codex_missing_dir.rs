//! Codex profile entries under a directory that does not exist (issue 40):
//! two or more of them make Codex 0.171 start no command, so they become one
//! entry for the directory, said once. A directory this command's writes
//! create (a written target's parent) counts as existing; another agent's
//! directory that is neither there nor written now does not (with
//! `claude_settings` set and no `~/.claude`, `generate -w codex` must still
//! give a Codex that starts). Once the directory exists, `diff` keeps the
//! one entry (it is as strict) and says that `generate -w codex` writes the
//! rules one by one.

use crate::support::*;

const SRT: &str = r#"{"filesystem": {"denyRead": ["~/.ssh"],
  "denyWrite": ["~/.x/a/b", "~/.x/c"], "allowWrite": ["."]}}"#;
const LIFTED: &str = "starts no command when two or more rules lie under one missing directory";
const KEPT: &str =
    "the profile holds \"~/.claude\" = \"read\", written while ~/.claude was missing";

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
    assert!(
        out.stderr.contains(": ~/.claude, ~/.x, ~/flags\n"),
        "{}",
        out.stderr
    );
    let config = out.read(CODEX_CONFIG);
    assert!(config.contains("\"~/.x\" = \"read\""), "{config}");
    assert!(!config.contains("\"~/.x/c\""), "{config}");
    // Only Codex is written: ~/.claude stays missing, and its two guard
    // files are one entry for it.
    assert!(config.contains("\"~/.claude\" = \"read\""), "{config}");
    assert!(
        !config.contains("\"~/.claude/settings.full.json\""),
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
fn the_directories_of_the_agents_written_together_count_as_existing() {
    let out = policy()
        .args(&["generate", "-w"])
        .any_stderr()
        .stderr_contains(LIFTED)
        .run();
    assert!(out.stderr.contains(": ~/.x\n"), "{}", out.stderr);
    let config = out.read(CODEX_CONFIG);
    for entry in [
        "\"~/.claude/settings.full.json\" = \"read\"",
        "\"~/flags/copilot.txt\" = \"read\"",
    ] {
        assert!(config.contains(entry), "{config}");
    }
    out.then()
        .args(&["diff"])
        .stdout_contains("codex: no drift")
        .any_stderr()
        .lacks(KEPT)
        .unchanged()
        .run();
}

#[test]
fn once_the_directory_exists_diff_keeps_the_one_entry_and_says_so() {
    let out = policy()
        .args(&["generate", "-w", "codex"])
        .any_stderr()
        .run();
    let out = out
        .then()
        .args(&["generate", "-w", "claude"])
        .any_stderr()
        .run();
    let out = out
        .then()
        .args(&["diff", "codex", "--fail-on", "widening"])
        .stdout_contains("codex: no drift")
        .any_stderr()
        .stderr_contains(KEPT)
        .unchanged()
        .run();
    let out = out
        .then()
        .args(&["generate", "-w", "codex"])
        .any_stderr()
        .run();
    let config = out.read(CODEX_CONFIG);
    assert!(
        config.contains("\"~/.claude/settings.full.json\" = \"read\""),
        "{config}"
    );
    assert!(!config.contains("\"~/.claude\" = "), "{config}");
    out.then()
        .args(&["diff", "codex"])
        .stdout_contains("codex: no drift")
        .any_stderr()
        .lacks(KEPT)
        .unchanged()
        .run();
}

#[test]
fn a_looser_entry_for_the_directory_is_drift() {
    let out = policy()
        .args(&["generate", "-w", "codex"])
        .any_stderr()
        .run();
    let config = out.read(CODEX_CONFIG);
    let loose = config.replace("\"~/.x\" = \"read\"", "\"~/.x\" = \"write\"");
    assert_ne!(loose, config);
    out.then()
        .file(".x/made", "")
        .file(CODEX_CONFIG, loose)
        .args(&["diff", "codex", "--fail-on", "widening"])
        .status(1)
        .any_stdout()
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
        .run();
    assert!(!out.stderr.contains("~/.x"), "{}", out.stderr);
    let config = out.read(CODEX_CONFIG);
    for entry in ["\"~/.x/a/b\" = \"read\"", "\"~/.x/c\" = \"read\""] {
        assert!(config.contains(entry), "{config}");
    }
    assert!(!config.contains("\"~/.x\" = "), "{config}");
}
