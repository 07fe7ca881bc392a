//! A Bash command line to the files it opens: parsed with brush-parser (a
//! real shell grammar), walked through lists, pipelines, subshells, groups,
//! loops, conditionals, functions, redirections, here-documents and every
//! command or process substitution; `bash -c`, `sh -c` and `eval` strings
//! are parsed in turn, up to [`MAX_DEPTH`] levels. Wrappers (`sudo`, `env`,
//! `xargs`, ...) are looked through to the command they run.

use brush_parser::ast::{
    AssignmentName, Command, CommandPrefixOrSuffixItem, CompoundCommand, CompoundList,
    ExtendedTestExpr, IoFileRedirectKind, IoFileRedirectTarget, IoRedirect, Pipeline,
    SimpleCommand,
};
use brush_parser::{Parser, ParserOptions, SourceInfo};

use super::commands;
use super::operands::{self, Access, Arg, Operand, Touch};
use super::words;

mod code;
mod limits;

use code::{Stdin, input_of};
use limits::nesting;

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
/// bounds the stack the parser needs (see `commands::hook::ANALYSIS_STACK`)
/// and the time it takes; a longer command is not read.
pub const MAX_COMMAND_BYTES: usize = 64 * 1024;

/// Every file access `command` makes, as far as its text says.
pub fn touches(command: &str) -> Vec<Touch> {
    let mut walker = Walker {
        options: ParserOptions::default(),
        out: Vec::new(),
        dir: None,
        nest: 0,
        stdin: Stdin::Opaque("the input the command inherits"),
    };
    if command.len() > MAX_COMMAND_BYTES {
        walker.unknown(
            "a command too long to analyse",
            &format!("({} bytes)", command.len()),
        );
    } else {
        walker.script(command, 0);
    }
    walker.out
}

struct Walker {
    options: ParserOptions,
    out: Vec<Touch>,
    /// Where a `cd` earlier in the text went: later relative paths are
    /// below it. Subshells are not told apart, which can only over-deny.
    dir: Option<Arg>,
    /// How many nested constructs the walk is inside (see [`MAX_NESTING`]).
    nest: usize,
    /// What the command being walked reads on its standard input.
    stdin: Stdin,
}

impl Walker {
    /// Record `touch`, its relative path taken from the last `cd`.
    fn push(&mut self, mut touch: Touch) {
        if let (Some(dir), Operand::Path(p)) = (&self.dir, &touch.operand)
            && !p.starts_with('/')
            && !p.starts_with('~')
        {
            touch.operand = match dir {
                Arg::Lit(d) => Operand::Path(format!("{d}/{p}")),
                Arg::Unknown(d) => Operand::Unknown(format!("{d}/{p}")),
            };
        }
        self.out.push(touch);
    }

    fn unknown(&mut self, by: &str, written: &str) {
        self.push(Touch {
            by: by.to_string(),
            access: Access::Read,
            operand: Operand::Unknown(written.to_string()),
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

    fn list_items(&mut self, list: &CompoundList, depth: usize) {
        for item in &list.0 {
            self.pipeline(&item.0.first, depth);
            for next in &item.0.additional {
                let (brush_parser::ast::AndOr::And(p) | brush_parser::ast::AndOr::Or(p)) = next;
                self.pipeline(p, depth);
            }
        }
    }

    fn pipeline(&mut self, pipeline: &Pipeline, depth: usize) {
        let outer = self.stdin.clone();
        for (at, command) in pipeline.seq.iter().enumerate() {
            if at > 0 {
                self.stdin = Stdin::Opaque("a pipe");
            }
            match command {
                Command::Simple(simple) => self.simple(simple, depth),
                Command::Compound(compound, redirects) => {
                    let redirects: Vec<&IoRedirect> = redirects.iter().flat_map(|r| &r.0).collect();
                    if let Some(stdin) = input_of(&redirects) {
                        self.stdin = stdin;
                    }
                    self.compound(compound, depth);
                    for r in redirects {
                        self.redirect(r, depth);
                    }
                }
                Command::Function(f) => {
                    self.compound(&f.body.0, depth);
                    for r in f.body.1.iter().flat_map(|r| &r.0) {
                        self.redirect(r, depth);
                    }
                }
                Command::ExtendedTest(test) => self.test(&test.expr, depth),
            }
        }
        self.stdin = outer;
    }

    fn compound(&mut self, compound: &CompoundCommand, depth: usize) {
        match compound {
            CompoundCommand::BraceGroup(g) => self.list(&g.list, depth),
            CompoundCommand::Subshell(s) => self.list(&s.list, depth),
            CompoundCommand::ForClause(f) => {
                for w in f.values.iter().flatten() {
                    self.word(&w.value, depth);
                }
                self.list(&f.body.list, depth);
            }
            CompoundCommand::CaseClause(c) => {
                self.word(&c.value.value, depth);
                for case in &c.cases {
                    for pattern in &case.patterns {
                        self.word(&pattern.value, depth);
                    }
                    if let Some(cmd) = &case.cmd {
                        self.list(cmd, depth);
                    }
                }
            }
            CompoundCommand::IfClause(i) => {
                self.list(&i.condition, depth);
                self.list(&i.then, depth);
                for e in i.elses.iter().flatten() {
                    if let Some(c) = &e.condition {
                        self.list(c, depth);
                    }
                    self.list(&e.body, depth);
                }
            }
            CompoundCommand::WhileClause(w) | CompoundCommand::UntilClause(w) => {
                self.list(&w.0, depth);
                self.list(&w.1.list, depth);
            }
            // brush reads `( ( cmd ) )` as `(( ))` arithmetic, where bash
            // runs nested subshells; so the text is walked as commands too.
            // Real arithmetic (`i++`, `x = 1`) names no file there.
            // Its expansions (`(( $(cmd) ))`) run too.
            CompoundCommand::Arithmetic(a) => {
                self.script(&a.expr.value, depth + 1);
                self.arithmetic(&a.expr.value, depth);
            }
            CompoundCommand::ArithmeticForClause(f) => {
                for e in [&f.initializer, &f.condition, &f.updater]
                    .into_iter()
                    .flatten()
                {
                    self.arithmetic(&e.value, depth);
                }
                self.list(&f.body.list, depth);
            }
        }
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
            self.script(sub, depth + 1);
        }
        expanded.arg
    }

    fn simple(&mut self, simple: &SimpleCommand, depth: usize) {
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
                    self.list(&sub.list, depth + 1);
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
                        return self.list(&sub.list, depth + 1);
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

/// Wrappers that run the command after their own options, with the options
/// of theirs that take a value.
pub(super) const WRAPPERS: &[(&str, &[&str])] = &[
    (
        "sudo",
        &["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"],
    ),
    ("doas", &["-u", "-C"]),
    ("env", &["-u", "-C", "-S", "--unset", "--chdir"]),
    ("nice", &["-n", "--adjustment"]),
    ("nohup", &[]),
    ("time", &["-f", "-o"]),
    ("command", &[]),
    ("builtin", &[]),
    ("exec", &["-a"]),
    ("stdbuf", &["-i", "-o", "-e"]),
    ("ionice", &["-c", "-n", "-p"]),
    ("timeout", &["-s", "-k", "--signal", "--kill-after"]),
    (
        "xargs",
        &[
            "-I",
            "-i",
            "-n",
            "-L",
            "-P",
            "-d",
            "-E",
            "-s",
            "-a",
            "--arg-file",
            "--delimiter",
            "--max-args",
            "--max-procs",
        ],
    ),
];

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
        let name = match first {
            Arg::Lit(t) => t.rsplit('/').next().unwrap_or(t).to_string(),
            Arg::Unknown(t) => return self.unknown("a command named by an expansion", t),
        };
        let rest = &args[1..];
        if self.code(&name, rest, depth) {
            return;
        }
        if let Some((_, valued)) = WRAPPERS.iter().find(|(w, _)| *w == name) {
            return self.wrapped(&name, valued, rest, depth);
        }
        if SHELLS.contains(&name.as_str()) {
            return self.shell(&name, rest, depth);
        }
        if name == "cd" || name == "pushd" {
            let target = rest
                .iter()
                .find(|a| !matches!(a, Arg::Lit(t) if t.starts_with('-') && t.len() > 1));
            let target = match target {
                // `cd -` goes back to a directory the text does not name.
                Some(Arg::Lit(t)) if t == "-" => Arg::Unknown("cd -".into()),
                Some(t) => t.clone(),
                None => Arg::Lit("~".into()),
            };
            // `cd sub` after `cd dir` is `dir/sub`.
            let joined = match (&self.dir, target) {
                (Some(Arg::Lit(d)), Arg::Lit(t)) if !t.starts_with(['/', '~']) => {
                    Arg::Lit(format!("{d}/{t}"))
                }
                (Some(Arg::Unknown(d)), _) => Arg::Unknown(d.clone()),
                (_, t) => t,
            };
            self.dir = Some(joined);
            return;
        }
        if let Some(spec) = commands::lookup(&name) {
            for touch in operands::touches(&name, spec, rest) {
                self.push(touch);
            }
        }
    }

    /// `sudo -u x cat f` is `cat f`; `xargs cat` is `cat` with operands
    /// nobody can see.
    fn wrapped(&mut self, name: &str, valued: &[&str], rest: &[Arg], depth: usize) {
        let mut i = 0;
        while let Some(Arg::Lit(t)) = rest.get(i) {
            let is_assignment = name == "env" && t.contains('=') && !t.starts_with('-');
            if t == "--" {
                i += 1;
                break;
            }
            if !(is_assignment || t.starts_with('-') && t.len() > 1) {
                break;
            }
            i += if valued.contains(&t.as_str()) { 2 } else { 1 };
        }
        // timeout's first operand is the duration.
        if name == "timeout" {
            i += 1;
        }
        let mut inner: Vec<Arg> = rest.iter().skip(i).cloned().collect();
        if name == "xargs" {
            if inner.is_empty() {
                inner.push(Arg::Lit("echo".into()));
            }
            inner.push(Arg::Unknown(
                "(the words xargs reads from its input)".into(),
            ));
        }
        self.command(&inner, depth);
    }
}
