//! The OpenCode agent through the built binary: the preview, `-w` merged
//! into the user's own opencode.json (foreign keys and entries kept, a
//! foreign deny twsrt would weaken refused), `diff` (exit 0 clean, 1 drift
//! with directions, 2 missing), `explain`'s row, `audit`'s approval flag.

use serde_json::{Value, json};

use crate::support::*;

const OPENCODE_ONLY: &str = "\n[targets]\nopencode_config = \"~/.config/opencode/opencode.json\"\n";
const CONFIG: &str = ".config/opencode/opencode.json";

fn opencode() -> Test {
    Test::with_policy().config_append(OPENCODE_ONLY)
}

fn permission(text: &str) -> Value {
    serde_json::from_str::<Value>(text).unwrap()["permission"].clone()
}

#[test]
fn the_preview_prints_the_permission_block_and_writes_nothing() {
    let out = opencode()
        .args(&["generate", "opencode"])
        .any_stdout()
        .stderr_contains("Would write agent target: {HOME}/.config/opencode/opencode.json\n")
        .stderr_contains(PREVIEW_END)
        .unchanged()
        .run();
    let p = permission(&out.stdout);
    assert_eq!(p["bash"], json!({"git push *": "ask", "rm *": "deny"}));
    assert_eq!(p["external_directory"], json!({"~/.ssh/*": "deny"}));
    assert_eq!(p["read"]["*/.ssh/*"], "deny");
    assert_eq!(p["webfetch"], "ask");
    let keys: Vec<&String> = p.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["external_directory", "read", "edit", "bash", "webfetch"]
    );
}

#[test]
fn write_merges_into_the_users_file_and_keeps_what_is_theirs() {
    let out = opencode()
        .file(
            CONFIG,
            "{\n  // mine\n  \"model\": \"a/b\",\n  \"permission\": {\"bash\": {\"git *\": \"allow\"}, \"lsp\": \"allow\"},\n}\n",
        )
        .args(&["generate", "opencode", "-w"])
        .stderr_contains("Wrote: {HOME}/.config/opencode/opencode.json\n")
        .stderr_contains("Warning: {HOME}/.config/opencode/opencode.json holds comments")
        .stderr_contains("Info: Restart OpenCode to load the updated permissions.\n")
        .any_stdout()
        .run();
    let doc: Value = serde_json::from_str(&out.read(CONFIG)).unwrap();
    assert_eq!(doc["model"], "a/b");
    let keys: Vec<&String> = doc["permission"].as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "lsp",
            "external_directory",
            "read",
            "edit",
            "bash",
            "webfetch"
        ]
    );
    // The foreign allow comes before twsrt's ask and deny: last match wins.
    assert_eq!(
        doc["permission"]["bash"],
        json!({"git *": "allow", "git push *": "ask", "rm *": "deny"})
    );
}

#[test]
fn a_foreign_deny_twsrt_would_weaken_is_refused_without_drop_foreign() {
    let t = opencode().file(
        CONFIG,
        r#"{"permission": {"bash": {"git push *": "deny"}}}"#,
    );
    let out = t
        .args(&["generate", "opencode", "-w"])
        .status(1)
        .any_stdout()
        .stderr_contains("permission.bash: \"git push *\": \"deny\"")
        .stderr_contains("--drop-foreign")
        .unchanged_if_it_fails()
        .run();
    let out = out
        .then()
        .args(&["generate", "opencode", "-w", "--drop-foreign"])
        .any_stdout()
        .any_stderr()
        .run();
    assert_eq!(permission(&out.read(CONFIG))["bash"]["git push *"], "ask");
}

#[test]
fn diff_exits_0_when_clean_1_on_drift_and_2_when_missing() {
    opencode()
        .args(&["diff", "opencode"])
        .status(2)
        .any_stdout()
        .stderr_contains(
            "Error: opencode target file not found: {HOME}/.config/opencode/opencode.json; run `twsrt generate -w opencode` to write it\n",
        )
        .unchanged()
        .run();
    let t = opencode()
        .args(&["generate", "opencode", "-w"])
        .any_stdout()
        .any_stderr()
        .run()
        .then();
    let out = t
        .args(&["diff", "opencode"])
        .stdout("srt canonical: no drift\nbash canonical: no drift\nopencode: no drift\n")
        .any_stderr()
        .unchanged()
        .run();
    let t = out.then();
    let path = t.home().join(CONFIG);
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    doc["permission"]["bash"]["*"] = json!("allow");
    std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    t.args(&["diff", "opencode"])
        .status(1)
        .stdout_contains(
            "  + permission.bash \"rm *\": \"deny\" (undone by permission.bash \"*\": \"allow\" \
             after it)\n",
        )
        .stdout_contains("  - permission.bash \"*\": \"allow\"\n")
        .stderr_contains("opencode: 3 of 3 differences widen")
        .unchanged()
        .run();
}

#[test]
fn explain_shows_the_opencode_row() {
    opencode()
        .args(&["explain", "--command", "rm -rf x"])
        .stdout_contains("permission   opencode  command  deny")
        .stdout_contains("deny entry under bash")
        .any_stderr()
        .run();
    // The tests run in HOME: ~/.ssh is inside the launch directory, so the
    // read is decided by its relative path.
    opencode()
        .args(&["explain", "~/.ssh/id_rsa"])
        .stdout_contains("deny entry under read")
        .any_stderr()
        .run();
    // webfetch asks for every URL, so no policy entry is named for a domain.
    opencode()
        .args(&["explain", "github.com"])
        .stdout_contains("ask for every URL: OpenCode's webfetch takes no URL patterns")
        .any_stderr()
        .run();
}

#[test]
fn audit_finds_auto_approval_and_a_missing_file() {
    opencode()
        .args(&[
            "audit",
            "--",
            "opencode",
            "run",
            "--dangerously-skip-permissions",
            "hi",
        ])
        .any_status()
        .any_stderr()
        .stdout_contains(
            "Warning: --dangerously-skip-permissions: approves every permission no entry denies",
        )
        .stdout_contains("the file does not exist: run `twsrt generate opencode -w` first")
        .run();
}

#[test]
fn twsrts_own_earlier_entry_leaves_quietly() {
    // Written for a policy that denied rm; the policy now denies dd: the rm
    // entry was twsrt's (the canonical output on disk says so), so it goes
    // without --drop-foreign, and a hand-written deny beside it stays.
    let t = opencode()
        .args(&["generate", "opencode", "-w"])
        .any_stdout()
        .any_stderr()
        .run()
        .then();
    let path = t.home().join(CONFIG);
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    doc["permission"]["bash"]["mkfs *"] = json!("deny");
    std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let out = t
        .file(BASH_FRAGMENT, r#"{"ask": ["git push"], "deny": ["dd"]}"#)
        .args(&["generate", "opencode", "-w"])
        .any_stdout()
        .any_stderr()
        .run();
    assert_eq!(
        permission(&out.read(CONFIG))["bash"],
        json!({"git push *": "ask", "mkfs *": "deny", "dd *": "deny"})
    );
}
