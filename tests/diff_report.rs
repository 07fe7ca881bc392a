//! `diff`: the report on stdout (byte for byte the 3.3.3 format) and its
//! exit codes: 0 clean, 1 drift, 2 a target missing.

use crate::support::*;

const CLEAN_CANONICAL: &str = "srt canonical: no drift\nbash canonical: no drift\n";

const LEGEND: &str = "+ missing from target   - in target, not in sources\n";

/// Copilot and Codex with its rules: the agents whose drift entries do
/// not depend on the Claude rendering.
const COPILOT_AND_CODEX: &str = "\n[targets]\ncopilot_output = \"~/flags/copilot.txt\"\n\
     codex_config = \"~/.codex/config.toml\"\ncodex_rules = \"~/.codex/rules/twsrt.rules\"\n";

/// The base policy with Copilot and Codex written by `generate -w`.
fn written() -> Test {
    Test::with_policy()
        .config_append(COPILOT_AND_CODEX)
        .args(&["generate", "-w"])
        .any_stderr()
        .run()
        .then()
}

fn append(t: &Test, rel: &str, text: &str) {
    let path = t.home().join(rel);
    let mut content = std::fs::read_to_string(&path).unwrap();
    content.push_str(text);
    std::fs::write(path, content).unwrap();
}

#[test]
fn clean_targets_report_no_drift_and_exit_0() {
    let out = written()
        .args(&["diff"])
        .stdout(&format!(
            "{CLEAN_CANONICAL}copilot: no drift\ncodex: no drift\n"
        ))
        .any_stderr()
        .unchanged()
        .run();
    // The warnings come after the note, and nothing else is said.
    let mut lines = out.stderr.lines();
    assert_eq!(
        lines.next(),
        Some("Info: claude skipped: [targets].claude_settings is not set in config.toml")
    );
    for skipped in NEW_AGENTS_SKIPPED.lines() {
        assert_eq!(lines.next(), Some(skipped));
    }
    assert!(lines.all(|l| l.starts_with("Warning: ")), "{}", out.stderr);
}

/// Each drifted agent: a header naming its counts and target file, bare
/// `+`/`-` entries, a blank line; one legend after all of them.
#[test]
fn drift_is_reported_per_agent_with_its_target_and_one_legend() {
    let t = written();
    append(&t, COPILOT, "--allow-tool 'x' \\\n");
    let flags = std::fs::read_to_string(t.home().join(COPILOT)).unwrap();
    std::fs::write(
        t.home().join(COPILOT),
        flags.replace("--deny-tool 'shell(rm:*)' \\\n", ""),
    )
    .unwrap();
    append(&t, CODEX_RULES, "# edited\n");
    t.args(&["diff"])
        .status(1)
        .stdout(&format!(
            "{CLEAN_CANONICAL}\
             copilot: 1 missing, 1 extra  {{HOME}}/flags/copilot.txt\n\
             \x20 + --deny-tool 'shell(rm:*)'\n\
             \x20 - --allow-tool 'x'\n\
             \n\
             codex: 1 missing, 1 extra  {{HOME}}/.codex/config.toml\n\
             \x20 + rules:{{HOME}}/.codex/rules/twsrt.rules\n\
             \x20 - rules:{{HOME}}/.codex/rules/twsrt.rules\n\
             \n\
             {LEGEND}"
        ))
        .any_stderr()
        .unchanged()
        .run();
}

/// Canonical drift alone exits 1 and prints no legend: there are no entries.
#[test]
fn canonical_drift_alone_has_no_legend() {
    let t = written();
    append(&t, SRT_OUT, " ");
    std::fs::write(t.home().join(BASH_OUT), "{}").unwrap();
    t.args(&["diff", "copilot"])
        .status(1)
        .stdout("srt canonical: no drift\nbash canonical: drift\ncopilot: no drift\n")
        .stderr(&format!(
            "Info: bash canonical: ask: git push missing (widening)\n\
             Info: bash canonical: deny: rm missing (widening)\n\
             Info: bash canonical: 2 of 2 differences widen\n{NO_ASK_TIER}"
        ))
        .unchanged()
        .run();
}

/// A missing target ends the report with exit 2, after the lines already
/// printed; the warnings of the unfinished report are left out.
#[test]
fn a_missing_target_exits_2_naming_it() {
    Test::with_policy()
        .config_append(COPILOT_AND_CODEX)
        .args(&["diff"])
        .status(2)
        .stdout("srt canonical: drift\nbash canonical: drift\n")
        .stderr(
            "Info: claude skipped: [targets].claude_settings is not set in config.toml\n\
             Info: gemini skipped: [targets].gemini_policy is not set in config.toml\n\
             Info: opencode skipped: [targets].opencode_config is not set in config.toml\n\
             Error: copilot target file not found: {HOME}/flags/copilot.txt; run `twsrt generate -w copilot` to write it\n",
        )
        .unchanged()
        .run();
    let t = written();
    std::fs::remove_file(t.home().join(CODEX_RULES)).unwrap();
    t.args(&["diff"])
        .status(2)
        .stdout(&format!("{CLEAN_CANONICAL}copilot: no drift\n"))
        .stderr(
            "Info: claude skipped: [targets].claude_settings is not set in config.toml\n\
             Info: gemini skipped: [targets].gemini_policy is not set in config.toml\n\
             Info: opencode skipped: [targets].opencode_config is not set in config.toml\n\
             Error: codex target file not found: {HOME}/.codex/rules/twsrt.rules; run `twsrt generate -w codex` to write it\n",
        )
        .unchanged()
        .run();
}

/// Opt-in agents in `diff`: an unconfigured agent is skipped (1.0.0 exited
/// 2 for a Copilot without copilot_output); with none configured only the
/// canonical outputs are compared.
#[test]
fn unconfigured_agents_are_skipped() {
    Test::with_policy()
        .args(&["diff", "copilot"])
        .status(1)
        .stdout("srt canonical: drift\nbash canonical: drift\n")
        .stderr(
            "Info: copilot skipped: [targets].copilot_output is not set in config.toml\n\
             Info: srt canonical: {HOME}/.srt-settings.json is missing, which widens\n\
             Info: bash canonical: {HOME}/.config/twsrt/bash-rules.json is missing, which widens\n",
        )
        .unchanged()
        .run();
    let t = Test::with_policy()
        .args(&["generate", "-w"])
        .any_stderr()
        .run()
        .then();
    t.args(&["diff"])
        .stdout(CLEAN_CANONICAL)
        .stderr(NO_AGENTS)
        .unchanged()
        .run();
}
