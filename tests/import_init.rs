//! `config --init` for adoption: it names the installed agents, and in a
//! script (no terminal) it writes the files and starts no editor.

use crate::support::*;

/// An editor that leaves a mark in HOME when it is started.
const MARKING_EDITOR: &str = "sh -c 'echo started > \"$HOME/editor-ran\"' sh";

/// Tests run without a terminal, as a dotfiles bootstrap script does: the
/// starter is written and checked, no editor starts (before, `vi` was
/// started and failed without a terminal: exit 1).
#[test]
fn init_in_a_script_writes_the_files_and_starts_no_editor() {
    let out = Test::new()
        .env("EDITOR", MARKING_EDITOR)
        .args(&["config", "--init"])
        .any_stderr()
        .run();
    assert!(out.path(CONFIG).is_file());
    assert!(!out.path("editor-ran").exists(), "the editor was started");
    // Without EDITOR (vi, which needs a terminal) it succeeds the same.
    Test::new().args(&["config", "--init"]).any_stderr().run();
}

/// On a terminal (`script` gives the run one) the editor opens as before.
#[test]
fn init_on_a_terminal_opens_the_editor() {
    if !std::path::Path::new("/usr/bin/script").exists() {
        eprintln!("skipped: no /usr/bin/script to give the run a terminal");
        return;
    }
    let out = Test::new()
        .env("EDITOR", MARKING_EDITOR)
        .wrapper(&[
            "sh",
            "-c",
            "exec /usr/bin/script -qec \"$*\" /dev/null",
            "sh",
        ])
        .args(&["config", "--init"])
        .any_stdout()
        .run();
    assert!(out.path(CONFIG).is_file());
    assert_eq!(out.read("editor-ran"), "started\n");
}

/// Every agent whose configuration directory exists is named with the
/// `[targets]` lines that enable it and the import to run; in the order
/// the registry lists them, before the next step.
#[test]
fn init_names_each_installed_agent_with_its_targets_and_import() {
    let config = "{HOME}/.config/twsrt/config.toml";
    Test::new()
        .dir(".claude")
        .dir(".codex")
        .dir(".copilot")
        .dir(".gemini")
        .dir(".config/opencode")
        .args(&["config", "--init"])
        .stderr(&format!(
            "Created: {config}\n\
             Created: {{HOME}}/.config/twsrt/srt/base.jsonc\n\
             Created: {{HOME}}/.config/twsrt/bash/base.jsonc\n\
             Info: claude is installed (~/.claude): enable it under [targets] in {config} with \
             claude_settings = \"~/.claude/settings.full.json\", and run `twsrt import claude` \
             to bring its settings into the policy\n\
             Info: copilot is installed (~/.copilot): enable it under [targets] in {config} with \
             copilot_output = \"copilot-flags.txt\" and copilot_settings = \
             \"~/.copilot/settings.json\", and run `twsrt import copilot` to bring its settings \
             into the policy\n\
             Info: codex is installed (~/.codex): enable it under [targets] in {config} with \
             codex_config = \"~/.codex/config.toml\" and codex_rules = \
             \"~/.codex/rules/twsrt.rules\", and run `twsrt import codex` to bring its settings \
             into the policy\n\
             Info: gemini is installed (~/.gemini): enable it under [targets] in {config} with \
             gemini_policy = \"~/.gemini/policies/twsrt.toml\", and run `twsrt import gemini` to \
             bring its settings into the policy\n\
             Info: opencode is installed (~/.config/opencode): enable it under [targets] in \
             {config} with opencode_config = \"~/.config/opencode/opencode.json\"\n\
             Info: next: name your agents under [targets] in {config}, then run `twsrt generate` \
             to preview and `twsrt generate -w` to write\n"
        ))
        .run();
}

/// An existing config.toml is kept; the installed agents are named all the
/// same.
#[test]
fn init_with_a_policy_names_the_installed_agents_too() {
    Test::with_policy()
        .dir(".claude")
        .args(&["config", "--init"])
        .stderr_contains("Info: {HOME}/.config/twsrt/config.toml exists; nothing was created\n")
        .stderr_contains("Info: claude is installed (~/.claude)")
        .run();
}
