//! The decision table (testdata/decisions.txt) and the file tools.

use crate::shellwords::single_quote;
use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::*;

/// The decision table, one file per topic (each in the format of the first).
const TABLES: &[(&str, &str)] = &[
    ("decisions.txt", include_str!("testdata/decisions.txt")),
    ("walk.txt", include_str!("testdata/walk.txt")),
    ("programs.txt", include_str!("testdata/programs.txt")),
    ("links.txt", include_str!("testdata/links.txt")),
];

/// The world the table describes, under a fresh directory.
struct World {
    _dir: tempfile::TempDir,
    home: PathBuf,
    cwd: PathBuf,
    policy: Policy,
}

fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let home = fs::canonicalize(dir.path()).unwrap().join("h");
    let cwd = home.join("proj");
    for d in [
        ".ssh",
        ".aws",
        "proj/sub",
        "dev/muse",
        "dev/muse-other",
        ".config/twsrt/srt",
    ] {
        fs::create_dir_all(home.join(d)).unwrap();
    }
    for f in [
        ".ssh/id_rsa",
        ".aws/credentials",
        "proj/notes.txt",
        ".config/twsrt/config.toml",
        ".config/twsrt/srt/base.jsonc",
        ".bashrc",
        "proj/notes-single",
    ] {
        fs::write(home.join(f), "x").unwrap();
    }
    for (file, link) in [
        (".ssh/id_rsa", "proj/hard-key"),
        (".bashrc", "proj/hard-rc"),
        ("proj/notes.txt", "proj/hard-notes"),
    ] {
        fs::hard_link(home.join(file), home.join(link)).unwrap();
    }
    symlink(home.join(".ssh"), cwd.join("link-ssh")).unwrap();
    symlink(home.join(".aws/credentials"), cwd.join("link-file")).unwrap();
    symlink("notes.txt", cwd.join("link-safe")).unwrap();
    symlink(&home, cwd.join("link-home")).unwrap();
    symlink("../..", cwd.join("sub/link-up")).unwrap();
    let muse = format!("{}/dev/muse", home.display());
    let read = ["~/.ssh", "~/.aws", "~/.netrc", "~/.gnupg", "~/.kube", &muse];
    // The policy files, as every compile adds them to denyWrite.
    let write = [
        "~/.bashrc",
        "**/.env",
        "~/.config/twsrt/config.toml",
        "~/.config/twsrt/srt/base.jsonc",
    ];
    let policy = Policy::from_lists(&home, &cwd, &read, &write);
    World {
        _dir: dir,
        home,
        cwd,
        policy,
    }
}

fn event(w: &World, tool: &str, input: serde_json::Value) -> Event {
    Event {
        tool_name: tool.to_string(),
        tool_input: input,
        cwd: w.cwd.clone(),
    }
}

fn name(v: &Verdict) -> &'static str {
    match v {
        Verdict::Pass => "pass",
        Verdict::Sandbox { .. } => "sandbox",
        Verdict::Ask(_) => "ask",
        Verdict::Deny(_) => "deny",
    }
}

#[test]
fn decision_table() {
    let w = world();
    let home = w.home.to_string_lossy().into_owned();
    let mut failures = Vec::new();
    let mut rows = 0;
    for line in TABLES.iter().flat_map(|(_, text)| {
        text.lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
    }) {
        let (want, command) = line.split_once(" | ").expect("row: `verdict | command`");
        let command = command.replace("@H", &home).replace("\\n", "\n");
        let e = event(&w, "Bash", json!({ "command": command }));
        let full = decide(&e, &w.policy, Mode::Full);
        let yolo = decide(&e, &w.policy, Mode::Yolo);
        let want_yolo = if want == "ask" { "deny" } else { want };
        if name(&full) != want || name(&yolo) != want_yolo {
            failures.push(format!("{line}\n    full: {full:?}\n    yolo: {yolo:?}"));
        }
        rows += 1;
    }
    assert!(rows >= 150, "only {rows} rows");
    assert!(
        failures.is_empty(),
        "{} of {rows} rows differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn a_deny_names_the_command_the_path_and_the_entry() {
    let w = world();
    let e = event(&w, "Bash", json!({ "command": "cat ~/.ssh/id_rsa" }));
    let Verdict::Deny(reason) = decide(&e, &w.policy, Mode::Full) else {
        panic!("not denied")
    };
    assert!(reason.contains("cat reads ~/.ssh/id_rsa"), "{reason}");
    assert!(reason.contains("denyRead entry ~/.ssh"), "{reason}");
}

#[test]
fn file_tools_compare_their_paths() {
    let w = world();
    let h = |p: &str| format!("{}/{p}", w.home.display());
    let cases = [
        ("Read", json!({ "file_path": h(".ssh/id_rsa") }), "deny"),
        (
            "Read",
            json!({ "file_path": h("proj/link-ssh/id_rsa") }),
            "deny",
        ),
        ("Read", json!({ "file_path": h(".ssh-other/x") }), "pass"),
        (
            "Read",
            json!({ "file_path": h("proj/notes.txt"), "offset": 1, "limit": 5 }),
            "pass",
        ),
        (
            "Grep",
            json!({ "pattern": "key", "path": h(".aws") }),
            "deny",
        ),
        ("Grep", json!({ "pattern": "key", "path": w.home }), "ask"),
        // The project holds hard-key, another name of ~/.ssh/id_rsa.
        ("Grep", json!({ "pattern": "key" }), "deny"),
        (
            "Grep",
            json!({ "pattern": "key", "path": h("proj/sub") }),
            "pass",
        ),
        (
            "Glob",
            json!({ "pattern": "**/*", "path": h(".ssh") }),
            "deny",
        ),
        ("Glob", json!({ "pattern": "*.rs" }), "pass"),
        ("Glob", json!({ "pattern": h(".ssh/*") }), "deny"),
        ("Glob", json!({ "pattern": "/**/id_rsa" }), "ask"),
        (
            "Edit",
            json!({ "file_path": h(".bashrc"), "old_string": "a", "new_string": "b" }),
            "deny",
        ),
        (
            "Edit",
            json!({ "file_path": h(".ssh/config"), "old_string": "a", "new_string": "b" }),
            "deny",
        ),
        (
            "Edit",
            json!({ "file_path": h("proj/notes.txt"), "old_string": "a", "new_string": "b" }),
            "pass",
        ),
        (
            "Write",
            json!({ "file_path": h("proj/.env"), "content": "K=v" }),
            "deny",
        ),
        (
            "Write",
            json!({ "file_path": h("proj/new.txt"), "content": "x" }),
            "pass",
        ),
        (
            "NotebookEdit",
            json!({ "notebook_path": h(".aws/n.ipynb"), "new_source": "x" }),
            "deny",
        ),
        (
            "NotebookEdit",
            json!({ "notebook_path": h("proj/n.ipynb"), "new_source": "x" }),
            "pass",
        ),
        (
            "WebFetch",
            json!({ "url": "https://x", "prompt": "p" }),
            "pass",
        ),
    ];
    for (tool, input, want) in cases {
        let got = decide(&event(&w, tool, input.clone()), &w.policy, Mode::Full);
        assert_eq!(name(&got), want, "{tool} {input}: {got:?}");
    }
}

#[test]
fn file_tools_see_through_hard_links() {
    let w = world();
    let p = |f: &str| w.cwd.join(f).to_string_lossy().into_owned();
    let cases = [
        ("Read", json!({ "file_path": p("hard-key") }), "deny"),
        (
            "Grep",
            json!({ "pattern": "k", "path": p("hard-key") }),
            "deny",
        ),
        (
            "Write",
            json!({ "file_path": p("hard-key"), "content": "" }),
            "deny",
        ),
        (
            "Edit",
            json!({ "file_path": p("hard-rc"), "old_string": "a", "new_string": "b" }),
            "deny",
        ),
        ("Read", json!({ "file_path": p("hard-rc") }), "pass"),
        ("Read", json!({ "file_path": p("hard-notes") }), "pass"),
        (
            "Write",
            json!({ "file_path": p("hard-notes"), "content": "" }),
            "pass",
        ),
    ];
    for (tool, input, want) in cases {
        let got = decide(&event(&w, tool, input.clone()), &w.policy, Mode::Full);
        assert_eq!(name(&got), want, "{tool} {input}: {got:?}");
    }
    let Verdict::Deny(reason) = decide(
        &event(&w, "Read", json!({ "file_path": p("hard-key") })),
        &w.policy,
        Mode::Full,
    ) else {
        panic!("not denied")
    };
    assert!(reason.contains("a hard link to"), "{reason}");
    assert!(reason.contains(".ssh/id_rsa"), "{reason}");
}

/// Past the walk's bound a file with several names that the walk did not
/// reach is undetermined; a file with one name is never looked up.
#[test]
fn hard_links_past_the_walk_bound_are_undetermined() {
    let w = world();
    for i in 0..5 {
        fs::write(w.home.join(format!(".aws/f{i}")), "x").unwrap();
    }
    let policy = w.policy.clone().with_walk_budget(3);
    let read = |file: &str| {
        let path = w.cwd.join(file).to_string_lossy().into_owned();
        let e = event(&w, "Read", json!({ "file_path": path }));
        (
            decide(&e, &policy, Mode::Full),
            decide(&e, &policy, Mode::Yolo),
        )
    };
    let (full, yolo) = read("hard-notes");
    assert_eq!((name(&full), name(&yolo)), ("ask", "deny"), "{full:?}");
    assert!(
        format!("{full:?}").contains("more than 3 entries"),
        "{full:?}"
    );
    let (full, _) = read("notes-single");
    assert_eq!(full, Verdict::Pass);
}

#[test]
fn malformed_tool_input_is_denied() {
    let w = world();
    for (tool, input) in [
        ("Bash", json!({})),
        ("Bash", json!({ "command": 3 })),
        ("Read", json!({ "path": "/x" })),
        ("Edit", json!({ "file_path": ["a"] })),
        ("NotebookEdit", json!({ "file_path": "/x" })),
    ] {
        let got = decide(&event(&w, tool, input.clone()), &w.policy, Mode::Full);
        assert_eq!(name(&got), "deny", "{tool} {input}: {got:?}");
    }
}

#[test]
fn nesting_past_the_limit_is_undetermined() {
    let w = world();
    let mut command = "echo hi".to_string();
    for _ in 0..=bash::MAX_DEPTH + 1 {
        command = format!("sh -c {}", single_quote(&command));
    }
    let got = decide(
        &event(&w, "Bash", json!({ "command": command })),
        &w.policy,
        Mode::Full,
    );
    assert_eq!(name(&got), "ask", "{got:?}");
    let shallow = "sh -c 'sh -c \"echo hi\"'";
    let got = decide(
        &event(&w, "Bash", json!({ "command": shallow })),
        &w.policy,
        Mode::Full,
    );
    assert_eq!(got, Verdict::Pass);
}

#[test]
fn events_without_their_fields_are_refused() {
    for text in [
        "",
        "{",
        "[]",
        r#"{"tool_input": {}, "cwd": "/"}"#,
        r#"{"tool_name": "Bash", "cwd": "/"}"#,
        r#"{"tool_name": "Bash", "tool_input": {"command": "ls"}}"#,
        r#"{"tool_name": "Bash", "tool_input": {"command": "ls"}, "cwd": "rel"}"#,
    ] {
        assert!(parse_event(text).is_err(), "{text}");
    }
    let ok = parse_event(r#"{"tool_name": "Bash", "tool_input": {"command": "ls"}, "cwd": "/w"}"#);
    assert_eq!(ok.map(|e| e.cwd), Ok(Path::new("/w").to_path_buf()));
}

#[test]
fn text_nested_too_deeply_is_undetermined_not_a_crash() {
    let w = world();
    for command in [
        format!("echo {}x{}", "$(echo ".repeat(5000), ")".repeat(5000)),
        format!("{}cat notes.txt{}", "( ".repeat(5000), " )".repeat(5000)),
        format!("echo ${{{}", "{".repeat(5000)),
        format!(
            "{}cat x{}",
            "if true; then ".repeat(5000),
            "; fi".repeat(5000)
        ),
        format!(
            "{}cat x{}",
            "while true; do ".repeat(5000),
            "; done".repeat(5000)
        ),
        format!(
            "{}cat x{}",
            "case x in x) ".repeat(5000),
            ";; esac".repeat(5000)
        ),
    ] {
        let got = decide(
            &event(&w, "Bash", json!({ "command": command })),
            &w.policy,
            Mode::Full,
        );
        assert_eq!(name(&got), "ask", "{got:?}");
    }
    let nested = format!("{}cat ~/.ssh/id_rsa{}", "( ".repeat(5), " )".repeat(5));
    let got = decide(
        &event(&w, "Bash", json!({ "command": nested })),
        &w.policy,
        Mode::Full,
    );
    assert_eq!(name(&got), "deny", "{got:?}");
}

/// Random command lines from shell pieces: every one gets an answer, none
/// panics (a hook that dies lets the call through).
#[test]
fn random_command_lines_never_panic() {
    let w = world();
    let pieces = [
        "cat", "grep -r", "tar czf", "curl -F", "sh -c", "eval", "cd", "sed -i", "find", " ", " ",
        "~/.ssh", "~", "..", "$X", "$(", ")", "`", "'", "\"", "\\", "<", ">", ">>", "<<EOF\n",
        "\nEOF\n", "<<<", "|", "&&", "||", ";", "&", "(", "{", "}", "[[", "]]", "((", "))", "*",
        "?", "[", "]", "=", "@", "-", "--", "-e", "x=1", "if", "then", "fi", "for", "in", "do",
        "done", "case", "esac", "\n", "#", "!", "${", "é", "\u{0}",
    ];
    let mut rng = crate::test_rng::Rng(19);
    for _ in 0..3000 {
        let len = rng.below(12) as usize;
        let command: String = (0..len).map(|_| rng.pick(&pieces)).collect();
        let e = event(&w, "Bash", json!({ "command": command }));
        for mode in [Mode::Full, Mode::Yolo] {
            let verdict = decide(&e, &w.policy, mode);
            if mode == Mode::Yolo {
                assert!(!matches!(verdict, Verdict::Ask(_)), "{command:?}");
            }
        }
    }
}

#[test]
fn a_named_path_asks_and_names_the_entry() {
    let w = world();
    let e = event(&w, "Bash", json!({ "command": "my-tool -s ~/.ssh/id_rsa" }));
    let Verdict::Ask(reason) = decide(&e, &w.policy, Mode::Full) else {
        panic!("not asked")
    };
    assert!(
        reason.contains("my-tool is given ~/.ssh/id_rsa"),
        "{reason}"
    );
    assert!(reason.contains("denyRead entry ~/.ssh"), "{reason}");
}

/// Random command lines from wrappers, options and destinations: every one
/// gets an answer (yolo never asks), none panics.
#[test]
fn random_wrapped_commands_never_panic() {
    let w = world();
    let pieces = [
        "sudo",
        "env -S",
        "env -C",
        "su -c",
        "script -qc",
        "flock",
        "find . -exec",
        "\\;",
        "+",
        "xargs -a",
        "parallel",
        ":::",
        "::::",
        "watch",
        "timeout",
        "chroot",
        "busybox",
        "tar",
        "fc",
        "-xf",
        "-C",
        "-T",
        "-I",
        "cp",
        "-t",
        "-rT",
        "--parents",
        "mv",
        "ln -s",
        "curl",
        "-O",
        "--output-dir",
        "file://",
        "wget -P",
        "unzip -d",
        "socat",
        "FILE:",
        "EXEC:",
        "sed",
        "awk",
        "alias",
        "x=",
        "od -w",
        "--out=",
        "--",
        "-",
        "~",
        "~/.ssh",
        "@",
        "=",
        ",",
        ":",
        "*",
        ".*",
        "'",
        "\"",
        "$X",
        " ",
        " ",
        " ",
        "{}",
        "/",
        ".",
        "..",
    ];
    let mut rng = crate::test_rng::Rng(28);
    for _ in 0..2000 {
        let len = rng.below(10) as usize;
        let command: String = (0..len).map(|_| rng.pick(&pieces)).collect();
        let e = event(&w, "Bash", json!({ "command": command }));
        let verdict = decide(&e, &w.policy, Mode::Yolo);
        assert!(!matches!(verdict, Verdict::Ask(_)), "{command:?}");
        decide(&e, &w.policy, Mode::Full);
    }
}

/// `decide` on the stack the hook command gives it.
fn decide_on_analysis_stack(w: &World, command: String, mode: Mode) -> Verdict {
    let e = event(w, "Bash", json!({ "command": command }));
    let policy = w.policy.clone();
    std::thread::Builder::new()
        .stack_size(crate::hook::ANALYSIS_STACK)
        .spawn(move || decide(&e, &policy, mode))
        .expect("a thread")
        .join()
        .expect("no panic")
}

/// Every nesting form, as (opening, closing) text around a command.
const NESTING_FORMS: &[(&str, &str)] = &[
    ("( ", " )"),
    ("{ ", "; }"),
    ("$(", ")"),
    ("echo \"$(", ")\""),
    ("echo ${U:-$(", ")}"),
    ("echo $(( $(", ") ))"),
    ("case x in $(", ")) ;; esac"),
    ("coproc ", ""),
    ("[[ ! ", " ]]"),
    ("[[ ( ", " ) ]]"),
    ("[[ -n x && ", " ]]"),
    ("! ", ""),
    ("time ", ""),
    ("sudo ", ""),
    ("env ", ""),
    ("command ", ""),
    ("if true; then ", "; fi"),
    ("while true; do ", "; done"),
    ("until false; do ", "; done"),
    ("for i in 1; do ", "; done"),
    ("case x in x) ", " ;; esac"),
    ("cat <(", ")"),
    ("f() { ", "; }"),
    ("eval ", ""),
    ("true && ", ""),
    ("true | ", ""),
];

/// A read of a denied file hidden under any depth of any nesting form is
/// never a pass: it is found, or the depth is answered like an unreadable
/// command. Unbalanced openings get an answer too.
#[test]
fn deep_nesting_of_every_form_is_never_a_pass() {
    let w = world();
    let mut passed = Vec::new();
    for (open, close) in NESTING_FORMS {
        for depth in [1, bash::MAX_NESTING - 1, bash::MAX_NESTING + 1, 10_000] {
            let mut command = open.repeat(depth);
            command.push_str("cat ~/.ssh/id_rsa");
            command.push_str(&close.repeat(depth));
            for mode in [Mode::Full, Mode::Yolo] {
                if decide_on_analysis_stack(&w, command.clone(), mode) == Verdict::Pass {
                    passed.push(format!("{open:?}..{close:?} x{depth} {mode:?}"));
                }
            }
            // Unclosed openings make the parser backtrack exponentially
            // below the limit (the hook's deadline answers those).
            if depth != bash::MAX_NESTING - 1 {
                decide_on_analysis_stack(&w, open.repeat(depth), Mode::Full);
            }
        }
    }
    assert!(passed.is_empty(), "passed:\n{}", passed.join("\n"));
}

/// The issue's example: 20 KB of `!` inside `[[ ]]` overflowed the stack.
#[test]
fn ten_thousand_negations_are_answered() {
    let w = world();
    let command = format!("[[ {}-n x ]] && cat ~/.ssh/id_rsa", "! ".repeat(10_000));
    let got = decide_on_analysis_stack(&w, command.clone(), Mode::Full);
    assert_eq!(name(&got), "ask", "{got:?}");
    let got = decide_on_analysis_stack(&w, command, Mode::Yolo);
    assert_eq!(name(&got), "deny", "{got:?}");
}

/// Huge inputs and random bytes: an answer each, and a command longer than
/// the walk reads is not a pass.
#[test]
fn huge_and_random_inputs_get_an_answer() {
    let w = world();
    let huge = "x ".repeat(bash::MAX_COMMAND_BYTES);
    assert_eq!(name(&decide_on_analysis_stack(&w, huge, Mode::Full)), "ask");
    let just_below = format!("cat {}", "x".repeat(bash::MAX_COMMAND_BYTES - 10));
    assert_eq!(
        decide_on_analysis_stack(&w, just_below, Mode::Full),
        Verdict::Pass
    );
    let mut rng = crate::test_rng::Rng(28);
    let bytes: Vec<String> = (0..300)
        .map(|_| {
            let len = rng.below(300) as usize;
            let raw: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
            String::from_utf8_lossy(&raw).into_owned()
        })
        .collect();
    let w2 = world();
    std::thread::Builder::new()
        .stack_size(crate::hook::ANALYSIS_STACK)
        .spawn(move || {
            for command in bytes {
                let e = event(&w2, "Bash", json!({ "command": command }));
                let got = decide(&e, &w2.policy, Mode::Yolo);
                assert!(!matches!(got, Verdict::Ask(_)), "{command:?}");
            }
        })
        .expect("a thread")
        .join()
        .expect("no panic");
}

/// Functions that each call the one before twice would take 2^n walks:
/// the step budget answers them, and quickly.
#[test]
fn functions_calling_functions_are_answered_within_the_budget() {
    let w = world();
    let mut command = "f0() { cat ~/.ssh/id_rsa; }; ".to_string();
    for i in 1..40 {
        command.push_str(&format!("f{i}() {{ f{}; f{}; }}; ", i - 1, i - 1));
    }
    command.push_str("f39");
    let got = decide_on_analysis_stack(&w, command, Mode::Full);
    assert_eq!(name(&got), "deny", "{got:?}");
    let looping = "f() { f; }; f && cat notes.txt".to_string();
    assert_ne!(
        decide_on_analysis_stack(&w, looping, Mode::Full),
        Verdict::Pass
    );
}

/// Sandbox mode over the whole decision table: every Bash command the
/// table asks about or passes runs inside srt (in both modes), but the
/// inert ones, which pass; a deny stays; without a usable srt the verdicts
/// are the table's.
#[test]
fn sandbox_mode_wraps_exactly_what_the_table_asks_about() {
    let w = world();
    let home = w.home.to_string_lossy().into_owned();
    let sandbox = Sandbox::new(
        PathBuf::from("/opt/srt bin/srt"),
        PathBuf::from("/h/.srt-settings.json"),
        std::iter::empty(),
    );
    let mut failures = Vec::new();
    for line in TABLES.iter().flat_map(|(_, text)| {
        text.lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
    }) {
        let (want, command) = line.split_once(" | ").expect("row: `verdict | command`");
        let command = command.replace("@H", &home).replace("\\n", "\n");
        let e = event(&w, "Bash", json!({ "command": command, "timeout": 9 }));
        for mode in [Mode::Full, Mode::Yolo] {
            let got = decide_sandboxed(&e, &w.policy, mode, &Ok(sandbox.clone()));
            let inert = super::inert::inert(&command, None);
            let ok = match (want, &got) {
                ("ask", Verdict::Sandbox { input, .. }) => {
                    *input == json!({ "command": sandbox.wrap(&command), "timeout": 9 })
                }
                ("pass", Verdict::Sandbox { input, .. }) if !inert => {
                    *input == json!({ "command": sandbox.wrap(&command), "timeout": 9 })
                }
                ("pass", Verdict::Pass) => inert,
                (want, got) => name(got) == want,
            };
            let without = decide_sandboxed(&e, &w.policy, mode, &Err("no srt".into()));
            let plain = decide(&e, &w.policy, mode);
            if !ok || name(&without) != name(&plain) {
                failures.push(format!("{line} ({mode:?}): {got:?} / {without:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let grep = event(&w, "Grep", json!({ "pattern": "k", "path": w.home }));
    let got = decide_sandboxed(&grep, &w.policy, Mode::Yolo, &Ok(sandbox));
    assert_eq!(
        name(&got),
        "deny",
        "the file tools are not wrapped: {got:?}"
    );
}

#[test]
fn a_wrapped_command_is_quoted_for_the_shell_and_for_srt() {
    let sandbox = Sandbox::new(
        PathBuf::from("/opt/srt bin/srt"),
        PathBuf::from("/h/it's.json"),
        std::iter::empty(),
    );
    assert_eq!(
        sandbox.wrap("cat $F 'a'"),
        r#"'/opt/srt bin/srt' -s '/h/it'\''s.json' -c 'cat $F '\''a'\'''"#
    );
    assert_eq!(
        sandbox.wrap("-x $F"),
        r#"'/opt/srt bin/srt' -s '/h/it'\''s.json' -c 'eval '\''-x $F'\'''"#
    );
    let words = crate::shellwords::split(&sandbox.wrap("+o x'\"\n$(y)")).unwrap();
    assert_eq!(words[4], "eval '+o x'\\''\"\n$(y)'");
}

/// A command a bash deny or ask rule may cover is not wrapped: Claude Code
/// would match the rule against the rewritten command, where it never
/// matches.
#[test]
fn sandbox_mode_leaves_commands_under_bash_rules_to_those_rules() {
    let w = world();
    let sandbox = Sandbox::new(
        "/srt".into(),
        "/s.json".into(),
        ["dd", "git push"].into_iter(),
    );
    for (command, want_full, want_yolo) in [
        ("dd if=$X of=/dev/null", "ask", "deny"),
        ("cat $X; git push", "ask", "deny"),
        ("cat $X", "sandbox", "sandbox"),
    ] {
        let e = event(&w, "Bash", json!({ "command": command }));
        let full = decide_sandboxed(&e, &w.policy, Mode::Full, &Ok(sandbox.clone()));
        let yolo = decide_sandboxed(&e, &w.policy, Mode::Yolo, &Ok(sandbox.clone()));
        assert_eq!(
            (name(&full), name(&yolo)),
            (want_full, want_yolo),
            "{command}: {full:?}"
        );
    }
}
