//! Adopting twsrt over a hand-kept `~/.srt-settings.json`: twsrt replaces
//! only an srt file it wrote itself (its record, `written.json` beside
//! config.toml); a foreign one is refused until `twsrt import srt` turns it
//! into a fragment, after which `generate -w` keeps every entry it held.

use crate::support::*;

const HAND_KEPT: &str = r#"{
  "filesystem": {"denyRead": ["~/.gnupg", "~/.ssh"], "allowWrite": [], "denyWrite": []},
  "network": {"allowedDomains": [], "deniedDomains": ["pastebin.com"]}
}
"#;

fn hand_kept() -> Test {
    Test::with_policy().file(SRT_OUT, HAND_KEPT)
}

#[test]
fn generate_refuses_to_replace_a_hand_written_srt_file_and_names_the_import() {
    hand_kept()
        .args(&["generate", "-w"])
        .status(1)
        .stderr_contains("Error: {HOME}/.srt-settings.json: this file was not written by twsrt")
        .stderr_contains("Run `twsrt import srt` to turn it into a fragment")
        .unchanged()
        .run();
}

#[test]
fn the_preview_says_that_generate_w_will_refuse() {
    hand_kept()
        .args(&["generate"])
        .any_stdout()
        .stderr_contains("Warning: generate -w will refuse: {HOME}/.srt-settings.json")
        .unchanged()
        .run();
}

#[test]
fn drop_foreign_replaces_it_and_says_so() {
    let out = hand_kept()
        .args(&["generate", "-w", "--drop-foreign"])
        .stderr_contains("Warning: replaces {HOME}/.srt-settings.json, which twsrt did not write")
        .run();
    assert!(!out.read(SRT_OUT).contains("pastebin.com"));
}

#[test]
fn a_file_twsrt_wrote_is_replaced_and_one_edited_since_is_not() {
    let out = Test::with_policy()
        .args(&["generate", "-w"])
        .any_stderr()
        .run();
    // The policy changes: twsrt's own file is replaced without a word.
    let out = out
        .then()
        .file(SRT_FRAGMENT, r#"{"filesystem": {"denyRead": ["~/.aws"]}}"#)
        .args(&["generate", "-w"])
        .any_stderr()
        .run();
    assert!(out.read(SRT_OUT).contains("~/.aws"));
    // A hand edit makes it foreign again.
    let edited = out.read(SRT_OUT).replace("~/.aws", "~/.aws\", \"~/.kube");
    out.then()
        .file(SRT_OUT, edited)
        .args(&["generate", "-w"])
        .status(1)
        .stderr_contains("this file was not written by twsrt")
        .unchanged()
        .run();
}

#[test]
fn import_srt_turns_the_file_into_a_fragment_and_generate_keeps_every_entry() {
    let out = hand_kept()
        .args(&["import", "srt", "-w"])
        .stderr_contains("Wrote: {HOME}/.config/twsrt/srt/imported-srt.jsonc")
        .run();
    let fragment = out.read(".config/twsrt/srt/imported-srt.jsonc");
    assert!(fragment.contains("\"~/.gnupg\" // ~/.srt-settings.json /filesystem/denyRead/0"));
    assert!(
        out.read(CONFIG)
            .contains("srt = [\"base\", \"imported-srt\"]")
    );
    let out = out.then().args(&["generate", "-w"]).any_stderr().run();
    let srt: serde_json::Value = serde_json::from_str(&out.read(SRT_OUT)).unwrap();
    let deny_read = srt["filesystem"]["denyRead"].as_array().unwrap();
    for path in ["~/.gnupg", "~/.ssh"] {
        assert!(deny_read.contains(&path.into()), "{srt}");
    }
    assert_eq!(
        srt["network"]["deniedDomains"],
        serde_json::json!(["evil.com", "pastebin.com"])
    );
}

#[test]
fn import_srt_of_a_file_that_is_not_json_names_line_and_column() {
    Test::with_policy()
        .file(SRT_OUT, "{\n  \"network\": ,\n}")
        .args(&["import", "srt"])
        .status(1)
        .stderr_contains("Error: {HOME}/.srt-settings.json: line 2, column 14: not JSON")
        .unchanged()
        .run();
}

#[test]
fn a_config_named_relative_to_the_working_directory_is_recorded_too() {
    let out = Test::with_policy()
        .cwd(".config/twsrt")
        .args(&["-c", "config.toml", "generate", "-w"])
        .lacks("could not record")
        .any_stderr()
        .run();
    // The next policy change replaces twsrt's own file without a refusal.
    out.then()
        .cwd(".config/twsrt")
        .file(SRT_FRAGMENT, r#"{"filesystem": {"denyRead": ["~/.aws"]}}"#)
        .args(&["-c", "config.toml", "generate", "-w"])
        .lacks("not written by twsrt")
        .any_stderr()
        .run();
}
