//! `--scope managed`: the agents' managed (system-wide) policy files under
//! `--root`, their exact bytes and modes, the drift gate over them, and the
//! errors of a scope an agent does not have. No scenario writes outside
//! its temporary HOME: every write goes under `--root`.

use std::os::unix::fs::PermissionsExt;

use crate::support::*;

const DROP_IN: &str = "root/etc/claude-code/managed-settings.d/50-twsrt.json";

const LOCKS: &str = "\n[managed.claude]\nlock_permission_rules = true\nlock_domains = true\n";

/// The drop-in of the base policy with two lock keys on, byte for byte.
const DROP_IN_BYTES: &str = r#"{
  "permissions": {
    "deny": [
      "Read(~/.ssh)",
      "Read(~/.ssh/**)",
      "Edit(~/.ssh)",
      "Edit(~/.ssh/**)",
      "Edit(~/.claude/settings.full.json)",
      "Edit(~/.claude/settings.yolo.json)",
      "Edit(~/.codex/config.toml)",
      "Edit(~/.codex/rules/twsrt.rules)",
      "Edit(~/.config/twsrt/bash-rules.json)",
      "Edit(~/.config/twsrt/bash/base.jsonc)",
      "Edit(~/.config/twsrt/config.toml)",
      "Edit(~/.config/twsrt/srt/base.jsonc)",
      "Edit(~/.srt-settings.json)",
      "Edit(~/flags/copilot.txt)",
      "Edit(~/flags/copilot.yolo.txt)",
      "WebFetch(domain:evil.com)",
      "Bash(rm)",
      "Bash(rm *)"
    ],
    "allow": [
      "Edit(.)",
      "Edit(./**)",
      "WebFetch(domain:github.com)"
    ],
    "ask": [
      "Bash(git push)",
      "Bash(git push *)"
    ]
  },
  "sandbox": {
    "network": {
      "allowedDomains": [
        "github.com"
      ],
      "allowManagedDomainsOnly": true
    },
    "filesystem": {
      "denyRead": [],
      "denyWrite": [],
      "allowWrite": []
    }
  },
  "allowManagedPermissionRulesOnly": true
}
"#;

const SKIPPED: &str = "Info: gemini skipped: [targets].gemini_policy is not set in config.toml\n\
     Info: copilot skipped: it has no managed policy layer (--scope managed)\n";

fn managed() -> Test {
    Test::with_policy().targets().config_append(LOCKS)
}

/// The base policy's managed files written under `root`.
fn written() -> Output {
    managed()
        .args(&["generate", "--scope", "managed", "--root", "root", "-w"])
        .any_stderr()
        .run()
}

fn mode(out: &Output, rel: &str) -> u32 {
    std::fs::metadata(out.path(rel))
        .unwrap()
        .permissions()
        .mode()
        & 0o7777
}

#[test]
fn generate_writes_the_claude_drop_in_byte_for_byte_with_modes_0644_and_0755() {
    let out = written();
    assert_eq!(out.read(DROP_IN), DROP_IN_BYTES);
    assert!(
        out.stderr.contains(&format!("Wrote managed: {DROP_IN}\n")),
        "{}",
        out.stderr
    );
    assert_eq!(mode(&out, DROP_IN), 0o644);
    for dir in [
        "root",
        "root/etc",
        "root/etc/claude-code",
        "root/etc/claude-code/managed-settings.d",
    ] {
        assert_eq!(mode(&out, dir), 0o755, "{dir}");
    }
    // Nothing of the user scope was written: no canonical output, no target.
    assert!(!out.path(SRT_OUT).exists());
    assert!(!out.path(CLAUDE_TARGET).exists());
}

#[test]
fn a_drop_in_whose_mode_was_changed_is_rewritten_0644() {
    let out = written();
    std::fs::set_permissions(out.path(DROP_IN), std::fs::Permissions::from_mode(0o600)).unwrap();
    let out = out
        .then()
        .args(&["generate", "--scope", "managed", "--root", "root", "-w"])
        .any_stderr()
        .run();
    assert_eq!(mode(&out, DROP_IN), 0o644);
}

#[test]
fn the_preview_and_show_print_the_drop_in_and_write_nothing() {
    managed()
        .args(&["generate", "claude", "--scope", "managed", "--root", "root"])
        .stdout(DROP_IN_BYTES)
        .stderr(&format!("Would write managed: {DROP_IN}\n{PREVIEW_END}"))
        .unchanged()
        .run();
    managed()
        .args(&["show", "--scope", "managed", "claude"])
        .stdout(DROP_IN_BYTES)
        .unchanged()
        .run();
}

#[test]
fn without_lock_switches_the_drop_in_has_no_lock_key() {
    let out = Test::with_policy()
        .targets()
        .args(&["show", "--scope", "managed", "claude"])
        .any_stdout()
        .run();
    assert!(!out.stdout.contains("allowManaged"), "{}", out.stdout);
    assert!(!out.stdout.contains("failIfUnavailable"), "{}", out.stdout);
}

#[test]
fn every_lock_switch_sets_its_key() {
    let out = Test::with_policy()
        .targets()
        .config_append(
            "\n[managed.claude]\nlock_permission_rules = true\nlock_domains = true\n\
             lock_read_paths = true\nfail_if_unavailable = true\n",
        )
        .args(&["show", "--scope", "managed", "claude"])
        .any_stdout()
        .run();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["allowManagedPermissionRulesOnly"], true);
    assert_eq!(doc["sandbox"]["network"]["allowManagedDomainsOnly"], true);
    assert_eq!(
        doc["sandbox"]["filesystem"]["allowManagedReadPathsOnly"],
        true
    );
    assert_eq!(doc["sandbox"]["failIfUnavailable"], true);
}

#[test]
fn diff_scope_managed_is_clean_after_generate() {
    written()
        .then()
        .args(&["diff", "claude", "--scope", "managed", "--root", "root"])
        .any_stdout()
        .run();
}

#[test]
fn a_lock_key_removed_from_the_drop_in_is_widening_drift() {
    let out = written();
    let path = out.path(DROP_IN);
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace(",\n  \"allowManagedPermissionRulesOnly\": true\n", "\n");
    std::fs::write(&path, text).unwrap();
    let out = out
        .then()
        .args(&[
            "diff", "claude", "--scope", "managed", "--root", "root", "--json",
        ])
        .status(1)
        .any_stdout()
        .run();
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let differences = &report["targets"][0]["differences"];
    assert_eq!(
        differences[0]["section"], "allowManagedPermissionRulesOnly",
        "{report}"
    );
    assert_eq!(differences[0]["direction"], "widening", "{report}");
    out.then()
        .args(&[
            "diff",
            "claude",
            "--scope",
            "managed",
            "--root",
            "root",
            "--fail-on",
            "widening",
        ])
        .status(1)
        .any_stdout()
        .any_stderr()
        .run();
}

#[test]
fn an_extra_allow_rule_in_the_drop_in_widens_and_an_extra_deny_narrows() {
    let out = written();
    let path = out.path(DROP_IN);
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("\"Edit(.)\",", "\"Edit(.)\",\n      \"Bash(curl *)\",")
        .replace("\"Bash(rm *)\"", "\"Bash(rm *)\",\n      \"Bash(dd *)\"");
    std::fs::write(&path, text).unwrap();
    let out = out
        .then()
        .args(&[
            "diff", "claude", "--scope", "managed", "--root", "root", "--json",
        ])
        .status(1)
        .any_stdout()
        .run();
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let differences = report["targets"][0]["differences"]
        .as_array()
        .unwrap()
        .clone();
    let direction = |entry: &str| {
        differences
            .iter()
            .find(|d| d["entry"] == entry)
            .map(|d| d["direction"].clone())
    };
    assert_eq!(
        direction("Bash(curl *)"),
        Some("widening".into()),
        "{report}"
    );
    assert_eq!(
        direction("Bash(dd *)"),
        Some("narrowing".into()),
        "{report}"
    );
}

#[test]
fn a_missing_managed_file_exits_2() {
    managed()
        .args(&["diff", "claude", "--scope", "managed", "--root", "root"])
        .status(2)
        .stderr_contains(
            "claude managed file not found: root/etc/claude-code/managed-settings.d/50-twsrt.json",
        )
        .any_stdout()
        .run();
}

#[test]
fn an_agent_without_a_managed_layer_is_skipped_or_refused_when_named() {
    managed()
        .args(&["generate", "--scope", "managed", "--root", "root"])
        .any_stdout()
        .stderr_contains(SKIPPED)
        .any_stderr()
        .unchanged()
        .run();
    managed()
        .args(&[
            "generate", "copilot", "--scope", "managed", "--root", "root",
        ])
        .status(2)
        .stderr_contains("copilot has no managed policy layer: only ")
        .any_stderr()
        .unchanged()
        .run();
}

#[test]
fn root_without_the_managed_scope_is_a_usage_error() {
    managed()
        .args(&["generate", "--root", "root", "-w"])
        .status(2)
        .stderr_contains("--root applies to the managed files: add --scope managed")
        .any_stderr()
        .unchanged()
        .run();
}

#[test]
fn an_unknown_managed_switch_is_refused_with_its_position() {
    Test::with_policy()
        .targets()
        .config_append("\n[managed.claude]\nlock_permision_rules = true\n")
        .args(&["generate", "--scope", "managed", "--root", "root"])
        .status(1)
        .stderr_contains("unknown key \"lock_permision_rules\" in [managed.claude]")
        .stderr_contains("did you mean \"lock_permission_rules\"")
        .any_stderr()
        .unchanged()
        .run();
}

const REQUIREMENTS: &str = "root/etc/codex/requirements.toml";

/// The requirements of the base policy, byte for byte.
const REQUIREMENTS_BYTES: &str = r#"# Generated by twsrt from the policy: what every user of this machine may select in Codex.
# Change the policy and run `twsrt generate --scope managed`, not this file.
default_permissions = "twsrt-managed"

[allowed_permission_profiles]
twsrt-managed = true

[permissions.twsrt-managed]
extends = ":workspace"
description = "Generated by twsrt; edit canonical twsrt sources instead."

[permissions.twsrt-managed.filesystem]
"~/.ssh" = "deny"
"~/.claude/settings.full.json" = "read"
"~/.claude/settings.yolo.json" = "read"
"~/.codex/config.toml" = "read"
"~/.codex/rules/twsrt.rules" = "read"
"~/.config/twsrt/bash-rules.json" = "read"
"~/.config/twsrt/bash/base.jsonc" = "read"
"~/.config/twsrt/config.toml" = "read"
"~/.config/twsrt/srt/base.jsonc" = "read"
"~/.srt-settings.json" = "read"
"~/flags/copilot.txt" = "read"
"~/flags/copilot.yolo.txt" = "read"

[permissions.twsrt-managed.network]
enabled = true

[permissions.twsrt-managed.network.domains]
"github.com" = "allow"
"evil.com" = "deny"

[permissions.filesystem]
deny_read = [
  "~/.ssh",
]

[rules]
prefix_rules = [
  { pattern = [{ token = "rm" }], decision = "forbidden", justification = "Generated from twsrt Bash intent." },
  { pattern = [{ token = "git" }, { token = "push" }], decision = "prompt", justification = "Generated from twsrt Bash intent." },
]

[experimental_network]
managed_allowed_domains_only = true
allowed_domains = [
  "github.com",
]
denied_domains = [
  "evil.com",
]
"#;

#[test]
fn generate_writes_the_codex_requirements_byte_for_byte() {
    let out = written();
    assert_eq!(out.read(REQUIREMENTS), REQUIREMENTS_BYTES);
    assert_eq!(mode(&out, REQUIREMENTS), 0o644);
    assert_eq!(mode(&out, "root/etc/codex"), 0o755);
}

#[test]
fn the_requirements_do_not_repeat_the_user_level_ask_warning() {
    managed()
        .args(&["show", "--scope", "managed", "codex"])
        .stdout(REQUIREMENTS_BYTES)
        .lacks("ask rule")
        .run();
}

#[test]
fn a_deny_read_entry_dropped_from_the_requirements_widens() {
    let out = written();
    let path = out.path(REQUIREMENTS);
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("deny_read = [\n  \"~/.ssh\",\n]", "deny_read = []");
    std::fs::write(&path, text).unwrap();
    let out = out
        .then()
        .args(&[
            "diff", "codex", "--scope", "managed", "--root", "root", "--json",
        ])
        .status(1)
        .any_stdout()
        .run();
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let differences = &report["targets"][0]["differences"];
    assert_eq!(differences.as_array().map(Vec::len), Some(1), "{report}");
    assert_eq!(
        differences[0]["section"], "permissions.filesystem.deny_read",
        "{report}"
    );
    assert_eq!(differences[0]["direction"], "widening", "{report}");
}

const GEMINI: &str = "\ngemini_policy = \"~/.gemini/policies/twsrt.toml\"\n";
const GEMINI_POLICY: &str = "root/etc/gemini-cli/policies/twsrt.toml";
const GEMINI_SETTINGS: &str = "root/etc/gemini-cli/settings.json";

/// The base policy with Gemini configured and yolo disabled on the fleet.
fn with_gemini() -> Test {
    Test::with_policy().config_append(&format!(
        "\n[targets]{GEMINI}\n[managed.gemini]\ndisable_yolo = true\n"
    ))
}

fn gemini_written() -> Output {
    with_gemini()
        .args(&[
            "generate", "gemini", "--scope", "managed", "--root", "root", "-w",
        ])
        .any_stderr()
        .run()
}

#[test]
fn generate_writes_the_gemini_admin_policy_and_the_yolo_switch() {
    let out = gemini_written();
    let policy = out.read(GEMINI_POLICY);
    assert!(
        policy.starts_with(
            "# Generated by twsrt; edit the canonical twsrt sources instead.\n\
             # Gemini CLI loads every .toml file in /etc/gemini-cli/policies (admin tier, above \
             every user rule).\n"
        ),
        "{policy}"
    );
    assert!(
        policy.contains("commandPrefix = \"rm\"\ndecision = \"deny\"\n"),
        "{policy}"
    );
    assert_eq!(
        out.read(GEMINI_SETTINGS),
        "{\n  \"security\": {\n    \"disableYoloMode\": true\n  }\n}\n"
    );
    assert_eq!(mode(&out, GEMINI_POLICY), 0o644);
    assert_eq!(mode(&out, "root/etc/gemini-cli/policies"), 0o755);
    assert!(
        out.stderr
            .contains("Warning: Gemini CLI matches a path as the model spells it"),
        "{}",
        out.stderr
    );
}

#[test]
fn without_disable_yolo_no_system_settings_are_written() {
    let out = Test::with_policy()
        .config_append(&format!("\n[targets]{GEMINI}"))
        .args(&[
            "generate", "gemini", "--scope", "managed", "--root", "root", "-w",
        ])
        .any_stderr()
        .run();
    assert!(out.path(GEMINI_POLICY).exists());
    assert!(!out.path(GEMINI_SETTINGS).exists());
}

#[test]
fn yolo_enabled_again_in_the_system_settings_widens() {
    let out = gemini_written();
    std::fs::write(
        out.path(GEMINI_SETTINGS),
        "{\"security\": {\"disableYoloMode\": false}}\n",
    )
    .unwrap();
    let out = out
        .then()
        .args(&[
            "diff", "gemini", "--scope", "managed", "--root", "root", "--json",
        ])
        .status(1)
        .any_stdout()
        .any_stderr()
        .run();
    let report: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let differences = &report["targets"][0]["differences"];
    assert_eq!(differences.as_array().map(Vec::len), Some(1), "{report}");
    assert_eq!(
        differences[0]["section"], "security.disableYoloMode",
        "{report}"
    );
    assert_eq!(differences[0]["direction"], "widening", "{report}");
}

#[test]
fn doctor_finds_an_admin_policy_directory_gemini_would_skip() {
    let out = gemini_written();
    let dir = out.path("root/etc/gemini-cli/policies");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o775)).unwrap();
    let out = out
        .then()
        .args(&["doctor", "--scope", "managed", "--root", "root"])
        .status(1)
        .any_stdout()
        .any_stderr()
        .run();
    assert!(
        out.stdout.contains("managed-file-ignored"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("it is writable by group or others (mode 775)"),
        "{}",
        out.stdout
    );
    // The user scope does not look at the managed files.
    out.then()
        .args(&["doctor"])
        .any_status()
        .any_stdout()
        .any_stderr()
        .lacks("managed-file-ignored")
        .run();
}

#[test]
fn the_gemini_admin_policy_is_the_user_policy_byte_for_byte_but_its_header() {
    let out = Test::with_policy()
        .config_append(&format!("\n[targets]{GEMINI}"))
        .args(&["generate", "gemini", "-w"])
        .any_stderr()
        .run()
        .then()
        .args(&[
            "generate", "gemini", "--scope", "managed", "--root", "root", "-w",
        ])
        .any_stderr()
        .run();
    let user = out.read(".gemini/policies/twsrt.toml");
    let admin = out.read(GEMINI_POLICY);
    assert_eq!(
        admin,
        user.replacen(
            "in ~/.gemini/policies (user tier)",
            "in /etc/gemini-cli/policies (admin tier, above every user rule)",
            1
        )
    );
    assert_ne!(admin, user);
}

/// A link below `--root` (a directory on the way or the file itself) is
/// refused by generate and diff: twsrt would write, or judge, a file
/// outside the root, or one a user may edit. Nothing is written.
#[test]
fn a_symlink_below_the_root_is_refused_and_nothing_written_through_it() {
    for (link, target) in [
        ("root/etc/claude-code", "../../elsewhere"),
        (DROP_IN, "../../../elsewhere/f.json"),
    ] {
        let out = managed()
            .dir("elsewhere")
            .symlink(link, target)
            .args(&[
                "generate", "--scope", "managed", "--root", "root", "-w", "claude",
            ])
            .status(1)
            .any_stderr()
            .stderr_contains("is a symlink: a managed file is written and compared in place")
            .run();
        let out = out
            .then()
            .args(&["diff", "--scope", "managed", "--root", "root", "claude"])
            .status(1)
            .any_stderr()
            .stderr_contains("is a symlink: a managed file is written and compared in place")
            .run();
        assert_eq!(
            std::fs::read_dir(out.path("elsewhere")).unwrap().count(),
            0,
            "{link}"
        );
    }
}

/// A drop-in read after twsrt's that replaces one of its values, or any
/// managed file that adds an allow entry, undoes the drop-in: widening
/// drift (they sat beside it unseen).
#[test]
fn a_neighbour_drop_in_that_undoes_twsrts_is_widening_drift() {
    let out = written()
        .then()
        .file(
            "root/etc/claude-code/managed-settings.d/99-late.json",
            r#"{"allowManagedPermissionRulesOnly": false}"#,
        )
        .file(
            "root/etc/claude-code/managed-settings.json",
            r#"{"permissions": {"allow": ["Bash(*)"]}}"#,
        )
        .args(&["diff", "claude", "--scope", "managed", "--root", "root"])
        .status(1)
        .any_stdout()
        .any_stderr()
        .run();
    assert!(
        out.stdout
            .contains("99-late.json allowManagedPermissionRulesOnly: false"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("managed-settings.json permissions.allow: \"Bash(*)\""),
        "{}",
        out.stdout
    );
    // An earlier drop-in's scalar is replaced by twsrt's: nothing to say.
    std::fs::remove_file(out.path("root/etc/claude-code/managed-settings.d/99-late.json")).unwrap();
    std::fs::remove_file(out.path("root/etc/claude-code/managed-settings.json")).unwrap();
    out.then()
        .file(
            "root/etc/claude-code/managed-settings.d/10-early.json",
            r#"{"allowManagedPermissionRulesOnly": false}"#,
        )
        .args(&["diff", "claude", "--scope", "managed", "--root", "root"])
        .any_stdout()
        .any_stderr()
        .run();
}

/// Another admin policy in Gemini's folder with a rule that does not deny
/// (the same tier, its priority decides) is widening drift.
#[test]
fn another_gemini_admin_policy_that_allows_is_widening_drift() {
    let out = gemini_written()
        .then()
        .file(
            "root/etc/gemini-cli/policies/zz-other.toml",
            "[[rule]]\ntoolName = \"run_shell_command\"\ndecision = \"allow\"\npriority = 999\n\
             [[rule]]\ntoolName = \"x\"\ndecision = \"deny\"\n",
        )
        .args(&["diff", "gemini", "--scope", "managed", "--root", "root"])
        .status(1)
        .any_stdout()
        .any_stderr()
        .run();
    assert!(
        out.stdout.contains(
            "zz-other.toml rule: {\"toolName\":\"run_shell_command\",\"decision\":\"allow\""
        ),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("\"toolName\":\"x\""), "{}", out.stdout);
}
