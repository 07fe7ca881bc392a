//! The Codex merge over arbitrary existing config.toml text.
//!
//! Input records: 0 the existing config.toml text; 1.. rule records for the
//! managed fragment (a fixed policy when there are none).
//!
//! Properties: the merged file parses as TOML; every top-level item other
//! than the owned keys and `permissions`, and every `permissions.<name>`
//! other than `twsrt`, keeps its value; the owned keys and
//! `[permissions.twsrt]` hold the fragment's values; merging again changes
//! nothing; text that is not TOML is refused.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::json;
use toml_edit::{DocumentMut, Item};
use twsrt::agent::Ctx;
use twsrt_fuzz::toml_canon;

const OWNED: [&str; 4] = [
    "default_permissions",
    "approval_policy",
    "approvals_reviewer",
    "allow_login_shell",
];

const DEFAULT_RULES: [&str; 6] = [
    "r~/.ssh",
    "w.env",
    "W/tmp/**",
    "ngithub.com",
    "Nevil.com",
    "drm -rf /",
];

fuzz_target!(|data: &[u8]| {
    let records = twsrt_fuzz::records(data);
    let existing = &records[0];
    let mut rule_records: Vec<String> = records[1..].to_vec();
    if rule_records.is_empty() {
        rule_records = DEFAULT_RULES.iter().map(|s| s.to_string()).collect();
    }
    let config = twsrt_fuzz::config();
    let srt = json!({"network": {"allowUnixSockets": ["/nonexistent-twsrt-fuzz/a.sock"]}});
    let compiled = twsrt_fuzz::compiled(srt);
    let ctx = Ctx::with_rules(&config, &compiled, twsrt_fuzz::rules(&rule_records), false);
    let Ok(fragment) = twsrt::agent::codex::fuzz_fragment(&ctx) else {
        return;
    };
    let frag: DocumentMut = fragment
        .parse()
        .unwrap_or_else(|e| panic!("the fragment is not TOML: {e}\n{fragment}"));

    let old: Result<DocumentMut, _> = existing.parse();
    let merged = match twsrt::agent::codex::fuzz_merge(existing, &fragment) {
        Ok(m) => m,
        Err(e) => {
            if let Ok(old) = &old {
                assert!(refusable(old), "refused a mergeable file: {e}");
            }
            return;
        }
    };
    let Ok(old) = old else {
        panic!("merged into text that is not TOML");
    };
    let new: DocumentMut = merged
        .parse()
        .unwrap_or_else(|e| panic!("the merged file is not TOML: {e}\n---\n{merged}"));

    for (key, item) in old.iter() {
        if key == "permissions" || OWNED.contains(&key) {
            continue;
        }
        let kept = new.get(key).map(toml_canon);
        assert_eq!(kept, Some(toml_canon(item)), "top-level `{key}` changed");
    }
    if let Some(perms) = old.get("permissions").and_then(Item::as_table_like) {
        let new_perms = new["permissions"].as_table_like().expect("permissions");
        for (name, item) in perms.iter() {
            if name != "twsrt" {
                let kept = new_perms.get(name).map(toml_canon);
                assert_eq!(kept, Some(toml_canon(item)), "permissions.{name} changed");
            }
        }
    }
    for key in OWNED {
        assert_eq!(
            new.get(key).map(toml_canon),
            frag.get(key).map(toml_canon),
            "owned key {key}"
        );
    }
    assert_eq!(
        toml_canon(&new["permissions"]["twsrt"]),
        toml_canon(&frag["permissions"]["twsrt"]),
        "[permissions.twsrt] is not the fragment's"
    );

    // Merging again changes nothing (finding F5, tests/fuzz_regressions.rs).
    let twice = twsrt::agent::codex::fuzz_merge(&merged, &fragment)
        .unwrap_or_else(|e| panic!("merging again failed: {e}"));
    assert_eq!(twice, merged, "merging again changed the file");
});

/// The shapes the merge documents as refusals: a legacy key, or
/// `permissions` that is not written as tables.
fn refusable(doc: &DocumentMut) -> bool {
    doc.contains_key("sandbox_mode")
        || doc.contains_key("sandbox_workspace_write")
        || doc.get("permissions").is_some_and(|p| !p.is_table())
}
