use serde_json::json;

use super::*;

const FILE: &str = r#"
[[rule]]
toolName = "run_shell_command"
commandPrefix = "rm"
decision = "deny"
priority = 999

[[rule]]
toolName = "run_shell_command"
commandPrefix = "git push"
decision = "ask_user"
priority = 998

[[rule]]
toolName = ["read_file", "glob"]
argsPattern = '\x00"file_path":[^\x00]*"/home/u/\.ssh[/"]'
decision = "deny"
priority = 999
"#;

fn policy() -> Policy {
    Policy::load(FILE).unwrap()
}

fn shell(policy: &Policy, command: &str) -> Option<Match> {
    policy.check("run_shell_command", &json!({ "command": command }))
}

#[test]
fn a_command_prefix_matches_the_word_not_a_longer_one() {
    let p = policy();
    let deny = Some(Match {
        index: 0,
        outcome: Outcome::Deny,
    });
    assert_eq!(shell(&p, "rm -rf x"), deny);
    assert_eq!(shell(&p, "rm"), deny);
    assert_eq!(shell(&p, "rmdir x"), None);
    // Gemini does not look through wrappers or paths.
    assert_eq!(shell(&p, "sudo rm x"), None);
    assert_eq!(shell(&p, "/bin/rm x"), None);
}

#[test]
fn every_part_of_a_compound_command_is_checked_and_deny_wins() {
    let p = policy();
    for command in [
        "ls && rm x",
        "echo $(rm y)",
        "bash -c 'rm x'",
        "ls | rm x",
        "git push; rm x",
        "echo `rm z`",
    ] {
        assert_eq!(
            shell(&p, command).map(|m| m.outcome),
            Some(Outcome::Deny),
            "{command}"
        );
    }
    assert_eq!(
        shell(&p, "ls && git push origin").map(|m| m.outcome),
        Some(Outcome::AskUser)
    );
    // A quoted operator is text, not a second command.
    assert_eq!(shell(&p, "echo 'a; rm x'"), None);
}

#[test]
fn an_args_pattern_is_tested_on_the_sorted_nul_wrapped_arguments() {
    let p = policy();
    let read = |path: &str| p.check("read_file", &json!({ "file_path": path }));
    assert_eq!(read("/home/u/.ssh/id_rsa").map(|m| m.index), Some(2));
    assert_eq!(read("/home/u/.ssh").map(|m| m.index), Some(2));
    assert_eq!(read("/home/u/.sshx"), None);
    // Another tool of the list, and one not on it.
    assert!(
        p.check("glob", &json!({"file_path": "/home/u/.ssh"}))
            .is_some()
    );
    assert!(
        p.check("write_file", &json!({"file_path": "/home/u/.ssh"}))
            .is_none()
    );
    assert_eq!(
        stable_stringify(&json!({"z": 1, "a": {"y": 2, "b": [3]}})),
        "{\0\"a\":{\"b\":[3],\"y\":2}\0,\0\"z\":1\0}"
    );
}

#[test]
fn the_highest_priority_decides_and_file_order_breaks_ties() {
    let text = r#"
[[rule]]
toolName = "run_shell_command"
commandPrefix = "git"
decision = "ask_user"
priority = 10

[[rule]]
toolName = "run_shell_command"
commandPrefix = "git"
decision = "deny"
priority = 999

[[rule]]
toolName = "run_shell_command"
commandPrefix = "git"
decision = "allow"
priority = 999
"#;
    let p = Policy::load(text).unwrap();
    assert_eq!(
        shell(&p, "git status"),
        Some(Match {
            index: 1,
            outcome: Outcome::Deny
        })
    );
}

#[test]
fn a_rule_gemini_would_reject_is_an_error_naming_it() {
    let bad = |body: &str| Policy::load(&format!("[[rule]]\n{body}")).err().unwrap();
    assert!(bad("toolName = \"x\"\ndecision = \"deny\"").contains("rule 1: no integer priority"));
    assert!(bad("toolName = \"x\"\ndecision = \"maybe\"\npriority = 1").contains("decision"));
    assert!(
        bad("toolName = \"x\"\nargsPattern = \"(\"\ndecision = \"deny\"\npriority = 1")
            .contains("does not compile")
    );
    assert!(Policy::load("rule = 1").is_err());
    assert!(Policy::load("not toml [").is_err());
}

#[test]
fn a_tier_orders_the_rules_of_all_its_files_by_priority_then_by_file() {
    let first = "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"rm\"\n\
                 decision = \"ask_user\"\npriority = 100\n";
    let second = "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"rm\"\n\
                  decision = \"deny\"\npriority = 200\n\n[[rule]]\ntoolName = \"run_shell_command\"\n\
                  commandPrefix = \"ls\"\ndecision = \"allow\"\npriority = 100\n";
    let (policy, starts) = Policy::load_tier(&[first, second]).unwrap();
    assert_eq!(starts, [0, 1]);
    let rm = policy.check(
        "run_shell_command",
        &serde_json::json!({"command": "rm -rf x"}),
    );
    assert_eq!(
        rm,
        Some(Match {
            index: 1,
            outcome: Outcome::Deny
        })
    );
    let err = Policy::load_tier(&[first, "not [ toml"])
        .err()
        .unwrap_or_default();
    assert!(err.starts_with("file 1: not TOML"), "{err}");
}
