//! Each complete grammar in the command table against the real program's
//! `--help` on this machine: every option the help lists is in the table
//! with the same arity (no value, an optional glued value, a value), and
//! every option in the table is in the help. A program not installed is
//! skipped, and said so.

use std::collections::BTreeMap;
use std::process::Command;

use super::commands::{COMMANDS, Opt};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arity {
    None,
    Optional,
    Required,
}

fn arity(opt: Opt) -> Arity {
    match opt {
        Opt::Flag
        | Opt::Recursive
        | Opt::Stdout
        | Opt::Create
        | Opt::Extract
        | Opt::RemoteName
        | Opt::NamesUnknown
        | Opt::AllWritten
        | Opt::OperandsList
        | Opt::NoTargetDir
        | Opt::Parents
        | Opt::EndOfFiles
        | Opt::Links => Arity::None,
        Opt::Optional | Opt::InPlace => Arity::Optional,
        _ => Arity::Required,
    }
}

/// The options one line of `--help` lists, with their arity.
fn line_options(line: &str) -> Vec<(String, Arity)> {
    let mut rest = line.trim_start();
    let mut forms: Vec<(String, Option<Arity>)> = Vec::new();
    while rest.starts_with('-') {
        let end = rest.find([' ', ',', '=', '[', '\t']).unwrap_or(rest.len());
        let name = &rest[..end];
        let valid = name.len() >= 2
            && name
                .trim_start_matches('-')
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-')
            && !name.trim_start_matches('-').is_empty();
        // `-NUM`, `-COLUMN`: a number written as an option, no letter.
        let placeholder = !name.starts_with("--")
            && name.len() > 2
            && name[1..].chars().all(|c| c.is_ascii_uppercase());
        if !valid || placeholder {
            break;
        }
        rest = &rest[end..];
        let (arg, after) = argument(rest);
        rest = after;
        forms.push((name.to_string(), arg));
        match rest.strip_prefix(',') {
            Some(after) => rest = after.trim_start(),
            // stat's `-c  --format=FORMAT`: the comma left out.
            None if !name.starts_with("--") && rest.trim_start().starts_with("--") => {
                rest = rest.trim_start();
            }
            None => break,
        }
    }
    // `-n, --lines=NUM`: a form without its own argument takes the long
    // form's; `-c, -C NUM, --context[=NUM]` and `-f, --follow[=HOW]`: a
    // short form beside a short form with an argument, or beside an
    // optional one, takes none.
    let is_long = |n: &str| n.starts_with("--");
    let group = forms
        .iter()
        .find_map(|(n, a)| a.filter(|_| is_long(n)))
        .or_else(|| forms.iter().find_map(|(_, a)| *a))
        .unwrap_or(Arity::None);
    let short_explicit = forms.iter().any(|(n, a)| !is_long(n) && a.is_some());
    forms
        .into_iter()
        .map(|(name, a)| {
            let arity = match a {
                Some(a) => a,
                None if !is_long(&name) && (short_explicit || group == Arity::Optional) => {
                    Arity::None
                }
                None => group,
            };
            (name, arity)
        })
        .collect()
}

/// The argument written right after an option's name, if any, and the
/// rest of the line: `[=ARG]`, `=ARG`, ` ARG,`, ` <arg>`.
fn argument(mut rest: &str) -> (Option<Arity>, &str) {
    let mut arg = None;
    if rest.starts_with("[=") || rest.starts_with('[') {
        arg = Some(Arity::Optional);
        rest = rest.find(']').map_or("", |i| &rest[i + 1..]);
    } else if let Some(after) = rest.strip_prefix('=') {
        arg = Some(Arity::Required);
        rest = after.find([' ', ',']).map_or("", |i| &after[i..]);
    } else if let Some(after) = rest.strip_prefix(' ')
        && !after.starts_with([' ', '-'])
        && !after.is_empty()
    {
        // `-e script,`, `-I R  same as`, `-d, --data <data>`: one space,
        // then the argument, then the next form or the description.
        let end = if after.starts_with('<') {
            after.find('>').map_or(after.len(), |i| i + 1)
        } else {
            after.find([' ', ',']).unwrap_or(after.len())
        };
        let tail = &after[end..];
        if after.starts_with('<')
            || tail.is_empty()
            || tail.starts_with([','])
            || tail.starts_with("  ")
        {
            arg = Some(Arity::Required);
            rest = tail;
        }
    }
    (arg, rest)
}

fn help_options(program: &str) -> Option<BTreeMap<String, Arity>> {
    // curl lists every option only under `--help all`.
    let args: &[&str] = if program == "curl" {
        &["--help", "all"]
    } else {
        &["--help"]
    };
    let output = Command::new(program).args(args).output().ok()?;
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let options = line_options(line);
        if options
            .iter()
            .any(|(n, _)| n == "--help" || n == "--version")
        {
            continue;
        }
        for (name, arity) in options {
            out.entry(name).or_insert(arity);
        }
    }
    Some(out)
}

#[test]
fn help_lines_are_read_like_the_tools_write_them() {
    let cases: &[(&str, &[(&str, Arity)])] = &[
        (
            "  -n, --lines=[-]NUM       print",
            &[("-n", Arity::Required), ("--lines", Arity::Required)],
        ),
        (
            "  -w[BYTES], --width[=BYTES]  output",
            &[("-w", Arity::Optional), ("--width", Arity::Optional)],
        ),
        (
            "  -c, -C NUM, --context[=NUM]   output",
            &[
                ("-c", Arity::None),
                ("-C", Arity::Required),
                ("--context", Arity::Optional),
            ],
        ),
        (
            " -d, --data <data>          HTTP",
            &[("-d", Arity::Required), ("--data", Arity::Required)],
        ),
        (
            "  -o,  --output-file=FILE          log",
            &[("-o", Arity::Required), ("--output-file", Arity::Required)],
        ),
        (
            "  -A, --show-all           equivalent",
            &[("-A", Arity::None), ("--show-all", Arity::None)],
        ),
        (
            "  -e                       equivalent to -vE",
            &[("-e", Arity::None)],
        ),
        (
            "  -e script, --expression=script",
            &[("-e", Arity::Required), ("--expression", Arity::Required)],
        ),
        (
            "  -c  --format=FORMAT   use",
            &[("-c", Arity::Required), ("--format", Arity::Required)],
        ),
        ("  -NUM                      same as --context=NUM", &[]),
    ];
    for (line, want) in cases {
        let got = line_options(line);
        let want: Vec<(String, Arity)> = want.iter().map(|(n, a)| (n.to_string(), *a)).collect();
        assert_eq!(got, want, "{line}");
    }
}

#[test]
fn complete_grammars_match_the_real_help() {
    let mut problems = Vec::new();
    for spec in COMMANDS.iter().filter(|s| s.complete) {
        for program in spec.names {
            let Some(help) = help_options(program) else {
                eprintln!("skipped: {program} is not installed here");
                continue;
            };
            let table: BTreeMap<&str, Arity> =
                spec.opts.iter().map(|(k, o)| (*k, arity(*o))).collect();
            for (name, want) in &help {
                if name.starts_with("--") && name.chars().any(|c| c.is_ascii_uppercase()) {
                    continue;
                }
                match table.get(name.as_str()) {
                    None => {
                        problems.push(format!("{program}: {name} ({want:?}) is not in the table"))
                    }
                    Some(got) if got != want => problems.push(format!(
                        "{program}: {name} is {got:?} in the table, {want:?} in --help"
                    )),
                    _ => {}
                }
            }
            // `--GTYPE-group-format` stands for `--old-group-format` and kin.
            let placeholders: Vec<String> = help
                .keys()
                .filter(|n| n.chars().any(|c| c.is_ascii_uppercase()) && n.starts_with("--"))
                .filter_map(|n| {
                    n.split_once('-').map(|_| {
                        n[n.find(|c: char| c.is_ascii_uppercase()).unwrap_or(0)..].to_string()
                    })
                })
                .filter_map(|n| n.split_once('-').map(|(_, tail)| format!("-{tail}")))
                .collect();
            for name in table.keys() {
                let stands_for = placeholders.iter().any(|p| name.ends_with(p.as_str()));
                if !help.contains_key(*name) && !stands_for {
                    problems.push(format!("{program}: {name} is in the table, not in --help"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
