//! Bash deny and ask rules matched by meaning. The agents compile a bash
//! rule into a prefix of the command text (Claude's `Bash(rm -rf:*)`), which
//! `rm -fr`, `rm -r -f` and `rm --recursive --force` do not start with. Here
//! a rule is the program, a set of options and a list of operands, and every
//! simple command the walk finds ([`bash::simple_commands`]: through
//! wrappers, `bash -c`, substitutions, pipelines and lists) falls under it
//! when
//!
//! - its program has the rule's name (`/bin/rm` is `rm`);
//! - each of the rule's options is among its options: short flags split out
//!   of clusters (`-rf` is `-r -f`, in any order and place before `--`), a
//!   long option as its short form where [`PROGRAMS`] says they are one
//!   option (taken from the program's `--help`), a long option's unique
//!   abbreviation as the option (getopt_long and git take them), and
//!   `--opt=value` as `--opt value`;
//! - the rule's operands appear in order among its operands (a word after
//!   `--` is an operand), the subcommand of a [`PROGRAMS`] entry first.
//!
//! A word the text does not determine (`$F`, a glob) may be any options or
//! operands: a command that would fall under a rule with it is asked about
//! (so denied in yolo mode), never passed. A rule with a shell operator or
//! a wildcard inside (`curl | sh`, `git * --force`) is left to the agents'
//! own prefix rules. What is not modelled, each a decision: options of a
//! program not in [`PROGRAMS`] are split into letters whatever they take
//! (which can only match more), and an option's negation (`--no-force`
//! after `--force`) still counts as the option given.

use super::operands::Arg;
use super::policy::Policy;
use super::{Event, Verdict, bash};

/// One program's options, from its `--help` on this system (GNU coreutils
/// 9, git 2.47).
struct Program {
    /// The program and its subcommand (`git push`).
    words: &'static [&'static str],
    /// The spellings of one option, the canonical first.
    same: &'static [&'static [&'static str]],
    /// Every long option, for abbreviations.
    longs: &'static [&'static str],
    /// The options that take the next word as their value.
    values: &'static [&'static str],
    /// An operand `+REF` is this option for REF (git push's forced refspec).
    plus: Option<&'static str>,
    /// Options are whole words (`find -delete`), never clusters.
    whole_words: bool,
}

const PROGRAMS: &[Program] = &[
    Program {
        words: &["rm"],
        same: &[
            &["-r", "-R", "--recursive"],
            &["-f", "--force"],
            &["-d", "--dir"],
            &["-v", "--verbose"],
        ],
        longs: &[
            "--force",
            "--interactive",
            "--one-file-system",
            "--no-preserve-root",
            "--preserve-root",
            "--recursive",
            "--dir",
            "--verbose",
            "--help",
            "--version",
        ],
        values: &[],
        plus: None,
        whole_words: false,
    },
    Program {
        words: &["git", "push"],
        same: &[
            &["-f", "--force"],
            &["-d", "--delete"],
            &["-n", "--dry-run"],
            &["-u", "--set-upstream"],
            &["-v", "--verbose"],
            &["-q", "--quiet"],
            &["-o", "--push-option"],
            &["-4", "--ipv4"],
            &["-6", "--ipv6"],
        ],
        longs: &[
            "--verbose",
            "--quiet",
            "--repo",
            "--all",
            "--branches",
            "--mirror",
            "--delete",
            "--tags",
            "--dry-run",
            "--porcelain",
            "--force",
            "--force-with-lease",
            "--force-if-includes",
            "--recurse-submodules",
            "--thin",
            "--receive-pack",
            "--exec",
            "--set-upstream",
            "--progress",
            "--prune",
            "--no-verify",
            "--verify",
            "--follow-tags",
            "--signed",
            "--atomic",
            "--push-option",
            "--ipv4",
            "--ipv6",
        ],
        // git's own options before the subcommand take values too.
        values: &[
            "--repo",
            "--receive-pack",
            "--exec",
            "-o",
            "--push-option",
            "--recurse-submodules",
            "-C",
            "-c",
            "--git-dir",
            "--work-tree",
            "--namespace",
            "--config-env",
        ],
        plus: Some("-f"),
        whole_words: false,
    },
    Program {
        words: &["find"],
        same: &[],
        longs: &[],
        values: &[],
        plus: None,
        whole_words: true,
    },
];

/// A command's (or rule's) words sorted by meaning.
#[derive(Debug, Default)]
struct Parsed {
    /// Canonical option, and its value.
    options: Vec<(String, Option<String>)>,
    operands: Vec<String>,
    /// A word the text does not determine, as written, that may be options.
    may_be_options: Option<String>,
    /// Any word the text does not determine, as written.
    unknown: Option<String>,
}

/// How a command stands to a rule.
#[derive(Debug, PartialEq, Eq)]
enum Fit {
    No,
    Sure,
    /// It would, if the undetermined word were so.
    Unless(String),
}

/// A rule as the meaning match reads it.
struct Rule<'a> {
    written: &'a str,
    program: String,
    entry: Option<&'static Program>,
    parsed: Parsed,
}

/// The verdict of the bash deny and ask rules on the event's command.
pub fn judge(event: &Event, policy: &Policy) -> Verdict {
    if event.tool_name != "Bash" {
        return Verdict::Pass;
    }
    let Some(command) = event.tool_input.get("command").and_then(|c| c.as_str()) else {
        return Verdict::Pass;
    };
    let deny: Vec<Rule> = policy.bash_deny().iter().filter_map(|r| rule(r)).collect();
    let ask: Vec<Rule> = policy.bash_ask().iter().filter_map(|r| rule(r)).collect();
    let mut verdict = Verdict::Pass;
    for words in bash::simple_commands(command) {
        let Some(Arg::Lit(name)) = words.first() else {
            // A name the text does not determine is asked about by the walk.
            continue;
        };
        // The command's words by each grammar a rule of its program reads
        // them with, parsed once.
        let mut parsed: Vec<(Option<&'static Program>, Parsed)> = Vec::new();
        for (rules, list) in [(&deny, "deny"), (&ask, "ask")] {
            for rule in rules.iter().filter(|r| r.program == basename(name)) {
                let at = match parsed.iter().position(|(e, _)| same_entry(*e, rule.entry)) {
                    Some(at) => at,
                    None => {
                        parsed.push((rule.entry, parse(rule.entry, &words[1..])));
                        parsed.len() - 1
                    }
                };
                let fit = fit_parsed(rule, &words, &parsed[at].1);
                verdict = verdict.stricter(answer(rule, list, &words, fit));
            }
        }
    }
    verdict
}

fn same_entry(a: Option<&Program>, b: Option<&Program>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => std::ptr::eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

fn answer(rule: &Rule, list: &str, words: &[Arg], fit: Fit) -> Verdict {
    let shown = || {
        words
            .iter()
            .map(|w| match w {
                Arg::Lit(t) | Arg::Unknown(t) => t.as_str(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    match fit {
        Fit::No => Verdict::Pass,
        Fit::Sure if list == "deny" => Verdict::Deny(format!(
            "twsrt: `{}` falls under the policy's bash deny rule '{}' (options and operands matched by meaning)",
            shown(),
            rule.written
        )),
        Fit::Sure => Verdict::Ask(format!(
            "twsrt: `{}` falls under the policy's bash ask rule '{}' (options and operands matched by meaning)",
            shown(),
            rule.written
        )),
        Fit::Unless(word) => Verdict::Ask(format!(
            "twsrt: cannot tell whether `{}` falls under the policy's bash {list} rule '{}': `{word}` is not known before it runs",
            shown(),
            rule.written
        )),
    }
}

/// `written` as a rule, or `None` when it is no plain command (an operator
/// or wildcard inside, quotes that do not close).
fn rule(written: &str) -> Option<Rule<'_>> {
    let text = written.trim();
    let text = text.strip_suffix(":*").unwrap_or(text);
    let text = text.strip_suffix(" *").unwrap_or(text).trim_end();
    if text.contains(['|', '&', ';', '<', '>', '(', ')', '$', '`', '*', '?', '[']) {
        return None;
    }
    let words = crate::shellwords::split(text).ok()?;
    let (first, rest) = words.split_first()?;
    let program = basename(first).to_string();
    let entry = PROGRAMS.iter().find(|p| {
        p.words[0] == program && p.words[1..].iter().all(|w| rest.iter().any(|r| r == w))
    });
    let args: Vec<Arg> = rest.iter().map(|w| Arg::Lit(w.clone())).collect();
    Some(Rule {
        written,
        program,
        entry,
        parsed: parse(entry, &args),
    })
}

fn basename(word: &str) -> &str {
    word.rsplit('/').find(|s| !s.is_empty()).unwrap_or(word)
}

/// How the command `words` (the name first) stands to `rule` (the tests'
/// entry; [`judge`] parses each command once per grammar).
#[cfg(test)]
fn fit(rule: &Rule, words: &[Arg]) -> Fit {
    let Some(Arg::Lit(name)) = words.first() else {
        // A name the text does not determine is asked about by the walk.
        return Fit::No;
    };
    if basename(name) != rule.program {
        return Fit::No;
    }
    fit_parsed(rule, words, &parse(rule.entry, &words[1..]))
}

/// As [`fit`], the command's words after the name already `parse`d with
/// the rule's grammar.
fn fit_parsed(rule: &Rule, words: &[Arg], command: &Parsed) -> Fit {
    if let Some(alias) = git_alias(&rule.program, words) {
        return Fit::Unless(alias);
    }
    let options = rule.parsed.options.iter().all(|(key, value)| {
        command
            .options
            .iter()
            .any(|(k, v)| k == key && (value.is_none() || v == value))
    });
    let sub = rule.entry.map_or(&[][..], |e| &e.words[1..]);
    let leads = command.operands.len() >= sub.len()
        && sub.iter().zip(&command.operands).all(|(s, o)| s == o);
    let operands = leads && in_order(&rule.parsed.operands, &command.operands);
    match (options, operands) {
        (true, true) => Fit::Sure,
        (false, _) if command.may_be_options.is_none() => Fit::No,
        (_, false) if command.unknown.is_none() => Fit::No,
        _ => match command.may_be_options.clone().or(command.unknown.clone()) {
            Some(word) => Fit::Unless(word),
            None => Fit::No,
        },
    }
}

/// A git command given an alias on its command line (`-c alias.p='push
/// -f'`, `--config-env=alias.p=VAR`) may run any git command: the option,
/// as written. Aliases from git's config files are not looked up.
fn git_alias(program: &str, words: &[Arg]) -> Option<String> {
    if program != "git" {
        return None;
    }
    let is_alias = |v: &str| v.get(..6).is_some_and(|p| p.eq_ignore_ascii_case("alias."));
    let text = |a: &Arg| match a {
        Arg::Lit(t) | Arg::Unknown(t) => t.clone(),
    };
    words.windows(2).find_map(|pair| {
        let (first, next) = (text(&pair[0]), text(&pair[1]));
        let glued = first
            .strip_prefix("--config-env=")
            .or_else(|| first.strip_prefix("-c"))
            .filter(|v| is_alias(v));
        match glued {
            Some(_) => Some(first),
            None if ["-c", "--config-env"].contains(&first.as_str()) && is_alias(&next) => {
                Some(format!("{first} {next}"))
            }
            None => None,
        }
    })
}

/// `want` appears in `have` in order (not necessarily next to each other),
/// paths compared without repeated or trailing slashes.
fn in_order(want: &[String], have: &[String]) -> bool {
    let mut have = have.iter().map(|h| normal(h));
    want.iter().all(|w| {
        let w = normal(w);
        have.any(|h| h == w)
    })
}

fn normal(word: &str) -> String {
    if !word.contains('/') {
        return word.to_string();
    }
    let absolute = word.starts_with('/');
    let parts: Vec<&str> = word
        .split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    match (absolute, parts.is_empty()) {
        (true, _) => format!("/{}", parts.join("/")),
        (false, true) => ".".to_string(),
        (false, false) => parts.join("/"),
    }
}

/// A word the text does not determine can expand to an option unless it
/// starts with a character that is itself and no dash.
fn may_be_option(written: &str) -> bool {
    !written
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || "./_,:@%+=~".contains(c))
}

/// `args` (the words after the name) by `entry`'s grammar.
fn parse(entry: Option<&Program>, args: &[Arg]) -> Parsed {
    let mut p = Parsed::default();
    let mut ended = false;
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        let text = match arg {
            Arg::Unknown(w) => {
                if !ended && may_be_option(w) {
                    p.may_be_options.get_or_insert_with(|| w.clone());
                }
                p.unknown.get_or_insert_with(|| w.clone());
                continue;
            }
            Arg::Lit(t) => t,
        };
        if ended || text == "-" || !text.starts_with('-') {
            operand(entry, &mut p, text);
        } else if text == "--" {
            ended = true;
        } else if let Some(long) = text.strip_prefix("--") {
            let (key, inline) = match long.split_once('=') {
                Some((k, v)) => (k, Some(v.to_string())),
                None => (long, None),
            };
            let full = resolve_long(entry, &format!("--{key}"));
            let value = inline.or_else(|| takes_value(entry, &full, &mut words));
            p.options.push((canonical(entry, &full), value));
        } else if entry.is_some_and(|e| e.whole_words) {
            p.options.push((text.to_string(), None));
        } else {
            cluster(entry, &mut p, &text[1..], &mut words);
        }
    }
    p
}

fn operand(entry: Option<&Program>, p: &mut Parsed, text: &str) {
    match (entry.and_then(|e| e.plus), text.strip_prefix('+')) {
        (Some(option), Some(rest)) => {
            p.options.push((canonical(entry, option), None));
            p.operands.push(rest.to_string());
        }
        _ => p.operands.push(text.to_string()),
    }
}

/// `-abc`: flags until one takes a value, which is the rest of the word or
/// the next word.
fn cluster<'a>(
    entry: Option<&Program>,
    p: &mut Parsed,
    letters: &str,
    words: &mut impl Iterator<Item = &'a Arg>,
) {
    for (at, c) in letters.char_indices() {
        let flag = format!("-{c}");
        let tail = &letters[at + c.len_utf8()..];
        if entry.is_some_and(|e| e.values.contains(&flag.as_str())) {
            let value = if tail.is_empty() {
                takes_value(entry, &flag, words)
            } else {
                Some(tail.to_string())
            };
            p.options.push((canonical(entry, &flag), value));
            return;
        }
        p.options.push((canonical(entry, &flag), None));
    }
}

/// The next word, when `option` takes it as its value.
fn takes_value<'a>(
    entry: Option<&Program>,
    option: &str,
    words: &mut impl Iterator<Item = &'a Arg>,
) -> Option<String> {
    if !entry.is_some_and(|e| e.values.contains(&option)) {
        return None;
    }
    words.next().map(|w| match w {
        Arg::Lit(t) | Arg::Unknown(t) => t.clone(),
    })
}

/// The long option `--key` abbreviates: itself when listed or unknown, the
/// one listed option it starts, else itself (an ambiguous abbreviation is
/// an error to the program, so it runs nothing).
fn resolve_long(entry: Option<&Program>, key: &str) -> String {
    let Some(entry) = entry else {
        return key.to_string();
    };
    if entry.longs.contains(&key) {
        return key.to_string();
    }
    let mut found = entry.longs.iter().filter(|l| l.starts_with(key));
    match (found.next(), found.next()) {
        (Some(one), None) => one.to_string(),
        _ => key.to_string(),
    }
}

fn canonical(entry: Option<&Program>, option: &str) -> String {
    entry
        .and_then(|e| e.same.iter().find(|g| g.contains(&option)))
        .map_or(option, |g| g[0])
        .to_string()
}

mod spellings;

pub use spellings::missed_spellings;

#[cfg(test)]
mod tests;
