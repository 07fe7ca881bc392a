//! From a command's words to the files it opens, by its entry in the
//! command table ([`super::commands`]): options are told from operands,
//! option values that are files are picked out, and the operands are read
//! or written as the command's shape says.

use super::commands::{Opt, Shape, Spec};

/// How a command opens a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    /// Reads everything below the path too.
    RecursiveRead,
    /// Writes (removes, changes) everything below the path too.
    RecursiveWrite,
}

impl Access {
    pub fn verb(self) -> &'static str {
        match self {
            Access::Read | Access::RecursiveRead => "reads",
            Access::Write | Access::RecursiveWrite => "writes",
        }
    }

    pub fn recursive(self) -> bool {
        matches!(self, Access::RecursiveRead | Access::RecursiveWrite)
    }

    fn walking(self, recursive: bool) -> Access {
        match (self, recursive) {
            (Access::Read, true) => Access::RecursiveRead,
            (Access::Write, true) => Access::RecursiveWrite,
            (a, _) => a,
        }
    }
}

/// A word after quote removal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// The text the command receives.
    Lit(String),
    /// A word the text does not determine (`$X`, a glob, `~user`, `$(...)`),
    /// as written.
    Unknown(String),
}

/// The path a command opens, as far as the text says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operand {
    Path(String),
    Unknown(String),
}

impl From<&Arg> for Operand {
    fn from(arg: &Arg) -> Operand {
        match arg {
            Arg::Lit(t) => Operand::Path(t.clone()),
            Arg::Unknown(t) => Operand::Unknown(t.clone()),
        }
    }
}

/// One access by one command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Touch {
    /// The command, for the reason shown (`cat`).
    pub by: String,
    pub access: Access,
    pub operand: Operand,
}

/// What the options of one command line said.
#[derive(Default)]
struct Parsed {
    positionals: Vec<Arg>,
    /// Files named by option values, with how they are opened.
    files: Vec<(Access, Arg)>,
    target: Option<Arg>,
    recursive: bool,
    in_place: bool,
    stdout: bool,
    create: bool,
    extract: bool,
    pattern_given: bool,
    /// cp makes links instead of copies (`-l`, `-s`).
    links: bool,
}

/// The files `name` (looked up as `spec`) opens with `args`.
pub fn touches(name: &str, spec: &Spec, args: &[Arg]) -> Vec<Touch> {
    let mut out = Vec::new();
    let mut push = |access: Access, arg: &Arg| {
        if !matches!(arg, Arg::Lit(t) if t == "-" || t.is_empty()) {
            out.push(Touch {
                by: name.to_string(),
                access,
                operand: arg.into(),
            });
        }
    };
    match spec.shape {
        Shape::Find => find(args, &mut push),
        Shape::Dd => dd(args, &mut push),
        _ => {
            let parsed = parse(spec, args);
            for (access, file) in &parsed.files {
                push(*access, file);
            }
            positionals(name, spec, &parsed, &mut push);
        }
    }
    out
}

/// Options and operands, by the spec's option list.
fn parse(spec: &Spec, args: &[Arg]) -> Parsed {
    let mut p = Parsed::default();
    let mut words: Vec<Arg> = args.to_vec();
    // tar's old style: a first word without a dash is a cluster of flags.
    if spec.shape == Shape::Tar
        && let Some(Arg::Lit(first)) = words.first_mut()
        && !first.starts_with('-')
    {
        first.insert(0, '-');
    }
    let mut rest = words.iter();
    let mut ended = false;
    let mut files_ended = false;
    while let Some(arg) = rest.next() {
        let text = match arg {
            Arg::Lit(t) if !ended && t.len() > 1 && t.starts_with('-') => t,
            _ => {
                if !files_ended {
                    p.positionals.push(arg.clone());
                }
                continue;
            }
        };
        if text == "--" {
            ended = true;
        } else if let Some(long) = text.strip_prefix("--") {
            let (key, inline) = match long.split_once('=') {
                Some((k, v)) => (k, Some(Arg::Lit(v.to_string()))),
                None => (long, None),
            };
            if let Some(opt) = option(spec, &format!("--{key}")) {
                files_ended |= apply(&mut p, key, opt, inline, &mut rest);
            }
        } else if let Some(opt) = option(spec, text) {
            // A single-dash long option (`xxd -cols`, `zip -tt`).
            apply(&mut p, text.trim_start_matches('-'), opt, None, &mut rest);
        } else {
            short_cluster(spec, &mut p, &text[1..], &mut rest);
        }
    }
    p
}

/// `-abc`, `-n5`, `-i.bak`: flags until one takes a value, which is the
/// rest of the word or the next word.
fn short_cluster<'a>(
    spec: &Spec,
    p: &mut Parsed,
    cluster: &str,
    rest: &mut impl Iterator<Item = &'a Arg>,
) {
    for (at, c) in cluster.char_indices() {
        let Some(opt) = option(spec, &format!("-{c}")) else {
            continue;
        };
        let tail = &cluster[at + c.len_utf8()..];
        if opt == Opt::InPlace {
            p.in_place = true;
            return;
        }
        let inline = (!tail.is_empty() && takes_value(opt)).then(|| Arg::Lit(tail.to_string()));
        let consumed = inline.is_some();
        apply(p, &c.to_string(), opt, inline, rest);
        if consumed || takes_value(opt) {
            return;
        }
    }
}

fn option(spec: &Spec, key: &str) -> Option<Opt> {
    spec.opts.iter().find(|(k, _)| *k == key).map(|(_, o)| *o)
}

fn takes_value(opt: Opt) -> bool {
    !matches!(
        opt,
        Opt::Recursive
            | Opt::InPlace
            | Opt::Stdout
            | Opt::Create
            | Opt::Extract
            | Opt::EndOfFiles
            | Opt::Links
    )
}

/// One option; its value is `inline` or the next word. True when the
/// option ends the file operands.
fn apply<'a>(
    p: &mut Parsed,
    key: &str,
    opt: Opt,
    inline: Option<Arg>,
    rest: &mut impl Iterator<Item = &'a Arg>,
) -> bool {
    let mut value = || inline.clone().or_else(|| rest.next().cloned());
    match opt {
        Opt::Recursive => p.recursive = true,
        Opt::InPlace => p.in_place = true,
        Opt::Stdout => p.stdout = true,
        Opt::Create => p.create = true,
        Opt::Extract => p.extract = true,
        Opt::Links => p.links = true,
        Opt::EndOfFiles => return true,
        Opt::Value => drop(value()),
        Opt::Pattern => {
            p.pattern_given = true;
            drop(value());
        }
        Opt::TwoValues => {
            drop(value());
            let _ = rest.next();
        }
        Opt::ReadsValue => p.files.extend(value().map(|v| (Access::Read, v))),
        Opt::WritesValue => p.files.extend(value().map(|v| (Access::Write, v))),
        Opt::PatternFile => {
            p.pattern_given = true;
            p.files.extend(value().map(|v| (Access::Read, v)));
        }
        Opt::NameThenFile => {
            drop(value());
            p.files
                .extend(rest.next().map(|v| (Access::Read, v.clone())));
        }
        Opt::Target => p.target = value(),
        Opt::AtFile => {
            let file = value().and_then(|v| at_file(key, &v));
            p.files.extend(file.map(|f| (Access::Read, f)));
        }
    }
    false
}

/// The file of a curl value that names one: `@file`, `name=@file`,
/// `name=<file` (a form field), `name@file` (`--data-urlencode`).
fn at_file(key: &str, value: &Arg) -> Option<Arg> {
    let text = match value {
        Arg::Lit(t) => t,
        Arg::Unknown(t) => return t.contains(['@', '<']).then(|| value.clone()),
    };
    let file = if let Some(f) = text.strip_prefix('@') {
        f
    } else if let Some((_, f)) = text.split_once("=@").or_else(|| form_file(key, text)) {
        f.split(';').next().unwrap_or(f)
    } else if key == "data-urlencode" {
        let (name, f) = text.split_once('@')?;
        if name.contains('=') {
            return None;
        }
        f
    } else {
        return None;
    };
    Some(Arg::Lit(file.to_string()))
}

/// `-F name=<file` sends the file's content as the field.
fn form_file<'t>(key: &str, text: &'t str) -> Option<(&'t str, &'t str)> {
    matches!(key, "F" | "form")
        .then(|| text.split_once("=<"))
        .flatten()
}

/// The operands, as the shape says.
fn positionals(name: &str, spec: &Spec, p: &Parsed, push: &mut impl FnMut(Access, &Arg)) {
    let walk = spec.always_recursive || p.recursive;
    let ops = &p.positionals[..];
    match spec.shape {
        Shape::Read | Shape::PatternRead => {
            let mut files = ops;
            if spec.shape == Shape::PatternRead {
                if name == "yq"
                    && matches!(files.first(), Some(Arg::Lit(w)) if ["e", "eval", "ea", "eval-all"].contains(&w.as_str()))
                {
                    files = &files[1..];
                }
                if !p.pattern_given && !files.is_empty() {
                    files = &files[1..];
                }
            }
            for f in files {
                push(Access::Read.walking(walk), f);
                if p.in_place {
                    push(Access::Write, f);
                }
            }
            if files.is_empty() && (spec.lists_cwd || p.recursive) {
                push(Access::Read.walking(walk), &Arg::Lit(".".into()));
            }
        }
        Shape::Write => ops
            .iter()
            .for_each(|f| push(Access::Write.walking(walk), f)),
        Shape::ModeWrite => ops
            .iter()
            .skip(1)
            .for_each(|f| push(Access::Write.walking(walk), f)),
        Shape::InOut => {
            ops.iter().take(1).for_each(|f| push(Access::Read, f));
            ops.iter()
                .skip(1)
                .take(1)
                .for_each(|f| push(Access::Write, f));
        }
        Shape::Copy | Shape::Move | Shape::Link => copy(spec.shape, p, walk, push),
        Shape::Zip => {
            ops.iter().take(1).for_each(|f| push(Access::Write, f));
            ops.iter()
                .skip(1)
                .for_each(|f| push(Access::Read.walking(walk), f));
        }
        Shape::Compress => {
            for f in ops {
                push(Access::Read, f);
                if !p.stdout {
                    push(Access::Write, f);
                }
            }
        }
        Shape::Tar => tar(p, push),
        Shape::Curl | Shape::Find | Shape::Dd => {}
    }
}

/// cp, mv, install, ln, scp, rsync: sources and a destination.
fn copy(shape: Shape, p: &Parsed, walk: bool, push: &mut impl FnMut(Access, &Arg)) {
    // `host:path` (scp, rsync) is on another machine.
    let local: Vec<&Arg> = p
        .positionals
        .iter()
        .filter(|a| !matches!(a, Arg::Lit(t) if is_remote(t)))
        .collect();
    let (sources, dest): (&[&Arg], Option<&Arg>) = match (&p.target, p.positionals.len()) {
        (Some(t), _) => (&local[..], Some(t)),
        (None, n) if n >= 2 => {
            let last = p.positionals.last().filter(|a| local.contains(a));
            let all_but_last = if last.is_some() {
                &local[..local.len() - 1]
            } else {
                &local[..]
            };
            (all_but_last, last)
        }
        (None, _) => (&local[..], None),
    };
    for s in sources {
        push(Access::Read.walking(walk), s);
        // A link (ln, `cp -l`/`-s`) is a new name for the source: reads and
        // writes through it reach the source, so making it is both.
        if shape == Shape::Move || shape == Shape::Link || p.links {
            push(Access::Write, s);
        }
    }
    if let Some(d) = dest {
        push(Access::Write, d);
    }
}

fn is_remote(text: &str) -> bool {
    text.contains("://")
        || text
            .split_once(':')
            .is_some_and(|(host, _)| !host.is_empty() && !host.contains('/'))
}

/// tar: create reads the operands (below `-C`) into the archive; extract
/// and list read the archive, and extract writes where it unpacks.
fn tar(p: &Parsed, push: &mut impl FnMut(Access, &Arg)) {
    let dir = p
        .files
        .iter()
        .rev()
        .find(|(a, _)| *a == Access::Write)
        .map(|(_, d)| d);
    if p.create {
        if let Some(archive) = &p.target {
            push(Access::Write, archive);
        }
        for f in &p.positionals {
            push(Access::RecursiveRead, &below(dir, f));
        }
    } else {
        if let Some(archive) = &p.target {
            push(Access::Read, archive);
        }
        if p.extract && dir.is_none() {
            push(Access::Write, &Arg::Lit(".".into()));
        }
    }
}

/// `operand` as seen from `-C dir`.
fn below(dir: Option<&Arg>, operand: &Arg) -> Arg {
    match (dir, operand) {
        (Some(Arg::Lit(d)), Arg::Lit(o)) if !o.starts_with('/') => Arg::Lit(format!("{d}/{o}")),
        (Some(Arg::Unknown(d)), _) => Arg::Unknown(d.clone()),
        _ => operand.clone(),
    }
}

/// find: the start points are the words before the first expression word;
/// `-fprint FILE` and its kin write; `-delete` changes what it walks.
fn find(args: &[Arg], push: &mut impl FnMut(Access, &Arg)) {
    let is_expr = |a: &Arg| matches!(a, Arg::Lit(t) if t.starts_with('-') || t == "(" || t == "!" || t == ",");
    let mut i = 0;
    // Leading -H, -L, -P, -O3, -D opts are options of find itself.
    while let Some(Arg::Lit(t)) = args.get(i) {
        match t.as_str() {
            "-H" | "-L" | "-P" => i += 1,
            "-D" => i += 2,
            _ if t.starts_with("-O") => i += 1,
            _ => break,
        }
    }
    let start = i.min(args.len());
    let mut end = start;
    while end < args.len() && !is_expr(&args[end]) {
        end += 1;
    }
    let expr = &args[end..];
    let deletes = expr
        .iter()
        .any(|a| matches!(a, Arg::Lit(t) if t == "-delete"));
    let dot = [Arg::Lit(".".into())];
    let roots = if start == end {
        &dot[..]
    } else {
        &args[start..end]
    };
    for r in roots {
        push(Access::RecursiveRead, r);
        if deletes {
            push(Access::RecursiveWrite, r);
        }
    }
    for pair in expr.windows(2) {
        let writes = ["-fprint", "-fprint0", "-fprintf", "-fls"];
        if matches!(&pair[0], Arg::Lit(t) if writes.contains(&t.as_str())) {
            push(Access::Write, &pair[1]);
        }
    }
}

/// dd: `if=` is read, `of=` written.
fn dd(args: &[Arg], push: &mut impl FnMut(Access, &Arg)) {
    for arg in args {
        let (text, unknown) = match arg {
            Arg::Lit(t) => (t, false),
            Arg::Unknown(t) => (t, true),
        };
        for (key, access) in [("if=", Access::Read), ("of=", Access::Write)] {
            if let Some(file) = text.strip_prefix(key) {
                let file = if unknown {
                    Arg::Unknown(text.clone())
                } else {
                    Arg::Lit(file.to_string())
                };
                push(access, &file);
            }
        }
    }
}
