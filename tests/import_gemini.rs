//! `twsrt import gemini`: the policy file twsrt writes comes back as
//! fragments that render the same rules.

use std::collections::BTreeSet;

use crate::support::*;

const GEMINI_ONLY: &str = "\n[targets]\ngemini_policy = \"~/.gemini/policies/twsrt.toml\"\n";
const POLICY: &str = ".gemini/policies/twsrt.toml";

const SRT: &str = r#"{
  "filesystem": {"denyRead": ["~/.ssh", "/etc/shadow", "**/*.pem"], "denyWrite": ["~/.bashrc"]},
  "network": {"deniedDomains": ["evil.com", "*.bad.org"]}
}"#;

const BASH: &str = r#"{"deny": ["rm -rf", "sudo"], "ask": ["git push"]}"#;

/// Each `[[rule]]` of a policy file as one JSON text, as a set.
fn rules(text: &str) -> BTreeSet<String> {
    let doc: toml_edit::DocumentMut = text.parse().unwrap();
    let json = twsrt::tomltext::toml_to_json(doc.as_item()).unwrap();
    json["rule"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.to_string())
        .collect()
}

#[test]
fn twsrts_own_policy_file_round_trips() {
    let written = Test::with_policy()
        .config_append(GEMINI_ONLY)
        .file(SRT_FRAGMENT, SRT)
        .file(BASH_FRAGMENT, BASH)
        .args(&["generate", "-w", "gemini"])
        .any_stderr()
        .run();
    let before = rules(&written.read(POLICY));
    let imported = written
        .then()
        .file(SRT_FRAGMENT, "{}")
        .file(BASH_FRAGMENT, "{}")
        .args(&["import", "-w", "gemini"])
        .any_stderr()
        .lacks("not imported")
        .run();
    let again = imported
        .then()
        .args(&["generate", "-w", "gemini"])
        .any_stderr()
        .run();
    let after = rules(&again.read(POLICY));
    let new: Vec<&String> = after.difference(&before).collect();
    assert_eq!(new.len(), 2, "{new:#?}");
    assert!(
        new.iter().all(|r| r.contains("imported-gemini.jsonc")),
        "{new:#?}"
    );
    let lost: Vec<&String> = before.difference(&after).collect();
    assert!(lost.is_empty(), "{lost:#?}");
}
