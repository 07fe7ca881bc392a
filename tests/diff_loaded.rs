//! `diff claude` and `audit -- claude` look at what Claude Code loads:
//! `settings.json`, which twsrt keeps a symlink to the mode's target.

use serde_json::{Value, json};

use crate::support::*;

const CLAUDE_ONLY: &str = "\n[targets]\nclaude_settings = \"~/.claude/settings.full.json\"\n";

const CANONICAL_CLEAN: &str = "srt canonical: no drift\nbash canonical: no drift\n";

/// The base policy with Claude written by `generate -w`.
fn written() -> Test {
    Test::with_policy()
        .config_append(CLAUDE_ONLY)
        .args(&["generate", "-w", "claude"])
        .any_stderr()
        .run()
        .then()
}

/// `settings.json` replaced by what `text` holds (a regular file), or by
/// a symlink to `link`.
fn replace_anchor(t: Test, text: Option<&str>, link: Option<&str>) -> Test {
    let anchor = t.home().join(ANCHOR);
    std::fs::remove_file(&anchor).unwrap();
    if let Some(text) = text {
        std::fs::write(&anchor, text).unwrap();
    }
    if let Some(link) = link {
        std::os::unix::fs::symlink(link, &anchor).unwrap();
    }
    t
}

#[test]
fn a_freshly_written_setup_has_no_drift() {
    written()
        .args(&["diff", "claude"])
        .stdout(&format!("{CANONICAL_CLEAN}claude: no drift\n"))
        .run();
}

/// The issue's case: an empty deny list and the sandbox off in a regular
/// file where the link was. Every generated entry is missing from what
/// Claude Code loads, and the missing denies widen.
#[test]
fn a_regular_file_in_place_of_the_link_is_drift_that_widens() {
    let weakened = r#"{"permissions": {"deny": []}, "sandbox": {"enabled": false}}"#;
    let t = replace_anchor(written(), Some(weakened), None);
    let out = t
        .args(&["diff", "claude"])
        .status(1)
        .stdout(&format!(
            "{CANONICAL_CLEAN}claude: 24 missing, 2 extra  {{HOME}}/.claude/settings.json\n\
             \x20 + Bash(git push *)\n  + Bash(git push)\n  + Bash(rm *)\n  + Bash(rm)\n\
             \x20 + Edit(.)\n  + Edit(./**)\n\
             \x20 + Edit(~/.claude/settings.full.json)\n\
             \x20 + Edit(~/.claude/settings.yolo.json)\n\
             \x20 + Edit(~/.config/twsrt/bash-rules.json)\n\
             \x20 + Edit(~/.config/twsrt/bash/base.jsonc)\n\
             \x20 + Edit(~/.config/twsrt/config.toml)\n\
             \x20 + Edit(~/.config/twsrt/srt/base.jsonc)\n\
             \x20 + Edit(~/.srt-settings.json)\n\
             \x20 + Edit(~/.ssh)\n  + Edit(~/.ssh/**)\n  + Read(~/.ssh)\n  + Read(~/.ssh/**)\n\
             \x20 + WebFetch(domain:evil.com)\n  + WebFetch(domain:github.com)\n\
             \x20 + filesystem.config:allowWrite\n  + filesystem.config:denyRead\n\
             \x20 + filesystem.config:denyWrite\n\
             \x20 + link:settings.json -> settings.full.json\n  + network:github.com\n\
             \x20 - link:settings.json (not a symlink)\n  - sandbox.config:enabled\n\n\
             + missing from target   - in target, not in sources\n"
        ))
        .stderr("Info: claude: 18 of 26 differences widen\n")
        .unchanged()
        .run();
    out.then()
        .args(&["diff", "claude", "--fail-on", "widening"])
        .status(1)
        .any_stdout()
        .any_stderr()
        .run();
}

/// A link to a copy of the target elsewhere: the content holds, the link
/// does not (later writes would not reach Claude Code), and that widens.
#[test]
fn a_link_to_another_file_is_drift_of_the_link() {
    let t = written();
    std::fs::copy(t.home().join(CLAUDE_TARGET), t.home().join("copy.json")).unwrap();
    let t = replace_anchor(t, None, Some("../copy.json"));
    let out = t
        .args(&["diff", "claude"])
        .status(1)
        .stdout(&format!(
            "{CANONICAL_CLEAN}claude: 1 missing, 1 extra  {{HOME}}/.claude/settings.json\n\
             \x20 + link:settings.json -> settings.full.json\n\
             \x20 - link:settings.json -> ../copy.json\n\n\
             + missing from target   - in target, not in sources\n"
        ))
        .stderr("Info: claude: 2 of 2 differences widen\n")
        .run();
    let out = out
        .then()
        .args(&["diff", "claude", "--json"])
        .status(1)
        .any_stdout()
        .stderr("")
        .run();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let claude = &doc["targets"][2];
    assert_eq!(claude["path"], format!("{{HOME}}/{ANCHOR}"));
    assert_eq!(claude["status"], "drift");
    assert_eq!(
        claude["differences"],
        json!([
            {"section": "settings.json", "entry": "settings.full.json",
             "side": "missing", "direction": "widening"},
            {"section": "settings.json", "entry": "../copy.json",
             "side": "extra", "direction": "widening"},
        ])
    );
}

/// In full mode, a link to the yolo file means Claude Code loads the yolo
/// settings: compared with the full policy, their missing ask rules widen.
#[test]
fn a_link_to_the_other_mode_is_drift_for_this_mode() {
    let t = written()
        .args(&["generate", "-w", "--yolo", "claude"])
        .any_stderr()
        .run()
        .then();
    let out = t
        .args(&["diff", "claude"])
        .status(1)
        .any_stdout()
        .any_stderr()
        .run();
    assert!(
        out.stdout
            .contains("  + link:settings.json -> settings.full.json\n")
    );
    assert!(
        out.stdout
            .contains("  - link:settings.json -> settings.yolo.json\n")
    );
    assert!(
        out.stdout.contains("  + Bash(git push)\n"),
        "{}",
        out.stdout
    );
    // The yolo mode itself is in order.
    out.then()
        .args(&["diff", "--yolo", "claude"])
        .stdout(&format!("{CANONICAL_CLEAN}claude: no drift\n"))
        .run();
}

/// No settings.json: Claude Code loads none of the policy.
#[test]
fn a_missing_link_loads_nothing_and_every_entry_is_missing() {
    let t = replace_anchor(written(), None, None);
    let out = t
        .args(&["diff", "claude"])
        .status(1)
        .any_stdout()
        .stderr("Info: claude: 17 of 24 differences widen\n")
        .run();
    assert!(
        out.stdout
            .contains("claude: 24 missing, 0 extra  {HOME}/.claude/settings.json\n")
    );
    assert!(
        out.stdout
            .contains("  + link:settings.json -> settings.full.json\n")
    );
    assert!(out.stdout.contains("  + Read(~/.ssh)\n"));
}

#[test]
fn audit_reports_settings_json_that_does_not_load_the_policy() {
    written()
        .args(&["audit", "--", "claude"])
        .stdout("claude: no findings\n")
        .run();
    let t = replace_anchor(written(), Some("{}\n"), None);
    t.args(&["audit", "--", "claude"])
        .status(1)
        .stdout(
            "Error: {HOME}/.claude/settings.json: is not the symlink to \
             {HOME}/.claude/settings.full.json that twsrt keeps: Claude Code does not load the \
             settings twsrt generates; move what it holds into {HOME}/.claude/settings.full.json, \
             remove it and run twsrt generate claude -w\n",
        )
        .run();
    let t = replace_anchor(written(), None, Some("/etc/hostname"));
    t.args(&["audit", "--yolo", "--", "claude"])
        .status(1)
        .stdout(
            "Error: {HOME}/.claude/settings.json: links to /etc/hostname, not to \
             {HOME}/.claude/settings.yolo.json: Claude Code does not load the settings twsrt \
             generates; run twsrt generate claude --yolo -w\n",
        )
        .run();
}

/// The link may spell the target any way that resolves to it.
#[test]
fn a_link_spelling_the_target_otherwise_is_no_drift() {
    for spelling in ["./settings.full.json", "{abs}"] {
        let t = written();
        let abs = t.home().join(CLAUDE_TARGET).display().to_string();
        let t = replace_anchor(t, None, Some(&spelling.replace("{abs}", &abs)));
        t.args(&["diff", "claude"])
            .stdout(&format!("{CANONICAL_CLEAN}claude: no drift\n"))
            .run();
    }
}
