use std::path::Path;

use serde_json::{Value, json};

use super::*;

fn ours(command: &str) -> Value {
    entry(command)
}

#[test]
fn recognised_by_the_twsrt_program_and_the_words_hook_claude() {
    assert!(is_ours(&ours("/usr/bin/twsrt -c /c.toml hook claude")));
    assert!(is_ours(&ours(
        "'/opt/my tools/twsrt' -c '/a b/c.toml' hook claude --yolo"
    )));
    assert!(is_ours(&ours("twsrt hook claude -p work")));
    assert!(!is_ours(&ours("/usr/bin/other -c x hook claude")));
    assert!(!is_ours(&ours("twsrt generate claude")));
    assert!(!is_ours(&ours("echo twsrt hook claude")));
    assert!(!is_ours(&json!({"matcher": "Bash"})));
    assert!(!is_ours(
        &json!({"hooks": [{"type": "command", "command": "'unclosed"}]})
    ));
}

#[test]
fn place_replaces_ours_where_it_was_and_keeps_the_rest() {
    let theirs = json!({"matcher": "Bash", "hooks": [{"type": "command", "command": "lint.sh"}]});
    let mut hooks = json!({
        "PreToolUse": [theirs, ours("/old/twsrt -c /c hook claude"), theirs, ours("twsrt hook claude")],
        "PostToolUse": [theirs],
    });
    let new = ours("/new/twsrt -c /c hook claude");
    place(hooks.as_object_mut().unwrap(), &new, Path::new("s.json")).unwrap();
    assert_eq!(hooks["PreToolUse"], json!([theirs, new, theirs]));
    assert_eq!(hooks["PostToolUse"], json!([theirs]));
}

#[test]
fn place_appends_when_absent_and_refuses_a_non_list() {
    let new = ours("twsrt hook claude");
    let mut hooks = json!({"PreToolUse": null}).as_object().unwrap().clone();
    place(&mut hooks, &new, Path::new("s.json")).unwrap();
    assert_eq!(hooks["PreToolUse"], json!([new]));
    let mut hooks = json!({"PreToolUse": "x"}).as_object().unwrap().clone();
    let err = place(&mut hooks, &new, Path::new("s.json")).unwrap_err();
    assert!(err.to_string().contains("hooks.PreToolUse"), "{err}");
}

#[test]
fn quoting_keeps_plain_paths_and_quotes_the_rest() {
    assert_eq!(quote("/usr/bin/twsrt"), "/usr/bin/twsrt");
    assert_eq!(quote("/a b/c"), "'/a b/c'");
    assert_eq!(quote("/it's"), "'/it'\\''s'");
    let words = crate::shellwords::split(&quote("/a b/it's $x")).unwrap();
    assert_eq!(words, ["/a b/it's $x"]);
}

#[test]
fn diff_entries_spell_matcher_and_command() {
    let doc = json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "lint.sh"}]},
        ours("twsrt -c /c hook claude"),
    ]}});
    assert_eq!(
        entries(doc.as_object().unwrap()),
        [Value::String(format!(
            "PreToolUse {MATCHER} twsrt -c /c hook claude"
        ))]
    );
    assert!(entries(json!({"hooks": 3}).as_object().unwrap()).is_empty());
}

#[test]
fn the_entry_blocks_the_call_when_the_hook_fails() {
    assert_eq!(ours("twsrt hook claude")["hooks"][0]["onFailure"], "block");
    let mut without = ours("twsrt -c /c hook claude");
    without["hooks"][0]
        .as_object_mut()
        .unwrap()
        .remove("onFailure");
    let doc = json!({"hooks": {"PreToolUse": [without]}});
    assert_eq!(
        entries(doc.as_object().unwrap()),
        [Value::String(format!(
            "PreToolUse {MATCHER} twsrt -c /c hook claude (onFailure not block)"
        ))]
    );
}
