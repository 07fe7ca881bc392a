//! `twsrt import codex`: the permission profile and the rules file twsrt
//! writes come back as fragments that render the same profile and rules.

use serde_json::Value;

use crate::support::*;

const CODEX_ONLY: &str = "\n[targets]\ncodex_config = \"~/.codex/config.toml\"\n\
                          codex_rules = \"~/.codex/rules/twsrt.rules\"\n";

const SRT: &str = r#"{
  "filesystem": {
    "denyRead": ["~/.ssh", "/etc/shadow", "**/*.pem"],
    "denyWrite": ["~/.bashrc"],
    "allowWrite": [".", "/tmp", "~/dev", "build/"]
  },
  "network": {
    "allowedDomains": ["github.com", "*.npmjs.org"],
    "deniedDomains": ["evil.com"],
    "allowUnixSockets": ["/var/run/docker.sock"]
  }
}"#;

const BASH: &str = r#"{"deny": ["rm -rf", "git push --force", "echo 'a b'"]}"#;

/// `[permissions.twsrt]` of a Codex config.toml, as JSON.
fn profile(text: &str) -> Value {
    let doc: toml_edit::DocumentMut = text.parse().unwrap();
    let json = twsrt::tomltext::toml_to_json(doc.as_item()).unwrap();
    json["permissions"]["twsrt"].clone()
}

/// The `pattern = ` lines of a rules file, sorted.
fn patterns(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("pattern = "))
        .map(str::to_string)
        .collect();
    lines.sort();
    lines
}

#[test]
fn twsrts_own_profile_and_rules_round_trip() {
    let written = Test::with_policy()
        .config_append(CODEX_ONLY)
        .file(SRT_FRAGMENT, SRT)
        .file(BASH_FRAGMENT, BASH)
        .args(&["generate", "-w", "codex"])
        .any_stderr()
        .run();
    let before = profile(&written.read(CODEX_CONFIG));
    let rules_before = patterns(&written.read(CODEX_RULES));
    assert_eq!(rules_before.len(), 3);
    let imported = written
        .then()
        .file(SRT_FRAGMENT, "{}")
        .file(BASH_FRAGMENT, "{}")
        .args(&["import", "-w", "codex"])
        .any_stderr()
        .run();
    let fragment = imported.read(".config/twsrt/bash/imported-codex.jsonc");
    assert!(
        fragment.contains("\"rm -rf\" // ~/.codex/rules/twsrt.rules line "),
        "{fragment}"
    );
    let again = imported
        .then()
        .args(&["generate", "-w", "codex"])
        .any_stderr()
        .run();
    let after = profile(&again.read(CODEX_CONFIG));
    assert_eq!(patterns(&again.read(CODEX_RULES)), rules_before);
    let mut filesystem = after["filesystem"].as_object().unwrap().clone();
    for kind in ["srt", "bash"] {
        let new = format!("~/.config/twsrt/{kind}/imported-codex.jsonc");
        assert_eq!(
            filesystem.shift_remove(&new),
            Some(Value::from("read")),
            "{new}"
        );
    }
    let mut expected = before["filesystem"].as_object().unwrap().clone();
    let sorted = |m: &mut serde_json::Map<String, Value>| {
        let mut v: Vec<(String, Value)> = m.clone().into_iter().collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    };
    assert_eq!(sorted(&mut filesystem), sorted(&mut expected));
    for key in ["workspace_roots", "network"] {
        assert_eq!(after[key], before[key], "{key}");
    }
}

/// A hand-kept config.toml with `sandbox_mode` and a profile of its own:
/// its paths and domains come in, the keys without policy meaning are named.
#[test]
fn a_hand_kept_codex_config_is_imported_and_its_other_keys_named() {
    let out = Test::with_policy()
        .file(
            CODEX_CONFIG,
            "model = \"o3\"\nsandbox_mode = \"workspace-write\"\napproval_policy = \"on-request\"\n\
             default_permissions = \"dev\"\n\n[permissions.dev.filesystem]\n\"~/.aws\" = \"deny\"\n\n\
             [permissions.dev.network.domains]\n\"pypi.org\" = \"allow\"\n",
        )
        .file(
            ".codex/rules/default.rules",
            "prefix_rule(pattern = [\"npm\", \"publish\"], decision = \"prompt\")\n",
        )
        .args(&["import", "codex"])
        .any_stdout()
        .any_stderr()
        .unchanged()
        .run();
    assert!(
        out.stdout
            .contains("\"~/.aws\" // ~/.codex/config.toml /permissions/dev/filesystem/~0~1.aws"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("\"npm publish\" // ~/.codex/rules/default.rules line 1"),
        "{}",
        out.stdout
    );
    for named in [
        "Info: left in the agent file: model (~/.codex/config.toml /model): no policy meaning",
        "Warning: delete before `twsrt generate -w`: sandbox_mode (~/.codex/config.toml /sandbox_mode): Codex's workspace-write mode",
        "Warning: not imported: approval_policy (~/.codex/config.toml /approval_policy): no policy meaning; twsrt writes its own value",
    ] {
        assert!(out.stderr.contains(named), "{named}\n{}", out.stderr);
    }
}

/// An empty key names no path: it is named and left out, and the rest is
/// imported.
#[test]
fn an_empty_pattern_is_named_and_left_out() {
    Test::with_policy()
        .file(
            CODEX_CONFIG,
            "default_permissions = \"p\"\n[permissions.p.filesystem]\n\"\" = \"deny\"\n\"~/.aws\" = \"deny\"\n",
        )
        .args(&["import", "codex"])
        .any_stdout()
        .stdout_contains("\"~/.aws\" // ~/.codex/config.toml /permissions/p/filesystem/~0~1.aws")
        .any_stderr()
        .stderr_contains("Warning: not imported: an empty pattern ({HOME}/.codex/config.toml /permissions/p/filesystem/)\n")
        .run();
}
