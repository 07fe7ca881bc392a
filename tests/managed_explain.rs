//! `explain --root DIR` and `audit --root DIR`: the installed managed
//! files (a tree `generate --scope managed --root DIR -w` builds) read as
//! their own layer above the user layer. Every scenario reads under
//! `--root`, never the machine's /etc.

use std::os::unix::fs::PermissionsExt;

use serde_json::{Value, json};

use crate::support::*;

/// The base policy for Claude, Codex and Gemini, Claude's rules locked.
fn policy() -> Test {
    Test::with_policy()
        .targets()
        .config_append("gemini_policy = \"~/.gemini/policies/twsrt.toml\"\n")
        .config_append("\n[managed.claude]\nlock_permission_rules = true\n")
}

/// The managed tree of the base policy under `root`.
fn installed() -> Output {
    policy()
        .args(&["generate", "--scope", "managed", "--root", "root", "-w"])
        .any_stderr()
        .run()
}

/// `explain --json --root root ARGS` on `t`.
fn explain(t: Test, args: &[&str]) -> Value {
    let mut all = vec!["explain", "--json", "--root", "root"];
    all.extend_from_slice(args);
    let out = t.args(&all).any_stdout().any_stderr().unchanged().run();
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout))
}

/// The row of `layer`/`agent` for `access`.
fn row<'a>(doc: &'a Value, layer: &str, agent: &str, access: &str) -> &'a Value {
    doc["rows"]
        .as_array()
        .and_then(|rows| {
            rows.iter()
                .find(|r| r["layer"] == layer && r["agent"] == agent && r["access"] == access)
        })
        .unwrap_or_else(|| panic!("no {layer}/{agent}/{access} row in {doc}"))
}

/// (decision, rule, source) of a row.
fn decided(row: &Value) -> (Value, Value, Value) {
    (
        row["decision"].clone(),
        row["rule"].clone(),
        row["source"].clone(),
    )
}

fn note(row: &Value) -> &str {
    row["note"].as_str().unwrap_or_default()
}

/// The agents' layers in table order for `access`.
fn layers(doc: &Value, access: &str) -> Vec<String> {
    doc["rows"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| r["access"] == access)
        .map(|r| {
            format!(
                "{}/{}",
                r["layer"].as_str().unwrap(),
                r["agent"].as_str().unwrap()
            )
        })
        .collect()
}

#[test]
fn without_installed_managed_files_there_is_no_managed_row() {
    let doc = explain(policy(), &["~/.ssh/id"]);
    let managed: Vec<&Value> = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["layer"] == "managed")
        .collect();
    assert!(managed.is_empty(), "{managed:?}");
}

#[test]
fn each_managed_row_sits_above_its_agents_user_layers() {
    let doc = explain(installed().then(), &["--command", "rm -rf x"]);
    assert_eq!(
        layers(&doc, "command"),
        [
            "srt/srt",
            "managed/claude",
            "permissions/claude",
            "sandbox/claude",
            "managed/codex",
            "profile/codex",
            "rules/codex",
            "flags/copilot",
            "managed/gemini",
            "policy/gemini",
        ]
    );
}

#[test]
fn the_claude_managed_row_reads_the_drop_in_under_root() {
    let doc = explain(installed().then(), &["--command", "rm -rf x"]);
    let managed = row(&doc, "managed", "claude", "command");
    assert_eq!(
        decided(managed),
        (json!("deny"), json!("rm"), json!("bash/base.jsonc:1"))
    );
    assert_eq!(note(managed), "permissions entry Bash(rm *)");
}

#[test]
fn the_codex_managed_row_denies_a_read_by_deny_read() {
    let doc = explain(installed().then(), &["~/.ssh/id"]);
    let read = row(&doc, "managed", "codex", "read");
    assert_eq!(
        decided(read),
        (json!("deny"), json!("~/.ssh"), json!("srt/base.jsonc:2"))
    );
    assert_eq!(
        note(read),
        "requirements deny_read entry \"~/.ssh\": applies whatever profile is selected"
    );
    // A write is the required profile's to decide.
    let write = row(&doc, "managed", "codex", "write");
    assert_eq!(decided(write).0, json!("deny"));
    assert_eq!(
        note(write),
        "required profile twsrt-managed, the only one users may select: profile entry \
         \"~/.ssh\" = \"deny\""
    );
}

#[test]
fn the_codex_managed_row_decides_a_command_by_the_prefix_rules() {
    let doc = explain(installed().then(), &["--command", "rm -rf x"]);
    let forbidden = row(&doc, "managed", "codex", "command");
    assert_eq!(
        decided(forbidden),
        (json!("deny"), json!("rm"), json!("bash/base.jsonc:1"))
    );
    assert_eq!(
        note(forbidden),
        "requirements prefix_rule, decision = \"forbidden\""
    );
    let doc = explain(installed().then(), &["--command", "git push origin"]);
    let prompt = row(&doc, "managed", "codex", "command");
    assert_eq!(
        decided(prompt),
        (json!("ask"), json!("git push"), json!("bash/base.jsonc:1"))
    );
    // The user-level rules file holds no ask rule: only the requirements ask.
    assert_eq!(
        decided(row(&doc, "rules", "codex", "command")).0,
        "not covered"
    );
}

#[test]
fn the_codex_managed_row_says_its_network_lists_are_not_measured() {
    let doc = explain(installed().then(), &["evil.com"]);
    let network = row(&doc, "managed", "codex", "network");
    assert_eq!(
        decided(network),
        (json!("deny"), json!("evil.com"), json!("srt/base.jsonc:3"))
    );
    assert!(
        note(network).ends_with(
            "the requirements' [experimental_network] lists load, but whether Codex enforces \
             them was not measured"
        ),
        "{network}"
    );
}

#[test]
fn a_requirements_file_that_is_not_toml_is_a_row_that_says_so() {
    let out = installed();
    std::fs::write(out.path("root/etc/codex/requirements.toml"), "not [ toml\n").unwrap();
    let doc = explain(out.then(), &["--command", "rm -rf x"]);
    let managed = row(&doc, "managed", "codex", "command");
    assert_eq!(decided(managed).0, "not covered");
    assert!(
        note(managed).starts_with("root/etc/codex/requirements.toml is not TOML"),
        "{managed}"
    );
}

#[test]
fn the_gemini_managed_row_is_the_admin_tier_of_the_installed_folder() {
    let doc = explain(installed().then(), &["--command", "rm -rf build"]);
    let managed = row(&doc, "managed", "gemini", "command");
    assert_eq!(
        decided(managed),
        (json!("deny"), json!("rm"), json!("bash/base.jsonc:1"))
    );
    assert!(
        note(managed).starts_with("admin tier: deny rule on run_shell_command"),
        "{managed}"
    );
}

#[test]
fn a_group_writable_admin_folder_is_a_row_that_says_gemini_ignores_it() {
    let out = installed();
    let dir = out.path("root/etc/gemini-cli/policies");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o775)).unwrap();
    let doc = explain(out.then(), &["--command", "rm -rf build"]);
    let managed = row(&doc, "managed", "gemini", "command");
    assert_eq!(decided(managed).0, "not covered");
    assert!(
        note(managed)
            .starts_with("Gemini CLI ignores the admin policies in root/etc/gemini-cli/policies: "),
        "{managed}"
    );
    assert!(
        note(managed).contains("it is writable by group or others (mode 775)"),
        "{managed}"
    );
}

#[test]
fn an_admin_policy_shows_its_row_when_gemini_has_no_user_target() {
    let out = installed();
    let config = out
        .read(CONFIG)
        .replace("gemini_policy = \"~/.gemini/policies/twsrt.toml\"\n", "");
    std::fs::write(out.path(CONFIG), config).unwrap();
    let doc = explain(out.then(), &["--command", "rm -rf build"]);
    assert_eq!(decided(row(&doc, "managed", "gemini", "command")).0, "deny");
    let gemini: Vec<String> = layers(&doc, "command")
        .into_iter()
        .filter(|l| l.ends_with("/gemini"))
        .collect();
    assert_eq!(gemini, ["managed/gemini"]);
}

/// The policy widened after the managed tree was installed: no denyRead,
/// no bash deny rule.
fn widened(out: Output) -> Test {
    std::fs::write(
        out.path(SRT_FRAGMENT),
        r#"{"filesystem": {"allowWrite": ["."]}, "network": {"allowedDomains": ["github.com"], "deniedDomains": ["evil.com"]}}"#,
    )
    .unwrap();
    std::fs::write(out.path(BASH_FRAGMENT), r#"{"ask": ["git push"]}"#).unwrap();
    out.then()
}

#[test]
fn the_managed_layer_decides_where_the_user_layer_was_widened() {
    let doc = explain(widened(installed()), &["~/.ssh/id"]);
    // The installed files still deny; the rule is no longer in the policy,
    // so it has no fragment line.
    for agent in ["claude", "codex", "gemini"] {
        let managed = row(&doc, "managed", agent, "read");
        assert_eq!(decided(managed).0, "deny", "{agent}: {managed}");
        assert_eq!(managed["source"], Value::Null, "{agent}: {managed}");
    }
    assert_eq!(decided(row(&doc, "managed", "codex", "read")).1, "~/.ssh");
    assert_eq!(
        decided(row(&doc, "permissions", "claude", "read")).0,
        "not covered"
    );
    assert_eq!(decided(row(&doc, "profile", "codex", "read")).0, "allow");
    assert_eq!(
        decided(row(&doc, "policy", "gemini", "read")).0,
        "not covered"
    );
    // A Gemini rule the policy no longer writes is named by its place.
    assert!(
        note(row(&doc, "managed", "gemini", "read")).starts_with(
            "admin tier: deny rule 1 of root/etc/gemini-cli/policies/twsrt.toml on read_file"
        ),
        "{doc}"
    );
}

#[test]
fn audit_under_root_knows_the_managed_permission_lock() {
    let out = installed();
    out.then()
        .args(&[
            "audit",
            "--root",
            "root",
            "--",
            "claude",
            "--allowedTools",
            "Bash",
        ])
        .any_status()
        .stdout_contains(
            "Info: --allowedTools <value>: adds allow rules on top of the generated policy, but \
             they are inert: this machine's managed settings set allowManagedPermissionRulesOnly",
        )
        .any_stdout()
        .any_stderr()
        .run();
    // The same launch against a tree without the lock: a warning.
    Test::with_policy()
        .targets()
        .args(&[
            "audit",
            "--root",
            "root",
            "--",
            "claude",
            "--allowedTools",
            "Bash",
        ])
        .any_status()
        .stdout_contains(
            "Warning: --allowedTools <value>: adds allow rules on top of the generated policy\n",
        )
        .any_stdout()
        .any_stderr()
        .run();
}

#[test]
fn audit_under_root_knows_a_user_profile_cannot_widen_the_requirements() {
    let argv = [
        "audit",
        "--root",
        "root",
        "--",
        "codex",
        "-c",
        "default_permissions=\":danger-full-access\"",
    ];
    installed()
        .then()
        .args(&argv)
        .stdout(
            "Info: -c default_permissions=<value>: selects the permission profile <value>, \
             which this machine's requirements.toml does not allow: Codex keeps the required \
             profile\n",
        )
        .any_stderr()
        .run();
    Test::with_policy()
        .targets()
        .args(&argv)
        .status(1)
        .stdout_contains("Error: -c default_permissions=<value>: selects another permission")
        .any_stdout()
        .any_stderr()
        .run();
}

#[test]
fn under_root_a_folder_not_owned_by_root_is_decided_as_installed_and_says_so() {
    let out = installed();
    let dir = out.path("root/etc/gemini-cli/policies");
    // A tree built as a user is that user's; as root, give it to nobody.
    let _ = std::os::unix::fs::chown(&dir, Some(65534), Some(65534));
    let uid = std::os::unix::fs::MetadataExt::uid(&std::fs::metadata(&dir).unwrap());
    let doc = explain(out.then(), &["--command", "rm -rf build"]);
    let managed = row(&doc, "managed", "gemini", "command");
    if uid == 0 {
        // chown was refused and the tree is root's: nothing to assume.
        assert_eq!(
            note(managed),
            "admin tier: deny rule on run_shell_command",
            "{managed}"
        );
        return;
    }
    assert_eq!(decided(managed).0, "deny");
    assert_eq!(
        note(managed),
        format!(
            "admin tier: deny rule on run_shell_command; decided as if installed owned by root \
             (under --root, it is owned by uid {uid}, not root)"
        )
    );
}
