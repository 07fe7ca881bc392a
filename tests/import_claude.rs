//! `twsrt import claude`: a Claude Code settings file back into fragments,
//! and `generate claude` from them gives the file's managed sections back.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::support::*;

const CLAUDE_ONLY: &str = "\n[targets]\nclaude_settings = \"~/.claude/settings.full.json\"\n";

/// A policy with every kind of entry the Claude renderer writes.
const RICH_SRT: &str = r#"{
  "enabled": true,
  "filesystem": {
    "denyRead": ["~/.ssh", "~/.aws/credentials", "/etc/shadow", "**/*.pem"],
    "denyWrite": ["~/.bashrc", "/etc/hosts"],
    "allowWrite": [".", "/tmp", "~/dev"]
  },
  "network": {
    "allowedDomains": ["github.com", "*.npmjs.org"],
    "deniedDomains": ["evil.com"],
    "allowLocalBinding": true
  }
}"#;

const RICH_BASH: &str =
    r#"{"allow": ["cargo test"], "ask": ["git push", "npm install"], "deny": ["rm -rf", "sudo"]}"#;

/// The string entries of the dotted list `section` of `doc`, as a set.
fn set(doc: &Value, section: &str) -> BTreeSet<String> {
    let pointer = format!("/{}", section.replace('.', "/"));
    doc.pointer(&pointer)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(String::from))
        .collect()
}

const MANAGED: [&str; 4] = [
    "permissions.deny",
    "permissions.ask",
    "permissions.allow",
    "sandbox.network.allowedDomains",
];

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The file twsrt itself writes: import it into an emptied policy, and
/// `generate claude` renders the same managed sections, as sets, except the
/// write-denies of the two new fragment files (twsrt protects every policy
/// file).
#[test]
fn twsrts_own_settings_file_round_trips() {
    let written = Test::with_policy()
        .config_append(CLAUDE_ONLY)
        .file(SRT_FRAGMENT, RICH_SRT)
        .file(BASH_FRAGMENT, RICH_BASH)
        .args(&["generate", "-w", "claude"])
        .any_stderr()
        .run();
    let original = json(&written.read(CLAUDE_TARGET));
    let imported = written
        .then()
        .file(SRT_FRAGMENT, "{}")
        .file(BASH_FRAGMENT, "{}")
        .args(&["import", "-w", "claude"])
        .any_stderr()
        .run();
    assert!(
        imported
            .path(".config/twsrt/srt/imported-claude.jsonc")
            .is_file()
    );
    assert!(
        imported
            .path(".config/twsrt/bash/imported-claude.jsonc")
            .is_file()
    );
    let regenerated = imported
        .then()
        .args(&["generate", "claude"])
        .any_stdout()
        .any_stderr()
        .run();
    let generated = json(&regenerated.stdout);
    for section in MANAGED {
        let before = set(&original, section);
        let after = set(&generated, section);
        let mut new_fragments = BTreeSet::new();
        if section == "permissions.deny" {
            for kind in ["srt", "bash"] {
                new_fragments.insert(format!(
                    "Edit(~/.config/twsrt/{kind}/imported-claude.jsonc)"
                ));
            }
        }
        let expected: BTreeSet<String> = before.union(&new_fragments).cloned().collect();
        assert_eq!(after, expected, "{section}");
    }
    assert_eq!(generated["sandbox"]["enabled"], Value::Bool(true));
    assert_eq!(
        generated["sandbox"]["network"]["allowLocalBinding"],
        Value::Bool(true)
    );
}

/// A hand-kept settings file in the shapes Claude Code's documentation
/// shows (legacy `Bash(CMD:*)` rules, `./` paths, a `Read`/`Edit` pair, an
/// MCP allow, `model`, `env`, a hook, a sandbox block).
const HAND_KEPT: &str = r#"{
  "model": "opus",
  "env": {"CLAUDE_CODE_ENABLE_TELEMETRY": "0"},
  "permissions": {
    "allow": [
      "Bash(npm run lint)",
      "Bash(npm run test:*)",
      "WebFetch(domain:docs.anthropic.com)",
      "mcp__github__get_issue",
      "Read(~/.zshrc)"
    ],
    "deny": [
      "Bash(curl:*)",
      "Read(./.env)",
      "Edit(./.env)",
      "Read(./secrets/**)",
      "Edit(./secrets/**)",
      "Read(~/.aws)",
      "Read(~/.aws/**)",
      "Edit(~/.aws)",
      "Edit(~/.aws/**)",
      "WebFetch(domain:pastebin.com)"
    ],
    "ask": ["Bash(git push:*)"],
    "defaultMode": "acceptEdits"
  },
  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]},
  "sandbox": {
    "enabled": true,
    "autoAllowBashIfSandboxed": true,
    "network": {"allowedDomains": ["registry.npmjs.org"], "allowLocalBinding": true}
  }
}
"#;

/// Import the hand-kept file, then `generate -w claude` takes it over
/// without refusing (no entry would be lost) and the written file holds
/// every entry the user had, plus what twsrt adds.
#[test]
fn a_hand_kept_settings_file_is_taken_over_with_nothing_lost() {
    let imported = Test::with_policy()
        .config_append(CLAUDE_ONLY)
        .file(ANCHOR, HAND_KEPT)
        .args(&["import", "-w", "claude"])
        .any_stderr()
        .run();
    let bash = imported.read(".config/twsrt/bash/imported-claude.jsonc");
    for rule in ["\"npm run lint\"", "\"npm run test\"", "\"curl\""] {
        assert!(bash.contains(rule), "{rule} missing:\n{bash}");
    }
    let written = imported
        .then()
        .args(&["generate", "-w", "claude"])
        .any_stderr()
        .run();
    let original = json(HAND_KEPT);
    let generated = json(&written.read(CLAUDE_TARGET));
    for section in MANAGED {
        let before = set(&original, section);
        let after = set(&generated, section);
        // The legacy spelling is written as the two rules it means.
        let missing: Vec<&String> = before
            .iter()
            .filter(|e| !after.contains(*e))
            .filter(|e| {
                let Some(cmd) = e.strip_prefix("Bash(").and_then(|r| r.strip_suffix(":*)")) else {
                    return true;
                };
                !(after.contains(&format!("Bash({cmd})"))
                    && after.contains(&format!("Bash({cmd} *)")))
            })
            .collect();
        assert!(missing.is_empty(), "{section} lost {missing:?}");
    }
    for kept in ["model", "env", "hooks"] {
        assert_eq!(generated[kept], original[kept], "{kept}");
    }
    assert_eq!(generated["permissions"]["defaultMode"], "acceptEdits");
    assert_eq!(generated["sandbox"]["autoAllowBashIfSandboxed"], true);
}
