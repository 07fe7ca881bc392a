//! Every class of policy error is reachable from the command line, exits with
//! the reference's code, names the file and the key/pointer/value, and writes
//! nothing.

use crate::support::*;

/// Run `generate -w` on a HOME and assert the error and an unchanged tree.
fn rejects(test: Test, facts: &[&str]) {
    let before = test.tree();
    let mut t = test.args(&["generate", "-w"]).status(1);
    for f in facts {
        t = t.stderr_contains(f);
    }
    let out = t.run();
    assert_eq!(tree(out.home.path()), before, "files changed on error");
    assert!(out.stdout.is_empty(), "stdout on error: {}", out.stdout);
}

#[test]
fn a_missing_config_exits_1_naming_it() {
    Test::new()
        .args(&["generate"])
        .status(1)
        .stderr_contains("{HOME}/.config/twsrt/config.toml")
        .run();
    Test::new()
        .args(&["-c", "~/elsewhere.toml", "generate"])
        .status(1)
        .stderr_contains("{HOME}/elsewhere.toml")
        .run();
}

#[test]
fn invalid_toml_names_line_and_column() {
    rejects(
        Test::with_policy().config_append("a = 1\na = 2\n"),
        &["{HOME}/.config/twsrt/config.toml:20:1"],
    );
}

#[test]
fn schema_errors_name_config_and_key() {
    let with = |from: &str, to: &str| {
        let t = Test::with_policy();
        let text = BASE_CONFIG.replacen(from, to, 1);
        t.file(CONFIG, &text)
    };
    rejects(
        with("schema_version = 1", "schema_version = 2"),
        &["config.toml", "schema_version"],
    );
    rejects(
        with("path = \"srt/base.jsonc\"", "path = \"srt/base.json\""),
        &["sources.srt.fragments.base.path"],
    );
    rejects(with("srt = [\"base\"]", "srt = [\"nope\"]"), &["'nope'"]);
    rejects(
        with("default_profile = \"default\"", "default_profile = \"x\""),
        &["'x'"],
    );
    rejects(
        Test::with_policy()
            .config_append("[profiles.a]\nextends = [\"b\"]\n[profiles.b]\nextends = [\"a\"]\n"),
        &["a -> b -> a"],
    );
}

#[test]
fn an_unknown_profile_lists_the_defined_ones() {
    Test::with_policy()
        .args(&["generate", "-p", "nope"])
        .status(1)
        .stderr_contains("'nope'")
        .stderr_contains("default")
        .run();
}

#[test]
fn an_unknown_agent_exits_1_listing_the_agents() {
    Test::with_policy()
        .args(&["generate", "foo"])
        .status(1)
        .stderr_contains("'foo'")
        .stderr_contains("claude, copilot, codex")
        .run();
}

#[test]
fn usage_errors_exit_2() {
    Test::with_policy()
        .args(&["generate", "--bogus"])
        .status(2)
        .run();
    Test::with_policy().args(&["nonsense"]).status(2).run();
}

#[test]
fn jsonc_errors_carry_path_line_and_column() {
    let frag = ".config/twsrt/srt/base.jsonc";
    let cases: &[(&str, &str)] = &[
        ("{\"a\": 1,}", ":1:9"),
        ("{\"a\": 1, \"a\": 2}", "\"a\""),
        ("{\"a\": NaN}", ":1:7"),
        ("{'a': 1}", ":1:2"),
        ("[]", ":1:1"),
        ("", ":1:1"),
        ("{ /* open", ":1:"),
    ];
    for (text, fact) in cases {
        let home_frag = format!("{{HOME}}/{frag}");
        rejects(Test::with_policy().file(frag, text), &[&home_frag, fact]);
    }
}

#[test]
fn comment_markers_in_strings_and_crlf_are_fine() {
    let out = Test::with_policy()
        .file(
            ".config/twsrt/srt/base.jsonc",
            "{\r\n  // c\r\n  \"network\": {\"allowedDomains\": [\"a.com/*x*/\", \"//b\"]}\r\n}\r\n",
        )
        .args(&["generate", "-w", "copilot"])
        .run();
    assert!(
        out.read(".srt-settings.json")
            .contains("\"a.com/*x*/\",\n      \"//b\"")
    );
}

#[test]
fn validation_errors_name_the_fragment_and_key() {
    let srt = ".config/twsrt/srt/base.jsonc";
    let bash = ".config/twsrt/bash/base.jsonc";
    rejects(
        Test::with_policy().file(srt, r#"{"filesystem": []}"#),
        &["srt/base.jsonc", "filesystem"],
    );
    rejects(
        Test::with_policy().file(srt, r#"{"filesystem": {"denyRead": "x"}}"#),
        &["filesystem.denyRead"],
    );
    rejects(
        Test::with_policy().file(srt, r#"{"filesystem": {"denyRead": [1]}}"#),
        &["filesystem.denyRead"],
    );
    rejects(
        Test::with_policy().file(srt, r#"{"network": {"allowedDomains": [""]}}"#),
        &["network.allowedDomains", "empty"],
    );
    rejects(
        Test::with_policy().file(bash, r#"{"foo": []}"#),
        &["bash/base.jsonc", "foo"],
    );
    rejects(
        Test::with_policy().file(bash, r#"{"deny": ["rm", ""]}"#),
        &["deny", "empty"],
    );
}

fn two_fragments(kind: &str, a: &str, b: &str) -> Test {
    let config = BASE_CONFIG
        .replace(
            &format!("[sources.{kind}.fragments.base]\npath = \"{kind}/base.jsonc\"\n"),
            &format!(
                "[sources.{kind}.fragments.base]\npath = \"{kind}/base.jsonc\"\n[sources.{kind}.fragments.more]\npath = \"{kind}/more.jsonc\"\n"
            ),
        )
        .replace(&format!("{kind} = [\"base\"]"), &format!("{kind} = [\"base\", \"more\"]"));
    Test::with_policy()
        .file(CONFIG, &config)
        .file(&format!(".config/twsrt/{kind}/base.jsonc"), a)
        .file(&format!(".config/twsrt/{kind}/more.jsonc"), b)
}

#[test]
fn composition_conflicts_name_profile_pointer_and_both_fragments() {
    let both = [
        "{HOME}/.config/twsrt/srt/base.jsonc",
        "{HOME}/.config/twsrt/srt/more.jsonc",
    ];
    rejects(
        two_fragments(
            "srt",
            r#"{"network": {"httpProxyPort": 1}}"#,
            r#"{"network": {"httpProxyPort": 2}}"#,
        ),
        &[
            both[0],
            both[1],
            "/network/httpProxyPort",
            "'default'",
            "srt",
        ],
    );
    rejects(
        two_fragments("srt", r#"{"enabled": true}"#, r#"{"enabled": 1}"#),
        &[both[0], both[1], "/enabled"],
    );
    rejects(
        two_fragments("srt", r#"{"x": 1}"#, r#"{"x": 1.0}"#),
        &["/x"],
    );
    rejects(
        two_fragments("srt", r#"{"a/b": {"~": 1}}"#, r#"{"a/b": {"~": "1"}}"#),
        &["/a~1b/~0"],
    );
}

#[test]
fn opposing_actions_name_value_lists_and_fragments() {
    rejects(
        two_fragments(
            "srt",
            r#"{"network": {"allowedDomains": ["a.com"]}}"#,
            r#"{"network": {"deniedDomains": ["a.com"]}}"#,
        ),
        &[
            "'a.com'",
            "network.allowedDomains",
            "network.deniedDomains",
            "srt/base.jsonc",
            "srt/more.jsonc",
        ],
    );
    rejects(
        two_fragments(
            "srt",
            r#"{"filesystem": {"allowWrite": ["/x"], "denyWrite": ["/x"]}}"#,
            "{}",
        ),
        &["'/x'", "filesystem.allowWrite", "filesystem.denyWrite"],
    );
    for (a, b) in [("allow", "deny"), ("ask", "deny"), ("allow", "ask")] {
        rejects(
            two_fragments(
                "bash",
                &format!(r#"{{"{a}": ["cmd"]}}"#),
                &format!(r#"{{"{b}": ["cmd"]}}"#),
            ),
            &["'cmd'", a, b, "bash/base.jsonc", "bash/more.jsonc"],
        );
    }
}

#[test]
fn a_profile_missing_a_kind_after_inheritance_is_rejected() {
    Test::with_policy()
        .config_append("[profiles.only]\nsrt = [\"base\"]\n")
        .args(&["generate", "-p", "only"])
        .status(1)
        .stderr_contains("'only'")
        .stderr_contains("bash")
        .run();
}

/// A fragment nested deeper than the one-pass parser goes (it leaves that to
/// the full parser) is not an error: it is composed from the full parse.
#[test]
fn a_fragment_nested_past_the_one_pass_parser_still_compiles() {
    let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
    let srt = format!(r#"{{"filesystem": {{"denyRead": ["~/.ssh"]}}, "x": {deep}}}"#);
    let out = Test::with_policy()
        .file(".config/twsrt/srt/base.jsonc", &srt)
        .args(&["generate", "-w"])
        .status(0)
        .run();
    let written = std::fs::read_to_string(out.home.path().join(".srt-settings.json")).unwrap();
    // Too deep for serde_json to read back: count the brackets instead.
    assert!(written.contains("\"~/.ssh\""), "{written}");
    assert_eq!(written.matches('[').count(), 200 + 1, "{written}");
}

#[test]
fn a_fragment_that_is_not_utf8_names_its_line_and_column() {
    let frag = ".config/twsrt/srt/base.jsonc";
    let test = Test::with_policy();
    std::fs::write(test.home().join(frag), b"{\n  \"a\": \"\xff\"\n}\n").unwrap();
    rejects(test, &[&format!("{{HOME}}/{frag}:2:"), "not valid UTF-8"]);
}
