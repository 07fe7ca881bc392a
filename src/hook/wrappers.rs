//! Wrappers: programs that run another command (`sudo cat f` is `cat f`),
//! as data, each with its own option grammar from its `--help`. What a
//! wrapper runs is handed back to the walker: a command's words, or a
//! shell string (`su -c`, `script -c`, `env -S`, `watch`), which the walker
//! parses like a `bash -c` string. A wrapper not listed here is an unknown
//! program (its words are checked by name).

use super::commands;
use super::operands::{self, Access, Arg, Operand, Touch};
use super::wrapper_table::{Lead, Rest, W, W::*, WRAPPERS, Wrapper};

/// What a wrapper runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payload {
    /// A command's words, the name first.
    Command(Vec<Arg>),
    /// A shell string, parsed like `bash -c`.
    Script(Arg),
}

/// A wrapper's own accesses, what it runs, and where.
#[derive(Debug, Default)]
pub struct Unwrapped {
    pub touches: Vec<Touch>,
    pub payloads: Vec<Payload>,
    /// The working directory the payloads run in (`env -C`).
    pub chdir: Option<Arg>,
}

/// `name` with `args` when `name` is a wrapper (or find with `-exec`).
pub fn unwrap(name: &str, args: &[Arg]) -> Option<Unwrapped> {
    if name == "find" {
        return find_exec(args);
    }
    if name == "parallel" {
        return Some(parallel(args));
    }
    if name == "alias" {
        return Some(alias(args));
    }
    let Some(w) = WRAPPERS.iter().find(|w| w.names.contains(&name)) else {
        return runs_commands(name, args);
    };
    let mut out = Unwrapped::default();
    let (options, i) = match options(w, name, args) {
        Ok(parsed) => parsed,
        Err(text) => {
            // An option the grammar does not know: what follows is unknown.
            out.touches.push(touch(
                name,
                Access::Read,
                Operand::Opaque(format!("{name} {text}")),
            ));
            return Some(out);
        }
    };
    let Some(mut seen) = apply(w, name, options, &mut out) else {
        return Some(rooted(name, out));
    };
    let mut rest = &args[i.min(args.len())..];
    for lead in w.leads {
        let Some((first, after)) = rest.split_first() else {
            break;
        };
        rest = after;
        match lead {
            Lead::Value => {}
            // `flock 3`: a descriptor, no command.
            Lead::Lock if matches!(first, Arg::Lit(t) if t.chars().all(|c| c.is_ascii_digit())) => {
                return Some(out);
            }
            Lead::Lock => out.touches.push(touch(name, Access::Write, first.into())),
            Lead::Root if matches!(first, Arg::Lit(t) if t.trim_end_matches('/').is_empty()) => {}
            Lead::Root => return Some(rooted(name, out)),
        }
    }
    // flock FILE -c STRING: the option after the lead file.
    if w.names.contains(&"flock")
        && let [Arg::Lit(c), s, ..] = rest
        && (c == "-c" || c == "--command")
    {
        seen.script = Some(s.clone());
        rest = &[];
    }
    if let Some(s) = seen.script.take() {
        out.payloads.push(Payload::Script(s));
        if w.rest != Rest::User {
            return Some(out);
        }
    }
    if seen.no_command {
        return Some(out);
    }
    if let Some(s) = seen.split.take() {
        let line = join(std::iter::once(&s).chain(rest));
        out.payloads.push(Payload::Script(line));
        return Some(out);
    }
    let rest_is = if seen.as_command {
        Rest::Command
    } else {
        w.rest
    };
    run(name, rest_is, rest, &mut out);
    Some(out)
}

fn touch(name: &str, access: Access, operand: Operand) -> Touch {
    Touch {
        by: name.to_string(),
        access,
        operand,
    }
}

/// What the options said about the command that follows.
#[derive(Default)]
struct Seen {
    no_command: bool,
    as_command: bool,
    split: Option<Arg>,
    script: Option<Arg>,
}

/// The options' own accesses into `out`; `None` when one moves the root.
fn apply(w: &Wrapper, name: &str, options: Vec<Parsed>, out: &mut Unwrapped) -> Option<Seen> {
    let mut seen = Seen::default();
    for (key, opt, value) in options {
        match (opt, value) {
            (NoCommand, _) => seen.no_command = true,
            (Exec, _) => seen.as_command = true,
            (Reads, Some(v)) => out.touches.push(touch(name, Access::Read, (&v).into())),
            (Writes, Some(v)) => out.touches.push(touch(name, Access::Write, (&v).into())),
            (Script, v) => seen.script = v,
            (Split, v) => seen.split = v,
            (Chdir, v) => out.chdir = v,
            (Root, _) => return None,
            (Value | Glued, Some(v)) => {
                // runuser -u USER: a command follows, not a user.
                seen.as_command |= w.rest == Rest::User && (key == "-u" || key == "--user");
                operands::named_words(std::slice::from_ref(&v), &mut |a, o| {
                    out.touches.push(touch(name, a, o))
                });
            }
            _ => {}
        }
    }
    Some(seen)
}

/// The words after the options and leads, as `rest_is` says.
fn run(name: &str, rest_is: Rest, rest: &[Arg], out: &mut Unwrapped) {
    match rest_is {
        Rest::Command => out.payloads.push(Payload::Command(rest.to_vec())),
        Rest::Joined => out.payloads.push(Payload::Script(join(rest.iter()))),
        Rest::Xargs => {
            let mut inner = rest.to_vec();
            if inner.is_empty() {
                inner.push(Arg::Lit("echo".into()));
            }
            inner.push(Arg::Unknown(
                "(the words xargs reads from its input)".into(),
            ));
            out.payloads.push(Payload::Command(inner));
        }
        Rest::User => {
            // After the user, the words are the user's shell's arguments.
            if rest.len() > 1 {
                let mut shell = vec![Arg::Lit("sh".into())];
                shell.extend_from_slice(&rest[1..]);
                out.payloads.push(Payload::Command(shell));
            }
        }
        Rest::Edited => {
            for file in rest {
                out.touches.push(touch(name, Access::Write, file.into()));
            }
        }
    }
}

/// A program in the command table whose options name commands it runs
/// (`tar -I PROG`, `rsync -e CMD`): its own accesses, and those commands.
fn runs_commands(name: &str, args: &[Arg]) -> Option<Unwrapped> {
    let spec = commands::lookup(name);
    let runs = operands::commands_run(spec, args);
    if runs.is_empty() {
        return None;
    }
    Some(Unwrapped {
        touches: operands::touches(name, spec, args),
        payloads: runs.into_iter().map(Payload::Script).collect(),
        chdir: None,
    })
}

/// `alias NAME=TEXT`: the text may run later in the same command line, so
/// it is walked now.
fn alias(args: &[Arg]) -> Unwrapped {
    let mut out = Unwrapped::default();
    for arg in args {
        match arg {
            Arg::Lit(t) => {
                if let Some((_, text)) = t.split_once('=') {
                    out.payloads
                        .push(Payload::Script(Arg::Lit(text.to_string())));
                }
            }
            Arg::Unknown(w) => out.payloads.push(Payload::Script(Arg::Unknown(w.clone()))),
        }
    }
    out
}

/// One option as the wrapper's grammar reads it: its key, what it does,
/// and its value.
type Parsed = (String, W, Option<Arg>);

/// The wrapper's options, and the index of the first word after them; or
/// the first option the grammar does not know.
fn options(w: &Wrapper, name: &str, args: &[Arg]) -> Result<(Vec<Parsed>, usize), String> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(Arg::Lit(text)) = args.get(i) {
        if text == "--" {
            return Ok((out, i + 1));
        }
        let assignment = name == "env" && text.contains('=') && !text.starts_with('-');
        let option = text.starts_with('-') && (text.len() > 1 || w.rest == Rest::User);
        if assignment {
            // `env KEY=~/.ssh/id_rsa prog`: the value may be opened.
            if let Some((_, value)) = text.split_once('=') {
                out.push(("=".to_string(), Value, Some(Arg::Lit(value.to_string()))));
            }
            i += 1;
            continue;
        }
        if !option {
            break;
        }
        i += 1;
        let next = args.get(i).cloned();
        let mut took_next = false;
        if let Some(long) = text.strip_prefix("--") {
            let (key, glued) = match long.split_once('=') {
                Some((k, v)) => (format!("--{k}"), Some(Arg::Lit(v.to_string()))),
                None => (text.clone(), None),
            };
            let opt = option_of(w, &key).ok_or_else(|| text.clone())?;
            let value = match (opt, glued) {
                (Flag | NoCommand | Exec, _) => None,
                (Glued, g) => g,
                (_, Some(g)) => Some(g),
                (_, None) => {
                    took_next = true;
                    next
                }
            };
            out.push((key, opt, value));
        } else if name == "nice" && text[1..].chars().all(|c| c.is_ascii_digit()) {
            // `nice -5`: the old spelling of `-n 5`.
        } else if text == "-" {
            out.push((
                text.clone(),
                option_of(w, "-").ok_or_else(|| text.clone())?,
                None,
            ));
        } else {
            let cluster = &text[1..];
            for (at, c) in cluster.char_indices() {
                let key = format!("-{c}");
                let opt = option_of(w, &key).ok_or_else(|| text.clone())?;
                let tail = &cluster[at + c.len_utf8()..];
                let glued = (!tail.is_empty()).then(|| Arg::Lit(tail.to_string()));
                match opt {
                    Flag | NoCommand | Exec => out.push((key, opt, None)),
                    Glued => {
                        out.push((key, opt, glued));
                        break;
                    }
                    _ if glued.is_some() => {
                        out.push((key, opt, glued));
                        break;
                    }
                    _ => {
                        took_next = true;
                        out.push((key, opt, next.clone()));
                        break;
                    }
                }
            }
        }
        if took_next {
            i += 1;
        }
    }
    Ok((out, i))
}

fn option_of(w: &Wrapper, key: &str) -> Option<W> {
    w.opts.iter().find(|(k, _)| *k == key).map(|(_, o)| *o)
}

/// A command under another root: none of its paths are the ones written.
fn rooted(name: &str, mut out: Unwrapped) -> Unwrapped {
    out.touches.push(Touch {
        by: name.to_string(),
        access: Access::Read,
        operand: Operand::Opaque(format!("{name} (a command under another root directory)")),
    });
    out
}

/// Words joined into one shell string; an undetermined word makes it
/// undetermined.
fn join<'a>(words: impl Iterator<Item = &'a Arg>) -> Arg {
    let mut text = Vec::new();
    for w in words {
        match w {
            Arg::Lit(t) => text.push(t.as_str()),
            Arg::Unknown(t) => return Arg::Unknown(t.clone()),
        }
    }
    Arg::Lit(text.join(" "))
}

/// find's own accesses, and each `-exec`/`-execdir`/`-ok`/`-okdir` command
/// once per start point (`{}` is a file below it, which find's own walk
/// already checks).
fn find_exec(args: &[Arg]) -> Option<Unwrapped> {
    let is_exec = |a: &Arg| matches!(a, Arg::Lit(t) if ["-exec", "-execdir", "-ok", "-okdir"].contains(&t.as_str()));
    if !args.iter().any(is_exec) {
        return None;
    }
    let roots = super::syntax::find_roots(args);
    let dot = [Arg::Lit(".".into())];
    let starts = if roots.is_empty() {
        &dot[..]
    } else {
        &args[roots.clone()]
    };
    let mut out = Unwrapped::default();
    let mut expr: Vec<Arg> = args[..roots.end].to_vec();
    let mut words = args[roots.end..].iter();
    while let Some(word) = words.next() {
        if !is_exec(word) {
            expr.push(word.clone());
            continue;
        }
        let command: Vec<&Arg> = words
            .by_ref()
            .take_while(|w| !matches!(w, Arg::Lit(t) if t == ";" || t == "+"))
            .collect();
        for start in starts {
            let words = command.iter().map(|w| match (w, start) {
                (Arg::Lit(t), Arg::Lit(s)) => Arg::Lit(t.replace("{}", s)),
                (Arg::Lit(t), Arg::Unknown(s)) if t.contains("{}") => Arg::Unknown(s.clone()),
                _ => (*w).clone(),
            });
            out.payloads.push(Payload::Command(words.collect()));
        }
    }
    out.touches = operands::touches("find", commands::lookup("find"), &expr);
    // The command run opens every file the walk reaches (`super::walks`).
    for t in out
        .touches
        .iter_mut()
        .filter(|t| t.access == Access::RecursiveRead)
    {
        t.by = "find -exec".to_string();
    }
    Some(out)
}

/// GNU parallel: `parallel [options] command ::: args`; the command is a
/// shell string; without `:::` the arguments come from the input.
fn parallel(args: &[Arg]) -> Unwrapped {
    let mut out = Unwrapped::default();
    let start = args
        .iter()
        .position(|a| !matches!(a, Arg::Lit(t) if t.starts_with('-')))
        .unwrap_or(args.len());
    let (command, sources) = match args[start..]
        .iter()
        .position(|a| matches!(a, Arg::Lit(t) if t.starts_with(":::")))
    {
        Some(at) => (&args[start..start + at], &args[start + at..]),
        None => (&args[start..], &[][..]),
    };
    let mut inputs = Vec::new();
    let mut files = false;
    for word in sources {
        match word {
            Arg::Lit(t) if t == ":::" || t == ":::+" => files = false,
            Arg::Lit(t) if t == "::::" || t == "::::+" => files = true,
            w if files => out.touches.push(Touch {
                by: "parallel".into(),
                access: Access::Read,
                operand: w.into(),
            }),
            w => inputs.push(w.clone()),
        }
    }
    if sources.is_empty() || files {
        inputs.push(Arg::Unknown("(the arguments parallel reads)".into()));
    }
    for input in inputs {
        let line = match (join(command.iter()), &input) {
            (Arg::Lit(c), Arg::Lit(i)) if c.contains("{}") => Arg::Lit(c.replace("{}", &quote(i))),
            (Arg::Lit(c), Arg::Lit(i)) => Arg::Lit(format!("{c} {}", quote(i))),
            (_, Arg::Unknown(u)) => Arg::Unknown(u.clone()),
            (Arg::Unknown(u), _) => Arg::Unknown(u),
        };
        out.payloads.push(Payload::Script(line));
    }
    out
}

/// `text` as one shell word; a leading `~/` stays the home directory, as
/// the outer shell already expanded it.
fn quote(text: &str) -> String {
    let (home, rest) = match text.strip_prefix("~/") {
        Some(rest) => ("~/", rest),
        None => ("", text),
    };
    format!("{home}{}", crate::shellwords::single_quote(rest))
}
