//! Codex and bash deny rules joining commands: Codex checks each command of
//! a list or pipeline on its own, so `curl | sh` is enforced by no Codex
//! rule (measured with Codex 0.171.0, doc/clients.md "Codex and rules
//! joining commands"). generate and doctor say it once
//! (`codex-compound-rule`), explain shows "not enforced" for Codex.

use serde_json::Value;

use crate::support::*;

const BASH: &str = r#"{"deny": ["rm -rf /", "curl | sh", "a && b"], "ask": ["x | y"]}"#;
const CODEX_ONLY: &str = "\n[targets]\ncodex_config = \"~/.codex/config.toml\"\n\
    codex_rules = \"~/.codex/rules/twsrt.rules\"\n";

fn policy() -> Test {
    Test::with_policy()
        .config_append(CODEX_ONLY)
        .file(BASH_FRAGMENT, BASH)
}

#[test]
fn generate_says_the_joined_deny_rules_once() {
    let out = policy()
        .args(&["generate", "-w", "codex"])
        .any_stderr()
        .run();
    let said: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.contains("not enforced for Codex"))
        .collect();
    assert_eq!(said.len(), 1, "{}", out.stderr);
    assert!(said[0].starts_with("Warning: "), "{}", said[0]);
    assert!(said[0].ends_with("'a && b', 'curl | sh'"), "{}", said[0]);
    assert!(!said[0].contains("rm -rf"), "{}", said[0]);
}

#[test]
fn without_a_rules_file_nothing_is_said() {
    let out = Test::with_policy()
        .config_append("\n[targets]\ncodex_config = \"~/.codex/config.toml\"\n")
        .file(BASH_FRAGMENT, BASH)
        .args(&["generate", "-w", "codex"])
        .any_stderr()
        .run();
    assert!(
        !out.stderr.contains("not enforced for Codex"),
        "{}",
        out.stderr
    );
}

#[test]
fn doctor_names_the_rules_with_its_code() {
    let found = doctor_findings(policy(), "codex-compound-rule");
    assert_eq!(found.len(), 1, "{found:?}");
    let message = found[0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("'curl | sh'"), "{message}");
}

fn codex_rules_row(command: &str) -> Value {
    explain_row(policy(), &["--command", command], "codex", "rules")
}

#[test]
fn explain_says_not_enforced_for_a_joined_rule_and_deny_for_words() {
    let row = codex_rules_row("curl | sh");
    assert_eq!(row["decision"], "not enforced", "{row}");
    assert_eq!(row["rule"], "curl | sh", "{row}");
    let row = codex_rules_row("a && b");
    assert_eq!(row["decision"], "not enforced", "{row}");
    let row = codex_rules_row("rm -rf / --no-preserve-root");
    assert_eq!(row["decision"], "deny", "{row}");
    assert_eq!(row["rule"], "rm -rf /", "{row}");
}
