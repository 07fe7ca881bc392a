//! Command texts the line carries somewhere other than a command's words,
//! and the ones it does not carry: `bash -c` strings, here-documents and
//! here-strings a shell or `source` reads, `eval`, `trap`, `alias`,
//! `mapfile -C`, `coproc`; a script read from a file, a pipe or an
//! expanded text, and variables a shell runs as code, are opaque.

use brush_parser::ParserOptions;
use brush_parser::ast::{IoFileRedirectKind, IoRedirect};

use super::super::operands::{Access, Arg, Touch};
use super::super::words;
use super::Walker;

/// A command's standard input, for a shell that reads its script there.
#[derive(Debug, Clone)]
pub(super) enum Stdin {
    /// The text is in the command line (a here-document or here-string
    /// without expansions).
    Literal(String),
    /// A pipe, a file or an expanded text: the script is not in the line.
    Opaque(&'static str),
}

/// Variables whose value a shell runs or reads as code: the startup files
/// of a non-interactive shell, prompts (expanded, so `$(...)` in them runs)
/// and exported functions.
const CODE_VARIABLES: &[&str] = &[
    "BASH_ENV",
    "ENV",
    "PROMPT_COMMAND",
    "PS0",
    "PS1",
    "PS2",
    "PS3",
    "PS4",
    "SHELLOPTS",
    "BASHOPTS",
    "ZDOTDIR",
];

/// Builtins that declare variables from `name=value` arguments.
const DECLARERS: &[&str] = &["export", "declare", "typeset", "local", "readonly", "env"];

/// What redirections make of a command's standard input, if anything.
pub(super) fn input_of(redirects: &[&IoRedirect]) -> Option<Stdin> {
    let mut stdin = None;
    for r in redirects {
        let input = match r {
            IoRedirect::HereDocument(fd, doc) if fd.is_none_or(|f| f == 0) => {
                let text = &doc.doc.value;
                if doc.requires_expansion && text.contains(['$', '`', '\\']) {
                    Stdin::Opaque("a here-document with expansions")
                } else {
                    Stdin::Literal(text.clone())
                }
            }
            IoRedirect::HereString(fd, w) if fd.is_none_or(|f| f == 0) => {
                match words::expand(&w.value, &ParserOptions::default()).arg {
                    Arg::Lit(text) => Stdin::Literal(text),
                    Arg::Unknown(_) => Stdin::Opaque("a here-string with expansions"),
                }
            }
            IoRedirect::File(
                fd,
                IoFileRedirectKind::Read | IoFileRedirectKind::ReadAndWrite,
                _,
            )
            | IoRedirect::File(fd, IoFileRedirectKind::DuplicateInput, _)
                if fd.is_none_or(|f| f == 0) =>
            {
                Stdin::Opaque("a file")
            }
            _ => continue,
        };
        stdin = Some(input);
    }
    stdin
}

impl Walker {
    /// A builtin that runs a command text; false for any other command.
    pub(super) fn code(&mut self, name: &str, rest: &[Arg], depth: usize) -> bool {
        self.names_changed(name, rest);
        if DECLARERS.contains(&name) {
            for a in rest {
                if let Arg::Lit(t) | Arg::Unknown(t) = a
                    && let Some((var, _)) = t.split_once('=')
                    && !var.starts_with('-')
                {
                    self.assignment(var, t);
                }
            }
        }
        match name {
            // `coproc cmd` runs cmd (`coproc NAME { ...; }` does not parse).
            "coproc" => self.command(rest, depth),
            "trap" => self.trap(rest, depth),
            "alias" => {
                for a in rest {
                    match a {
                        Arg::Lit(t) => {
                            if let Some((_, value)) = t.split_once('=') {
                                self.script(value, depth + 1);
                            }
                        }
                        Arg::Unknown(t) => self.unknown("alias", t),
                    }
                }
            }
            "mapfile" | "readarray" => {
                let callback = rest
                    .windows(2)
                    .find(|w| matches!(&w[0], Arg::Lit(t) if t == "-C"));
                match callback.map(|w| &w[1]) {
                    Some(Arg::Lit(code)) => self.script(code, depth + 1),
                    Some(Arg::Unknown(t)) => self.unknown(name, t),
                    None => {}
                }
            }
            "source" | "." => self.sourced(name, rest, depth),
            "eval" => self.eval(rest, depth),
            _ => return false,
        }
        true
    }

    /// `HOME` or `CDPATH` may now hold anything: `~` or a relative `cd`
    /// is no longer certain.
    pub(super) fn variable_changed(&mut self, name: &str) {
        match name {
            "HOME" => self.place.home_known = false,
            "CDPATH" => self.place.cd_searches = true,
            _ => {}
        }
    }

    /// `unset HOME`, `read CDPATH`, `printf -v HOME`, `shopt -s
    /// cdable_vars`: a name among the words changes how `~` or `cd` work.
    fn names_changed(&mut self, name: &str, rest: &[Arg]) {
        let named = |n: &str| rest.iter().any(|a| matches!(a, Arg::Lit(t) if t == n));
        if ["unset", "read", "printf", "mapfile", "readarray", "getopts"].contains(&name)
            || DECLARERS.contains(&name)
        {
            for var in ["HOME", "CDPATH"] {
                if named(var) {
                    self.variable_changed(var);
                }
            }
            // `export BASH_ENV`, `read PS4`: a shell started later runs it.
            for var in CODE_VARIABLES {
                if named(var) {
                    self.assignment(var, var);
                }
            }
        }
        if name == "shopt" && named("cdable_vars") {
            self.place.cd_searches = true;
        }
    }

    /// `eval WORDS` runs the words joined by spaces.
    fn eval(&mut self, rest: &[Arg], depth: usize) {
        let mut text = Vec::new();
        let rest = match rest.first() {
            Some(Arg::Lit(t)) if t == "--" => &rest[1..],
            _ => rest,
        };
        for a in rest {
            match a {
                Arg::Lit(t) => text.push(t.as_str()),
                Arg::Unknown(t) => return self.unknown("eval", t),
            }
        }
        self.script(&text.join(" "), depth + 1);
    }

    /// `name=...` before a command, alone, or as an argument of `export`,
    /// `declare` or `env`: a variable whose value a shell later runs as
    /// code makes the shell opaque.
    pub(super) fn assignment(&mut self, name: &str, written: &str) {
        let name = name.split('[').next().unwrap_or(name);
        self.variable_changed(name);
        if CODE_VARIABLES.contains(&name) || name.starts_with("BASH_FUNC_") {
            self.unknown(
                &format!("a shell given {name} (code it runs that the line does not show)"),
                written,
            );
        }
    }

    /// `bash -c STRING` parses STRING; `bash FILE` reads FILE, a script
    /// the line does not show; `bash`, `bash -s` and `bash /dev/stdin` read
    /// it from their input, which is parsed when it is a literal
    /// here-document or here-string.
    pub(super) fn shell(&mut self, name: &str, rest: &[Arg], depth: usize) {
        let mut words = rest.iter();
        let mut from_input = false;
        while let Some(arg) = words.next() {
            match arg {
                Arg::Lit(t)
                    if t.starts_with('-')
                        && t.len() > 1
                        && !t.starts_with("--")
                        && t.contains('c') =>
                {
                    return match words.next() {
                        Some(Arg::Lit(script)) => self.script(script, depth + 1),
                        Some(Arg::Unknown(w)) => self.unknown(name, w),
                        None => {}
                    };
                }
                Arg::Lit(t) if t == "-o" || t == "+o" || t == "-O" || t == "+O" => {
                    let _ = words.next();
                }
                Arg::Lit(t) if t == "--rcfile" || t == "--init-file" => {
                    let file = words.next().cloned().unwrap_or(Arg::Unknown(t.clone()));
                    return self.script_file(name, &file, depth);
                }
                Arg::Lit(t) if t == "--" => {
                    return match words.next() {
                        Some(file) => self.script_file(name, file, depth),
                        None => self.script_input(name, depth),
                    };
                }
                Arg::Lit(t) if t.starts_with('-') && !t.starts_with("--") && t.contains('s') => {
                    from_input = true;
                }
                Arg::Lit(t) if t.starts_with(['-', '+']) => {}
                file if !from_input => return self.script_file(name, file, depth),
                _ => break,
            }
        }
        self.script_input(name, depth)
    }

    /// `source FILE` and `. FILE` run FILE in this shell.
    fn sourced(&mut self, name: &str, rest: &[Arg], depth: usize) {
        let file = rest
            .iter()
            .find(|a| !matches!(a, Arg::Lit(t) if t.starts_with('-') && t.len() > 1));
        match file {
            Some(file) => self.script_file(name, file, depth),
            None => self.unknown(name, "(no file)"),
        }
    }

    /// A shell running the script in `file`: read, and opaque unless it is
    /// the standard input and that is literal.
    fn script_file(&mut self, name: &str, file: &Arg, depth: usize) {
        if let Arg::Lit(t) = file
            && ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"].contains(&t.as_str())
        {
            return self.script_input(name, depth);
        }
        self.push(Touch {
            by: name.to_string(),
            access: Access::Read,
            operand: file.into(),
        });
        let written = match file {
            Arg::Lit(t) | Arg::Unknown(t) => t,
        };
        self.unknown(
            &format!("{name} (a script the line does not show)"),
            written,
        );
    }

    /// A shell reading its script from its standard input.
    fn script_input(&mut self, name: &str, depth: usize) {
        match self.stdin.clone() {
            Stdin::Literal(text) => self.script(&text, depth + 1),
            Stdin::Opaque(what) => self.unknown(
                &format!("{name} (a script read from {what})"),
                "(its standard input)",
            ),
        }
    }

    /// `trap 'cmd' SIG...` runs cmd later; `trap -p`, `trap -l`, `trap - SIG`
    /// and `trap '' SIG` run nothing.
    fn trap(&mut self, rest: &[Arg], depth: usize) {
        let mut args = rest;
        if let Some(Arg::Lit(t)) = args.first()
            && t == "--"
        {
            args = &args[1..];
        }
        match args {
            [] | [_] => {}
            [Arg::Lit(t), ..] if t.starts_with('-') => {}
            [Arg::Lit(code), ..] => self.script(code, depth + 1),
            [Arg::Unknown(t), ..] => self.unknown("trap", t),
        }
    }
}
