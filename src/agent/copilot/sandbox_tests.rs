//! `[targets] copilot_sandbox`: the `sandbox` object from the rules, and
//! its place in Copilot's settings file.

use std::path::Path;

use serde_json::{Value, json};

use super::sandbox::policy;
use super::settings::{Lists, compare, merge, render};
use crate::agent::Ctx;
use crate::compile::compile;
use crate::diag::Code;

use super::codes;

/// The sandbox and the warnings for an srt `filesystem` section, with the
/// switch on (or off).
fn sandbox_for(filesystem: &str, on: bool) -> (Option<Value>, Vec<(Code, String)>) {
    let dir = tempfile::tempdir().unwrap();
    let targets = format!(
        "[targets]\ncopilot_output = \"flags.txt\"\ncopilot_settings = \"settings.json\"\n\
         copilot_sandbox = {on}\n"
    );
    let cfg = format!(
        "schema_version = 1\ndefault_profile = \"d\"\n[sources.srt]\noutput = \"srt.json\"\n\
         [sources.srt.fragments.a]\npath = \"srt.jsonc\"\n[profiles.d]\nsrt = [\"a\"]\n{targets}"
    );
    let srt = format!(r#"{{"filesystem": {filesystem}, "network": {{"allowedDomains": []}}}}"#);
    std::fs::write(dir.path().join("srt.jsonc"), srt).unwrap();
    let config = crate::config::parse(&cfg, &dir.path().join("config.toml")).unwrap();
    let compiled = compile(&config, None).unwrap();
    let ctx = Ctx::new(&config, &compiled, false);
    let mut warnings = Vec::new();
    let sandbox = policy(&ctx, &mut warnings);
    (
        sandbox,
        warnings.into_iter().map(|w| (w.code, w.message)).collect(),
    )
}

#[test]
fn off_by_default_and_nothing_said() {
    let (sandbox, warnings) = sandbox_for(r#"{"denyRead": ["~/.ssh"]}"#, false);
    assert_eq!(sandbox, None);
    assert!(warnings.is_empty());
}

#[test]
fn each_concrete_path_goes_to_the_list_that_holds_it_as_the_policy_means() {
    let (sandbox, warnings) = sandbox_for(
        r#"{"denyRead": ["~/.ssh", "/etc/k.pem", "**/*.pem", ".env"],
            "denyWrite": ["~/.bashrc"], "allowWrite": [".", "~/work", "/tmp/x/*"]}"#,
        true,
    );
    let sandbox = sandbox.unwrap();
    assert_eq!(sandbox["enabled"], true);
    assert_eq!(sandbox["allowBypass"], false);
    assert_eq!(sandbox["allowDevToolAccess"], false);
    assert_eq!(sandbox["addCurrentWorkingDirectory"], true);
    let fs = &sandbox["userPolicy"]["filesystem"];
    assert_eq!(fs["deniedPaths"], json!([".env", "/etc/k.pem", "~/.ssh"]));
    assert_eq!(fs["readwritePaths"], json!(["~/work"]));
    // A read-denied path is write-denied too: only deniedPaths holds it
    // (readonlyPaths would grant reading it). The policy files are
    // write-denied by every compile.
    let readonly = fs["readonlyPaths"].as_array().unwrap();
    assert!(readonly.contains(&json!("~/.bashrc")), "{readonly:?}");
    assert!(!readonly.contains(&json!("~/.ssh")));
    assert_eq!(warnings[0].0, codes::SANDBOX_SKIPPED);
    assert_eq!(
        warnings[0].1,
        "paths left out of Copilot's command sandbox (a glob it does not enforce, or a relative \
         allowWrite path other than '.'): **/*.pem, /tmp/x/*"
    );
    assert_eq!(warnings[1].0, codes::SANDBOX_LIMIT);
    assert!(codes::SANDBOX_LIMIT.is_agent_limit());
}

#[test]
fn without_dot_the_working_directory_is_not_granted() {
    let (sandbox, _) = sandbox_for(r#"{"allowWrite": ["~/work"]}"#, true);
    let sandbox = sandbox.unwrap();
    assert_eq!(sandbox["addCurrentWorkingDirectory"], false);
    // Read-only instead: Copilot cannot start a command in a working
    // directory it grants nothing of.
    assert_eq!(sandbox["userPolicy"]["filesystem"]["readonlyPaths"][0], ".");
}

fn owned() -> Lists {
    Lists {
        allowed: vec!["github.com".into()],
        denied: vec![],
        sandbox: Some(
            json!({"enabled": true, "userPolicy": {"filesystem": {"deniedPaths": ["~/.ssh"]}}}),
        ),
    }
}

#[test]
fn the_sandbox_is_replaced_whole_and_every_other_byte_kept() {
    let path = Path::new("settings.json");
    let existing =
        "{\n  // mine\n  \"theme\": \"dim\",\n  \"sandbox\": {\"enabled\": false, \"x\": 1}\n}\n";
    let merged = merge(Some(existing), &owned(), path).unwrap();
    assert!(merged.contains("// mine\n  \"theme\": \"dim\""), "{merged}");
    let value: Value = serde_json::from_str(&merged.replace("  // mine\n", "")).unwrap();
    assert_eq!(value["sandbox"], owned().sandbox.unwrap());
    assert_eq!(value["allowedUrls"], json!(["github.com"]));
    assert!(compare(&merged, &owned(), path).unwrap().is_empty());
    // Added after the last key when the file has none.
    let added = merge(Some("{\"theme\": \"dim\"}\n"), &owned(), path).unwrap();
    let value: Value = serde_json::from_str(&added).unwrap();
    assert_eq!(value["sandbox"]["enabled"], true);
    // A new file is the preview.
    let fresh: Value = serde_json::from_str(&render(&owned())).unwrap();
    assert_eq!(fresh["sandbox"], owned().sandbox.unwrap());
}

#[test]
fn a_sandbox_changed_on_disk_widens_and_one_not_owned_is_not_looked_at() {
    let path = Path::new("settings.json");
    let text = merge(None, &owned(), path).unwrap();
    let changed = text.replace("\"enabled\": true", "\"enabled\": false");
    let differences = compare(&changed, &owned(), path).unwrap();
    assert_eq!(differences.len(), 1);
    assert_eq!(differences[0].direction, crate::drift::Direction::Widening);
    let mut unowned = owned();
    unowned.sandbox = None;
    assert!(
        compare(&changed, &unowned, path)
            .unwrap()
            .iter()
            .all(|d| d.section != "sandbox")
    );
    // Without the switch the file's own sandbox is kept as it is.
    let kept = merge(Some(&changed), &unowned, path).unwrap();
    assert!(kept.contains("\"enabled\": false"));
}
