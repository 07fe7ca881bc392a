//! The Claude doctor check on a small policy (`crate::lint::tests::Policy`).

use crate::agent::claude::codes;
use crate::lint::tests::{Policy, SRT_ONLY};

#[test]
fn claude_relative_sandbox_path_reads_the_target_and_the_project_settings() {
    let config =
        format!("{SRT_ONLY}[targets]\nclaude_settings = \"{{HOME}}/.claude/settings.full.json\"\n");
    let p = Policy::new("").with("cfg/srt/base.jsonc", "{}");
    p.file("cfg/config.toml", &config);
    p.file(".unused", "");
    p.file(
        "home/.claude/settings.full.json",
        "{\"sandbox\": {\"filesystem\": {\"allowWrite\": [\"rel\", \"/abs\", \"~/t\"]}}}",
    );
    p.file(
        "home/.claude/settings.local.json",
        "{\"sandbox\": {\"filesystem\": {\"denyRead\": [\"./x\"]}}}",
    );
    assert_eq!(
        p.of(codes::RELATIVE_SANDBOX_PATH),
        [
            "{HOME}/.claude/settings.full.json sandbox.filesystem.allowWrite: 1 entry anchored at the settings-file root, not the launch directory; use Read()/Edit() rules instead: 'rel'",
            "{HOME}/.claude/settings.local.json sandbox.filesystem.denyRead: 1 entry anchored at the settings-file root, not the launch directory; use Read()/Edit() rules instead: './x'",
        ]
    );
}
