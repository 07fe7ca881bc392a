//! `twsrt import copilot`: the flags file twsrt writes, a shell line and
//! Copilot's settings file come back as fragments.

use std::collections::BTreeSet;

use crate::support::*;

const COPILOT_TARGETS: &str = "\n[targets]\ncopilot_output = \"~/flags/copilot.txt\"\n";

const SRT: &str = r#"{
  "filesystem": {"allowWrite": ["."]},
  "network": {"allowedDomains": ["github.com", "*.npmjs.org"], "deniedDomains": ["evil.com"]}
}"#;

const BASH: &str = r#"{"allow": ["git status"], "ask": ["git push"], "deny": ["rm -rf", "sudo"]}"#;

fn lines(text: &str) -> BTreeSet<String> {
    text.lines().map(str::to_string).collect()
}

/// The flags twsrt wrote, imported into a policy without those rules (the
/// allowWrite stays: a tool allow names no path), render the same flags.
#[test]
fn twsrts_own_flags_file_round_trips() {
    let written = Test::with_policy()
        .config_append(COPILOT_TARGETS)
        .file(SRT_FRAGMENT, SRT)
        .file(BASH_FRAGMENT, BASH)
        .args(&["generate", "-w", "copilot"])
        .any_stderr()
        .run();
    let before = lines(&written.read(COPILOT));
    let imported = written
        .then()
        .file(SRT_FRAGMENT, r#"{"filesystem": {"allowWrite": ["."]}}"#)
        .file(BASH_FRAGMENT, "{}")
        .args(&["import", "-w", "copilot"])
        .any_stderr()
        .stderr_contains("Warning: not imported: --allow-tool 'shell' (~/flags/copilot.txt line ")
        .run();
    let again = imported
        .then()
        .args(&["generate", "-w", "copilot"])
        .any_stderr()
        .run();
    assert_eq!(lines(&again.read(COPILOT)), before);
}

/// The shell line of an alias, given with --from: its rules come in, the
/// words without policy meaning are named.
#[test]
fn a_shell_line_is_imported_from_a_file() {
    let out = Test::with_policy()
        .file(
            "aliases.sh",
            "alias cop=\"copilot --model gpt-5 --deny-tool 'shell(curl)' --allow-url pypi.org\"\n",
        )
        .args(&["import", "--from", "~/aliases.sh", "copilot"])
        .any_stdout()
        .any_stderr()
        .unchanged()
        .run();
    assert!(
        out.stdout.contains("\"curl\" // ~/aliases.sh line 1"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("\"pypi.org\" // ~/aliases.sh line 1"),
        "{}",
        out.stdout
    );
    assert!(out.stderr.contains(
        "Info: left in the agent file: --model (~/aliases.sh line 1): a flag without policy meaning"
    ), "{}", out.stderr);
}
