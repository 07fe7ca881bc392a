//! A Bash command line to the files it opens: parsed with brush-parser (a
//! real shell grammar), walked through lists, pipelines, subshells, groups,
//! loops, conditionals, functions, redirections, here-documents and every
//! command or process substitution; `bash -c`, `sh -c` and `eval` strings
//! are parsed in turn, up to [`MAX_DEPTH`] levels. Wrappers (`sudo`, `env`,
//! `xargs`, ...) are looked through to the command they run.

use brush_parser::ast::{
    AssignmentName, CommandPrefixOrSuffixItem, CompoundList, ExtendedTestExpr, IoFileRedirectKind,
    IoFileRedirectTarget, IoRedirect, SimpleCommand,
};
use brush_parser::{Parser, ParserOptions, SourceInfo};

use super::commands;
use super::operands::{self, Access, Arg, Operand, Touch};
use super::words;
use super::wrappers::{self, Payload, Unwrapped};

mod code;
mod flow;
mod limits;
mod links;
mod place;

use code::{Stdin, input_of};
use limits::nesting;
use place::Place;

/// How deep `sh -c "sh -c '...'"` and `$( $( ) )` may nest before the
/// rest counts as undetermined.
pub const MAX_DEPTH: usize = 8;

/// How deeply one text may nest before it is not parsed or walked any
/// further: brackets, compound keywords, runs of prefix words (`!`,
/// `time`, wrappers), test expressions and wrapper chains each count. The
/// parser and the walk recurse on each level, and a stack overflow would
/// end the process without an answer (which Claude Code takes as a pass).
pub const MAX_NESTING: usize = 100;

/// The longest command text analysed. Together with [`MAX_NESTING`] it
/// bounds the stack the parser needs (see `hook::ANALYSIS_STACK`)
/// and the time it takes; a longer command is not read.
pub const MAX_COMMAND_BYTES: usize = 64 * 1024;

/// How many simple commands one analysis walks (function calls and loop
/// bodies walk theirs again) before the rest counts as undetermined: it
/// bounds the time a line of functions calling functions twice can take.
pub const MAX_STEPS: usize = 20_000;

/// Every file access `command` makes, as far as its text says.
pub fn touches(command: &str) -> Vec<Touch> {
    walk(command).out
}

/// Every simple command the walk of `command` finds (the name first), the
/// wrappers' and the commands they run alike, inside `bash -c` strings,
/// substitutions, pipelines and lists.
pub fn simple_commands(command: &str) -> Vec<Vec<Arg>> {
    walk(command).commands
}

fn walk(command: &str) -> Walker {
    let mut walker = Walker {
        options: ParserOptions::default(),
        out: Vec::new(),
        place: Place::start(std::env::var_os("CDPATH").is_some_and(|v| !v.is_empty())),
        outcome: None,
        functions: std::collections::HashMap::new(),
        aliases: Vec::new(),
        steps: 0,
        nest: 0,
        stdin: Stdin::Opaque("the input the command inherits"),
        commands: Vec::new(),
    };
    if command.len() > MAX_COMMAND_BYTES {
        walker.unknown(
            "a command too long to analyse",
            &format!("({} bytes)", command.len()),
        );
    } else {
        walker.script(command, 0);
    }
    walker
}

struct Walker {
    options: ParserOptions,
    out: Vec<Touch>,
    /// Where the shell is (see [`place`]).
    place: Place,
    /// What the last simple command leaves when it succeeds and when it
    /// fails, if that differs (`cd`).
    outcome: Option<(Place, Place)>,
    /// The functions the line defines, by name: a call walks the body
    /// where it is called.
    functions: std::collections::HashMap<String, brush_parser::ast::FunctionBody>,
    /// Names the line made for other paths (see [`links`]).
    aliases: Vec<links::Alias>,
    /// Simple commands walked so far (see [`MAX_STEPS`]).
    steps: usize,
    /// How many nested constructs the walk is inside (see [`MAX_NESTING`]).
    nest: usize,
    /// What the command being walked reads on its standard input.
    stdin: Stdin,
    /// The simple commands walked, each as its words (see [`simple_commands`]).
    commands: Vec<Vec<Arg>>,
}

impl Walker {
    /// Record `touch`, its path taken from where the shell may be.
    fn push(&mut self, touch: Touch) {
        match &touch.operand {
            Operand::Path(_) => {}
            // A destination directory: below each place the shell may be.
            Operand::Into { dir, name } => {
                let name = name.clone();
                for operand in self.place.operands(dir) {
                    let operand = match operand {
                        Operand::Path(d) => Operand::Into {
                            dir: d,
                            name: name.clone(),
                        },
                        other => other,
                    };
                    self.out.push(Touch {
                        operand,
                        ..touch.clone()
                    });
                }
                return;
            }
            Operand::Unknown(w) if w.starts_with('/') && self.glob_through_aliases(w) => {
                let operand = Operand::Opaque(w.clone());
                return self.out.push(Touch { operand, ..touch });
            }
            // An undetermined word (a glob) is below each place too.
            Operand::Unknown(w) if !w.starts_with(['/', '(']) => {
                for operand in self.place.operands(w) {
                    let operand = match operand {
                        // The file system does not hold those links yet.
                        Operand::Path(p) if self.glob_through_aliases(&p) => Operand::Opaque(p),
                        Operand::Path(p) => Operand::Unknown(p),
                        Operand::Unknown(p) | Operand::Opaque(p) => Operand::Opaque(p),
                        other => other,
                    };
                    self.out.push(Touch {
                        operand,
                        ..touch.clone()
                    });
                }
                return;
            }
            _ => return self.out.push(touch),
        }
        let Operand::Path(p) = &touch.operand else {
            return self.out.push(touch);
        };
        for operand in self.place.operands(p) {
            if let Operand::Path(path) = &operand {
                for also in self.through_aliases(path) {
                    let operand = match also {
                        Some(target) => Operand::Path(target),
                        None => Operand::Opaque(path.clone()),
                    };
                    self.out.push(Touch {
                        operand,
                        ..touch.clone()
                    });
                }
            }
            self.out.push(Touch {
                operand,
                ..touch.clone()
            });
        }
    }

    fn unknown(&mut self, by: &str, written: &str) {
        self.out.push(Touch {
            by: by.to_string(),
            access: Access::Read,
            operand: Operand::Opaque(written.to_string()),
        });
    }

    fn script(&mut self, text: &str, depth: usize) {
        if depth > MAX_DEPTH {
            return self.unknown("a nested shell", text);
        }
        if nesting(text) > MAX_NESTING {
            return self.unknown("a command nested too deeply to parse", text);
        }
        let mut parser = Parser::new(text.as_bytes(), &self.options, &SourceInfo::default());
        match parser.parse_program() {
            Ok(program) => {
                for list in &program.complete_commands {
                    self.list(list, depth);
                }
            }
            Err(_) => self.unknown("a command the shell grammar does not parse", text),
        }
    }

    /// One level deeper into the text; false (and an undetermined access
    /// recorded) past [`MAX_NESTING`]. Each `enter` that returned true is
    /// paired with a `self.nest -= 1`.
    fn enter(&mut self, what: &str) -> bool {
        if self.nest >= MAX_NESTING {
            self.unknown("a command nested too deeply to analyse", what);
            return false;
        }
        self.nest += 1;
        true
    }

    fn list(&mut self, list: &CompoundList, depth: usize) {
        if !self.enter("(a command list)") {
            return;
        }
        self.list_items(list, depth);
        self.nest -= 1;
    }

    fn test(&mut self, expr: &ExtendedTestExpr, depth: usize) {
        if !self.enter("(a [[ ]] expression)") {
            return;
        }
        self.test_expr(expr, depth);
        self.nest -= 1;
    }

    fn test_expr(&mut self, expr: &ExtendedTestExpr, depth: usize) {
        match expr {
            ExtendedTestExpr::And(a, b) | ExtendedTestExpr::Or(a, b) => {
                self.test(a, depth);
                self.test(b, depth);
            }
            ExtendedTestExpr::Not(a) | ExtendedTestExpr::Parenthesized(a) => self.test(a, depth),
            ExtendedTestExpr::UnaryTest(_, w) => drop(self.word(&w.value, depth)),
            ExtendedTestExpr::BinaryTest(_, a, b) => {
                self.word(&a.value, depth);
                self.word(&b.value, depth);
            }
        }
    }

    /// An arithmetic text: the shell expands it like a double-quoted word
    /// before it evaluates it.
    fn arithmetic(&mut self, text: &str, depth: usize) {
        self.word(&format!("\"{}\"", text.replace('"', "\\\"")), depth);
    }

    /// A word's value; its command substitutions are walked.
    fn word(&mut self, written: &str, depth: usize) -> Arg {
        let expanded = words::expand(written, &self.options);
        for sub in &expanded.substitutions {
            self.subshell(|w| w.script(sub, depth + 1));
        }
        expanded.arg
    }

    fn simple(&mut self, simple: &SimpleCommand, depth: usize) {
        self.outcome = None;
        self.steps += 1;
        if self.steps > MAX_STEPS {
            if self.steps == MAX_STEPS + 1 {
                self.unknown("a command too large to analyse", "(the rest of the line)");
            }
            return;
        }
        let mut args = Vec::new();
        let items = simple.prefix.iter().flat_map(|p| &p.0);
        let name = simple
            .word_or_name
            .iter()
            .map(|w| CommandPrefixOrSuffixItem::Word(w.clone()));
        let suffix = simple.suffix.iter().flat_map(|s| &s.0).cloned();
        let all: Vec<CommandPrefixOrSuffixItem> =
            items.cloned().chain(name).chain(suffix).collect();
        let redirects: Vec<&IoRedirect> = all
            .iter()
            .filter_map(|i| match i {
                CommandPrefixOrSuffixItem::IoRedirect(r) => Some(r),
                _ => None,
            })
            .collect();
        let outer = self.stdin.clone();
        if let Some(stdin) = input_of(&redirects) {
            self.stdin = stdin;
        }
        for item in &all {
            match item {
                CommandPrefixOrSuffixItem::IoRedirect(r) => self.redirect(r, depth),
                CommandPrefixOrSuffixItem::Word(w) => args.push(self.word(&w.value, depth)),
                // After the name, `k=v` is an argument (dd's `if=f`, curl's
                // `-F k=@f`); before it, an assignment.
                CommandPrefixOrSuffixItem::AssignmentWord(a, w) => {
                    let arg = self.word(&w.value, depth);
                    if let AssignmentName::ArrayElementName(_, index) = &a.name {
                        self.arithmetic(index, depth);
                    }
                    if !args.is_empty() {
                        args.push(arg);
                    } else {
                        self.assignment(&a.name.to_string(), &w.value);
                    }
                }
                CommandPrefixOrSuffixItem::ProcessSubstitution(_, sub) => {
                    self.subshell(|w| w.list(&sub.list, depth + 1));
                    // The command sees a pipe, not a file.
                    args.push(Arg::Lit("/dev/fd/63".into()));
                }
            }
        }
        self.command(&args, depth);
        self.stdin = outer;
    }

    fn redirect(&mut self, redirect: &IoRedirect, depth: usize) {
        let (access, target) = match redirect {
            IoRedirect::File(_, kind, target) => {
                let access: &[Access] = match kind {
                    IoFileRedirectKind::Read => &[Access::Read],
                    IoFileRedirectKind::ReadAndWrite => &[Access::Read, Access::Write],
                    IoFileRedirectKind::DuplicateInput => &[],
                    _ => &[Access::Write],
                };
                match target {
                    IoFileRedirectTarget::Filename(w) => (access, w.value.clone()),
                    // `>&file` writes the file; `>&2` and `>&-` are descriptors.
                    IoFileRedirectTarget::Duplicate(w)
                        if !w.value.chars().all(|c| c.is_ascii_digit() || c == '-') =>
                    {
                        (access, w.value.clone())
                    }
                    IoFileRedirectTarget::ProcessSubstitution(_, sub) => {
                        return self.subshell(|w| w.list(&sub.list, depth + 1));
                    }
                    _ => return,
                }
            }
            IoRedirect::OutputAndError(w, _) => (&[Access::Write][..], w.value.clone()),
            IoRedirect::HereString(_, w) => return drop(self.word(&w.value, depth)),
            IoRedirect::HereDocument(_, doc) => {
                if doc.requires_expansion {
                    self.word(
                        &format!("\"{}\"", doc.doc.value.replace('"', "\\\"")),
                        depth,
                    );
                }
                return;
            }
        };
        let arg = self.word(&target, depth);
        for a in access {
            self.push(Touch {
                by: "a redirection".to_string(),
                access: *a,
                operand: (&arg).into(),
            });
        }
    }
}

/// Whether `word` is a wrapper of the table ([`wrappers`]): a run of them
/// counts toward the nesting limit.
pub(super) fn is_wrapper(word: &str) -> bool {
    super::wrapper_table::WRAPPERS
        .iter()
        .any(|w| w.names.contains(&word))
}

pub(super) const SHELLS: &[&str] = &["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "busybox"];

impl Walker {
    /// One simple command's words (the name first).
    fn command(&mut self, args: &[Arg], depth: usize) {
        if !self.enter("(a chain of wrappers)") {
            return;
        }
        self.command_words(args, depth);
        self.nest -= 1;
    }

    fn command_words(&mut self, args: &[Arg], depth: usize) {
        let Some(first) = args.first() else { return };
        self.commands.push(args.to_vec());
        let name = match first {
            Arg::Lit(t) => t.rsplit('/').next().unwrap_or(t).to_string(),
            Arg::Unknown(t) => return self.unknown("a command named by an expansion", t),
        };
        let rest = &args[1..];
        if self.code(&name, rest, depth) {
            return;
        }
        if let Some(mut unwrapped) = wrappers::unwrap(&name, rest) {
            if name == "xargs" {
                mark_replaced(rest, &mut unwrapped);
            }
            // Only the shell's own `command`, `builtin` and `time` run the
            // command in this shell; the rest start a process, where a
            // `cd` changes nothing here.
            if ["command", "builtin", "time"].contains(&name.as_str()) {
                return self.wrapped(&name, unwrapped, depth);
            }
            return self.subshell(|w| w.wrapped(&name, unwrapped, depth));
        }
        if SHELLS.contains(&name.as_str()) {
            return self.subshell(|w| w.shell(&name, rest, depth));
        }
        if self.moves(&name, rest) {
            return;
        }
        if let Some(body) = self.functions.get(&name).cloned() {
            return self.call(&body, depth);
        }
        let spec = commands::lookup(&name);
        for touch in operands::touches(&name, spec, rest) {
            self.push(touch);
        }
        self.links(&name, spec, rest);
    }

    /// What a wrapper runs ([`wrappers`]), walked in turn: `sudo -u x cat f`
    /// is `cat f`, `su -c STRING` parses STRING, `env -C DIR` runs below DIR.
    fn wrapped(&mut self, name: &str, unwrapped: Unwrapped, depth: usize) {
        if depth > MAX_DEPTH {
            return self.unknown("a command wrapped too deeply", name);
        }
        for touch in unwrapped.touches {
            self.push(touch);
        }
        let outer = self.place.clone();
        if let Some(dir) = &unwrapped.chdir {
            self.place = outer.cd(dir);
        }
        for payload in unwrapped.payloads {
            match payload {
                Payload::Command(args) => self.command(&args, depth + 1),
                Payload::Script(Arg::Lit(text)) => self.script(&text, depth + 1),
                Payload::Script(Arg::Unknown(written)) => self.unknown(name, &written),
            }
        }
        self.place = outer;
    }
}

/// `xargs -I X` / `-i` / `--replace` put the words it reads into every
/// argument holding X (`sh -c '{}'` runs what it reads): those arguments of
/// the command it runs are undetermined. The mark is looked for among all
/// of xargs' words, which can only make more of them undetermined.
fn mark_replaced(words: &[Arg], unwrapped: &mut Unwrapped) {
    let Some(mark) = replace_mark(words) else {
        return;
    };
    for payload in unwrapped.payloads.iter_mut() {
        let Payload::Command(args) = payload else {
            continue;
        };
        for arg in args.iter_mut().skip(1) {
            if let Arg::Lit(t) = arg
                && t.contains(&mark)
            {
                *arg = Arg::Unknown(t.clone());
            }
        }
    }
}

/// The text xargs replaces with what it reads: `-I X`, `-iX`, `-i`,
/// `--replace[=X]` (`{}` by default).
fn replace_mark(options: &[Arg]) -> Option<String> {
    let mut mark = None;
    let mut words = options.iter();
    while let Some(arg) = words.next() {
        let Arg::Lit(t) = arg else { continue };
        if t == "-I" {
            mark = Some(match words.next() {
                Some(Arg::Lit(m)) => m.clone(),
                _ => String::new(),
            });
        } else if let Some(m) = t.strip_prefix("--replace") {
            let m = m.strip_prefix('=').unwrap_or("");
            mark = Some(if m.is_empty() { "{}".into() } else { m.into() });
        } else if let Some(m) = t.strip_prefix("-i").or_else(|| t.strip_prefix("-I")) {
            mark = Some(if m.is_empty() { "{}".into() } else { m.into() });
        }
    }
    mark
}
