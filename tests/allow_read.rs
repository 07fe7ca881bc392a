//! srt's `filesystem.allowRead` as policy (issue 33): Claude's
//! `sandbox.filesystem.allowRead` gets it (and `-w` owns the list, `diff`
//! reports an entry only on disk as widening); every other agent names it
//! once as a key it has no counterpart for.

use serde_json::Value;

use crate::support::*;

const POLICY: &str = r#"{
  "filesystem": {"denyRead": ["~/.config"], "allowRead": ["~/.config/app", "rel"]},
  "network": {"allowedDomains": ["github.com"]}
}"#;

fn policy() -> Test {
    Test::with_policy().file(SRT_FRAGMENT, POLICY)
}

#[test]
fn every_other_agent_says_once_that_it_keeps_the_path_closed() {
    let out = policy()
        .targets()
        .config_append("gemini_policy = \"~/.gemini/policies/twsrt.toml\"\n")
        .config_append("opencode_config = \"~/.config/opencode/opencode.json\"\n")
        .args(&["generate", "all"])
        .any_stdout()
        .any_stderr()
        .run();
    for says in [
        "Warning: srt filesystem.allowRead not compiled: a \"read\" path inside a \"deny\" one \
         stays unreadable in Codex 0.171 (measured)",
        "Warning: srt filesystem.allowRead not compiled: Gemini CLI starts no sandbox",
        "Warning: srt filesystem.allowRead not compiled: OpenCode starts no sandbox",
        "Warning: srt filesystem.allowRead not compiled: Copilot CLI's flags and command sandbox",
        "Warning: srt filesystem.allowRead re-opens ~/.config/app for Claude's sandboxed \
         commands only",
        "Warning: srt filesystem.allowRead entries not compiled for Claude (a relative path is \
         anchored at the settings file's directory there, an object entry cannot be held), so \
         they stay closed to its commands: rel\n",
    ] {
        assert_eq!(
            out.stderr.matches(says).count(),
            1,
            "{says}\n{}",
            out.stderr
        );
    }
}

#[test]
fn claude_writes_the_list_and_diff_reads_an_entry_added_on_disk_as_widening() {
    let out = policy()
        .targets()
        .args(&["generate", "-w", "claude"])
        .any_stderr()
        .run();
    let mut doc: Value = serde_json::from_str(&out.read(CLAUDE_TARGET)).unwrap();
    assert_eq!(
        doc["sandbox"]["filesystem"]["allowRead"],
        serde_json::json!(["~/.config/app"])
    );
    doc["sandbox"]["filesystem"]["allowRead"] = serde_json::json!(["~/.config/app", "~/.config"]);
    out.then()
        .file(CLAUDE_TARGET, doc.to_string())
        .args(&["diff", "claude"])
        .status(1)
        .stdout_contains("filesystem.allowRead:~/.config")
        .stdout_contains("widening")
        .any_stdout()
        .any_stderr()
        .run();
}
