//! The parser on each table: spellings, values, `--`, combined shorts,
//! subcommands, and the tokens that fail closed.

use crate::argv::{ParseError, Parsed, all_tables, parse};

/// The root table of the agent whose binary is `binary`.
fn for_agent(binary: &str) -> Option<&'static crate::argv::Grammar> {
    super::launchers()
        .iter()
        .find(|l| l.launch.binary() == binary)
        .map(|l| l.launch.grammar())
}

fn words(line: &[&str]) -> Vec<String> {
    line.iter().map(|w| w.to_string()).collect()
}

fn read(agent: &str, line: &[&str]) -> Result<Parsed, ParseError> {
    parse(for_agent(agent).unwrap(), &words(line))
}

/// (first spelling, values) of every option read.
fn options(agent: &str, line: &[&str]) -> Vec<(&'static str, Vec<String>)> {
    read(agent, line)
        .unwrap()
        .options
        .into_iter()
        .map(|o| (o.name, o.values))
        .collect()
}

fn one(name: &'static str, value: &str) -> Vec<(&'static str, Vec<String>)> {
    vec![(name, vec![value.to_string()])]
}

#[test]
fn a_value_is_read_in_every_spelling() {
    for line in [
        &["-s", "read-only"][..],
        &["-sread-only"],
        &["-s=read-only"],
        &["--sandbox", "read-only"],
        &["--sandbox=read-only"],
    ] {
        assert_eq!(
            options("codex", line),
            one("--sandbox", "read-only"),
            "{line:?}"
        );
    }
    for line in [
        &["--permission-mode", "plan"][..],
        &["--permission-mode=plan"],
    ] {
        assert_eq!(
            options("claude", line),
            one("--permission-mode", "plan"),
            "{line:?}"
        );
    }
}

#[test]
fn combined_short_flags_end_at_the_first_value_option() {
    let read = options("codex", &["-Vsdanger-full-access", "prompt"]);
    assert_eq!(
        read,
        vec![
            ("--version", vec![]),
            ("--sandbox", vec!["danger-full-access".into()])
        ]
    );
    let read = options("claude", &["-pc"]);
    assert_eq!(read, vec![("--print", vec![]), ("--continue", vec![])]);
}

#[test]
fn a_commander_value_takes_the_next_word_whatever_it_looks_like() {
    // Claude's --append-system-prompt swallows the risky-looking word: it is
    // text, and Claude reads it as such.
    let read = options(
        "claude",
        &["--append-system-prompt", "--dangerously-skip-permissions"],
    );
    assert_eq!(
        read,
        one("--append-system-prompt", "--dangerously-skip-permissions")
    );
    let read = options("copilot", &["-p", "--yolo"]);
    assert_eq!(read, one("--prompt", "--yolo"));
}

#[test]
fn a_clap_value_never_starts_with_a_dash() {
    // codex -m --yolo: clap refuses the launch ("a value is required").
    let err = read("codex", &["-m", "--yolo"]).unwrap_err();
    assert!(matches!(err, ParseError::MissingValue { .. }), "{err:?}");
    // A value that only names a risky word is a value.
    assert_eq!(
        options("codex", &["-m", "danger-full-access"]),
        one("--model", "danger-full-access")
    );
}

#[test]
fn variadic_options_take_words_until_the_next_option() {
    let read = options(
        "claude",
        &["--add-dir", "a", "b", "--dangerously-skip-permissions"],
    );
    assert_eq!(
        read,
        vec![
            ("--add-dir", vec!["a".into(), "b".into()]),
            ("--dangerously-skip-permissions", vec![]),
        ]
    );
    let read = options(
        "copilot",
        &["--deny-tool", "shell(rm)", "shell(dd)", "--deny-url=x.com"],
    );
    assert_eq!(
        read,
        vec![
            ("--deny-tool", vec!["shell(rm)".into(), "shell(dd)".into()]),
            ("--deny-url", vec!["x.com".into()]),
        ]
    );
}

#[test]
fn optional_values_skip_options() {
    assert_eq!(
        options("claude", &["-r", "--dangerously-skip-permissions"]),
        vec![
            ("--resume", vec![]),
            ("--dangerously-skip-permissions", vec![])
        ]
    );
    assert_eq!(options("claude", &["-r", "abc"]), one("--resume", "abc"));
}

#[test]
fn a_double_dash_ends_the_options() {
    for (agent, risky) in [
        ("codex", "--yolo"),
        ("claude", "--dangerously-skip-permissions"),
        ("copilot", "--allow-all"),
    ] {
        let parsed = read(agent, &["--", risky]).unwrap();
        assert!(parsed.options.is_empty(), "{agent}");
        assert_eq!(parsed.positionals, [risky]);
        assert_eq!(parsed.terminator, Some(0));
    }
}

#[test]
fn options_after_a_prompt_are_still_options() {
    let read = options("codex", &["fix it", "--yolo"]);
    assert_eq!(read, vec![("--yolo", vec![])]);
}

#[test]
fn a_subcommand_switches_the_table() {
    let parsed = read("codex", &["-m", "o3", "exec", "--json", "--yolo", "go"]).unwrap();
    assert_eq!(parsed.command, "codex exec");
    let names: Vec<_> = parsed.options.iter().map(|o| o.name).collect();
    assert_eq!(names, ["--model", "--json", "--yolo"]);
    assert_eq!(parsed.positionals, ["go"]);
    // `e` is exec's alias; a value that reads `exec` is no subcommand.
    assert_eq!(
        read("codex", &["e", "--json"]).unwrap().command,
        "codex exec"
    );
    let parsed = read("codex", &["-m", "exec"]).unwrap();
    assert_eq!(parsed.command, "codex");
    // --json is exec's own: the interactive CLI has no such option.
    assert!(read("codex", &["--json"]).is_err());
}

#[test]
fn what_cannot_be_placed_fails_closed() {
    let cases: [(&str, &[&str]); 8] = [
        ("codex", &["--full-auto"]),
        ("codex", &["-x"]),
        ("codex", &["--sandbox"]),
        ("codex", &["--oss=1"]),
        ("codex", &["app-server"]),
        ("codex", &["exec", "resume", "--nope"]),
        ("claude", &["mcp", "bogus"]),
        ("copilot", &["--nope"]),
    ];
    for (agent, line) in cases {
        assert!(read(agent, line).is_err(), "{agent} {line:?}");
    }
    let err = read("claude", &["--settings=SECRET-1", "--bogus=SECRET-2"]).unwrap_err();
    assert!(!err.to_string().contains("SECRET"), "{err}");
    assert!(err.to_string().contains("--bogus"), "{err}");
}

#[test]
fn hidden_spellings_are_marked_and_listed() {
    let codex = for_agent("codex").unwrap();
    let hidden: Vec<_> = all_tables(codex)
        .iter()
        .flat_map(|t| t.options.iter())
        .filter(|o| o.hidden)
        .map(|o| o.names[0])
        .collect();
    // Every session with --dangerously-bypass-approvals-and-sandbox: codex,
    // exec, exec resume/fork/review, resume, fork.
    assert_eq!(hidden.len(), 7);
    assert!(hidden.iter().all(|h| *h == "--yolo"));
    assert_eq!(all_tables(codex).len(), 9);
    assert!(for_agent("vim").is_none());
}

#[test]
fn session_subcommands_are_read_with_their_own_table() {
    let cases: [(&str, &[&str], &str); 8] = [
        ("codex", &["resume", "--last"], "codex resume"),
        ("codex", &["fork", "--last", "--yolo"], "codex fork"),
        (
            "codex",
            &["exec", "-s", "read-only", "resume", "--last"],
            "codex exec resume",
        ),
        (
            "codex",
            &["e", "review", "--ignore-rules"],
            "codex exec review",
        ),
        ("codex", &["review", "--trust"], "codex review"),
        ("codex", &["agents", "-c", "x=1"], "codex agents"),
        (
            "claude",
            &["agents", "--dangerously-skip-permissions"],
            "claude agents",
        ),
        ("claude", &["mcp", "serve", "--debug"], "claude mcp serve"),
    ];
    for (agent, line, table) in cases {
        let parsed = read(agent, line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
        assert_eq!(parsed.command, table);
        assert!(parsed.session, "{line:?}");
    }
}

#[test]
fn subcommands_that_start_no_session_pass_untouched() {
    let cases: [(&str, &[&str]); 8] = [
        ("codex", &["mcp", "list"]),
        ("codex", &["login", "--with-api-key"]),
        ("codex", &["completion", "zsh"]),
        ("claude", &["mcp", "list"]),
        ("claude", &["update"]),
        ("claude", &["plugin", "marketplace", "add", "x/y"]),
        ("copilot", &["mcp", "list", "--json"]),
        ("gemini", &["extensions", "list"]),
    ];
    for (agent, line) in cases {
        let parsed = read(agent, line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
        assert!(!parsed.session, "{agent} {line:?}");
        assert_eq!(
            parsed.positionals,
            line[line.len() - parsed.positionals.len()..]
        );
    }
    // A group without one of its subcommands prints its help: no session.
    assert!(!read("claude", &["mcp"]).unwrap().session);
}

#[test]
fn refused_and_unknown_subcommands_name_the_deliberate_bypass() {
    for (agent, line) in [
        ("codex", &["app-server"][..]),
        ("claude", &["respawn", "--all"]),
        ("claude", &["plugin", "eval", "p"]),
        ("copilot", &["init"]),
        ("claude", &["mcp", "frobnicate"]),
    ] {
        let said = read(agent, line).unwrap_err().to_string();
        assert!(
            said.contains("bypass the wrapper deliberately: `command "),
            "{said}"
        );
    }
    let said = read("claude", &["plugin", "ghp_16C7e42F292c6912E"])
        .unwrap_err()
        .to_string();
    assert!(said.contains("unknown subcommand <word>"), "{said}");
}
