//! The Gemini table and yargs' reading: every spelling yargs accepts for an
//! option, the value rules, short groups, and what fails closed. The
//! spellings were checked against the real `gemini` 0.61.0 (doc/clients.md).

use crate::argv::yargs::{camel, is_negative_number};
use crate::argv::{ParseError, Parsed, parse};

fn for_agent(_: &str) -> Option<&'static crate::argv::Grammar> {
    Some(&super::grammar::GEMINI)
}

fn read(line: &[&str]) -> Result<Parsed, ParseError> {
    let words: Vec<String> = line.iter().map(|w| w.to_string()).collect();
    parse(for_agent("gemini").unwrap(), &words)
}

/// (first spelling, values, on) of every option read.
fn options(line: &[&str]) -> Vec<(&'static str, Vec<String>, bool)> {
    read(line)
        .unwrap_or_else(|e| panic!("{line:?}: {e}"))
        .options
        .into_iter()
        .map(|o| {
            let on = o.on();
            (o.name, o.values, on)
        })
        .collect()
}

fn one(name: &'static str, value: &str) -> Vec<(&'static str, Vec<String>, bool)> {
    vec![(name, vec![value.to_string()], true)]
}

#[test]
fn a_value_in_every_spelling_yargs_reads() {
    for line in [
        &["--approval-mode", "yolo"][..],
        &["--approval-mode=yolo"],
        &["--approvalMode", "yolo"],
        &["--APPROVAL-MODE", "yolo"],
        &["--approval-Mode=yolo"],
    ] {
        assert_eq!(options(line), one("--approval-mode", "yolo"), "{line:?}");
    }
    for line in [
        &["-m", "x"][..],
        &["--model", "x"],
        &["--model=x"],
        &["-m=x"],
    ] {
        assert_eq!(options(line), one("--model", "x"), "{line:?}");
    }
    // A non-word character after a letter starts its value.
    assert_eq!(options(&["-m/x"]), one("--model", "/x"));
}

#[test]
fn a_boolean_is_on_unless_negated_or_false() {
    let on = |line: &[&str]| -> Vec<bool> { options(line).iter().map(|o| o.2).collect() };
    for line in [
        &["--yolo"][..],
        &["-y"],
        &["--yolo", "true"],
        &["--YOLO-"],
        &["--yolo=1"],
    ] {
        assert_eq!(on(line), [true], "{line:?}");
    }
    for line in [
        &["--yolo", "false"][..],
        &["-y", "false"],
        &["--yolo=false"],
        &["--no-yolo"],
        &["--no-YOLO-"],
    ] {
        assert_eq!(on(line), [false], "{line:?}");
    }
    // Only true/false is a boolean's value: any other word is the prompt.
    let parsed = read(&["-y", "fix", "it"]).unwrap();
    assert_eq!(parsed.positionals, ["fix", "it"]);
}

#[test]
fn a_required_value_never_looks_like_an_option() {
    // gemini -p --yolo: "Not enough arguments following: p".
    for line in [&["-p", "--yolo"][..], &["--policy", "-"], &["--prompt"]] {
        let err = read(line).unwrap_err();
        assert!(matches!(err, ParseError::MissingValue { .. }), "{line:?}");
    }
    assert_eq!(options(&["-p", "-5"]), one("--prompt", "-5"));
    assert_eq!(options(&["-p", "-"]), one("--prompt", "-"));
    assert_eq!(options(&["--policy", "-.5"]), one("--policy", "-.5"));
}

#[test]
fn an_optional_value_skips_what_starts_with_a_dash() {
    assert_eq!(
        options(&["-r", "--yolo"]),
        vec![("--resume", vec![], true), ("--yolo", vec![], true)]
    );
    assert_eq!(options(&["--resume", "latest"]), one("--resume", "latest"));
    let parsed = read(&["--worktree", "-"]).unwrap();
    assert_eq!(parsed.positionals, ["-"]);
}

#[test]
fn an_array_takes_one_value_per_occurrence() {
    let parsed = read(&["--policy", "a", "b", "--policy=c"]).unwrap();
    let values: Vec<_> = parsed.options.iter().map(|o| o.values.clone()).collect();
    assert_eq!(values, [vec!["a".to_string()], vec!["c".to_string()]]);
    assert_eq!(parsed.positionals, ["b"]);
    assert_eq!(options(&["-e", "x,y"]), one("--extensions", "x,y"));
}

#[test]
fn short_groups_read_as_yargs_reads_them() {
    assert_eq!(
        options(&["-yd"]),
        vec![("--yolo", vec![], true), ("--debug", vec![], true)]
    );
    assert_eq!(
        options(&["-yp", "x"]),
        vec![
            ("--yolo", vec![], true),
            ("--prompt", vec!["x".into()], true)
        ]
    );
    // A value option before the last letter gets no value; yargs sets "".
    assert_eq!(
        options(&["-py"]),
        vec![("--prompt", vec![], true), ("--yolo", vec![], true)]
    );
    assert_eq!(options(&["-p=x"]), one("--prompt", "x"));
    assert_eq!(options(&["-y1"]), one("--yolo", "1"));
    // -pfoo: yargs reads the letters p, f, o; gemini has no -f.
    assert!(matches!(read(&["-pfoo"]), Err(ParseError::Unknown { .. })));
}

#[test]
fn numbers_and_a_lone_dash_are_words() {
    let parsed = read(&["-5", "-", "--", "--yolo"]).unwrap();
    assert!(parsed.options.is_empty());
    assert_eq!(parsed.positionals, ["-5", "-", "--yolo"]);
    assert!(is_negative_number("-1.5") && is_negative_number("-.5"));
    assert!(!is_negative_number("-1x") && !is_negative_number("-"));
}

#[test]
fn subcommands_pass_through_and_only_come_first() {
    for sub in [
        "mcp",
        "extensions",
        "extension",
        "skills",
        "skill",
        "hooks",
        "hook",
        "gemma",
    ] {
        // None starts a session: the rest is not read (`--bogus` included).
        let parsed = read(&["-d", sub, "list", "--bogus"]).unwrap();
        assert!(!parsed.session, "{sub}");
        assert_eq!(parsed.positionals, [sub, "list", "--bogus"]);
    }
    let parsed = read(&["fix", "mcp"]).unwrap();
    assert_eq!(parsed.positionals, ["fix", "mcp"]);
    assert!(parsed.session);
}

#[test]
fn hidden_options_and_their_spellings() {
    let gemini = for_agent("gemini").unwrap();
    let hidden: Vec<_> = gemini
        .options
        .iter()
        .filter(|o| o.hidden)
        .map(|o| o.names[0])
        .collect();
    assert_eq!(
        hidden,
        [
            "--isCommand",
            "--fake-responses",
            "--fake-responses-non-strict",
            "--record-responses"
        ]
    );
    assert_eq!(options(&["--is-command"])[0].0, "--isCommand");
    assert_eq!(options(&["--skipTrust"])[0].0, "--skip-trust");
}

#[test]
fn what_yargs_rejects_fails_closed() {
    // Each of these is "Unknown argument" to gemini 0.61.0, or a dotted key
    // yargs turns into an object (--yolo.x is yolo on) that twsrt will not
    // guess at.
    for line in [
        &["--Yolo"][..],
        &["--approval_mode", "yolo"],
        &["--yolo.x"],
        &["--no-yolo=1"],
        &["-Y"],
        &["--bogus"],
    ] {
        assert!(
            matches!(read(line), Err(ParseError::Unknown { .. })),
            "{line:?}"
        );
    }
}

#[test]
fn camel_case_as_yargs_computes_it() {
    for (key, want) in [
        ("approval-mode", "approvalMode"),
        ("APPROVAL-MODE", "approvalMode"),
        ("approval-Mode", "approvalMode"),
        ("YOLO-", "yolo"),
        ("isCommand", "isCommand"),
        ("allowed-mcp-server-names", "allowedMcpServerNames"),
        ("approval_mode", "approvalMode"),
    ] {
        assert_eq!(camel(key), want, "{key}");
    }
}
