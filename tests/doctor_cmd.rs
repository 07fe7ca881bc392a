//! `twsrt doctor`: the JSON report, and the Codex config layers it reads
//! (the same as `audit`: `$CODEX_HOME`, else `~/.codex`).

use crate::support::*;

/// A policy with one finding of each severity the JSON shows by default,
/// and a fragment that does not parse (its position becomes line/column).
const SRT: &str = r#"{
  "filesystem": {"denyRead": ["~/.aws", "~/.aws/credentials"], "allowWrite": ["~/x/**"]}
}"#;

fn policy() -> Test {
    Test::with_policy()
        .file(SRT_FRAGMENT, SRT)
        .file(
            ".config/twsrt/srt/broken.jsonc",
            "{\n  \"filesystem\": ,\n}",
        )
        .config_append("\n[sources.srt.fragments.broken]\npath = \"srt/broken.jsonc\"\n")
}

#[test]
fn json_lists_the_shown_findings_in_report_order_and_counts_every_finding() {
    policy()
        .args(&["doctor", "--json"])
        .status(1)
        .stdout(
            r#"{
  "findings": [
    {
      "code": "fragment-load",
      "severity": "error",
      "location": "srt/broken.jsonc",
      "line": 2,
      "column": 17,
      "message": "{HOME}/.config/twsrt/srt/broken.jsonc:2:17: invalid JSON: unexpected ','",
      "notes": []
    },
    {
      "code": "unused-fragment",
      "severity": "warning",
      "location": "srt/broken.jsonc",
      "line": null,
      "column": null,
      "message": "srt fragment 'broken' is selected by no profile",
      "notes": []
    },
    {
      "code": "subsumed-rule",
      "severity": "warning",
      "location": "srt/base.jsonc",
      "line": null,
      "column": null,
      "message": "filesystem.denyRead: 1 entry already covered",
      "notes": [
        "'~/.aws/credentials' by '~/.aws'"
      ]
    }
  ],
  "errors": 1,
  "warnings": 2,
  "info": 1
}
"#,
        )
        .run();
}

#[test]
fn json_takes_the_level_flags_and_keeps_the_exit_code() {
    policy()
        .args(&["doctor", "--json", "--info"])
        .status(1)
        .stdout(
            r#"{
  "findings": [
    {
      "code": "noop-glob-suffix",
      "severity": "info",
      "location": "srt/base.jsonc",
      "line": null,
      "column": null,
      "message": "filesystem.allowWrite: 1 entry ending in /**, which srt strips; the bare directory is the same rule",
      "notes": [
        "'~/x/**'"
      ]
    }
  ],
  "errors": 1,
  "warnings": 2,
  "info": 1
}
"#,
        )
        .run();
}

#[test]
fn json_without_findings_is_an_empty_list_and_exit_0() {
    Test::with_policy()
        .args(&["doctor", "--json", "--all"])
        .stdout("{\n  \"findings\": [],\n  \"errors\": 0,\n  \"warnings\": 0,\n  \"info\": 0\n}\n")
        .run();
}

/// `[targets] codex_config` in HOME, and a Codex user config elsewhere.
const CODEX_TARGET: &str = "\n[targets]\ncodex_config = \"~/.codex/config.toml\"\n";

#[test]
fn the_codex_layers_are_read_from_codex_home_as_audit_reads_them() {
    let legacy = "model = \"x\"\nsandbox_mode = \"danger-full-access\"\n";
    let t = Test::with_policy()
        .config_append(CODEX_TARGET)
        .file("ch/config.toml", legacy);
    let codex_home = t.home().join("ch").display().to_string();
    t.env("CODEX_HOME", &codex_home)
        .args(&["doctor"])
        .status(1)
        .stdout(
            "{HOME}/ch/config.toml\n  \
             error    codex-legacy-sandbox  1 legacy setting switching the generated permission \
             profile off: Codex ignores default_permissions while one is set\n\
             \x20                                • 'sandbox_mode' ({HOME}/ch/config.toml:2:1)\n\n\
             doctor: 1 error, 0 warnings, 0 info\n",
        )
        .run()
        .then()
        // Without CODEX_HOME the user config is ~/.codex/config.toml, which
        // holds no legacy key: $CODEX_HOME/config.toml is not read.
        .args(&["doctor"])
        .stdout("doctor: no findings\n")
        .run();
}

/// A bash deny rule with options is a prefix in every agent: doctor names
/// it (info) with spellings of the same command that pass the prefix; a
/// rule without options has none and is not named.
#[test]
fn deny_rules_whose_other_spellings_pass_the_prefix_are_named() {
    Test::with_policy()
        .file(BASH_FRAGMENT, r#"{"deny": ["rm -rf", "dd"]}"#)
        .args(&["doctor", "--info"])
        .stdout(
            "bash/base.jsonc\n  info     prefix-spellings  deny: 'rm -rf' is matched as a prefix by \
             every agent, so the same command spelt differently runs (only the guard hook \
             matches it by meaning)\n\
             \x20                            • 'rm -fr'\n\
             \x20                            • 'rm -r -f'\n\
             \x20                            • 'rm -Rf'\n\
             \x20                            • 'rm --recursive --force'\n\
             \x20                            • 'rm --r --f'\n\
             \ndoctor: 0 errors, 0 warnings, 1 info\n",
        )
        .unchanged()
        .run();
}
