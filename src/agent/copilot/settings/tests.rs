use super::*;
use crate::compile::compile;
use std::path::Path;

const PATH: &str = "/home/u/.copilot/settings.json";

/// The lists for a policy of srt `network` lists and bash rules.
fn lists_for(network: &str, bash: &str, yolo: bool) -> (Lists, Warnings) {
    let dir = tempfile::tempdir().unwrap();
    let cfg = "schema_version = 1\ndefault_profile = \"d\"\n[sources.srt]\noutput = \"srt.json\"\n\
         [sources.srt.fragments.a]\npath = \"srt.jsonc\"\n[sources.bash]\noutput = \"bash.json\"\n\
         [sources.bash.fragments.a]\npath = \"bash.jsonc\"\n[profiles.d]\nsrt = [\"a\"]\nbash = [\"a\"]\n";
    let srt = format!(
        r#"{{"filesystem": {{"allowWrite": ["."], "denyRead": ["~/.ssh"], "denyWrite": ["x"]}},
            "network": {network}}}"#
    );
    std::fs::write(dir.path().join("srt.jsonc"), srt).unwrap();
    std::fs::write(dir.path().join("bash.jsonc"), bash).unwrap();
    let config = crate::config::parse(cfg, &dir.path().join("config.toml")).unwrap();
    let compiled = compile(&config, None).unwrap();
    let ctx = Ctx::new(&config, &compiled, yolo);
    let mut warnings = Vec::new();
    (Lists::of(&ctx, &mut warnings), warnings)
}

fn lists(allowed: &[&str], denied: &[&str]) -> Lists {
    Lists {
        allowed: allowed.iter().map(|s| s.to_string()).collect(),
        denied: denied.iter().map(|s| s.to_string()).collect(),
        sandbox: None,
    }
}

fn merged(existing: &str, lists: &Lists) -> String {
    merge(Some(existing), lists, Path::new(PATH)).unwrap()
}

const NETWORK: &str = r#"{"allowedDomains": ["github.com", "*.github.com"],
    "deniedDomains": ["evil.com", "*.bad.example"]}"#;
const BASH: &str = r#"{"allow": ["ls"], "ask": ["git push"], "deny": ["rm"]}"#;

// --------------------------------------------------------------------------
// Mapping rows

#[test]
fn allowed_domains_become_allowed_urls_as_written() {
    let (lists, warnings) = lists_for(NETWORK, BASH, false);
    // The compile sorts the domain lists.
    assert_eq!(lists.allowed, ["*.github.com", "github.com"]);
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn a_denied_domain_without_a_scheme_is_denied_over_https_and_http() {
    let (lists, _) = lists_for(NETWORK, BASH, false);
    assert_eq!(
        lists.denied,
        [
            "*.bad.example",
            "http://*.bad.example",
            "evil.com",
            "http://evil.com",
        ]
    );
}

#[test]
fn yolo_mode_empties_allowed_urls_and_keeps_every_deny() {
    let (full, _) = lists_for(NETWORK, BASH, false);
    let (yolo, _) = lists_for(NETWORK, BASH, true);
    assert!(yolo.allowed.is_empty());
    assert_eq!(yolo.denied, full.denied);
}

#[test]
fn bash_and_filesystem_rules_stay_out_of_the_settings() {
    let (lists, _) = lists_for("{}", BASH, false);
    assert_eq!(lists, self::lists(&[], &[]));
    assert_eq!(
        render(&lists),
        "{\n  \"allowedUrls\": [],\n  \"deniedUrls\": []\n}"
    );
}

#[test]
fn a_deny_copilot_would_skip_is_warned_about() {
    // A policy can no longer hold `https://` (issue 41: a domain entry has
    // no scheme); what Copilot would skip is still told apart.
    for skipped in ["", " ", "a b.com", "http://"] {
        assert!(skipped_by_copilot(skipped), "{skipped:?}");
    }
    for kept in [
        "evil.com",
        "*.evil.com",
        "http://evil.com",
        "x.com:8080",
        "*",
    ] {
        assert!(!skipped_by_copilot(kept), "{kept:?}");
    }
}

// --------------------------------------------------------------------------
// A new file and the preview

#[test]
fn a_new_file_is_the_preview_and_a_newline() {
    let lists = lists(&["github.com"], &["evil.com", "http://evil.com"]);
    let text = merge(None, &lists, Path::new(PATH)).unwrap();
    assert_eq!(
        text,
        "{\n  \"allowedUrls\": [\n    \"github.com\"\n  ],\n  \"deniedUrls\": [\n    \
         \"evil.com\",\n    \"http://evil.com\"\n  ]\n}\n"
    );
    assert_eq!(text, render(&lists) + "\n");
}

#[test]
fn entries_are_json_escaped() {
    let lists = lists(&["a\"b\\c"], &[]);
    let text = render(&lists);
    assert!(text.contains(r#""a\"b\\c""#), "{text}");
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["allowedUrls"][0], "a\"b\\c");
}

// --------------------------------------------------------------------------
// The merge

#[test]
fn foreign_keys_comments_and_layout_are_kept_byte_for_byte() {
    let before = "// my settings\n{\n    \"theme\": \"dim\", // keep me\n    \
                  \"deniedUrls\": [\"old.example\"],\n    \"proxyUrl\": \"http://u:pw@p:1\",\n    \
                  \"hooks\": {\"a\": [1, 2]},\n}\n";
    let after = merged(before, &lists(&["github.com"], &["evil.com"]));
    assert_eq!(
        after,
        "// my settings\n{\n    \"theme\": \"dim\", // keep me\n    \"deniedUrls\": [\n        \
         \"evil.com\"\n    ],\n    \"proxyUrl\": \"http://u:pw@p:1\",\n    \
         \"hooks\": {\"a\": [1, 2]},\n    \"allowedUrls\": [\n        \"github.com\"\n    ],\n}\n"
    );
}

#[test]
fn an_owned_value_is_replaced_in_its_place() {
    let before = "{\n  \"allowedUrls\": [\"mine.example\"],\n  \"theme\": \"dim\",\n  \
                  \"deniedUrls\": null\n}\n";
    let after = merged(before, &lists(&["github.com"], &[]));
    assert_eq!(
        after,
        "{\n  \"allowedUrls\": [\n    \"github.com\"\n  ],\n  \"theme\": \"dim\",\n  \
         \"deniedUrls\": []\n}\n"
    );
}

#[test]
fn tab_indentation_is_followed() {
    let after = merged("{\n\t\"theme\": \"dim\"\n}", &lists(&["a.com"], &[]));
    assert_eq!(
        after,
        "{\n\t\"theme\": \"dim\",\n\t\"allowedUrls\": [\n\t\t\"a.com\"\n\t],\n\t\"deniedUrls\": []\n}"
    );
}

#[test]
fn a_one_line_file_gets_two_space_indentation() {
    let after = merged("{\"theme\": \"dim\"}\n", &lists(&[], &["e.com"]));
    assert_eq!(
        after,
        "{\"theme\": \"dim\",\n  \"allowedUrls\": [],\n  \"deniedUrls\": [\n    \"e.com\"\n  ]}\n"
    );
}

#[test]
fn an_empty_object_becomes_the_rendering() {
    let lists = lists(&["a.com"], &["e.com"]);
    assert_eq!(merged("{}\n", &lists), render(&lists) + "\n");
    assert_eq!(merged("  { \n }", &lists), format!("  {}", render(&lists)));
}

#[test]
fn an_object_holding_only_a_comment_keeps_it() {
    let after = merged("{\n  // nothing yet\n}\n", &lists(&[], &[]));
    assert_eq!(
        after,
        "{\n  \"allowedUrls\": [],\n  \"deniedUrls\": []\n\n  // nothing yet\n}\n"
    );
    parse(&after, Path::new(PATH)).unwrap();
}

#[test]
fn a_merge_is_idempotent_and_leaves_no_drift() {
    let lists = lists(
        &["github.com", "*.github.com"],
        &["evil.com", "http://evil.com"],
    );
    let before = "{\n  \"theme\": \"dim\",\n  \"allowedUrls\": [\"x.com\"]\n}\n";
    let once = merged(before, &lists);
    assert_eq!(merged(&once, &lists), once);
    assert_eq!(compare(&once, &lists, Path::new(PATH)).unwrap(), []);
}

// --------------------------------------------------------------------------
// Files the merge refuses: one error naming the file and the position,
// never quoting the file.

fn refused(text: &str) -> String {
    let err = merge(Some(text), &lists(&["a.com"], &[]), Path::new(PATH)).unwrap_err();
    let compared = compare(text, &lists(&["a.com"], &[]), Path::new(PATH)).unwrap_err();
    assert_eq!(err.to_string(), compared.to_string(), "diff refuses it too");
    assert_eq!(err.exit_code(), 1);
    err.to_string()
}

#[test]
fn a_syntax_error_names_the_file_line_and_column() {
    let err = refused("{\n  \"proxyUrl\": \"http://u:SECRET@p\",\n  \"deniedUrls\": [\n");
    assert!(
        err.starts_with(&format!("{PATH}:3:")),
        "names file and line: {err}"
    );
    assert!(err.contains("Unterminated array"), "{err}");
    assert!(!err.contains("SECRET"), "quotes the file: {err}");
    let err = refused("{\"a\": 1 \"b\": 2}");
    assert!(
        err.starts_with(&format!("{PATH}:1:8: Expected comma")),
        "{err}"
    );
}

#[test]
fn what_copilot_itself_refuses_is_refused() {
    // Measured: `copilot config --list` says "settings.json is not valid
    // JSON" for each of these.
    for text in [
        "{'deniedUrls': ['a.com']}",
        "{deniedUrls: [\"a.com\"]}",
        "{\"deniedUrls\": []} x",
    ] {
        let err = refused(text);
        assert!(err.starts_with(&format!("{PATH}:1:")), "{text}: {err}");
    }
}

#[test]
fn a_top_level_that_is_not_an_object_is_refused() {
    assert!(refused("[1]").contains("1:1: expected a JSON object at the top level"));
    assert!(refused("").contains("found no value"));
    assert!(refused("// only\n").contains("2:1: expected a JSON object, found no value"));
}

#[test]
fn an_owned_key_twice_is_refused_at_the_second() {
    let err = refused("{\n  \"deniedUrls\": [],\n  \"deniedUrls\": [\"b.com\"]\n}");
    assert!(
        err.contains(":3:3: deniedUrls appears twice; keep one"),
        "{err}"
    );
}

// --------------------------------------------------------------------------
// The comparison `diff` makes

fn compared(text: &str, lists: &Lists) -> Vec<(String, String, Side, Direction)> {
    compare(text, lists, Path::new(PATH))
        .unwrap()
        .into_iter()
        .map(|d| (d.section, d.shown, d.side, d.direction))
        .collect()
}

#[test]
fn a_matching_file_has_no_difference_whatever_else_it_holds() {
    let lists = lists(&["a.com"], &["e.com"]);
    let text = "{\"deniedUrls\": [\"e.com\"], \"theme\": 5, \"x\": {\"allowedUrls\": [\"y\"]},\
                \"allowedUrls\": [\"a.com\"]}";
    assert_eq!(compared(text, &lists), []);
}

#[test]
fn each_entry_difference_has_its_direction() {
    let lists = lists(&["a.com", "b.com"], &["e.com", "f.com"]);
    let text = r#"{"allowedUrls": ["a.com", "wide.com"], "deniedUrls": ["e.com", "more.com"]}"#;
    let s = |x: &str| x.to_string();
    assert_eq!(
        compared(text, &lists),
        [
            (
                s("allowedUrls"),
                s("allowedUrls:b.com"),
                Side::Missing,
                Direction::Narrowing
            ),
            (
                s("allowedUrls"),
                s("allowedUrls:wide.com"),
                Side::Extra,
                Direction::Widening
            ),
            (
                s("deniedUrls"),
                s("deniedUrls:f.com"),
                Side::Missing,
                Direction::Widening
            ),
            (
                s("deniedUrls"),
                s("deniedUrls:more.com"),
                Side::Extra,
                Direction::Narrowing
            ),
        ]
    );
}

#[test]
fn absent_lists_miss_every_entry() {
    let lists = lists(&["a.com"], &["e.com"]);
    let found = compared("{}", &lists);
    assert_eq!(found.len(), 2);
    assert_eq!(found[1].2, Side::Missing);
    assert_eq!(found[1].3, Direction::Widening);
}

#[test]
fn a_list_copilot_cannot_read_widens() {
    // Measured: a string, a null or a number in place of the list makes
    // Copilot drop the whole file, its denies included.
    for value in ["\"e.com\"", "null", "[\"e.com\", 1]"] {
        let text = format!("{{\"deniedUrls\": {value}}}");
        let found = compared(&text, &lists(&[], &["e.com"]));
        assert_eq!(found.len(), 1, "{value}");
        assert_eq!(found[0].0, "deniedUrls");
        assert_eq!((found[0].2, found[0].3), (Side::Extra, Direction::Widening));
    }
}
