//! Copilot CLI's `shell(...)` patterns: a bash rule becomes the prefix
//! pattern `shell(RULE:*)` Copilot enforces, and a rule joining commands,
//! which no pattern can hold, gets no flag, one warning with its code, and
//! "not enforced" in `explain` (measured with Copilot CLI 1.0.102,
//! doc/clients.md "Copilot's shell patterns, measured").

use serde_json::Value;

use crate::support::*;

const BASH: &str = r#"{"deny": ["rm -rf /", "curl | sh", "sudo"], "ask": ["a && b"]}"#;

fn policy() -> Test {
    Test::with_policy()
        .config_append(COPILOT_ONLY)
        .file(BASH_FRAGMENT, BASH)
}

#[test]
fn a_rule_of_words_is_a_prefix_pattern_and_a_joined_one_is_said_once() {
    for mode in [
        &["generate", "-w", "copilot"][..],
        &["generate", "--yolo", "-w", "copilot"],
    ] {
        let yolo = mode.contains(&"--yolo");
        let out = policy()
            .args(mode)
            .any_stderr()
            .stderr_contains(
                "Warning: Copilot checks each command of a list or pipeline on its own",
            )
            .run();
        let flags = out.read(if yolo { COPILOT_YOLO } else { COPILOT });
        for rule in ["rm -rf /", "sudo"] {
            assert!(
                flags.contains(&format!("--deny-tool 'shell({rule}:*)' \\")),
                "{flags}"
            );
        }
        assert!(!flags.contains("curl") && !flags.contains("&&"), "{flags}");
        let said: Vec<&str> = out
            .stderr
            .lines()
            .filter(|l| l.contains("list or pipeline"))
            .collect();
        assert_eq!(said.len(), 1, "{}", out.stderr);
        // The ask rule is a rule of the full mode only (yolo drops ask rules).
        assert!(said[0].contains("'curl | sh'"), "{}", said[0]);
        assert_eq!(said[0].contains("'a && b'"), !yolo, "{}", said[0]);
        assert!(
            !out.stderr.contains("ask rule 'a && b' becomes"),
            "{}",
            out.stderr
        );
    }
}

#[test]
fn doctor_names_the_rule_with_its_code() {
    let found = doctor_findings(policy(), "copilot-compound-rule");
    assert_eq!(found.len(), 1, "{found:?}");
    let message = found[0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("'curl | sh'"), "{message}");
}

fn copilot_row(args: &[&str]) -> Value {
    explain_row(policy(), args, "copilot", "flags")
}

#[test]
fn explain_says_not_enforced_for_a_joined_rule_and_deny_for_a_prefix() {
    for yolo in [false, true] {
        let mode: &[&str] = if yolo { &["--yolo"] } else { &[] };
        let row = copilot_row(&[mode, &["--command", "curl | sh"]].concat());
        assert_eq!(row["decision"], "not enforced", "{row}");
        assert_eq!(row["rule"], "curl | sh", "{row}");
        let row = copilot_row(&[mode, &["--command", "rm -rf / --no-preserve-root"]].concat());
        assert_eq!(row["decision"], "deny", "{row}");
        assert_eq!(row["rule"], "rm -rf /", "{row}");
        let row = copilot_row(&[mode, &["--command", "rm -rf /tmp"]].concat());
        assert_ne!(row["decision"], "deny", "{row}");
    }
    // The ask rule joining commands: not enforced in the full mode; under
    // yolo Copilot has no ask rule at all, so --yolo allows it.
    assert_eq!(
        copilot_row(&["--command", "a && b"])["decision"],
        "not enforced"
    );
    assert_eq!(
        copilot_row(&["--yolo", "--command", "a && b"])["decision"],
        "allow"
    );
}

#[test]
fn explain_checks_each_command_of_a_list_pipeline_or_subshell() {
    for yolo in [false, true] {
        let mode: &[&str] = if yolo { &["--yolo"] } else { &[] };
        for command in [
            "echo a && sudo id",
            "echo a; sudo id",
            "echo a | sudo tee x",
            "false || sudo id",
            "(sudo id)",
            "echo $(sudo id)",
            "cd /x\nrm -rf / --no-preserve-root",
        ] {
            let row = copilot_row(&[mode, &["--command", command]].concat());
            assert_eq!(row["decision"], "deny", "{command:?}: {row}");
        }
        // A rule's words inside one quoted argument are no command of their
        // own, and Copilot does not check a backtick substitution (measured).
        for command in [
            "echo `sudo id`",
            "echo 'a; sudo id'",
            "echo \"x && sudo id\"",
            "echo sudo",
            "echo '$(sudo id)'",
        ] {
            let row = copilot_row(&[mode, &["--command", command]].concat());
            assert_ne!(row["decision"], "deny", "{command:?}: {row}");
        }
    }
}
