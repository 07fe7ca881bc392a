//! From a command's words to the files it opens, by its entry in the
//! command table ([`super::commands`]): options are told from operands,
//! option values that are files are picked out, and the operands are read
//! or written as the command's shape says.

use super::commands::{Opt, Shape, Spec};
use super::destinations;
use super::syntax;

/// How a command opens a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    /// Reads everything below the path too.
    RecursiveRead,
    /// Writes (removes, changes) everything below the path too.
    RecursiveWrite,
    /// Names the path to a program that may or may not open it: an unknown
    /// program's word, an option value the grammar does not call a file.
    Named,
}

impl Access {
    pub fn verb(self) -> &'static str {
        match self {
            Access::Read | Access::RecursiveRead => "reads",
            Access::Write | Access::RecursiveWrite => "writes",
            Access::Named => "names",
        }
    }

    pub fn recursive(self) -> bool {
        matches!(self, Access::RecursiveRead | Access::RecursiveWrite)
    }

    pub fn walking(self, recursive: bool) -> Access {
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
    /// A destination: `dir/name` when `dir` is an existing directory when
    /// the hook looks, else `dir` itself (cp, mv, ln, install).
    Into {
        dir: String,
        name: String,
    },
    Unknown(String),
    /// What the walk cannot see through (a nesting too deep, a script not
    /// in the line), described: always asked about, never taken for a glob.
    Opaque(String),
}

impl Operand {
    /// The path the text names: for a destination, `dir/name` when
    /// `is_dir(dir)`.
    pub fn path(&self, is_dir: impl FnOnce(&str) -> bool) -> Option<String> {
        match self {
            Operand::Path(p) => Some(p.clone()),
            Operand::Into { dir, name } if is_dir(dir) => {
                Some(format!("{}/{name}", dir.trim_end_matches('/')))
            }
            Operand::Into { dir, .. } => Some(dir.clone()),
            Operand::Unknown(_) | Operand::Opaque(_) => None,
        }
    }
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
pub(super) struct Parsed {
    pub positionals: Vec<Arg>,
    /// Files named by option values, with how they are opened.
    pub files: Vec<(Access, Arg)>,
    /// Words the program may open although the grammar does not say so:
    /// values of options taking no file, words after an unknown option.
    pub named: Vec<Arg>,
    pub target: Option<Arg>,
    /// Where the program works (`tar -C`, `unzip -d`, `wget -P`, curl
    /// `--output-dir`).
    pub directory: Option<Arg>,
    /// Files written that `directory` applies to (curl `-o`).
    pub outputs: Vec<Arg>,
    pub recursive: bool,
    pub in_place: bool,
    pub stdout: bool,
    pub create: bool,
    pub extract: bool,
    pub pattern_given: bool,
    /// Names its output after the URL (curl `-O`).
    pub remote_name: bool,
    /// Takes the names it writes from elsewhere (curl `-J`, tar `-P`).
    pub names_unknown: bool,
    /// Every operand is written (`install -d`).
    pub all_written: bool,
    /// The operands name more files, read in turn (`md5sum -c`).
    pub operands_list: bool,
    /// `cp -T`: the destination itself is written.
    pub no_target_dir: bool,
    /// `cp --parents`: a source keeps its path below the destination.
    pub parents: bool,
    /// cp makes links instead of copies (`-l`, `-s`).
    pub links: bool,
    /// Pattern or script texts (`sed -e SCRIPT`, awk's program).
    pub scripts: Vec<Arg>,
    /// Commands the program runs (`tar -I PROG`).
    pub runs: Vec<Arg>,
}

/// The files `name` (looked up as `spec`) opens with `args`.
pub fn touches(name: &str, spec: &Spec, args: &[Arg]) -> Vec<Touch> {
    let mut out = Vec::new();
    let mut push = |access: Access, operand: Operand| {
        if !matches!(&operand, Operand::Path(t) if t == "-" || t.is_empty()) {
            out.push(Touch {
                by: name.to_string(),
                access,
                operand,
            });
        }
    };
    match spec.shape {
        Shape::Find => syntax::find(args, &mut |a, arg| push(a, arg.into())),
        Shape::Dd => syntax::dd(args, &mut |a, arg| push(a, arg.into())),
        Shape::Opaque => named_words(args, &mut push),
        Shape::Inert => {}
        _ => {
            let mut parsed = parse(spec, args);
            for (access, file) in &parsed.files {
                push(*access, file.into());
            }
            named_words(&parsed.named, &mut push);
            if super::commands::SCRIPTED.contains(&name) {
                if !parsed.pattern_given {
                    parsed.scripts.extend(parsed.positionals.first().cloned());
                }
                for script in &parsed.scripts {
                    named_words(&script_words(script), &mut push);
                }
            }
            positionals(name, spec, &parsed, &mut push);
        }
    }
    out
}

/// The words of a sed or awk script that could be file names.
fn script_words(script: &Arg) -> Vec<Arg> {
    let Arg::Lit(text) = script else {
        return Vec::new();
    };
    text.split(|c: char| c.is_whitespace() || "\"'();|<>{}".contains(c))
        .filter(|w| !w.is_empty())
        .map(|w| Arg::Lit(w.to_string()))
        .collect()
}

/// The commands `spec`'s options make the program run (`tar -I PROG`), as
/// shell strings.
pub fn commands_run(spec: &Spec, args: &[Arg]) -> Vec<Arg> {
    if !spec.opts.iter().any(|(_, o)| *o == Opt::Runs) {
        return Vec::new();
    }
    parse(spec, args).runs
}

/// Every path each of `words` could name, as [`Access::Named`].
pub(super) fn named_words(words: &[Arg], push: &mut impl FnMut(Access, Operand)) {
    for word in words {
        if let Arg::Lit(text) = word {
            for candidate in super::named::candidates(text) {
                push(Access::Named, Operand::Path(candidate));
            }
        }
    }
}

/// Options and operands, by the spec's option list.
fn parse(spec: &Spec, args: &[Arg]) -> Parsed {
    let mut p = Parsed::default();
    let words = if spec.shape == Shape::Tar {
        tar_old_style(spec, args)
    } else {
        args.to_vec()
    };
    let mut rest = words.iter();
    let mut ended = false;
    let mut files_ended = false;
    // An option the grammar does not know may take the next word as its
    // value: that word is checked as named, and still read as an operand.
    let mut suspect = false;
    while let Some(arg) = rest.next() {
        if std::mem::take(&mut suspect) {
            p.named.push(arg.clone());
        }
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
            match long_option(spec, key) {
                Some(opt) => files_ended |= apply(&mut p, key, opt, inline, &mut rest),
                None if spec.complete => match inline {
                    Some(value) => p.named.push(value),
                    None => suspect = true,
                },
                // An incomplete grammar: the word's own value still counts.
                None => p.named.push(arg.clone()),
            }
        } else if let Some(opt) = option(spec, text) {
            // A single-dash long option (`xxd -cols`, `zip -tt`).
            apply(&mut p, text.trim_start_matches('-'), opt, None, &mut rest);
        } else {
            suspect = short_cluster(spec, &mut p, &text[1..], &mut rest);
            if !spec.complete {
                p.named.push(arg.clone());
            }
        }
    }
    p
}

/// tar's old style: a first word without a dash is a cluster of letters,
/// whose values are the next words in order (`tar fc out.tar dir`).
fn tar_old_style(spec: &Spec, args: &[Arg]) -> Vec<Arg> {
    let Some(Arg::Lit(first)) = args.first() else {
        return args.to_vec();
    };
    if first.starts_with('-') {
        return args.to_vec();
    }
    let mut values = args[1..].iter();
    let mut out = Vec::new();
    for c in first.chars() {
        let flag = format!("-{c}");
        let takes = option(spec, &flag).is_some_and(takes_value);
        out.push(Arg::Lit(flag));
        if takes && let Some(v) = values.next() {
            out.push(v.clone());
        }
    }
    out.extend(values.cloned());
    out
}

/// `-abc`, `-n5`, `-i.bak`: flags until one takes a value, which is the
/// rest of the word or the next word. True when a letter the grammar does
/// not know leaves the next word in doubt.
fn short_cluster<'a>(
    spec: &Spec,
    p: &mut Parsed,
    cluster: &str,
    rest: &mut impl Iterator<Item = &'a Arg>,
) -> bool {
    for (at, c) in cluster.char_indices() {
        let tail = &cluster[at + c.len_utf8()..];
        let Some(opt) = option(spec, &format!("-{c}")) else {
            if !spec.complete || c.is_ascii_digit() {
                continue;
            }
            // An unknown letter may take the rest of the word or the next.
            if !tail.is_empty() {
                p.named.push(Arg::Lit(tail.to_string()));
            }
            return true;
        };
        if opt == Opt::InPlace {
            p.in_place = true;
            return false;
        }
        if opt == Opt::Optional {
            if !tail.is_empty() {
                p.named.push(Arg::Lit(tail.to_string()));
                return false;
            }
            continue;
        }
        let inline = (!tail.is_empty() && takes_value(opt)).then(|| Arg::Lit(tail.to_string()));
        let consumed = inline.is_some();
        apply(p, &c.to_string(), opt, inline, rest);
        if consumed || takes_value(opt) {
            return false;
        }
    }
    false
}

/// `--key`, or, in a complete grammar, the one option `--key` abbreviates
/// (getopt_long takes any unambiguous prefix: `--out=F` is `--output=F`).
fn long_option(spec: &Spec, key: &str) -> Option<Opt> {
    let full = format!("--{key}");
    if let Some(opt) = option(spec, &full) {
        return Some(opt);
    }
    if !spec.complete || key.is_empty() {
        return None;
    }
    let mut found = spec
        .opts
        .iter()
        .filter(|(k, _)| k.starts_with(&full))
        .map(|(_, o)| *o);
    let first = found.next()?;
    found.all(|o| o == first).then_some(first)
}

fn option(spec: &Spec, key: &str) -> Option<Opt> {
    spec.opts.iter().find(|(k, _)| *k == key).map(|(_, o)| *o)
}

fn takes_value(opt: Opt) -> bool {
    !matches!(
        opt,
        Opt::Flag
            | Opt::Recursive
            | Opt::InPlace
            | Opt::Stdout
            | Opt::Create
            | Opt::Extract
            | Opt::EndOfFiles
            | Opt::Links
            | Opt::RemoteName
            | Opt::NamesUnknown
            | Opt::AllWritten
            | Opt::Optional
            | Opt::OperandsList
            | Opt::NoTargetDir
            | Opt::Parents
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
    if opt == Opt::Optional {
        p.named.extend(inline);
        return false;
    }
    let mut value = || inline.clone().or_else(|| rest.next().cloned());
    match opt {
        Opt::Flag | Opt::Optional => {}
        Opt::OperandsList => p.operands_list = true,
        Opt::NoTargetDir => p.no_target_dir = true,
        Opt::Parents => p.parents = true,
        Opt::ReadsList => {
            if let Some(list) = value() {
                let names = Arg::Unknown(format!("(the files {key} {} lists)", written(&list)));
                p.files.push((Access::Read, list));
                p.files.push((Access::Read, names));
            }
        }
        Opt::DirectoriesAction => match value() {
            Some(Arg::Lit(action)) if action == "recurse" => p.recursive = true,
            Some(other) => p.named.push(other),
            None => {}
        },
        Opt::CookieFile => match value() {
            Some(Arg::Lit(v)) if !v.contains('=') => p.files.push((Access::Read, Arg::Lit(v))),
            Some(Arg::Unknown(v)) if !v.contains('=') => {
                p.files.push((Access::Read, Arg::Unknown(v)))
            }
            _ => {}
        },
        Opt::Recursive => p.recursive = true,
        Opt::InPlace => p.in_place = true,
        Opt::Stdout => p.stdout = true,
        Opt::Create => p.create = true,
        Opt::Extract => p.extract = true,
        Opt::Links => p.links = true,
        Opt::RemoteName => p.remote_name = true,
        Opt::NamesUnknown => p.names_unknown = true,
        Opt::AllWritten => p.all_written = true,
        Opt::EndOfFiles => return true,
        Opt::Value => p.named.extend(value()),
        Opt::Credential => drop(value()),
        Opt::Pattern => {
            p.pattern_given = true;
            p.scripts.extend(value());
        }
        Opt::Runs => p.runs.extend(value()),
        Opt::TwoValues => {
            drop(value());
            let _ = rest.next();
        }
        Opt::ReadsValue => p.files.extend(value().map(|v| (Access::Read, v))),
        Opt::WritesValue => p.files.extend(value().map(|v| (Access::Write, v))),
        Opt::Output => p.outputs.extend(value()),
        Opt::Directory => p.directory = value(),
        Opt::Url => p.positionals.extend(value()),
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

/// A word as written, for a reason.
fn written(arg: &Arg) -> &str {
    match arg {
        Arg::Lit(t) | Arg::Unknown(t) => t,
    }
}

/// The file of a curl value that names one: `@file`, `name=@file`,
/// `name=<file` (a form field), `name@file` (`--data-urlencode`,
/// `--url-query`).
fn at_file(key: &str, value: &Arg) -> Option<Arg> {
    let text = match value {
        Arg::Lit(t) => t,
        Arg::Unknown(t) => return t.contains(['@', '<']).then(|| value.clone()),
    };
    let file = if let Some(f) = text.strip_prefix('@') {
        f
    } else if let Some((_, f)) = text.split_once("=@").or_else(|| form_file(key, text)) {
        f.split(';').next().unwrap_or(f)
    } else if key == "data-urlencode" || key == "url-query" {
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
fn positionals(name: &str, spec: &Spec, p: &Parsed, push: &mut impl FnMut(Access, Operand)) {
    let walk = spec.always_recursive || p.recursive;
    let ops = &p.positionals[..];
    let mut each = |access: Access, args: &[Arg]| {
        for a in args {
            push(access, a.into());
        }
    };
    if p.all_written {
        return each(Access::Write, ops);
    }
    if p.operands_list && !ops.is_empty() {
        each(
            Access::Read,
            &[Arg::Unknown("(the files the operands list)".into())],
        );
    }
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
            each(Access::Read.walking(walk), files);
            if p.in_place {
                each(Access::Write, files);
            }
            if files.is_empty() && (spec.lists_cwd || p.recursive) {
                each(Access::Read.walking(walk), &[Arg::Lit(".".into())]);
            }
        }
        Shape::Write => each(Access::Write.walking(walk), ops),
        Shape::ModeWrite => each(Access::Write.walking(walk), ops.get(1..).unwrap_or(&[])),
        Shape::InOut => {
            each(Access::Read, ops.get(..1).unwrap_or(ops));
            each(Access::Write, ops.get(1..2).unwrap_or(&[]));
        }
        Shape::Copy | Shape::Move | Shape::Link => {
            destinations::copy(name, spec.shape, p, walk, push)
        }
        Shape::Zip => {
            each(Access::Write, ops.get(..1).unwrap_or(ops));
            each(Access::Read.walking(walk), ops.get(1..).unwrap_or(&[]));
        }
        Shape::Compress => {
            each(Access::Read, ops);
            if !p.stdout {
                each(Access::Write, ops);
            }
        }
        Shape::Tar => destinations::tar(p, push),
        Shape::Unzip => destinations::unzip(p, push),
        Shape::Curl => destinations::curl(p, push),
        Shape::Wget => destinations::wget(p, push),
        Shape::Named => named_words(ops, push),
        Shape::Socat => ops.iter().for_each(|a| syntax::socat(a, push)),
        Shape::Remote => {}
        Shape::Find | Shape::Dd | Shape::Opaque | Shape::Inert => {}
    }
}

/// The positional operands and the `-t` destination of a command's words,
/// as its spec parses them (the walk follows the links and moves a line
/// makes: `ln`, `mv`).
pub fn operands_and_target(spec: &Spec, args: &[Arg]) -> (Vec<Arg>, Option<Arg>) {
    let parsed = parse(spec, args);
    (parsed.positionals, parsed.target)
}
