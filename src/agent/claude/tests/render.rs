//! `generate claude` output against the recorded reference output.

use serde_json::Value;

use super::{CASES, Fixture, read};
use crate::agent::claude::generate;
use crate::agent::{Agent, Warnings};
use crate::diag::Code;
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
        "[sandbox_overrides.full]\nnetwork = \"x\"\nfilesystem = { allowRead = [1, 2.5, \"\\u00e9\"] }\ncredentials = {}\n\
         [sandbox_overrides.yolo]\nenabled = true\nfilesystem = []\nexcludedCommands = [[], {}]\n",
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

/// `permissions.<list>` of the fixture's full-mode document.
fn permission_list(fixture: &Fixture, list: &str) -> Vec<String> {
    let generated = generate(&fixture.ctx(false), &fixture.home());
    generated["permissions"][list]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

fn single(section: &str, key: &str, path: &str) -> Fixture {
    let srt = serde_json::json!({ section: { key: [path] } });
    Fixture::new(&srt.to_string(), "{}", None, "")
}

/// (path, its denyRead rules, its denyWrite rules, its allowWrite rules)
type Expected = (String, Vec<String>, Vec<String>, Vec<String>);

/// The exact rules one path becomes, per list, for every anchoring rule:
/// an absolute path takes `//`; `~/` and relative paths stay as written;
/// a trailing `/` is dropped before `/**`; a relative non-glob path counts
/// as a directory; a glob and an existing file get no `/**`.
#[test]
fn each_path_form_is_anchored_like_the_reference() {
    let scratch = tempfile::TempDir::new().unwrap();
    let file = scratch.path().join("f");
    std::fs::write(&file, "x").unwrap();
    let file = file.to_str().unwrap();
    let owned = |v: &[&str]| -> Vec<String> { v.iter().map(|s| s.to_string()).collect() };
    let table: Vec<Expected> = vec![
        (
            "/no/such/dir".into(),
            owned(&[
                "Read(//no/such/dir)",
                "Read(//no/such/dir/**)",
                "Edit(//no/such/dir)",
                "Edit(//no/such/dir/**)",
            ]),
            owned(&["Edit(//no/such/dir)"]),
            owned(&["Edit(//no/such/dir)", "Edit(//no/such/dir/**)"]),
        ),
        (
            "/no/such/dir/".into(),
            owned(&[
                "Read(//no/such/dir/)",
                "Read(//no/such/dir/**)",
                "Edit(//no/such/dir/)",
                "Edit(//no/such/dir/**)",
            ]),
            owned(&["Edit(//no/such/dir/)"]),
            owned(&["Edit(//no/such/dir/)", "Edit(//no/such/dir/**)"]),
        ),
        (
            file.into(),
            vec![format!("Read(/{file})"), format!("Edit(/{file})")],
            vec![format!("Edit(/{file})")],
            vec![format!("Edit(/{file})")],
        ),
        (
            "~/.ssh".into(),
            owned(&[
                "Read(~/.ssh)",
                "Read(~/.ssh/**)",
                "Edit(~/.ssh)",
                "Edit(~/.ssh/**)",
            ]),
            owned(&["Edit(~/.ssh)"]),
            owned(&["Edit(~/.ssh)", "Edit(~/.ssh/**)"]),
        ),
        (
            "~/.netrc".into(),
            owned(&["Read(~/.netrc)", "Edit(~/.netrc)"]),
            owned(&["Edit(~/.netrc)"]),
            owned(&["Edit(~/.netrc)"]),
        ),
        (
            "build".into(),
            owned(&[
                "Read(build)",
                "Read(build/**)",
                "Edit(build)",
                "Edit(build/**)",
            ]),
            owned(&["Edit(build)"]),
            owned(&["Edit(build)", "Edit(build/**)"]),
        ),
        (
            "rel/sub/".into(),
            owned(&[
                "Read(rel/sub/)",
                "Read(rel/sub/**)",
                "Edit(rel/sub/)",
                "Edit(rel/sub/**)",
            ]),
            owned(&["Edit(rel/sub/)"]),
            owned(&["Edit(rel/sub/)", "Edit(rel/sub/**)"]),
        ),
        (
            ".".into(),
            owned(&["Read(.)", "Read(./**)", "Edit(.)", "Edit(./**)"]),
            owned(&["Edit(.)"]),
            owned(&["Edit(.)", "Edit(./**)"]),
        ),
        (
            "**/*.pem".into(),
            owned(&["Read(**/*.pem)", "Edit(**/*.pem)"]),
            owned(&["Edit(**/*.pem)"]),
            owned(&["Edit(**/*.pem)"]),
        ),
        (
            "/var/lo?".into(),
            owned(&["Read(//var/lo?)", "Edit(//var/lo?)"]),
            owned(&["Edit(//var/lo?)"]),
            owned(&["Edit(//var/lo?)"]),
        ),
        (
            "//double".into(),
            owned(&[
                "Read(//double)",
                "Read(//double/**)",
                "Edit(//double)",
                "Edit(//double/**)",
            ]),
            owned(&["Edit(//double)"]),
            owned(&["Edit(//double)", "Edit(//double/**)"]),
        ),
        (
            "/".into(),
            owned(&["Read(//)", "Read(/**)", "Edit(//)", "Edit(/**)"]),
            // An existing directory (see the next test).
            owned(&["Edit(//)", "Edit(/**)"]),
            owned(&["Edit(//)", "Edit(/**)"]),
        ),
    ];
    for (path, deny_read, deny_write, allow_write) in table {
        let fixture = single("filesystem", "denyRead", &path);
        std::fs::write(fixture.home().join(".netrc"), "x").unwrap();
        // A relative path is never looked up: a file named like it in the
        // working directory does not make it a file.
        assert_eq!(
            permission_list(&fixture, "deny"),
            deny_read,
            "denyRead {path}"
        );
        let fixture = single("filesystem", "denyWrite", &path);
        std::fs::write(fixture.home().join(".netrc"), "x").unwrap();
        assert_eq!(
            permission_list(&fixture, "deny"),
            deny_write,
            "denyWrite {path}"
        );
        let fixture = single("filesystem", "allowWrite", &path);
        std::fs::write(fixture.home().join(".netrc"), "x").unwrap();
        assert_eq!(
            permission_list(&fixture, "allow"),
            allow_write,
            "allowWrite {path}"
        );
    }
}

/// A relative path counts as a directory even where twsrt runs has a file
/// of that name (cargo runs the tests in the crate root, beside Cargo.toml).
#[test]
fn a_relative_path_is_a_directory_even_when_a_file_has_its_name() {
    assert!(std::path::Path::new("Cargo.toml").is_file());
    let fixture = single("filesystem", "allowWrite", "Cargo.toml");
    assert_eq!(
        permission_list(&fixture, "allow"),
        ["Edit(Cargo.toml)", "Edit(Cargo.toml/**)"]
    );
}

/// Deliberately stricter than the reference: an existing write-denied
/// directory also gets `Edit(dir/**)`, right after `Edit(dir)`, since it is
/// not shown that `Edit(dir)` covers the files inside. Globs, missing and
/// relative paths (anchored where the agent starts) stay as the reference
/// writes them; a rule already emitted is not repeated.
#[test]
fn an_existing_write_denied_directory_also_denies_its_contents() {
    let srt = serde_json::json!({"filesystem": {
        "denyRead": ["~/both"],
        "denyWrite": ["~/both", "~/proj", "~/proj/", "~/file", "~/gone", "~/pro?", "proj", "**/.git"],
    }});
    let fixture = Fixture::new(&srt.to_string(), "{}", None, "");
    for dir in ["both", "proj"] {
        std::fs::create_dir(fixture.home().join(dir)).unwrap();
    }
    std::fs::write(fixture.home().join("file"), "x").unwrap();
    assert_eq!(
        permission_list(&fixture, "deny"),
        [
            "Read(~/both)",
            "Read(~/both/**)",
            "Edit(~/both)",
            "Edit(~/both/**)",
            "Edit(~/proj)",
            "Edit(~/proj/**)",
            "Edit(~/proj/)",
            "Edit(~/file)",
            "Edit(~/gone)",
            "Edit(~/pro?)",
            "Edit(proj)",
            "Edit(**/.git)",
        ]
    );
    let scratch = tempfile::TempDir::new().unwrap();
    let abs = format!("{}/", scratch.path().display());
    let fixture = single("filesystem", "denyWrite", &abs);
    let stem = abs.trim_end_matches('/');
    assert_eq!(
        permission_list(&fixture, "deny"),
        [format!("Edit(/{abs})"), format!("Edit(/{stem}/**)")]
    );
}

/// `deny` and `allow` hold each rule text once, the first time it comes,
/// however it arose; `ask` is written as the rules come.
#[test]
fn deny_and_allow_hold_each_rule_once() {
    let srt = serde_json::json!({
        "filesystem": {
            "denyRead": ["~/.aws", "/etc/x"],
            "denyWrite": ["~/.aws", "/etc/x", "//etc/x", "~/.aws/**"],
            "allowWrite": ["~/dev", "~/dev/**", "~/dev/"],
        },
        "network": {"allowedDomains": ["a.com"], "deniedDomains": ["b.com"]},
    });
    let fixture = Fixture::new(&srt.to_string(), r#"{"ask": ["x", "x"]}"#, None, "");
    assert_eq!(
        permission_list(&fixture, "deny"),
        [
            "Read(~/.aws)",
            "Read(~/.aws/**)",
            "Edit(~/.aws)",
            "Edit(~/.aws/**)",
            "Read(//etc/x)",
            "Read(//etc/x/**)",
            "Edit(//etc/x)",
            "Edit(//etc/x/**)",
            "WebFetch(domain:b.com)",
        ]
    );
    assert_eq!(
        permission_list(&fixture, "allow"),
        [
            "Edit(~/dev)",
            "Edit(~/dev/**)",
            "Edit(~/dev/)",
            "WebFetch(domain:a.com)"
        ]
    );
    assert_eq!(
        permission_list(&fixture, "ask"),
        ["Bash(x)", "Bash(x *)", "Bash(x)", "Bash(x *)"]
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

/// The `policy` case raises one warning per mode: its `allowRead` entry
/// re-opens a path for Claude's commands, not for its Read tool.
#[test]
fn preview_raises_only_the_allow_read_warning() {
    let fixture = Fixture::case("policy");
    for yolo in [false, true] {
        let mut warnings = Warnings::new();
        crate::agent::claude::Claude
            .preview(&fixture.ctx(yolo), &mut warnings)
            .unwrap();
        let messages = crate::agent::messages(&warnings);
        assert_eq!(messages.len(), 1, "{messages:?}");
        assert!(
            messages[0].starts_with("srt filesystem.allowRead re-opens /r for Claude's sandboxed"),
            "{messages:?}"
        );
        assert!(warnings.iter().all(|w| w.code == Code::SrtKeySkipped));
    }
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

/// A list holds each rule text once, whichever policy rules make it: the
/// `/**` rule of the directory `a/` (its stem `a`) and the glob `a/**`
/// written as it is are one entry, the first one's.
#[test]
fn one_text_from_two_policy_rules_is_written_once() {
    let fixture = Fixture::new(
        r#"{"filesystem": {"allowWrite": ["a/", "a/**", "b"], "denyRead": ["c/", "c/**"]}}"#,
        r#"{"deny": ["x", "x *"]}"#,
        None,
        "",
    );
    let doc = generate(&fixture.ctx(false), &fixture.home());
    let list = |key: &str| doc["permissions"][key].clone();
    assert_eq!(
        list("allow"),
        serde_json::json!(["Edit(a/)", "Edit(a/**)", "Edit(b)", "Edit(b/**)"])
    );
    let deny = list("deny");
    let texts: Vec<&str> = deny
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let starting = |p: &str| {
        texts
            .iter()
            .filter(|t| t.starts_with(p))
            .copied()
            .collect::<Vec<_>>()
    };
    assert_eq!(starting("Read(c"), ["Read(c/)", "Read(c/**)"]);
    assert_eq!(starting("Edit(c"), ["Edit(c/)", "Edit(c/**)"]);
    assert_eq!(starting("Bash("), ["Bash(x)", "Bash(x *)", "Bash(x * *)"]);
}

/// `Read(//etc/x)` is one text whether the `//` comes from the rooted
/// head and `/etc/x` or from the pattern `//etc/x` itself.
#[test]
fn a_rooted_head_and_a_double_slash_pattern_make_one_rule() {
    let fixture = Fixture::new(
        r#"{"filesystem": {"denyRead": ["/etc/twsrt-none/x", "//etc/twsrt-none/x"]}}"#,
        r#"{}"#,
        None,
        "",
    );
    let doc = generate(&fixture.ctx(false), &fixture.home());
    let deny: Vec<&str> = doc["permissions"]["deny"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .filter(|t| t.starts_with("Read("))
        .collect();
    assert_eq!(
        deny,
        ["Read(//etc/twsrt-none/x)", "Read(//etc/twsrt-none/x/**)"]
    );
}
