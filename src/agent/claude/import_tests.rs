//! The Claude settings file read back: each rule shape, the path anchors,
//! and every kind of entry that is left in the file, by name.

use std::path::Path;

use serde_json::json;

use super::import_settings;
use crate::import::{Fate, Imported, List, Put};

const HOME: &str = "/home/u";

fn import(doc: serde_json::Value) -> Imported {
    import_settings(
        &doc,
        Path::new("/home/u/.claude/settings.json"),
        Path::new(HOME),
        &|key| key == "overridden",
    )
}

fn list(imported: &Imported, list: List) -> Vec<&str> {
    imported.list(list).collect()
}

/// The reason and fate import gives for the left item named `what`.
fn left<'a>(imported: &'a Imported, what: &str) -> (Fate, &'a str) {
    let item = imported
        .left
        .iter()
        .find(|l| l.what == what)
        .unwrap_or_else(|| panic!("{what} not left: {:?}", imported.left));
    (item.fate, item.reason.as_str())
}

#[test]
fn a_read_and_edit_pair_is_one_deny_read_and_an_edit_alone_a_deny_write() {
    let imported = import(json!({"permissions": {"deny": [
        "Read(~/.aws)", "Read(~/.aws/**)", "Edit(~/.aws)", "Edit(~/.aws/**)",
        "Edit(~/.bashrc)", "Read(~/.netrc)", "Read(**/*.pem)", "Edit(**/*.pem)"
    ]}}));
    assert_eq!(
        list(&imported, List::DenyRead),
        ["**/*.pem", "~/.aws", "~/.netrc"]
    );
    assert_eq!(list(&imported, List::DenyWrite), ["~/.bashrc"]);
    let aws = imported
        .entries
        .iter()
        .find(|e| e.value == Put::Entry(List::DenyRead, "~/.aws".into()))
        .unwrap();
    let at: Vec<&str> = aws.origins.iter().map(|o| o.at.as_str()).collect();
    assert_eq!(
        at,
        [
            "/permissions/deny/0",
            "/permissions/deny/1",
            "/permissions/deny/2",
            "/permissions/deny/3"
        ]
    );
    assert_eq!(aws.note, None);
    // A Read rule alone becomes a denyRead, which also denies writing: said.
    let netrc = imported
        .entries
        .iter()
        .find(|e| e.value == Put::Entry(List::DenyRead, "~/.netrc".into()))
        .unwrap();
    assert!(
        netrc
            .note
            .as_deref()
            .unwrap_or("")
            .contains("also denies writing")
    );
}

#[test]
fn a_double_slash_is_absolute_and_a_single_slash_starts_at_the_settings_directory() {
    let imported = import(json!({"permissions": {
        "deny": ["Read(//etc/shadow)", "Edit(//etc/shadow)", "Edit(/etc/hosts)"],
        "allow": ["Edit(//tmp)", "Edit(//tmp/**)", "Edit(.)", "Edit(./**)"]
    }}));
    assert_eq!(list(&imported, List::DenyRead), ["/etc/shadow"]);
    assert_eq!(list(&imported, List::DenyWrite), ["~/.claude/etc/hosts"]);
    assert_eq!(list(&imported, List::AllowWrite), [".", "/tmp"]);
    let hosts = imported
        .entries
        .iter()
        .find(|e| e.value == Put::Entry(List::DenyWrite, "~/.claude/etc/hosts".into()))
        .unwrap();
    let note = hosts.note.as_deref().unwrap_or("");
    assert!(
        note.contains("relative to the settings file's directory (~/.claude)"),
        "{note}"
    );
    assert!(note.contains("Edit(//etc/hosts)"), "{note}");
}

#[test]
fn a_relative_sandbox_path_starts_at_the_settings_directory() {
    let imported = import(json!({"sandbox": {"filesystem": {
        "allowWrite": [".", "//tmp/build", "~/dev"], "denyRead": ["~/.kube"]
    }}}));
    assert_eq!(
        list(&imported, List::AllowWrite),
        ["~/.claude", "/tmp/build", "~/dev"]
    );
    assert_eq!(list(&imported, List::DenyRead), ["~/.kube"]);
}

#[test]
fn a_sandbox_allow_read_is_srt_s_allow_read() {
    let imported = import(json!({"sandbox": {"filesystem": {
        "denyRead": ["~/.aws"], "allowRead": ["~/.aws/config", "//opt/shared"]
    }}}));
    assert_eq!(
        list(&imported, List::AllowRead),
        ["~/.aws/config", "/opt/shared"]
    );
    assert!(!imported.left.iter().any(|l| l.what.contains("allowRead")));
}

#[test]
fn bash_rules_of_every_spelling_are_one_rule_of_their_list() {
    let imported = import(json!({"permissions": {
        "deny": ["Bash(curl:*)", "Bash(sudo)", "Bash(sudo *)"],
        "ask": ["Bash(git push *)"],
        "allow": ["Bash(npm run test:*)"]
    }}));
    assert_eq!(list(&imported, List::BashDeny), ["curl", "sudo"]);
    assert_eq!(list(&imported, List::BashAsk), ["git push"]);
    assert_eq!(list(&imported, List::BashAllow), ["npm run test"]);
    let notes: Vec<_> = imported
        .entries
        .iter()
        .filter_map(|e| e.note.as_deref())
        .collect();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].starts_with("Bash(git push *)"), "{notes:?}");
}

#[test]
fn domains_come_from_webfetch_rules_and_the_sandbox_lists_once_each() {
    let imported = import(json!({
        "permissions": {"allow": ["WebFetch(domain:github.com)"], "deny": ["WebFetch(domain:evil.com)"]},
        "sandbox": {"network": {"allowedDomains": ["github.com", "pypi.org"], "deniedDomains": ["bad.org"]}}
    }));
    assert_eq!(
        list(&imported, List::AllowedDomains),
        ["github.com", "pypi.org"]
    );
    assert_eq!(
        list(&imported, List::DeniedDomains),
        ["evil.com", "bad.org"]
    );
}

#[test]
fn srt_settings_are_imported_unless_an_override_sets_them() {
    let imported = import(json!({"sandbox": {
        "enabled": true, "overridden": false,
        "network": {"allowLocalBinding": true, "allowUnixSockets": ["/var/run/docker.sock"]}
    }}));
    let settings: Vec<(&str, &serde_json::Value)> = imported
        .entries
        .iter()
        .filter_map(|e| match &e.value {
            Put::Setting(p, v) => Some((p.as_str(), v)),
            _ => None,
        })
        .collect();
    assert_eq!(
        settings,
        [
            ("/enabled", &json!(true)),
            ("/network/allowLocalBinding", &json!(true)),
            (
                "/network/allowUnixSockets",
                &json!(["/var/run/docker.sock"])
            ),
        ]
    );
    assert_eq!(left(&imported, "sandbox.overridden").0, Fate::Kept);
}

/// Every kind of entry import does not translate, named, with its fate:
/// kept where twsrt never writes, untranslatable in a list twsrt replaces.
#[test]
fn every_untranslatable_entry_kind_is_named_with_its_fate() {
    let imported = import(json!({
        "model": "opus",
        "env": {"A": "1"},
        "hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "/usr/bin/twsrt hook claude"}]},
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "my-check"}]}
        ]},
        "permissions": {
            "allow": ["mcp__github__get_issue", "Read(~/.zshrc)", "WebSearch", "Bash"],
            "deny": ["WebSearch", "mcp__evil__run", "Bash(git * --force)", "Bash"],
            "ask": ["Read(~/.config)"],
            "defaultMode": "acceptEdits"
        },
        "sandbox": {
            "autoAllowBashIfSandboxed": true,
            "network": {"allowManagedDomainsOnly": true},
            "filesystem": {"allowFoo": ["~/x"]}
        }
    }));
    let kept = [
        ("\"model\"", "no policy meaning"),
        ("\"env\"", "no policy meaning"),
        ("\"hooks\"", "hooks have no policy meaning"),
        (
            "twsrt's own guard hook entry",
            "[targets] claude_hook = true",
        ),
        ("mcp__github__get_issue", "an MCP tool"),
        ("Read(~/.zshrc)", "a Read allow has no policy meaning"),
        ("WebSearch", "a rule for the WebSearch tool"),
        ("Bash", "a rule for the Bash tool"),
        ("permissions.defaultMode", "no policy meaning"),
        ("sandbox.autoAllowBashIfSandboxed", "srt does not have"),
        (
            "sandbox.network.allowManagedDomainsOnly",
            "srt does not have",
        ),
        ("sandbox.filesystem.allowFoo", "srt does not have"),
    ];
    for (what, reason) in kept {
        let item = imported
            .left
            .iter()
            .find(|l| l.what == what && l.fate == Fate::Kept)
            .unwrap_or_else(|| panic!("{what} not kept: {:?}", imported.left));
        assert!(item.reason.contains(reason), "{what}: {}", item.reason);
    }
    let untranslatable = [
        ("WebSearch", "a rule for the WebSearch tool"),
        ("mcp__evil__run", "an MCP tool"),
        ("Bash(git * --force)", "a wildcard inside the command"),
        ("Bash", "a rule for the Bash tool"),
        ("Read(~/.config)", "a rule for the Read tool"),
    ];
    for (what, reason) in untranslatable {
        let item = imported
            .left
            .iter()
            .find(|l| l.what == what && l.fate == Fate::Untranslatable)
            .unwrap_or_else(|| panic!("{what} not untranslatable: {:?}", imported.left));
        assert!(item.reason.contains(reason), "{what}: {}", item.reason);
        assert!(
            item.reason.contains("--drop-foreign"),
            "{what}: {}",
            item.reason
        );
    }
    assert!(imported.entries.is_empty(), "{:?}", imported.entries);
}

/// Shapes Claude Code would refuse are read without a panic: what is not
/// a list or an object holds nothing to import, and is named where it has
/// no policy meaning.
#[test]
fn odd_shapes_import_nothing_and_do_not_panic() {
    for doc in [
        json!([1, 2]),
        json!("text"),
        json!({"permissions": {"deny": "notalist", "allow": [1, null, {"a": 1}], "ask": {}}}),
        json!({"sandbox": {"network": 3, "filesystem": {"denyRead": "x", "allowWrite": [7]}}}),
        json!({"permissions": {"deny": ["Bash(", "Read()", "Edit(//)", "WebFetch(domain:)", "(", ")"]}}),
    ] {
        let imported = import(doc.clone());
        for entry in &imported.entries {
            assert!(!entry.origins.is_empty(), "{doc}");
        }
    }
    let imported = import(json!({"permissions": {"allow": [1]}}));
    assert_eq!(left(&imported, "1").0, Fate::Kept);
    // A rule without a path or a domain is named, never an empty pattern.
    let imported = import(json!({"permissions": {"deny": ["Read()", "WebFetch(domain:)"]}}));
    assert!(imported.entries.is_empty(), "{:?}", imported.entries);
    assert_eq!(left(&imported, "Read()").0, Fate::Untranslatable);
    assert_eq!(left(&imported, "WebFetch(domain:)").0, Fate::Untranslatable);
}
