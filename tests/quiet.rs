//! Which generation warnings `generate` and `diff` print: those 3.3.3
//! prints and those about the policy's content always, the measured agent
//! limits only with `-v` (and `twsrt doctor` lists them); `-q` prints no
//! note and no warning, errors always.

use crate::support::*;

/// The base policy plus a deny glob, and two rules in a missing workspace
/// root (it stays writable, so they are not one entry), so Codex raises
/// every kind of warning.
const GLOB_SRT: &str = r#"{
  "filesystem": {"denyRead": ["~/.ssh"], "denyWrite": ["**/.env", "~/dev/p/a", "~/dev/p/b"],
                 "allowWrite": [".", "~/dev/p"]},
  "network": {"allowedDomains": ["github.com"], "deniedDomains": ["evil.com"]}
}"#;

/// The warnings 3.3.3 prints for this policy (in the port's words).
const ALWAYS: [&str; 4] = [
    "Warning: 1 denyWrite globs cannot be made read-only in Codex",
    "Warning: 1 bash ask rule(s) skipped: Codex already asks",
    "Warning: Codex execution rules are consulted only for requests to run outside the sandbox",
    "Warning: A legacy sandbox_mode setting (or the --sandbox flag)",
];

/// The agent limits: shown with -v only. (The third, that Codex ignores
/// the domain lists without its network_proxy feature, is gone: twsrt
/// writes the feature.)
const LIMITS: [&str; 2] = [
    "Warning: Codex (measured with 0.171) expands deny globs only when a command starts",
    "Warning: Codex (measured with 0.171) fails to start its sandbox when two or more rules",
];

fn codex() -> Test {
    Test::with_policy().targets().file(SRT_FRAGMENT, GLOB_SRT)
}

fn with_facts(mut test: Test, shown: &[&str], hidden: &[&str]) -> Test {
    for fact in shown {
        test = test.stderr_contains(fact);
    }
    for fact in hidden {
        test = test.lacks(fact);
    }
    test
}

#[test]
fn generate_prints_the_agent_limits_only_with_verbose_and_the_same_stdout() {
    let plain = with_facts(codex().args(&["generate", "codex"]), &ALWAYS, &LIMITS)
        .any_stdout()
        .unchanged()
        .run();
    let shown = plain.stdout.clone();
    assert!(!shown.is_empty());
    let all: Vec<&str> = ALWAYS.iter().chain(&LIMITS).copied().collect();
    let verbose = with_facts(plain.then().args(&["-v", "generate", "codex"]), &all, &[])
        .any_stdout()
        .unchanged()
        .run();
    assert_eq!(verbose.stdout, shown);
}

#[test]
fn diff_prints_the_agent_limits_only_with_verbose() {
    let written = codex()
        .args(&["generate", "codex", "-w"])
        .any_stderr()
        .run();
    let plain = with_facts(written.then().args(&["diff", "codex"]), &ALWAYS, &LIMITS)
        .stdout_contains("codex: no drift")
        .lacks("enforces the allow/deny lists")
        .unchanged()
        .run();
    with_facts(
        plain.then().args(&["diff", "codex", "--verbose"]),
        &[ALWAYS[0], LIMITS[0], LIMITS[1]],
        &["enforces the allow/deny lists"],
    )
    .stdout_contains("codex: no drift")
    .unchanged()
    .run();
}

#[test]
fn quiet_drops_notes_and_warnings_and_keeps_the_output_and_the_written_files() {
    let loud = codex()
        .args(&["generate", "codex"])
        .any_stdout()
        .any_stderr()
        .run();
    let shown = loud.stdout.clone();
    let quiet = loud
        .then()
        .args(&["-q", "generate", "codex"])
        .any_stdout()
        .stderr(
            "Would write canonical: {HOME}/.srt-settings.json\n\
             Would write canonical: {HOME}/.config/twsrt/bash-rules.json\n\
             Would write agent target: {HOME}/.codex/config.toml\n\
             Would write agent target: {HOME}/.codex/rules/twsrt.rules\n",
        )
        .unchanged()
        .run();
    assert_eq!(quiet.stdout, shown);
    quiet
        .then()
        .args(&["generate", "all", "--quiet", "-w"])
        .stderr_contains("Wrote: {HOME}/.codex/config.toml\n")
        .lacks("Warning:")
        .lacks("Info:")
        .run();
}

#[test]
fn quiet_keeps_errors() {
    Test::with_policy()
        .targets()
        .args(&["-q", "generate", "nosuchagent"])
        .status(1)
        .any_stdout()
        .stderr_contains("Error: ")
        .unchanged()
        .run();
    Test::new()
        .args(&["-q", "diff"])
        .status(1)
        .stderr_contains("Error: ")
        .unchanged()
        .run();
}

#[test]
fn quiet_and_verbose_exclude_each_other() {
    Test::with_policy()
        .args(&["-q", "-v", "generate"])
        .status(2)
        .stderr_contains("cannot be used with")
        .unchanged()
        .run();
}

#[test]
fn doctor_lists_the_limit_generate_keeps_for_verbose() {
    codex()
        .args(&["doctor"])
        .stdout_contains("codex\n  warning  codex-glob-walk")
        .stdout_contains("keep busy directories out of allowWrite: **/.env\n")
        .stdout_contains("• profile 'default'\n")
        .unchanged()
        .run();
}

#[test]
fn explain_notes_the_glob_walk_on_a_codex_row_decided_by_a_glob() {
    // Codex applies a workspace glob under its workspace roots: ~/dev is one.
    let srt = GLOB_SRT.replace(
        r#""allowWrite": [".", "~/dev/p"]"#,
        r#""allowWrite": [".", "~/dev"]"#,
    );
    Test::with_policy()
        .targets()
        .file(SRT_FRAGMENT, srt)
        .dir("dev")
        .args(&["explain", "~/dev/.env"])
        .stdout_contains(
            "profile entry \"**/.env\" = \"deny\"; a glob, expanded only when a command starts: \
             a matching file the command creates is not covered (codex-glob-walk)",
        )
        .any_stderr()
        .unchanged()
        .run();
}
