//! `generate claude` output against the recorded reference output.

use serde_json::Value;

use super::{CASES, Fixture, read};
use crate::agent::claude::generate;
use crate::agent::{Agent, Warnings};
use crate::pyjson::to_pretty;

fn preview(fixture: &Fixture, yolo: bool) -> String {
    to_pretty(&Value::Object(generate(
        &fixture.ctx(yolo),
        &fixture.home(),
    )))
}

#[test]
fn every_case_renders_like_the_reference() {
    for case in CASES {
        let fixture = Fixture::case(case);
        assert_eq!(
            preview(&fixture, false),
            read(case, "expected_full.json"),
            "{case} full"
        );
        assert_eq!(
            preview(&fixture, true),
            read(case, "expected_yolo.json"),
            "{case} yolo"
        );
    }
}

#[test]
fn the_web_fetch_head_is_the_prefix_merge_and_diff_own() {
    let fixture = Fixture::new(
        r#"{"network": {"allowedDomains": ["x.y"]}}"#,
        "{}",
        None,
        "",
    );
    let generated = generate(&fixture.ctx(false), &fixture.home());
    assert_eq!(
        generated["permissions"]["allow"][0],
        format!("{}x.y)", crate::agent::claude::merge::WEB_FETCH_PREFIX)
    );
}

/// The preview is written from the rules without building the document;
/// it must print exactly what the document prints.
#[test]
fn direct_preview_prints_the_generated_document() {
    let mut fixtures: Vec<Fixture> = CASES.iter().map(|case| Fixture::case(case)).collect();
    // Overrides that replace, null out or add sections, and odd pass-through values.
    for overrides in [
        "[sandbox_overrides.full]\nnetwork = \"x\"\nfilesystem = { a = [1, 2.5, \"\\u00e9\"] }\nnew = {}\n\
         [sandbox_overrides.yolo]\nenabled = true\nfilesystem = []\nextra = [[], {}]\n",
        "[sandbox_overrides.full]\n[sandbox_overrides.yolo]\n",
    ] {
        fixtures.push(Fixture::new(
            r#"{"enabled": true, "ignoreViolations": {"*": ["/x"]},
                "network": {"allowedDomains": ["a.b", "\u00e9.x"], "allowLocalBinding": null,
                            "httpProxyPort": 8080, "allowUnixSockets": []},
                "filesystem": {"denyRead": ["~/.ssh", "*.pem", "/\"q\"\\"], "allowWrite": ["."]}}"#,
            r#"{"ask": ["git push"], "deny": ["rm -rf \u2028"]}"#,
            Some(overrides),
            "",
        ));
    }
    fixtures.push(Fixture::new("{}", "{}", Some(""), ""));
    for fixture in &fixtures {
        for yolo in [false, true] {
            let ctx = fixture.ctx(yolo);
            assert_eq!(
                crate::agent::claude::preview(&ctx, &fixture.home()),
                to_pretty(&Value::Object(generate(&ctx, &fixture.home()))),
                "yolo {yolo}"
            );
        }
    }
}

#[test]
fn deny_read_suffix_depends_on_globs_and_existing_files() {
    let fixture = Fixture::new(
        r#"{"filesystem": {"denyRead": ["~/dir", "~/file", "~/file/", "*.pem", "/a/b?", "/x[y]", "~/gone"]}}"#,
        "{}",
        None,
        "",
    );
    std::fs::create_dir(fixture.home().join("dir")).unwrap();
    std::fs::write(fixture.home().join("file"), "x").unwrap();
    let text = preview(&fixture, false);
    let deny: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("\"deny\""))
        .skip(1)
        .take_while(|l| !l.trim_start().starts_with(']'))
        .map(|l| l.trim().trim_end_matches(','))
        .collect();
    assert_eq!(
        deny,
        [
            r#""Read(~/dir)""#,
            r#""Read(~/dir/**)""#,
            r#""Edit(~/dir)""#,
            r#""Edit(~/dir/**)""#,
            r#""Read(~/file)""#,
            r#""Edit(~/file)""#,
            r#""Read(~/file/)""#,
            r#""Edit(~/file/)""#,
            r#""Read(*.pem)""#,
            r#""Edit(*.pem)""#,
            r#""Read(/a/b?)""#,
            r#""Edit(/a/b?)""#,
            r#""Read(/x[y])""#,
            r#""Read(/x[y]/**)""#,
            r#""Edit(/x[y])""#,
            r#""Edit(/x[y]/**)""#,
            r#""Read(~/gone)""#,
            r#""Read(~/gone/**)""#,
            r#""Edit(~/gone)""#,
            r#""Edit(~/gone/**)""#,
        ]
    );
}

#[test]
fn yolo_has_no_ask_key_and_full_keeps_an_empty_one() {
    let fixture = Fixture::case("starter");
    let full = generate(&fixture.ctx(false), &fixture.home());
    let yolo = generate(&fixture.ctx(true), &fixture.home());
    let keys = |m: &serde_json::Map<String, Value>| -> Vec<String> {
        m["permissions"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    };
    assert_eq!(keys(&full), ["deny", "allow", "ask"]);
    assert_eq!(keys(&yolo), ["deny", "allow"]);
    assert_eq!(full["permissions"]["ask"], Value::Array(vec![]));
}

#[test]
fn preview_raises_no_warnings() {
    let fixture = Fixture::case("policy");
    let mut warnings = Warnings::new();
    for yolo in [false, true] {
        crate::agent::claude::Claude
            .preview(&fixture.ctx(yolo), &mut warnings)
            .unwrap();
    }
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn sixty_four_thousand_rules_render_in_full() {
    let domains: Vec<String> = (0..32_000).map(|i| format!("\"d{i}.example\"")).collect();
    let paths: Vec<String> = (0..16_000).map(|i| format!("\"/no/such/p{i}\"")).collect();
    let commands: Vec<String> = (0..16_000).map(|i| format!("\"cmd{i}\"")).collect();
    let fixture = Fixture::new(
        &format!(
            r#"{{"filesystem": {{"denyRead": [{}]}}, "network": {{"allowedDomains": [{}]}}}}"#,
            paths.join(","),
            domains.join(",")
        ),
        &format!(r#"{{"deny": [{}]}}"#, commands.join(",")),
        None,
        "",
    );
    let generated = generate(&fixture.ctx(false), &fixture.home());
    assert_eq!(
        generated["permissions"]["deny"].as_array().unwrap().len(),
        96_000
    );
}
