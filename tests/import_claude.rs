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

const SMALL: &str =
    r#"{"permissions": {"deny": ["Read(~/.aws)", "Edit(~/.aws)"], "allow": ["Bash(rm:*)"]}}"#;

/// Without -w: the fragments and the config.toml change on stdout, the
/// files on stderr, and nothing written.
#[test]
fn the_preview_shows_the_fragments_and_the_config_change_and_writes_nothing() {
    let out = Test::with_policy()
        .file(
            ANCHOR,
            r#"{"permissions": {"deny": ["Read(~/.aws)", "Edit(~/.aws)"]}, "model": "x"}"#,
        )
        .args(&["import", "claude"])
        .unchanged()
        .any_stdout()
        .any_stderr()
        .run();
    assert!(
        out.stdout.contains(
            "--- {HOME}/.config/twsrt/srt/imported-claude.jsonc ---\n\
         // Imported by `twsrt import claude` from ~/.claude/settings.json.\n"
        ),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains(
            "      \"~/.aws\" // ~/.claude/settings.json /permissions/deny/0, /permissions/deny/1\n"
        ),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("+srt = [\"base\", \"imported-claude\"]\n"),
        "{}",
        out.stdout
    );
    assert!(
        out.stderr.contains(
            "Info: left in the agent file: \"model\" (~/.claude/settings.json /model): no policy \
         meaning; twsrt keeps it\n"
        ),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.ends_with(
            "Would write: {HOME}/.config/twsrt/srt/imported-claude.jsonc\n\
         Would write: {HOME}/.config/twsrt/config.toml\n\
         Info: preview only, no file was written. Add -w/--write to write the files listed above.\n"
        ),
        "{}",
        out.stderr
    );
}

/// A fragment file of the import's name is never overwritten: refused
/// (exit 1), nothing written.
#[test]
fn an_existing_imported_fragment_is_refused() {
    Test::with_policy()
        .file(ANCHOR, SMALL)
        .file(".config/twsrt/srt/imported-claude.jsonc", "{}")
        .args(&["import", "-w", "claude"])
        .status(1)
        .any_stderr()
        .stderr_contains(
            "Error: {HOME}/.config/twsrt/srt/imported-claude.jsonc: exists already; import never \
             overwrites a fragment",
        )
        .unchanged()
        .run();
}

/// An imported allow the policy denies is the composition's conflict
/// error, naming both fragments at their real paths; nothing is written.
#[test]
fn an_imported_allow_the_policy_denies_is_an_error_naming_both_fragments() {
    Test::with_policy()
        .file(ANCHOR, SMALL)
        .args(&["import", "-w", "claude"])
        .status(1)
        .any_stderr()
        .stderr_contains(
            "Error: profile 'default', source 'bash': 'rm' is in deny \
             ({HOME}/.config/twsrt/bash/base.jsonc) and in allow \
             ({HOME}/.config/twsrt/bash/imported-claude.jsonc); one value cannot be both",
        )
        .unchanged()
        .run();
}

/// `-p NAME` registers the fragments for that profile; `--from` reads
/// another file.
#[test]
fn a_named_profile_and_another_file_are_used() {
    let out = Test::with_policy()
        .work_profile()
        .file(
            "dotfiles/claude.json",
            r#"{"permissions": {"deny": ["Bash(kubectl delete:*)"]}}"#,
        )
        .args(&[
            "import",
            "-w",
            "-p",
            "work",
            "--from",
            "~/dotfiles/claude.json",
            "claude",
        ])
        .any_stderr()
        .run();
    let config = out.read(CONFIG);
    assert!(
        config.contains("[profiles.work]\nextends = [\"default\"]\nsrt = [\"work\"]\nbash = [\"imported-claude\"]\n"),
        "{config}"
    );
    assert!(
        out.read(".config/twsrt/bash/imported-claude.jsonc")
            .contains("\"kubectl delete\" // ~/dotfiles/claude.json /permissions/deny/0")
    );
    out.then()
        .args(&[
            "import",
            "-p",
            "nosuch",
            "--from",
            "~/dotfiles/claude.json",
            "claude",
        ])
        .status(1)
        .any_stderr()
        .stderr_contains("nosuch")
        .run();
}

/// A missing settings file is an error that says how to name one.
#[test]
fn a_missing_settings_file_is_an_error() {
    Test::with_policy()
        .args(&["import", "claude"])
        .status(1)
        .stderr(
            "Error: {HOME}/.claude/settings.json: does not exist; name the Claude Code settings \
             file to import with --from\n",
        )
        .run();
}

/// An agent name import does not know is an error listing those it does.
#[test]
fn an_unknown_agent_is_an_error_listing_the_importable_ones() {
    Test::with_policy()
        .args(&["import", "nosuch"])
        .status(1)
        .stderr(
            "Error: unknown agent 'nosuch' for import; available: claude, copilot, codex, gemini, srt\n",
        )
        .run();
}

/// A relative `--from` is read from the launch directory, and so is the
/// directory a single-slash rule path starts at: `Read(/etc/x)` in
/// `~/dotfiles/claude.json` protects `~/dotfiles/etc/x`, never a relative
/// `etc/x` the policy would read from elsewhere.
#[test]
fn a_relative_from_anchors_single_slash_paths_at_its_directory() {
    let out = Test::with_policy()
        .file(
            "dotfiles/claude.json",
            r#"{"permissions": {"deny": ["Read(/etc/x)"]}, "sandbox": {"filesystem": {"denyWrite": ["out"]}}}"#,
        )
        .cwd("dotfiles")
        .args(&["import", "-w", "--from", "claude.json", "claude"])
        .any_stderr()
        .run();
    let fragment = out.read(".config/twsrt/srt/imported-claude.jsonc");
    assert!(fragment.contains("\"~/dotfiles/etc/x\""), "{fragment}");
    assert!(fragment.contains("\"~/dotfiles/out\""), "{fragment}");
}
