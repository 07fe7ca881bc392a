//! `generate`: which agents run (they are opt-in), and which stream each
//! line goes to. stdout carries only renderings; the files that would be or
//! were written, the notes and the warnings go to stderr.

use crate::support::*;

const CLAUDE_SKIPPED: &str =
    "Info: claude skipped: [targets].claude_settings is not set in config.toml\n";
const CODEX_SKIPPED: &str =
    "Info: codex skipped: [targets].codex_config is not set in config.toml\n";
const COPILOT_SKIPPED: &str =
    "Info: copilot skipped: [targets].copilot_output is not set in config.toml\n";

const WROTE_CANONICAL: &str = "Wrote canonical: {HOME}/.srt-settings.json\n\
     Wrote canonical: {HOME}/.config/twsrt/bash-rules.json\n";

/// Claude and Copilot configured, Codex not.
const CLAUDE_AND_COPILOT: &str = "\n[targets]\nclaude_settings = \"~/.claude/settings.full.json\"\n\
     copilot_output = \"~/flags/copilot.txt\"\n";

const CODEX_ONLY: &str = "\n[targets]\ncodex_config = \"~/.codex/config.toml\"\n";

#[test]
fn a_named_agent_without_its_target_key_is_skipped_with_a_note() {
    let preview_skips = |agent: &str, note: &str| {
        Test::with_policy()
            .config_append(COPILOT_ONLY)
            .args(&["generate", agent])
            .stderr(&format!("{note}{WOULD_WRITE_CANONICAL}{PREVIEW_END}"))
            .unchanged()
            .run();
    };
    preview_skips("claude", CLAUDE_SKIPPED);
    preview_skips("codex", CODEX_SKIPPED);
    // With -w only the canonical outputs are written: no fallback path.
    let out = Test::with_policy()
        .config_append(COPILOT_ONLY)
        .args(&["generate", "-w", "codex"])
        .stderr(&format!("{CODEX_SKIPPED}{WROTE_CANONICAL}"))
        .run();
    assert!(!out.path(CODEX_CONFIG).exists());
    assert!(!out.path(COPILOT).exists());
    // Copilot without copilot_output no longer prints its flags.
    Test::with_policy()
        .config_append(CODEX_ONLY)
        .args(&["generate", "-w", "copilot"])
        .stderr(&format!("{COPILOT_SKIPPED}{WROTE_CANONICAL}"))
        .run();
}

#[test]
fn all_runs_the_configured_agents_and_notes_each_skipped_one() {
    Test::with_policy()
        .config_append(COPILOT_ONLY)
        .args(&["generate"])
        // One agent: no `--- copilot ---` header.
        .stdout_contains("--allow-tool 'shell' \\\n")
        .lacks("--- ")
        .stderr(&format!(
            "{CLAUDE_SKIPPED}{CODEX_SKIPPED}{NEW_AGENTS_SKIPPED}{NO_ASK_TIER}{WOULD_WRITE_CANONICAL}\
             Would write agent target: {{HOME}}/flags/copilot.txt\n{PREVIEW_END}"
        ))
        .unchanged()
        .run();
}

#[test]
fn without_any_target_all_handles_only_the_canonical_outputs() {
    Test::with_policy()
        .args(&["generate"])
        .stderr(&format!("{NO_AGENTS}{WOULD_WRITE_CANONICAL}{PREVIEW_END}"))
        .unchanged()
        .run();
    Test::with_policy()
        .args(&["generate", "-w"])
        .stderr(&format!("{NO_AGENTS}{WROTE_CANONICAL}"))
        .run();
    // Naming the agent says which key is missing instead.
    Test::with_policy()
        .args(&["generate", "claude"])
        .stderr(&format!(
            "{CLAUDE_SKIPPED}{WOULD_WRITE_CANONICAL}{PREVIEW_END}"
        ))
        .unchanged()
        .run();
}

/// A policy or agent error comes first: no note precedes it.
#[test]
fn errors_are_reported_before_any_note() {
    Test::with_policy()
        .args(&["generate", "-p", "nope", "claude"])
        .status(1)
        .stderr(
            "Error: profile 'nope' is not defined in {HOME}/.config/twsrt/config.toml; \
             defined profiles: default\n",
        )
        .run();
    Test::with_policy()
        .args(&["generate", "nope"])
        .status(1)
        .stderr("Error: unknown agent 'nope'; available: claude, copilot, codex, gemini, opencode (or all)\n")
        .run();
}

#[test]
fn several_renderings_are_headed_by_their_agent_names() {
    let out = Test::with_policy()
        .config_append(CLAUDE_AND_COPILOT)
        .args(&["generate"])
        .any_stdout()
        .stderr(&format!(
            "{CODEX_SKIPPED}{NEW_AGENTS_SKIPPED}{NO_ASK_TIER}{WOULD_WRITE_CANONICAL}\
             Would write agent target: {{HOME}}/.claude/settings.full.json\n\
             Would write agent target: {{HOME}}/flags/copilot.txt\n\
             Info: would create the symlink {{HOME}}/.claude/settings.json -> settings.full.json\n\
             {PREVIEW_END}"
        ))
        .unchanged()
        .run();
    let headers: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("--- "))
        .collect();
    assert_eq!(headers, ["--- claude ---", "--- copilot ---"]);
    assert!(
        out.stdout.starts_with("--- claude ---\n{\n"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.ends_with(
            "}\n--- copilot ---\n--allow-tool 'shell' \\\n--allow-tool 'read' \\\n\
             --allow-tool 'edit' \\\n--allow-tool 'write' \\\n--allow-url 'github.com' \\\n\
             --deny-url 'evil.com' \\\n--deny-url 'http://evil.com' \\\n\
             --deny-tool 'shell(git push:*)' \\\n--deny-tool 'shell(rm:*)' \\\n"
        ),
        "{}",
        out.stdout
    );
}

/// The preview prints what the agent generates, not the file it is merged
/// into; the merge still happens (and can fail) as it would with -w.
#[test]
fn the_preview_shows_the_generated_part_and_stages_the_merge() {
    let existing = "model = \"o3\"\n";
    let out = Test::with_policy()
        .config_append(CODEX_ONLY)
        .file(CODEX_CONFIG, existing)
        .args(&["generate", "codex"])
        .stdout_contains("--- config: {HOME}/.codex/config.toml (managed fragment) ---\n")
        .lacks("o3")
        .any_stderr()
        .unchanged()
        .run();
    assert!(
        out.stderr
            .contains("Would write agent target: {HOME}/.codex/config.toml\n"),
        "{}",
        out.stderr
    );
    // An existing file that cannot be merged fails the preview, before any
    // warning, and nothing is written.
    Test::with_policy()
        .config_append(CODEX_ONLY)
        .file(CODEX_CONFIG, "model = \n")
        .args(&["generate", "codex"])
        .status(1)
        .stderr_contains("Error: {HOME}/.codex/config.toml:1:")
        .lacks("Warning:")
        .lacks("Would write")
        .unchanged()
        .run();
}

#[test]
fn a_migration_and_the_codex_restart_are_notes_on_stderr() {
    let out = Test::with_policy()
        .config_append(
            "\n[targets]\nclaude_settings = \"~/.claude/settings.full.json\"\n\
             codex_config = \"~/.codex/config.toml\"\n",
        )
        .file(ANCHOR, "{\"model\": \"opus\"}\n")
        .args(&["generate", "-w"])
        .any_stderr()
        .run();
    let status: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| !l.starts_with("Warning:"))
        .collect();
    assert_eq!(
        status,
        [
            "Info: copilot skipped: [targets].copilot_output is not set in config.toml",
            "Info: gemini skipped: [targets].gemini_policy is not set in config.toml",
            "Info: opencode skipped: [targets].opencode_config is not set in config.toml",
            "Info: codex: turns on Codex's network_proxy feature ([features] network_proxy = \
             true in {HOME}/.codex/config.toml): Codex (measured with 0.171) enforces the \
             profile's allowed and denied domains only with it, and without it a sandboxed \
             command reaches any host",
            "Wrote canonical: {HOME}/.srt-settings.json",
            "Wrote canonical: {HOME}/.config/twsrt/bash-rules.json",
            "Info: Migrated: {HOME}/.claude/settings.json → {HOME}/.claude/settings.full.json",
            "Wrote: {HOME}/.claude/settings.full.json",
            "Wrote: {HOME}/.codex/config.toml",
            "Info: Restart Codex to load the updated permission profile and rules.",
        ]
    );
    assert!(out.read(CLAUDE_TARGET).contains("\"model\": \"opus\""));
}

/// Issue 27 item 9: `Wrote:` only for a file whose bytes changed. A rerun
/// that changes nothing says `Unchanged:` for each file and gives no Codex
/// restart hint; a rerun after a policy change writes only what changed.
#[test]
fn a_rerun_says_unchanged_and_gives_no_restart_hint() {
    let out = Test::with_policy()
        .config_append(CODEX_ONLY)
        .args(&["generate", "-w", "codex"])
        .any_stderr()
        .stderr_contains("Info: Restart Codex")
        .run();
    let out = out
        .then()
        .args(&["generate", "-w", "codex"])
        .any_stderr()
        .stderr_contains(
            "Unchanged canonical: {HOME}/.srt-settings.json\n\
             Unchanged canonical: {HOME}/.config/twsrt/bash-rules.json\n\
             Unchanged: {HOME}/.codex/config.toml\n",
        )
        .lacks("Wrote")
        .lacks("Restart")
        .unchanged()
        .run();
    // A bash change rewrites bash-rules.json alone (this Codex has no rules
    // file): no restart hint. A domain change rewrites the Codex config too.
    let out = out
        .then()
        .file(
            BASH_FRAGMENT,
            r#"{"ask": ["git push"], "deny": ["rm", "sudo"]}"#,
        )
        .args(&["generate", "-w", "codex"])
        .any_stderr()
        .stderr_contains(
            "Unchanged canonical: {HOME}/.srt-settings.json\n\
             Wrote canonical: {HOME}/.config/twsrt/bash-rules.json\n\
             Unchanged: {HOME}/.codex/config.toml\n",
        )
        .lacks("Restart")
        .run();
    out.then()
        .file(
            SRT_FRAGMENT,
            BASE_SRT.replace("\"evil.com\"", "\"evil.com\", \"bad.com\""),
        )
        .args(&["generate", "-w", "codex"])
        .any_stderr()
        .stderr_contains(
            "Wrote canonical: {HOME}/.srt-settings.json\n\
             Unchanged canonical: {HOME}/.config/twsrt/bash-rules.json\n\
             Wrote: {HOME}/.codex/config.toml\n",
        )
        .stderr_contains("Info: Restart Codex")
        .run();
}
