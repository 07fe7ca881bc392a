//! Nothing leaks: values twsrt does not own (API keys in the Claude
//! settings' `env`, MCP env, headers and tokens in the Codex config, even a
//! comment) never appear on stdout or stderr, whatever the command: preview,
//! `-w`, `--dry-run`, `diff`, `-v`, or an error about the file that holds
//! them. Every planted value carries the marker `LEAK`, and every output
//! stream of every run is checked for the marker.

use crate::support::*;

const MARKER: &str = "LEAK";

/// A Claude settings file with foreign secrets in every place one can hide.
const CLAUDE_WITH_SECRETS: &str = r#"{
  "env": {"ANTHROPIC_API_KEY": "sk-ant-LEAK-claude-env-0001"},
  "apiKeyHelper": "echo LEAK-claude-helper-0002",
  "mcpServers": {"x": {"headers": {"Authorization": "Bearer LEAK-claude-mcp-0003"}}},
  "permissions": {"allow": ["Bash(export T=LEAK-claude-allow-0004)"]},
  "outputStyle": "LEAK-style-0005",
  "sandbox": {"excludedCommands": ["LEAK-claude-excluded-0006"]},
  "model": "opus"
}
"#;

/// A Codex config with MCP env, headers, bearer tokens and a comment.
const CODEX_WITH_SECRETS: &str = r#"# token for staging: LEAK-codex-comment-0101
model = "o3"

[model_providers.corp]
base_url = "https://llm.example.com"
http_headers = { "X-Api-Key" = "LEAK-codex-provider-0102" }

[mcp_servers.x]
command = "x"
env = { TOKEN = "LEAK-codex-env-0103" }
bearer_token = "LEAK-codex-bearer-0104"

[mcp_servers.y]
url = "https://mcp.example.com"
http_headers = { Authorization = "Bearer LEAK-codex-header-0105" }
"#;

/// The policy with every target configured (the Copilot and rules files
/// exist, so `diff` gets as far as the Codex config).
fn base() -> Test {
    Test::with_policy()
        .targets()
        .file(COPILOT, "--deny-tool 'shell(rm)'\n")
        .file(CODEX_RULES, "")
}

fn planted() -> Test {
    base()
        .file(CLAUDE_TARGET, CLAUDE_WITH_SECRETS)
        .file(CODEX_CONFIG, CODEX_WITH_SECRETS)
}

/// Run `args` and check that no output stream holds a planted value.
#[track_caller]
fn run_clean(t: Test, args: &[&str], status: i32) -> Output {
    t.args(args)
        .status(status)
        .lacks(MARKER)
        .lacks("sk-ant")
        .lacks("Bearer")
        .run()
}

/// What a stream says is the other modules' business (each command's own
/// test checks it exactly); here only what it must never say is checked.
fn any_output(t: Test) -> Test {
    t.any_stdout().any_stderr()
}

/// Every foreign value is still in the file after the write.
fn assert_secrets_kept(out: &Output) {
    let claude = out.read(CLAUDE_TARGET);
    for s in ["0001", "0002", "0003", "0004", "0005", "0006"] {
        assert!(claude.contains(s), "lost {s}:\n{claude}");
    }
    let codex = out.read(CODEX_CONFIG);
    for s in ["0101", "0102", "0103", "0104", "0105"] {
        assert!(codex.contains(s), "lost {s}:\n{codex}");
    }
}

#[test]
fn previews_and_dry_runs_show_only_generated_data() {
    for args in [
        &["generate"][..],
        &["generate", "claude"],
        &["generate", "codex"],
        &["generate", "--yolo"],
        &["-v", "generate"],
        &["generate", "-w", "-n"],
        &["-v", "generate", "-w", "-n"],
        &["-v", "generate", "-w", "-n", "--yolo"],
        &["generate", "claude", "-w", "-n"],
        &["generate", "codex", "-w", "-n"],
    ] {
        let out = run_clean(any_output(planted()), args, 0);
        assert!(!out.stdout.is_empty(), "{args:?} printed nothing");
    }
}

#[test]
fn writes_keep_foreign_values_without_printing_them() {
    for args in [
        &["generate", "-w"][..],
        &["-v", "generate", "-w"],
        &["-v", "generate", "-w", "--yolo"],
        &["-v", "generate", "claude", "-w"],
        &["-v", "generate", "codex", "-w"],
    ] {
        let out = run_clean(any_output(planted()), args, 0);
        assert_secrets_kept(&out);
    }
}

#[test]
fn diff_names_only_managed_entries() {
    // The planted `Bash(export T=...)` allow is foreign widening drift
    // (issue 40): named by its position and tool, never its text.
    let out = run_clean(any_output(written(planted())), &["diff"], 1);
    assert!(
        out.stdout.contains("permissions.allow:[0] Bash(...)"),
        "{}",
        out.stdout
    );
    run_clean(any_output(written(planted())), &["-v", "diff", "--yolo"], 2);

    // Drift in both files, next to the secrets: only entry names are shown.
    let t = written(planted());
    edit(
        &t,
        CLAUDE_TARGET,
        "\"Bash(rm)\"",
        "\"Bash(curl LEAK-drift-0201)\"",
    );
    edit(
        &t,
        CODEX_CONFIG,
        "approval_policy = ",
        "approval_policy = \"LEAK-drift-0202\"\n#",
    );
    // The hand-added deny rule sits in a list twsrt owns, so diff names it
    // as extra: that is its job (and why `lacks(MARKER)` cannot apply here).
    // No foreign value is named.
    let out = t
        .args(&["-v", "diff"])
        .status(1)
        .stdout_contains("config:approval_policy")
        .stdout_contains("\n  - Bash(curl LEAK-drift-0201) (foreign, narrowing)\n")
        .any_stderr()
        .run();
    let shown = format!("{}{}", out.stdout, out.stderr);
    for hidden in [
        "0001", "0002", "0003", "0004", "0005", "0006", "0101", "0102", "0103", "0104", "0105",
        "0202",
    ] {
        assert!(!shown.contains(hidden), "diff shows {hidden}:\n{shown}");
    }
}

/// Every command that reads the targets, for the error cases.
const READERS: &[&[&str]] = &[
    &["generate", "-w"],
    &["-v", "generate", "-w"],
    &["-v", "generate", "-w", "-n"],
    &["-v", "diff"],
];

/// Broken Claude settings with a key on or next to the offending spot:
/// the error names the file (and for a syntax error line and column), never
/// the content.
#[test]
fn errors_about_claude_settings_never_echo_the_file() {
    let cases: &[(&str, &str)] = &[
        (
            r#"{"env": {"ANTHROPIC_API_KEY": "sk-ant-LEAK-0301" oops}}"#,
            "is not valid JSON (line 1, column",
        ),
        (
            // The raw line break inside the string is the error (as in Python).
            "{\"env\": {\"ANTHROPIC_API_KEY\": \"sk-ant-LEAK-0302\n\"}}",
            "is not valid JSON (line 1, column 48",
        ),
        (
            r#"{"env": {"K": "LEAK-0303"}, "permissions": "LEAK-0304"}"#,
            "`permissions` is not an object",
        ),
        (
            r#"{"permissions": {"allow": "Bash(LEAK-0305)"}}"#,
            "`permissions.allow` is not a list",
        ),
        (
            r#"{"sandbox": "LEAK-0306", "env": {"K": "LEAK-0307"}}"#,
            "`sandbox` is not an object",
        ),
        (r#"["sk-ant-LEAK-0308"]"#, "does not hold a JSON object"),
        ("\"LEAK-0309\"", "does not hold a JSON object"),
        (
            "{\"env\": {\"K\": \"LEAK-0310<FF>\"}}",
            "is not valid UTF-8",
        ),
    ];
    for (text, fact) in cases {
        for args in READERS {
            let t = base().file(CODEX_CONFIG, CODEX_WITH_SECRETS);
            let t = write_bytes(t, CLAUDE_TARGET, text).unchanged();
            run_clean(expect(t, args, CLAUDE_TARGET, fact), args, 1);
        }
    }
}

/// The same for a regular settings.json that would be migrated.
#[test]
fn errors_about_a_settings_json_to_migrate_never_echo_it() {
    let t = base()
        .file(
            ANCHOR,
            r#"{"env": {"ANTHROPIC_API_KEY": "sk-ant-LEAK-0401"}, }"#,
        )
        .unchanged();
    run_clean(
        t.stderr(
            "Debug: config: {HOME}/.config/twsrt/config.toml\n\
             Info: gemini skipped: [targets].gemini_policy is not set in config.toml\n\
             Info: opencode skipped: [targets].opencode_config is not set in config.toml\n\
             Debug: profile: default; mode: full; agents: claude, copilot, codex; rules: 18\n\
             Error: {HOME}/.claude/settings.json: is not valid JSON (line 1, column 52, character 51); \
             fix or remove it first\n",
        ),
        &["-v", "generate", "-w"],
        1,
    );
}

/// A Codex config whose syntax error sits on a line holding a token.
#[test]
fn toml_errors_name_file_line_and_column_but_never_the_line() {
    let cases: &[(&str, &str)] = &[
        // An unclosed string.
        (
            "[mcp_servers.x]\ncommand = \"x\"\nbearer_token = \"LEAK-0501\nmodel = 1\n",
            ".codex/config.toml:3:",
        ),
        // A bare value.
        (
            "[mcp_servers.x]\nbearer_token = LEAK-0502\n",
            ".codex/config.toml:2:",
        ),
        // An unclosed inline table.
        (
            "[mcp_servers.x]\nenv = { TOKEN = \"LEAK-0503\" \n",
            ".codex/config.toml:2:",
        ),
        // A duplicate key whose value is the token.
        (
            "[mcp_servers.x]\nbearer_token = \"a\"\nbearer_token = \"LEAK-0504\"\n",
            ".codex/config.toml:3:",
        ),
        // A duplicate header inside an inline table.
        (
            "[mcp_servers.y]\nhttp_headers = { Authorization = \"Bearer LEAK-0505\", Authorization = \"x\" }\n",
            ".codex/config.toml:2:",
        ),
        // A key that is itself the secret, duplicated.
        (
            "[mcp_servers.x.env]\nLEAK-0506 = 1\nLEAK-0506 = 2\n",
            ".codex/config.toml:3:",
        ),
        // A bad escape inside the token.
        (
            "[mcp_servers.x]\nbearer_token = \"LEAK-0507\\q\"\n",
            ".codex/config.toml:2:",
        ),
        // Not UTF-8 right after the token.
        (
            "[mcp_servers.x]\nbearer_token = \"LEAK-0508<FF>\"\n",
            ".codex/config.toml:2:",
        ),
        // Dotted key extending a value.
        (
            "[mcp_servers.x]\ntoken = \"LEAK-0509\"\ntoken.more = 1\n",
            ".codex/config.toml:3:",
        ),
    ];
    for (text, fact) in cases {
        for args in READERS {
            let t = base().file(CLAUDE_TARGET, CLAUDE_WITH_SECRETS);
            let t = write_bytes(t, CODEX_CONFIG, text).unchanged();
            let t = expect(t, args, CODEX_CONFIG, fact).stderr_contains("invalid TOML");
            run_clean(t, args, 1);
        }
    }
}

/// A Codex config that parses but cannot be merged: the error names what is
/// wrong, not the values.
#[test]
fn codex_merge_errors_never_echo_values() {
    let cases: &[(&str, &str)] = &[
        (
            "permissions = \"LEAK-0601\"\n[mcp_servers.x]\nbearer_token = \"LEAK-0602\"\n",
            "`permissions` is not written as tables",
        ),
        (
            "sandbox_mode = \"LEAK-0603\"\n[mcp_servers.x]\nbearer_token = \"LEAK-0604\"\n",
            "legacy setting(s) sandbox_mode",
        ),
    ];
    for (text, fact) in cases {
        for args in [&["-v", "generate", "-w"][..], &["-v", "diff"]] {
            let t = base()
                .file(CLAUDE_TARGET, CLAUDE_WITH_SECRETS)
                .file(CODEX_CONFIG, text)
                .unchanged();
            run_clean(expect(t, args, CODEX_CONFIG, fact), args, 1);
        }
    }
}

/// Run `generate -w` in the scenario's HOME before the command under test
/// (the write itself is `writes_keep_foreign_values_without_printing_them`).
fn written(t: Test) -> Test {
    run_clean(any_output(t), &["generate", "-w"], 0).then()
}

fn edit(t: &Test, rel: &str, from: &str, to: &str) {
    let path = t.home().join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{rel} lacks {from:?}:\n{text}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

/// `generate` must fail naming the file `rel`, with `fact`; `diff` may instead read a
/// section of the wrong shape as drift (exit 1 either way). With `-v` the
/// error follows Debug lines, so the stream is checked for the error's facts.
fn expect(t: Test, args: &[&str], rel: &str, fact: &str) -> Test {
    if args.contains(&"diff") {
        t.any_stdout().any_stderr()
    } else {
        t.stderr_contains(&format!("Error: {{HOME}}/{rel}"))
            .stderr_contains(fact)
    }
}

/// `text` with `<FF>` standing for the byte 0xff (not UTF-8), so the case
/// tables stay text.
fn write_bytes(t: Test, rel: &str, text: &str) -> Test {
    let mut bytes = Vec::new();
    for (i, part) in text.split("<FF>").enumerate() {
        if i > 0 {
            bytes.push(0xff);
        }
        bytes.extend_from_slice(part.as_bytes());
    }
    t.file(rel, bytes)
}
