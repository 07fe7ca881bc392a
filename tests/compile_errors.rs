//! Every class of policy error is reachable from the command line, exits with
//! the reference's code, names the file and the key/pointer/value, and writes
//! nothing.

use crate::support::*;

/// `generate -w` on this HOME exits 1 with exactly `stderr`, prints nothing
/// on stdout and writes nothing.
#[track_caller]
fn rejects(test: Test, stderr: &str) {
    test.args(&["generate", "-w"])
        .status(1)
        .stderr(stderr)
        .unchanged()
        .run();
}

#[test]
fn a_missing_config_exits_1_naming_it() {
    Test::new()
        .args(&["generate"])
        .status(1)
        .stderr(
            "Error: config file not found: {HOME}/.config/twsrt/config.toml; run `twsrt config \
             --init` to create a starter\n",
        )
        .unchanged()
        .run();
    Test::new()
        .args(&["-c", "~/elsewhere.toml", "generate"])
        .status(1)
        .stderr(
            "Error: config file not found: {HOME}/elsewhere.toml; run `twsrt config --init` to \
             create a starter\n",
        )
        .unchanged()
        .run();
}

#[test]
fn invalid_toml_names_line_and_column() {
    rejects(
        Test::with_policy().config_append("a = 1\na = 2\n"),
        "Error: {HOME}/.config/twsrt/config.toml:20:1: invalid TOML: duplicate key\n",
    );
}

#[test]
fn a_misspelt_target_key_is_refused() {
    rejects(
        Test::with_policy().config_append("[targets]\nclaude_setings = \"~/c.json\"\n"),
        "Error: {HOME}/.config/twsrt/config.toml:20:1: targets: unknown key(s) claude_setings; \
         the targets twsrt knows are claude_settings, claude_settings_yolo, claude_hook, \
         copilot_output, copilot_output_yolo, copilot_settings, copilot_settings_yolo, copilot_sandbox, \
         codex_config, codex_rules, gemini_policy, gemini_policy_yolo, opencode_config; did you mean \
         \"claude_settings\" for \"claude_setings\"?\n",
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
        "Error: {HOME}/.config/twsrt/config.toml: schema_version must be 1, found 2\n",
    );
    rejects(
        with("path = \"srt/base.jsonc\"", "path = \"srt/base.json\""),
        "Error: {HOME}/.config/twsrt/config.toml: sources.srt.fragments.base.path must name \
         a .jsonc file, not {HOME}/.config/twsrt/srt/base.json\n",
    );
    rejects(
        with("srt = [\"base\"]", "srt = [\"nope\"]"),
        "Error: {HOME}/.config/twsrt/config.toml: profiles.default.srt selects 'nope', \
         which is not a [sources.srt.fragments.*] entry\n",
    );
    rejects(
        with("default_profile = \"default\"", "default_profile = \"x\""),
        "Error: {HOME}/.config/twsrt/config.toml: default_profile 'x' is not a defined profile\n",
    );
    rejects(
        Test::with_policy()
            .config_append("[profiles.a]\nextends = [\"b\"]\n[profiles.b]\nextends = [\"a\"]\n"),
        "Error: {HOME}/.config/twsrt/config.toml: profiles extend each other in a cycle: a -> b -> a\n",
    );
}

#[test]
fn an_unknown_profile_lists_the_defined_ones() {
    Test::with_policy()
        .args(&["generate", "-p", "nope"])
        .status(1)
        .stderr(
            "Error: profile 'nope' is not defined in {HOME}/.config/twsrt/config.toml; \
             defined profiles: default\n",
        )
        .run();
}

#[test]
fn an_unknown_agent_exits_1_listing_the_agents() {
    Test::with_policy()
        .args(&["generate", "foo"])
        .status(1)
        .stderr("Error: unknown agent 'foo'; available: claude, copilot, codex, gemini, opencode (or all)\n")
        .run();
}

#[test]
fn usage_errors_exit_2() {
    Test::with_policy()
        .args(&["generate", "--bogus"])
        .status(2)
        .stderr(
            "error: unexpected argument '--bogus' found\n\n  \
             tip: to pass '--bogus' as a value, use '-- --bogus'\n\n\
             Usage: twsrt generate [OPTIONS] [AGENT]\n\n\
             For more information, try '--help'.\n",
        )
        .run();
    Test::with_policy()
        .args(&["nonsense"])
        .status(2)
        .stderr(
            "error: unrecognized subcommand 'nonsense'\n\n\
             Usage: twsrt [OPTIONS] [COMMAND]\n\n\
             For more information, try '--help'.\n",
        )
        .run();
}

#[test]
fn jsonc_errors_carry_path_line_and_column() {
    let frag = SRT_FRAGMENT;
    let cases: &[(&str, &str)] = &[
        ("{\"a\": 1,}", "1:9: trailing comma is not allowed"),
        ("{\"a\": 1, \"a\": 2}", "1:10: duplicate key \"a\""),
        (
            "{\"a\": NaN}",
            "1:7: non-finite number 'NaN' is not valid JSON",
        ),
        ("{'a': 1}", "1:2: strings must be in double quotes"),
        ("[]", "1:1: the top-level value must be a JSON object"),
        ("", "1:1: expected a JSON object, found an empty file"),
        ("{ /* open", "1:3: unterminated block comment"),
    ];
    for (text, message) in cases {
        rejects(
            Test::with_policy().file(frag, text),
            &format!("Error: {{HOME}}/{frag}:{message}\n"),
        );
    }
}

#[test]
fn comment_markers_in_strings_and_crlf_are_fine() {
    let out = Test::with_policy()
        .file(
            SRT_FRAGMENT,
            "{\r\n  // c\r\n  \"filesystem\": {\"denyRead\": [\"~/a/*x*/\", \"//b\"]}\r\n}\r\n",
        )
        .config_append(COPILOT_ONLY)
        .args(&["generate", "-w", "copilot"])
        .stderr(
            "Warning: Copilot has no ask tier: bash ask rule 'git push' becomes --deny-tool\n\
             Wrote canonical: {HOME}/.srt-settings.json\n\
             Wrote canonical: {HOME}/.config/twsrt/bash-rules.json\n\
             Wrote: {HOME}/flags/copilot.txt\n",
        )
        .run();
    assert_eq!(
        out.read(COPILOT),
        "--deny-tool 'shell(git push:*)' \\\n\
         --deny-tool 'shell(rm:*)' \\\n"
    );
    assert!(
        out.read(".srt-settings.json")
            .contains("\"//b\",\n      \"~/a/*x*/\"")
    );
}

#[test]
fn validation_errors_name_the_fragment_and_key() {
    let (srt, bash) = (SRT_FRAGMENT, BASH_FRAGMENT);
    rejects(
        Test::with_policy().file(srt, r#"{"filesystem": []}"#),
        "Error: {HOME}/.config/twsrt/srt/base.jsonc: `filesystem` must be an object\n",
    );
    rejects(
        Test::with_policy().file(srt, r#"{"filesystem": {"denyRead": "x"}}"#),
        "Error: {HOME}/.config/twsrt/srt/base.jsonc: `filesystem.denyRead` must be a list of strings\n",
    );
    rejects(
        Test::with_policy().file(srt, r#"{"filesystem": {"denyRead": [1]}}"#),
        "Error: {HOME}/.config/twsrt/srt/base.jsonc: `filesystem.denyRead` must be a list of \
         strings; entry 0 is not a string\n",
    );
    rejects(
        Test::with_policy().file(srt, r#"{"network": {"allowedDomains": [""]}}"#),
        "Error: {HOME}/.config/twsrt/srt/base.jsonc: `network.allowedDomains` entry 0 is an \
         empty pattern\n",
    );
    rejects(
        Test::with_policy().file(bash, r#"{"foo": []}"#),
        "Error: {HOME}/.config/twsrt/bash/base.jsonc:1:2: unknown key `foo`; a bash fragment \
         holds only allow, ask and deny\n",
    );
    rejects(
        Test::with_policy().file(bash, "{\n  \"deny\": [],\n  \"dney\": [\"rm\"]}"),
        "Error: {HOME}/.config/twsrt/bash/base.jsonc:3:3: unknown key `dney`; a bash fragment \
         holds only allow, ask and deny; did you mean \"deny\"?\n",
    );
    rejects(
        Test::with_policy().file(bash, r#"{"deny": ["rm", ""]}"#),
        "Error: {HOME}/.config/twsrt/bash/base.jsonc: `deny` entry 1 is an empty pattern\n",
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
    // Keys srt does not know, which these tests compose, named on purpose.
    let config = config.replace(
        "[sources.srt]\n",
        "[sources.srt]\nallow_unknown_keys = [\"x\", \"a/b\"]\n",
    );
    Test::with_policy()
        .file(CONFIG, &config)
        .file(&format!(".config/twsrt/{kind}/base.jsonc"), a)
        .file(&format!(".config/twsrt/{kind}/more.jsonc"), b)
}

#[test]
fn composition_conflicts_name_profile_pointer_and_both_fragments() {
    let conflict = |what: &str| {
        format!(
            "Error: profile 'default', source 'srt': {{HOME}}/.config/twsrt/srt/base.jsonc and \
             {{HOME}}/.config/twsrt/srt/more.jsonc set {what}; a profile cannot override a \
             value, so make the fragments agree\n"
        )
    };
    rejects(
        two_fragments(
            "srt",
            r#"{"network": {"httpProxyPort": 1}}"#,
            r#"{"network": {"httpProxyPort": 2}}"#,
        ),
        &conflict("different values at /network/httpProxyPort"),
    );
    rejects(
        two_fragments("srt", r#"{"enabled": true}"#, r#"{"enabled": 1}"#),
        &conflict("values of different types at /enabled"),
    );
    rejects(
        two_fragments("srt", r#"{"x": 1}"#, r#"{"x": 1.0}"#),
        &conflict("values of different types at /x"),
    );
    rejects(
        two_fragments("srt", r#"{"a/b": {"~": 1}}"#, r#"{"a/b": {"~": "1"}}"#),
        &conflict("values of different types at /a~1b/~0"),
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
        "Error: profile 'default', source 'srt': 'a.com' is in network.allowedDomains \
         ({HOME}/.config/twsrt/srt/base.jsonc) and in network.deniedDomains \
         ({HOME}/.config/twsrt/srt/more.jsonc); one value cannot be both\n",
    );
    rejects(
        two_fragments(
            "srt",
            r#"{"filesystem": {"allowWrite": ["/x"], "denyWrite": ["/x"]}}"#,
            "{}",
        ),
        "Error: profile 'default', source 'srt': '/x' is in filesystem.allowWrite \
         ({HOME}/.config/twsrt/srt/base.jsonc) and in filesystem.denyWrite \
         ({HOME}/.config/twsrt/srt/base.jsonc); one value cannot be both\n",
    );
    for (a, b) in [("allow", "deny"), ("ask", "deny"), ("allow", "ask")] {
        rejects(
            two_fragments(
                "bash",
                &format!(r#"{{"{a}": ["cmd"]}}"#),
                &format!(r#"{{"{b}": ["cmd"]}}"#),
            ),
            &format!(
                "Error: profile 'default', source 'bash': 'cmd' is in {a} \
                 ({{HOME}}/.config/twsrt/bash/base.jsonc) and in {b} \
                 ({{HOME}}/.config/twsrt/bash/more.jsonc); one value cannot be both\n"
            ),
        );
    }
}

/// Which of several broken fragments is reported follows the reference: all
/// fragments are parsed before any schema check, and values listed on both
/// sides are found before fragments that set different values.
#[test]
fn errors_across_fragments_come_in_the_reference_order() {
    rejects(
        two_fragments("srt", r#"{"network": 1}"#, "{bad"),
        "Error: {HOME}/.config/twsrt/srt/more.jsonc:1:2: expected an object key in double quotes\n",
    );
    rejects(
        two_fragments(
            "srt",
            r#"{"enabled": true, "network": {"deniedDomains": ["a.com"]}}"#,
            r#"{"enabled": false, "network": {"allowedDomains": ["a.com"]}}"#,
        ),
        "Error: profile 'default', source 'srt': 'a.com' is in network.deniedDomains \
         ({HOME}/.config/twsrt/srt/base.jsonc) and in network.allowedDomains \
         ({HOME}/.config/twsrt/srt/more.jsonc); one value cannot be both\n",
    );
}

/// Fragments are composed as they are read, yet a later fragment's error of
/// a higher rank still wins over an earlier conflict: a parse error, then a
/// schema error, then a value in two opposing lists.
#[test]
fn a_conflict_between_earlier_fragments_yields_to_a_later_fragments_error() {
    let config = BASE_CONFIG
        .replace(
            "[sources.srt.fragments.base]\npath = \"srt/base.jsonc\"\n",
            "[sources.srt.fragments.base]\npath = \"srt/base.jsonc\"\n\
             [sources.srt.fragments.more]\npath = \"srt/more.jsonc\"\n\
             [sources.srt.fragments.last]\npath = \"srt/last.jsonc\"\n",
        )
        .replace("srt = [\"base\"]", "srt = [\"base\", \"more\", \"last\"]");
    let with_last = |last: &str| {
        Test::with_policy()
            .file(CONFIG, &config)
            .file(".config/twsrt/srt/base.jsonc", r#"{"enabled": true}"#)
            .file(
                ".config/twsrt/srt/more.jsonc",
                r#"{"enabled": false, "network": {"allowedDomains": ["a.com"]}}"#,
            )
            .file(".config/twsrt/srt/last.jsonc", last)
    };
    rejects(
        with_last("{bad"),
        "Error: {HOME}/.config/twsrt/srt/last.jsonc:1:2: expected an object key in double quotes\n",
    );
    rejects(
        with_last(r#"{"filesystem": {"denyRead": [1]}}"#),
        "Error: {HOME}/.config/twsrt/srt/last.jsonc: `filesystem.denyRead` must be a list of \
         strings; entry 0 is not a string\n",
    );
    rejects(
        with_last(r#"{"network": {"deniedDomains": ["a.com"]}}"#),
        "Error: profile 'default', source 'srt': 'a.com' is in network.allowedDomains \
         ({HOME}/.config/twsrt/srt/more.jsonc) and in network.deniedDomains \
         ({HOME}/.config/twsrt/srt/last.jsonc); one value cannot be both\n",
    );
    rejects(
        with_last("{}"),
        "Error: profile 'default', source 'srt': {HOME}/.config/twsrt/srt/base.jsonc and \
         {HOME}/.config/twsrt/srt/more.jsonc set different values at /enabled; a profile \
         cannot override a value, so make the fragments agree\n",
    );
}

#[test]
fn a_profile_missing_a_kind_after_inheritance_is_rejected() {
    Test::with_policy()
        .config_append("[profiles.only]\nsrt = [\"base\"]\n")
        .args(&["generate", "-p", "only"])
        .status(1)
        .stderr(
            "Error: profile 'only' selects no bash fragment (after inheritance); add one to \
             profiles.only.bash or a parent profile\n",
        )
        .run();
}

/// A fragment nested deeper than the one-pass parser goes (it leaves that to
/// the full parser) is not an error: it is composed from the full parse.
#[test]
fn a_fragment_nested_past_the_one_pass_parser_still_compiles() {
    let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
    let srt = format!(r#"{{"filesystem": {{"denyRead": ["~/.ssh"]}}, "x": {deep}}}"#);
    let out = Test::with_policy()
        .file(SRT_FRAGMENT, &srt)
        .file(
            CONFIG,
            BASE_CONFIG.replace(
                "[sources.srt]\n",
                "[sources.srt]\nallow_unknown_keys = [\"x\"]\n",
            ),
        )
        .args(&["generate", "-w"])
        .stderr(&format!(
            "{NO_AGENTS}\
             Wrote canonical: {{HOME}}/.srt-settings.json\n\
             Wrote canonical: {{HOME}}/.config/twsrt/bash-rules.json\n"
        ))
        .run();
    let written = out.read(SRT_OUT);
    // Too deep for serde_json to read back: count the brackets instead
    // (the nesting, denyRead, and denyWrite with the implied entries).
    assert!(written.contains("\"~/.ssh\""), "{written}");
    assert_eq!(written.matches('[').count(), 200 + 2, "{written}");
}

#[test]
fn a_fragment_that_is_not_utf8_names_its_line_and_column() {
    let test = Test::with_policy().file(SRT_FRAGMENT, b"{\n  \"a\": \"\xff\"\n}\n");
    rejects(
        test,
        "Error: {HOME}/.config/twsrt/srt/base.jsonc:2:9: the file is not valid UTF-8\n",
    );
}
