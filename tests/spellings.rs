//! One spelling, one meaning (issue 41): a path or domain entry that srt or
//! an agent would read as another file or host is refused at its
//! `file:line:column` with the value and the form to write instead, and
//! `generate -w` writes nothing; an internationalized domain is compiled to
//! its A-label for every agent.

use crate::support::*;

#[track_caller]
fn refused(fragment: &str, stderr: &str) {
    Test::with_policy()
        .file(SRT_FRAGMENT, fragment)
        .args(&["generate", "-w"])
        .status(1)
        .stderr(&format!(
            "Error: {{HOME}}/.config/twsrt/srt/base.jsonc:{stderr}\n"
        ))
        .unchanged()
        .run();
}

const VARIABLE: &str = "is a variable; srt and the agents do not expand it, they read it as a \
                        folder name";
const ENDS: &str = "it has whitespace at the start or the end, which srt and the agents keep \
                    as part of the name";

#[test]
fn a_path_spelt_with_a_variable_is_refused_with_the_path_to_write() {
    refused(
        "{\"filesystem\": {\n  \"denyRead\": [\"~/.ssh\", \"$HOME/.aws\"]}}",
        &format!("2:26: filesystem.denyRead entry '$HOME/.aws': $HOME {VARIABLE}; write '~/.aws'"),
    );
    refused(
        r#"{"filesystem": {"denyRead": ["${HOME}/.aws"]}}"#,
        &format!(
            "1:30: filesystem.denyRead entry '${{HOME}}/.aws': ${{HOME}} {VARIABLE}; write '~/.aws'"
        ),
    );
    refused(
        r#"{"filesystem": {"denyWrite": ["%USERPROFILE%\\.bashrc"]}}"#,
        &format!(
            "1:31: filesystem.denyWrite entry '%USERPROFILE%\\\\.bashrc': %USERPROFILE% \
             {VARIABLE}; write '~/.bashrc'"
        ),
    );
}

#[test]
fn a_path_with_whitespace_or_an_invisible_character_is_refused() {
    refused(
        r#"{"filesystem": {"denyRead": ["~/.aws "]}}"#,
        &format!("1:30: filesystem.denyRead entry '~/.aws ': {ENDS}; write '~/.aws'"),
    );
    refused(
        r#"{"filesystem": {"allowWrite": [" ~/work"]}}"#,
        &format!("1:32: filesystem.allowWrite entry ' ~/work': {ENDS}; write '~/work'"),
    );
    refused(
        r#"{"filesystem": {"denyRead": ["~/.aws\t"]}}"#,
        &format!("1:30: filesystem.denyRead entry '~/.aws\\t': {ENDS}; write '~/.aws'"),
    );
    refused(
        "{\"filesystem\": {\"denyRead\": [\"~/.aws\u{200b}\"]}}",
        "1:30: filesystem.denyRead entry '~/.aws\u{200b}': it holds U+200B (zero-width space), \
         an invisible character that is part of the name to srt; write '~/.aws'",
    );
    refused(
        "{\"filesystem\": {\"denyRead\": [\"~/cafe\u{301}\"]}}",
        "1:30: filesystem.denyRead entry '~/cafe\u{301}': it is not in Unicode normalisation \
         form C (NFC): the same name to a person, another file to the file system; write \
         '~/caf\u{e9}'",
    );
    refused(
        r#"{"credentials": {"files": [{"path": "$HOME/.netrc", "mode": "deny"}]}}"#,
        &format!(
            "1:37: credentials.files entry '$HOME/.netrc': $HOME {VARIABLE}; write \
             '~/.netrc'"
        ),
    );
}

#[test]
fn a_domain_entry_with_a_scheme_path_space_or_trailing_dot_is_refused() {
    refused(
        r#"{"network": {"deniedDomains": ["https://evil.example.com/x"]}}"#,
        "1:32: network.deniedDomains entry 'https://evil.example.com/x': a domain entry is a \
         host, not a URL: srt compares hosts; write 'evil.example.com'",
    );
    refused(
        r#"{"network": {"allowedDomains": ["github.com/org"]}}"#,
        "1:33: network.allowedDomains entry 'github.com/org': a domain entry is a host \
         without a path: srt compares hosts; write 'github.com'",
    );
    refused(
        r#"{"network": {"deniedDomains": [" evil.example.com"]}}"#,
        "1:32: network.deniedDomains entry ' evil.example.com': a domain has no whitespace or \
         invisible character, srt keeps it; write 'evil.example.com'",
    );
    refused(
        r#"{"network": {"allowedDomains": ["github.com."]}}"#,
        "1:33: network.allowedDomains entry 'github.com.': a trailing dot makes srt refuse the \
         settings file; write 'github.com'",
    );
    refused(
        r#"{"network": {"allowedDomains": ["api..github.com"]}}"#,
        "1:33: network.allowedDomains entry 'api..github.com': a domain has no empty label \
         (`..` or a leading dot); write 'api.github.com'",
    );
}

#[test]
fn an_internationalized_domain_is_compiled_to_its_a_label_for_every_agent() {
    let out = Test::with_policy()
        .targets()
        .file(
            SRT_FRAGMENT,
            r#"{"network": {"deniedDomains": ["bücher.example.com"]}}"#,
        )
        .args(&["generate", "-w"])
        .any_stdout()
        .any_stderr()
        .run();
    let srt = out.read(SRT_OUT);
    assert!(srt.contains("\"xn--bcher-kva.example.com\""), "{srt}");
    assert!(!srt.contains("bücher"), "{srt}");
    let claude = out.read(".claude/settings.json");
    assert!(claude.contains("xn--bcher-kva.example.com"), "{claude}");
    assert!(!claude.contains("bücher"), "{claude}");
}

#[test]
fn explain_takes_an_internationalized_url_the_policy_denies() {
    let out = Test::with_policy()
        .file(
            SRT_FRAGMENT,
            r#"{"network": {"deniedDomains": ["bücher.example"]}}"#,
        )
        .args(&["explain", "--json", "https://bücher.example/x"])
        .stdout_contains("\"rows\"")
        .any_stderr()
        .unchanged()
        .run();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let srt = doc["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["layer"] == "srt"))
        .unwrap_or_else(|| panic!("no srt row in {doc}"));
    assert_eq!(srt["decision"], "deny", "{srt}");
    assert_eq!(srt["rule"], "xn--bcher-kva.example", "{srt}");
}

const EVERY_AGENT: &str = r#"
[targets]
claude_settings = "~/.claude/settings.full.json"
codex_config = "~/.codex/config.toml"
codex_rules = "~/.codex/rules/twsrt.rules"
gemini_policy = "~/.gemini/policies/twsrt.toml"
opencode_config = "~/.config/opencode/opencode.json"
"#;

/// What every agent gets for `bash`, written one way or another.
fn compiled(bash: &str) -> [String; 5] {
    let out = Test::with_policy()
        .config_append(EVERY_AGENT)
        .file(BASH_FRAGMENT, bash)
        .args(&["generate", "-w"])
        .any_stdout()
        .any_stderr()
        .run();
    [
        ".config/twsrt/bash-rules.json",
        ".claude/settings.full.json",
        ".codex/rules/twsrt.rules",
        ".gemini/policies/twsrt.toml",
        ".config/opencode/opencode.json",
    ]
    .map(|file| {
        // The HOME differs per run: Gemini's path patterns name it.
        let text = out.read(file);
        let lines = text.lines().filter(|l| !l.starts_with("argsPattern"));
        lines.collect::<Vec<_>>().join("\n")
    })
}

#[test]
fn every_spelling_of_a_prefix_rule_compiles_to_the_same_files() {
    let canonical = compiled(r#"{"deny": ["curl", "npm publish", "rm -rf"]}"#);
    for spelling in [
        r#"{"deny": ["curl *", "npm publish:*", "rm  -rf"]}"#,
        r#"{"deny": ["curl:*", "npm  publish *", " rm\t-rf "]}"#,
    ] {
        assert_eq!(compiled(spelling), canonical, "{spelling}");
    }
    // The files hold what each agent's matcher needs (Codex's and Gemini's
    // measured: `codex execpolicy check`, tests/clients/gemini_match.mjs).
    let [_, claude, codex, gemini, opencode] = &canonical;
    assert!(claude.contains("\"Bash(npm publish *)\""), "{claude}");
    assert!(
        codex.contains("pattern = [\"npm\", \"publish\"]"),
        "{codex}"
    );
    assert!(
        gemini.contains("commandPrefix = \"npm publish\""),
        "{gemini}"
    );
    assert!(
        opencode.contains("\"npm publish *\": \"deny\""),
        "{opencode}"
    );
}

#[test]
fn a_star_the_agents_read_differently_is_refused_at_its_position() {
    Test::with_policy()
        .file(BASH_FRAGMENT, "{\"deny\": [\"rm\",\n  \"git * --force\"]}")
        .args(&["generate", "-w"])
        .status(1)
        .stderr(
            "Error: {HOME}/.config/twsrt/bash/base.jsonc:2:3: deny entry 'git * --force': an \
             unquoted `*` other than a trailing ` *` is a wildcard to some agents and a literal \
             to others, so the rule would mean different commands to them: list each command \
             it stands for (a trailing ` *` is the rule's prefix, as every rule is), or, for a \
             literal `*`, quote it; write \"git '*' --force\"\n",
        )
        .unchanged()
        .run();
}

#[test]
fn two_spellings_of_one_rule_in_opposing_lists_are_refused() {
    Test::with_policy()
        .file(
            BASH_FRAGMENT,
            r#"{"allow": ["rm  -rf"], "deny": ["rm -rf"]}"#,
        )
        .args(&["generate", "-w"])
        .status(1)
        .stderr_contains("'rm -rf' is in allow and in deny")
        .unchanged()
        .run();
}

#[test]
fn a_rule_without_a_command_is_refused() {
    Test::with_policy()
        .file(BASH_FRAGMENT, r#"{"deny": ["  "]}"#)
        .args(&["generate", "-w"])
        .status(1)
        .stderr(
            "Error: {HOME}/.config/twsrt/bash/base.jsonc:1:11: deny entry '  ': the rule holds \
             no command (a rule of `*` alone would match every command); name one, as in; \
             write 'git push'\n",
        )
        .unchanged()
        .run();
}

#[test]
fn every_filesystem_key_of_claude_code_2_1_337_is_a_known_override() {
    let out = Test::with_policy()
        .targets()
        .config_append(
            "[sandbox_overrides.full]\nfilesystem.allowGitConfig = true\n\
             filesystem.allowWriteWithinDeny = []\n",
        )
        .args(&["generate", "-w", "claude"])
        .any_stdout()
        .any_stderr()
        .run();
    let claude = out.read(CLAUDE_TARGET);
    assert!(claude.contains("\"allowGitConfig\": true"), "{claude}");
}

#[test]
fn a_claude_settings_file_with_a_byte_order_mark_is_read_and_keeps_it() {
    let settings = "\u{feff}{\"model\": \"opus\", \"permissions\": {\"deny\": []}}\n";
    let out = Test::with_policy()
        .targets()
        .file(CLAUDE_TARGET, settings)
        .args(&["generate", "-w", "claude"])
        .any_stdout()
        .any_stderr()
        .run();
    let written = out.read(CLAUDE_TARGET);
    assert!(written.starts_with('\u{feff}'), "{written}");
    assert!(written.contains("\"model\": \"opus\""), "{written}");
    assert!(written.contains("\"Bash(rm)\""), "{written}");
    out.then()
        .args(&["diff", "claude"])
        .any_stdout()
        .any_stderr()
        .run();
    Test::with_policy()
        .file(ANCHOR, settings.replace("[]", "[\"Bash(curl:*)\"]"))
        .args(&["import", "claude"])
        .stdout_contains("curl")
        .any_stderr()
        .run();
}

#[test]
fn a_codex_rule_with_alternatives_imports_as_the_rules_twsrt_writes() {
    let rules = "prefix_rule(pattern=[[\"rm\", \"/bin/rm\"], \"-rf\"], decision=\"forbidden\")\n";
    let out = Test::with_policy()
        .targets()
        .file(CODEX_RULES, rules)
        .args(&["import", "codex", "-w"])
        .any_stdout()
        .any_stderr()
        .run();
    let out = out
        .then()
        .args(&["generate", "-w", "codex"])
        .any_stdout()
        .any_stderr()
        .run();
    let written = out.read(CODEX_RULES);
    assert!(
        written.contains("pattern = [\"/bin/rm\", \"-rf\"]")
            && written.contains("pattern = [\"rm\", \"-rf\"]"),
        "{written}"
    );
}

#[test]
fn an_imported_deny_in_a_misspelling_is_imported_as_meant_with_a_note() {
    let settings = r#"{"permissions": {"deny": ["Read($HOME/.aws/**)", "WebFetch(domain:https://evil.example.com/x)"]}}"#;
    Test::with_policy()
        .file(ANCHOR, settings)
        .args(&["import", "claude"])
        .stdout_contains("\"~/.aws/**\"")
        .stdout_contains("\"evil.example.com\"")
        .stdout_contains("imported as '~/.aws/**', which srt and every agent read alike")
        .any_stderr()
        .unchanged()
        .run();
}

/// A quoted rule holds in the agents that compare text only for its own
/// quoting (measured with each agent's matcher, doc/clients.md "Quoted bash
/// rules"): each of them says so once; Codex compares words and says
/// nothing; an allow rule (narrower when it holds less) is not named.
#[test]
fn a_quoted_rule_is_named_once_by_every_agent_that_matches_text() {
    let out = Test::with_policy()
        .config_append(EVERY_AGENT)
        .config_append("copilot_output = \"~/flags/copilot.txt\"\n")
        .file(
            BASH_FRAGMENT,
            r#"{"deny": ["echo 'twsrt  quoted'", "rm -rf"], "allow": ["git log --format='%h'"]}"#,
        )
        .args(&["generate", "-w"])
        .any_stdout()
        .any_stderr()
        .run();
    for agent in ["Claude Code", "Copilot CLI", "Gemini CLI", "OpenCode"] {
        let lines: Vec<&str> = out
            .stderr
            .lines()
            .filter(|l| {
                l.contains(&format!(
                    "{agent} matches a bash rule against the command's text"
                ))
            })
            .collect();
        assert_eq!(lines.len(), 1, "{agent}: {}", out.stderr);
        assert!(
            lines[0].contains("\"echo 'twsrt  quoted'\""),
            "{}",
            lines[0]
        );
        assert!(!lines[0].contains("git log"), "{}", lines[0]);
    }
    assert!(
        !out.stderr.contains("Codex matches a bash rule"),
        "{}",
        out.stderr
    );
    // The rule is still compiled for its own spelling everywhere.
    assert!(
        out.read(".codex/rules/twsrt.rules")
            .contains("pattern = [\"echo\", \"twsrt  quoted\"]")
    );
    assert!(
        out.read(".claude/settings.full.json")
            .contains("\"Bash(echo 'twsrt  quoted' *)\"")
    );
}
