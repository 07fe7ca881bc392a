use super::*;
use crate::compile::compile;
use std::path::Path;

/// A compiled policy in a temp dir: (dir guard, config, compiled).
fn setup(srt: &str, bash: &str, targets: &str) -> (tempfile::TempDir, crate::config::Config) {
    let dir = tempfile::tempdir().unwrap();
    let cfg = format!(
        "schema_version = 1\ndefault_profile = \"d\"\n[sources.srt]\noutput = \"srt.json\"\n\
         [sources.srt.fragments.a]\npath = \"srt.jsonc\"\n[sources.bash]\noutput = \"bash.json\"\n\
         [sources.bash.fragments.a]\npath = \"bash.jsonc\"\n[profiles.d]\nsrt = [\"a\"]\nbash = [\"a\"]\n\
         [targets]\n{targets}\n"
    );
    std::fs::write(dir.path().join("srt.jsonc"), srt).unwrap();
    std::fs::write(dir.path().join("bash.jsonc"), bash).unwrap();
    let config = crate::config::parse(&cfg, &dir.path().join("config.toml")).unwrap();
    (dir, config)
}

fn preview(config: &crate::config::Config, yolo: bool) -> (String, Vec<String>) {
    let compiled = compile(config, None).unwrap();
    let ctx = Ctx::new(config, &compiled, yolo);
    let mut w = Vec::new();
    (
        Copilot.preview(&ctx, &mut w).unwrap(),
        crate::agent::messages(&w),
    )
}

const SRT: &str = r#"{"filesystem": {"allowWrite": [".", "/tmp"], "denyRead": ["~/.ssh"]},
  "network": {"allowedDomains": ["github.com", "*.github.com"], "deniedDomains": ["evil.com"]}}"#;
const BASH: &str = r#"{"allow": ["gh pr view"], "ask": ["git push"], "deny": ["rm", "sudo"]}"#;

// Recorded from twsrt 3.3.3 (`generate [--yolo] copilot` on the same policy,
// `copilot_output` set; the compile sorts the domain lists), plus the one
// deliberate difference: the `http://` twin after the scheme-less
// `--deny-url` (doc/compatibility.md).
const FULL: &str = "--allow-tool 'shell' \\\n--allow-tool 'read' \\\n--allow-tool 'edit' \\\n\
--allow-tool 'write' \\\n--allow-url '*.github.com' \\\n--allow-url 'github.com' \\\n\
--deny-url 'evil.com' \\\n--deny-url 'http://evil.com' \\\n--deny-tool 'shell(git push:*)' \\\n\
--deny-tool 'shell(rm:*)' \\\n--deny-tool 'shell(sudo:*)' \\";
const YOLO: &str = "--yolo \\\n--deny-url 'evil.com' \\\n--deny-url 'http://evil.com' \\\n\
--deny-tool 'shell(rm:*)' \\\n--deny-tool 'shell(sudo:*)' \\";

#[test]
fn full_mode_matches_the_reference_and_warns_per_ask_rule() {
    let (_d, config) = setup(SRT, BASH, "");
    let (text, warnings) = preview(&config, false);
    assert_eq!(text, FULL);
    // The first allowWrite entry opens the shell tool: said once, for it.
    assert_eq!(warnings.len(), 2);
    assert!(
        warnings[0].starts_with("allowWrite '.' emits --allow-tool 'shell'")
            && warnings[0].contains("every shell command without asking"),
        "{}",
        warnings[0]
    );
    assert!(warnings[1].contains("'git push'") && warnings[1].contains("--deny-tool"));
    // Yolo writes no --allow-tool, so nothing is said.
    let (_, yolo) = preview(&config, true);
    assert!(yolo.iter().all(|w| !w.contains("--allow-tool")), "{yolo:?}");
}

#[test]
fn yolo_mode_keeps_only_denies_after_the_yolo_flag() {
    let (_d, config) = setup(SRT, BASH, "");
    let (text, warnings) = preview(&config, true);
    assert_eq!(text, YOLO);
    assert!(warnings.is_empty());
}

#[test]
fn a_single_quote_cannot_break_out_of_its_quotes() {
    let (_d, config) = setup("{}", r#"{"deny": ["echo 'x' rm -rf ~"]}"#, "");
    let (text, _) = preview(&config, false);
    assert_eq!(text, r"--deny-tool 'shell(echo '\''x'\'' rm -rf ~:*)' \");
}

#[test]
fn stage_writes_the_mode_target_and_records_the_preview() {
    let (dir, config) = setup(SRT, BASH, "copilot_output = \"flags.txt\"");
    assert!(Copilot.configured(&config));
    let compiled = compile(&config, None).unwrap();
    for (yolo, name) in [(false, "flags.txt"), (true, "flags.yolo.txt")] {
        let ctx = Ctx::new(&config, &compiled, yolo);
        let mut plan = Plan::default();
        Copilot.stage(&ctx, &mut plan, &mut Vec::new()).unwrap();
        let expected = if yolo { YOLO } else { FULL };
        assert_eq!(
            plan.steps,
            vec![crate::plan::Step::Write {
                path: dir.path().join(name),
                content: format!("{expected}\n").into_bytes(),
                kind: FileKind::AgentTarget
            }]
        );
        let shown: Vec<_> = plan.renderings().collect();
        assert_eq!(shown, [("copilot", expected)]);
        assert_eq!(Copilot.target(&ctx), dir.path().join(name));
    }
}

#[test]
fn without_copilot_output_copilot_is_unconfigured_and_stages_nothing() {
    let (_d, config) = setup(SRT, BASH, "");
    assert!(!Copilot.configured(&config));
    assert_eq!(Copilot.target_key(), "copilot_output");
    let compiled = compile(&config, None).unwrap();
    let ctx = Ctx::new(&config, &compiled, false);
    let mut plan = Plan::default();
    // Called anyway, it refuses rather than printing the flags somewhere.
    let err = Copilot.stage(&ctx, &mut plan, &mut Vec::new()).unwrap_err();
    assert!(err.to_string().contains("targets.copilot_output"), "{err}");
    assert!(plan.steps.is_empty());
}

#[test]
fn diff_compares_flag_lines_as_sets() {
    let (dir, config) = setup(SRT, BASH, "copilot_output = \"flags.txt\"");
    let compiled = compile(&config, None).unwrap();
    let ctx = Ctx::new(&config, &compiled, false);
    let target = dir.path().join("flags.txt");
    let missing = Copilot.diff(&ctx, &mut Vec::new()).unwrap();
    assert!(
        matches!(missing, AgentDiff::TargetMissing(m) if m.contains(&target.display().to_string()))
    );
    let edited = FULL.replace("--deny-tool 'shell(rm:*)' \\\n", "") + "\n--allow-tool 'x' \\\n";
    std::fs::write(&target, edited).unwrap();
    assert_eq!(
        Copilot.diff(&ctx, &mut Vec::new()).unwrap().texts(),
        Some((
            vec!["--deny-tool 'shell(rm:*)'".into()],
            vec!["--allow-tool 'x'".into()]
        ))
    );
    assert!(Path::new(&target).exists());
}

#[test]
fn flags_are_quoted_like_the_format_they_replace() {
    let old = |name: &str, value: &str| format!("{name} '{}'", value.replace('\'', r"'\''"));
    for value in [
        "",
        "a",
        "'",
        "''",
        "it's",
        "'a'b'",
        "x y",
        "\u{e9}'\u{1F600}",
    ] {
        assert_eq!(super::flag("--allow-url", value), old("--allow-url", value));
        assert_eq!(
            super::shell_flag("--deny-tool", value),
            old("--deny-tool", &format!("shell({value}:*)"))
        );
    }
}

#[test]
fn flag_lines_read_back_like_line_by_line_accumulation() {
    // The way the lines were read before: accumulated into a buffer.
    fn accumulated(text: &str) -> Vec<String> {
        let mut flags = Vec::new();
        let mut pending = String::new();
        let mut in_quote = false;
        for line in text.split('\n') {
            let mut chars = line.chars();
            while let Some(c) = chars.next() {
                match c {
                    '\'' => in_quote = !in_quote,
                    '\\' if !in_quote => {
                        chars.next();
                    }
                    _ => {}
                }
            }
            pending.push_str(line);
            if in_quote {
                pending.push('\n');
                continue;
            }
            let flag = pending.trim();
            let flag = flag.strip_suffix('\\').unwrap_or(flag).trim_end();
            if !flag.is_empty() {
                flags.push(flag.to_string());
            }
            pending.clear();
        }
        let flag = pending.trim();
        if !flag.is_empty() {
            flags.push(flag.to_string());
        }
        flags
    }
    let pieces = [
        "--a 'x' \\",
        "'",
        "\\",
        " ",
        "\n",
        "\n\n",
        "it's",
        "\u{2028}",
        "b\\'c",
        "\t",
    ];
    for a in pieces {
        for b in pieces {
            for c in pieces {
                for d in pieces {
                    let text = format!("{a}{b}{c}{d}");
                    assert_eq!(super::flag_lines(&text), accumulated(&text), "{text:?}");
                }
            }
        }
    }
}

#[test]
fn compare_reports_the_set_difference_sorted_and_deduplicated() {
    let diff = |g: &[&str], e: &[&str]| {
        let g: Vec<String> = g.iter().map(|s| s.to_string()).collect();
        match super::compare(&g, e).texts() {
            Some(texts) => texts,
            None => panic!("target missing"),
        }
    };
    let none: (Vec<String>, Vec<String>) = (vec![], vec![]);
    assert_eq!(diff(&["a", "b"], &["a", "b"]), none);
    assert_eq!(diff(&["a", "b"], &["a", "b", "a"]), none);
    assert_eq!(diff(&["a", "b", "b"], &["a", "b"]), none);
    assert_eq!(diff(&[], &[]), none);
    assert_eq!(
        diff(&["c", "a", "b", "b"], &["e", "c", "d", "d"]),
        (vec!["a".into(), "b".into()], vec!["d".into(), "e".into()])
    );
    assert_eq!(
        diff(&["a", "b", "c"], &["a", "c", "b", "x"]),
        (vec![], vec!["x".into()])
    );
}

#[test]
fn a_missing_deny_flag_or_an_extra_allow_flag_widens() {
    use crate::drift::{Direction::*, Side::*};
    let generated: Vec<String> = ["--allow-url 'a.io'", "--deny-tool 'shell(rm)'"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let existing = ["--allow-url 'b.io'", "--deny-tool 'shell(dd)'", "--yolo"];
    let AgentDiff::Compared(got) = super::compare(&generated, &existing) else {
        panic!("compared expected");
    };
    let got: Vec<_> = got
        .into_iter()
        .map(|d| (d.section, d.entry, d.side, d.direction))
        .collect();
    let row = |s: &str, e: &str, side, dir| (s.to_string(), e.to_string(), side, dir);
    assert_eq!(
        got,
        [
            row("--allow-url", "'a.io'", Missing, Narrowing),
            row("--deny-tool", "'shell(rm)'", Missing, Widening),
            row("--allow-url", "'b.io'", Extra, Widening),
            row("--deny-tool", "'shell(dd)'", Extra, Narrowing),
            row("--yolo", "", Extra, Widening),
        ]
    );
}

/// The `--deny-url` values of the flags for `denied` (a deniedDomains list),
/// in full and in yolo mode (both must be the same).
fn denied_url_values(denied: &str) -> Vec<String> {
    let srt = format!(r#"{{"network": {{"deniedDomains": {denied}}}}}"#);
    let (_d, config) = setup(&srt, "{}", "");
    let compiled = compile(&config, None).unwrap();
    let mut modes = Vec::new();
    for yolo in [false, true] {
        let ctx = Ctx::new(&config, &compiled, yolo);
        let words = Copilot::launch_args(&ctx, &mut Vec::new()).unwrap();
        let values: Vec<String> = words
            .windows(2)
            .filter(|w| w[0] == "--deny-url")
            .map(|w| w[1].clone())
            .collect();
        modes.push(values);
    }
    assert_eq!(modes[0], modes[1], "full and yolo mode deny different URLs");
    modes.remove(0)
}

#[test]
fn a_denied_domain_without_a_scheme_is_denied_over_http_too() {
    assert_eq!(
        denied_url_values(r#"["pastebin.com", "*.evil.com"]"#),
        [
            "*.evil.com",
            "http://*.evil.com",
            "pastebin.com",
            "http://pastebin.com"
        ]
    );
}

#[test]
fn a_pattern_with_a_scheme_gets_no_twin() {
    // A policy's domain entry has no scheme (issue 41); a pattern with one
    // still gets no twin.
    for pattern in ["https://x.example", "wss://w.example", "http://h.example"] {
        assert_eq!(settings::http_twin(pattern), None, "{pattern}");
    }
}

#[test]
fn the_twin_is_quoted_like_its_pattern() {
    let srt = r#"{"network": {"deniedDomains": ["it's.example"]}}"#;
    let (_d, config) = setup(srt, "{}", "");
    let (text, _) = preview(&config, true);
    assert_eq!(
        text,
        r"--yolo \
--deny-url 'it'\''s.example' \
--deny-url 'http://it'\''s.example' \"
    );
}

#[test]
fn flags_and_settings_share_one_reading_of_a_scheme() {
    for (pattern, twin) in [
        ("pastebin.com", Some("http://pastebin.com")),
        ("*.evil.com", Some("http://*.evil.com")),
        ("x.io:8080", Some("http://x.io:8080")),
        ("https://x.io", None),
        ("ftp://x.io", None),
        ("ws://x.io", None),
    ] {
        assert_eq!(settings::http_twin(pattern).as_deref(), twin, "{pattern}");
        assert_eq!(settings::has_scheme(pattern), twin.is_none(), "{pattern}");
    }
}

#[test]
fn a_flags_file_without_the_twin_misses_it_and_widens() {
    use crate::drift::{Direction, Side};
    let (dir, config) = setup(SRT, BASH, "copilot_output = \"flags.txt\"");
    let compiled = compile(&config, None).unwrap();
    let ctx = Ctx::new(&config, &compiled, false);
    // What twsrt 3.3.3 wrote for this policy: the bare --deny-url alone.
    let by_reference = FULL.replace("--deny-url 'http://evil.com' \\\n", "") + "\n";
    std::fs::write(dir.path().join("flags.txt"), by_reference).unwrap();
    let AgentDiff::Compared(differences) = Copilot.diff(&ctx, &mut Vec::new()).unwrap() else {
        panic!("compared expected");
    };
    let got: Vec<_> = differences
        .iter()
        .map(|d| (d.shown.as_str(), d.side, d.direction))
        .collect();
    assert_eq!(
        got,
        [(
            "--deny-url 'http://evil.com'",
            Side::Missing,
            Direction::Widening
        )]
    );
    // The file the port writes compares clean.
    std::fs::write(dir.path().join("flags.txt"), format!("{FULL}\n")).unwrap();
    assert_eq!(
        Copilot.diff(&ctx, &mut Vec::new()).unwrap().texts(),
        Some((vec![], vec![]))
    );
}
