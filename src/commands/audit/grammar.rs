//! Reading an agent's argv the way its own argument parser does.
//!
//! Each agent's options are data ([`codex`], [`claude`], [`copilot`],
//! [`gemini`]), taken from the `--help` of the version `make test-clients`
//! installs; that run compares the tables with the real `--help` again
//! (`twsrt audit --dump-grammar AGENT`), so a flag a new release adds cannot
//! slip past. The parser is shared: clap and commander differ only in
//! whether a value option takes a following `-word` as its value; yargs
//! (Gemini CLI) reads more spellings, in [`yargs`]. A token the table cannot
//! place is an error, never a pass.

mod claude;
mod claude_subcommands;
mod codex;
mod codex_sessions;
mod copilot;
mod gemini;
mod yargs;

pub use copilot::COPILOT;

/// How many values an option takes, as its `--help` shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arity {
    /// No value (`--yolo`).
    Flag,
    /// Exactly one (`--sandbox <MODE>`).
    Value,
    /// One if the next word is not an option (`--resume [value]`).
    Optional,
    /// One or more (`--add-dir <directories...>`).
    Many,
    /// Zero or more (`--deny-tool [<tools>...]`).
    OptionalMany,
}

impl Arity {
    pub fn name(self) -> &'static str {
        match self {
            Arity::Flag => "flag",
            Arity::Value => "value",
            Arity::Optional => "optional",
            Arity::Many => "many",
            Arity::OptionalMany => "optional-many",
        }
    }
}

/// The argument library behind a CLI, where its reading differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Rust's clap (Codex): a required value never starts with `-`.
    Clap,
    /// Node's commander (Claude Code, Copilot CLI): a required value is the
    /// next word, whatever it looks like.
    Commander,
    /// Node's yargs-parser (Gemini CLI): `--no-NAME`, camelCase and loose
    /// spellings, `true`/`false` after a boolean, one value per array
    /// occurrence (see [`yargs`]).
    Yargs,
}

/// One option: every spelling (`-s`, `--sandbox`) and its arity. `hidden`
/// marks a spelling the CLI accepts but `--help` does not list.
#[derive(Debug)]
pub struct Opt {
    pub names: &'static [&'static str],
    pub arity: Arity,
    pub hidden: bool,
}

/// What follows a subcommand word.
#[derive(Debug)]
pub enum Then {
    /// Its own table reads the words after it: a subcommand that starts an
    /// agent session (audited like the top level), or a group of
    /// subcommands.
    Table(&'static Grammar),
    /// It starts no agent session (`mcp list`, `login`, `update`): the rest
    /// of the argv is not read and the launch is passed through untouched.
    Pass,
    /// It may start a session twsrt has no table for: it fails closed.
    Refuse,
}

/// A subcommand word (every alias) and what follows it.
#[derive(Debug)]
pub struct Sub {
    pub names: &'static [&'static str],
    pub then: Then,
}

impl Sub {
    pub const fn table(names: &'static [&'static str], grammar: &'static Grammar) -> Sub {
        Sub {
            names,
            then: Then::Table(grammar),
        }
    }

    pub const fn pass(names: &'static [&'static str]) -> Sub {
        Sub {
            names,
            then: Then::Pass,
        }
    }

    pub const fn refuse(names: &'static [&'static str]) -> Sub {
        Sub {
            names,
            then: Then::Refuse,
        }
    }

    /// The kind as `--dump-grammar` prints it.
    pub fn kind(&self) -> &'static str {
        match self.then {
            Then::Table(_) => "table",
            Then::Pass => "pass",
            Then::Refuse => "refuse",
        }
    }
}

#[derive(Debug)]
pub struct Grammar {
    /// `codex`, `codex exec`: the command line this table reads.
    pub name: &'static str,
    pub style: Style,
    pub options: &'static [Opt],
    pub subcommands: &'static [Sub],
    /// The command starts an agent session; a group (`claude mcp`) does not,
    /// and a word that is none of its subcommands fails closed.
    pub session: bool,
}

/// The table of an agent binary's name, or `None` for a binary twsrt
/// cannot read.
pub fn for_agent(agent: &str) -> Option<&'static Grammar> {
    match agent {
        "codex" => Some(&codex::CODEX),
        "claude" => Some(&claude::CLAUDE),
        "copilot" => Some(&COPILOT),
        "gemini" => Some(&gemini::GEMINI),
        _ => None,
    }
}

/// Every table of an agent (its own and its subcommands'), for
/// `--dump-grammar`.
pub fn all_tables(root: &'static Grammar) -> Vec<&'static Grammar> {
    let mut out = vec![root];
    for sub in root.subcommands {
        if let Then::Table(g) = sub.then {
            out.extend(all_tables(g));
        }
    }
    out
}

/// One option as it appeared in the argv.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occurrence {
    /// The spelling typed (`-s`, `--sandbox`).
    pub typed: String,
    /// The option's first spelling in the table: what checks match on.
    pub name: &'static str,
    /// What joined the first value to the spelling: `=`, `` (attached to a
    /// short option) or ` ` (the next word).
    pub joiner: &'static str,
    pub values: Vec<String>,
    /// Typed as yargs' `--no-NAME`: the option set to false.
    pub negated: bool,
}

impl Occurrence {
    pub fn value(&self) -> Option<&str> {
        self.values.first().map(String::as_str)
    }

    /// A boolean option switched on: not negated and not given `false`
    /// (yargs reads `--yolo false`, `--yolo=false` and `--no-yolo` as off;
    /// any other value counts as on, which errs towards a finding).
    pub fn on(&self) -> bool {
        !self.negated && self.value() != Some("false")
    }
}

#[derive(Debug, Default)]
pub struct Parsed {
    /// The table that read the last words (`codex exec` after `exec`).
    pub command: &'static str,
    pub options: Vec<Occurrence>,
    pub positionals: Vec<String>,
    /// Index (in the argv given to [`parse`]) of the `--` that ended the
    /// options, if one did.
    pub terminator: Option<usize>,
    /// The argv starts an agent session: false for a subcommand that is
    /// passed through (or a group without one of its subcommands).
    pub session: bool,
}

impl Parsed {
    /// Every occurrence of the option whose first spelling is `name`.
    pub fn all<'p>(&'p self, name: &'p str) -> impl Iterator<Item = &'p Occurrence> + 'p {
        self.options.iter().filter(move |o| o.name == name)
    }
}

/// Why an argv could not be read. Options are named as typed without any
/// value; nothing here repeats a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    Unknown {
        command: &'static str,
        option: String,
    },
    MissingValue {
        command: &'static str,
        option: String,
    },
    UnexpectedValue {
        command: &'static str,
        option: String,
    },
    NoGrammar {
        command: &'static str,
        sub: String,
    },
    UnknownSub {
        command: &'static str,
        sub: String,
    },
}

/// How to start a command without the wrapper, on purpose.
fn bypass(command: &str) -> String {
    format!(
        "to start it without the launch guard, bypass the wrapper deliberately: `command {command} ...`"
    )
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParseError::Unknown { command, option } => write!(
                f,
                "{command}: unknown option {}; twsrt cannot tell what it does, so it refuses \
                 the launch (a newer release? see doc/clients.md)",
                shown_option(option)
            ),
            ParseError::MissingValue { command, option } => {
                write!(f, "{command}: option {option} needs a value")
            }
            ParseError::UnexpectedValue { command, option } => {
                write!(f, "{command}: option {option} takes no value")
            }
            ParseError::NoGrammar { command, sub } => write!(
                f,
                "{command} {sub}: twsrt has no grammar for this subcommand (it may start an agent \
                 session twsrt cannot audit), so it refuses the launch; {}",
                bypass(&format!("{command} {sub}"))
            ),
            ParseError::UnknownSub { command, sub } => write!(
                f,
                "{command}: unknown subcommand {}; twsrt cannot tell what it does, so it refuses \
                 the launch; {}",
                shown_word(sub),
                bypass(command)
            ),
        }
    }
}

/// An unknown option's name as an error may show it: a name typed by
/// mistake can be a secret (`--ghp_...`), so only a name that looks like an
/// option (letters and single hyphens, short parts) is repeated; any other
/// reads `<option>`.
pub fn shown_option(typed: &str) -> &str {
    let body = typed.trim_start_matches('-');
    let dashes = typed.len() - body.len();
    if (1..=2).contains(&dashes) && plain_word(body) {
        typed
    } else {
        "<option>"
    }
}

/// An unknown subcommand word, shown on the same terms.
fn shown_word(word: &str) -> &str {
    if plain_word(word) { word } else { "<word>" }
}

/// Letters and single hyphens, at most 40 long, no part above 16.
fn plain_word(body: &str) -> bool {
    !body.is_empty()
        && body.len() <= 40
        && body
            .split('-')
            .all(|part| part.len() <= 16 && part.chars().all(|c| c.is_ascii_alphabetic()))
}

/// Read `args` (the words after the binary) with `grammar`.
pub fn parse(grammar: &'static Grammar, args: &[String]) -> Result<Parsed, ParseError> {
    let mut reader = Reader {
        grammar,
        args,
        at: 0,
        parsed: Parsed {
            command: grammar.name,
            session: grammar.session,
            ..Parsed::default()
        },
    };
    reader.run()?;
    Ok(reader.parsed)
}

struct Reader<'a> {
    grammar: &'static Grammar,
    args: &'a [String],
    at: usize,
    parsed: Parsed,
}

impl Reader<'_> {
    fn run(&mut self) -> Result<(), ParseError> {
        while self.at < self.args.len() {
            let word = self.args[self.at].clone();
            self.at += 1;
            if self.parsed.terminator.is_some() {
                self.parsed.positionals.push(word);
            } else if word == "--" {
                self.parsed.terminator = Some(self.at - 1);
            } else if self.grammar.style == Style::Yargs && word.starts_with('-') {
                self.yargs_word(&word)?;
            } else if let Some(long) = word.strip_prefix("--") {
                self.long(long)?;
            } else if word.len() > 1 && word.starts_with('-') {
                self.shorts(&word[1..])?;
            } else {
                self.positional(word)?;
            }
        }
        Ok(())
    }

    fn find(&self, spelling: &str) -> Result<&'static Opt, ParseError> {
        self.grammar
            .options
            .iter()
            .find(|o| o.names.contains(&spelling))
            .ok_or_else(|| ParseError::Unknown {
                command: self.grammar.name,
                option: spelling.to_string(),
            })
    }

    fn long(&mut self, body: &str) -> Result<(), ParseError> {
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        let typed = format!("--{name}");
        let opt = self.find(&typed)?;
        let joiner = if inline.is_some() { "=" } else { " " };
        self.take(opt, typed, joiner, inline)
    }

    /// `-abc`: flags until the first option that takes a value, which takes
    /// the rest of the word (clap also allows `-s=value`) or the next word.
    fn shorts(&mut self, body: &str) -> Result<(), ParseError> {
        for (i, c) in body.char_indices() {
            let typed = format!("-{c}");
            let opt = self.find(&typed)?;
            if opt.arity == Arity::Flag {
                self.record(opt, typed, " ", Vec::new());
                continue;
            }
            let mut rest = &body[i + c.len_utf8()..];
            let mut joiner = "";
            if self.grammar.style == Style::Clap
                && let Some(r) = rest.strip_prefix('=')
            {
                rest = r;
                joiner = "=";
            }
            let inline = (!rest.is_empty()).then(|| rest.to_string());
            let joiner = if inline.is_some() { joiner } else { " " };
            return self.take(opt, typed, joiner, inline);
        }
        Ok(())
    }

    /// The values of `opt`: the inline one, then the next words its arity
    /// and the parser's style let it take.
    fn take(
        &mut self,
        opt: &'static Opt,
        typed: String,
        joiner: &'static str,
        inline: Option<String>,
    ) -> Result<(), ParseError> {
        let command = self.grammar.name;
        let mut values: Vec<String> = inline.into_iter().collect();
        match opt.arity {
            Arity::Flag if !values.is_empty() => {
                return Err(ParseError::UnexpectedValue {
                    command,
                    option: typed,
                });
            }
            Arity::Flag => {}
            Arity::Value | Arity::Many if values.is_empty() => match self.next_value(true) {
                Some(v) => values.push(v),
                None => {
                    return Err(ParseError::MissingValue {
                        command,
                        option: typed,
                    });
                }
            },
            Arity::Optional if values.is_empty() => values.extend(self.next_value(false)),
            _ => {}
        }
        if matches!(opt.arity, Arity::Many | Arity::OptionalMany) {
            while let Some(v) = self.next_value(false) {
                values.push(v);
            }
        }
        self.record(opt, typed, joiner, values);
        Ok(())
    }

    /// The next word as a value. A word that looks like an option is a
    /// value only for a required commander value (`required`).
    fn next_value(&mut self, required: bool) -> Option<String> {
        let word = self.args.get(self.at)?;
        let optionish = word.starts_with('-') && word.len() > 1;
        if optionish && !(required && self.grammar.style == Style::Commander) {
            return None;
        }
        self.at += 1;
        Some(word.clone())
    }

    fn record(
        &mut self,
        opt: &'static Opt,
        typed: String,
        joiner: &'static str,
        values: Vec<String>,
    ) {
        self.parsed.options.push(Occurrence {
            typed,
            name: opt.names[0],
            joiner,
            values,
            negated: false,
        });
    }

    fn positional(&mut self, word: String) -> Result<(), ParseError> {
        let sub = self
            .grammar
            .subcommands
            .iter()
            .find(|s| s.names.contains(&word.as_str()));
        // A subcommand can only be the first positional word.
        if let Some(sub) = sub.filter(|_| self.parsed.positionals.is_empty()) {
            match sub.then {
                Then::Table(grammar) => {
                    self.grammar = grammar;
                    self.parsed.command = grammar.name;
                    self.parsed.session = grammar.session;
                }
                Then::Pass => {
                    self.parsed.session = false;
                    self.parsed.positionals.push(word);
                    self.parsed
                        .positionals
                        .extend(self.args[self.at..].iter().cloned());
                    self.at = self.args.len();
                }
                Then::Refuse => {
                    return Err(ParseError::NoGrammar {
                        command: self.grammar.name,
                        sub: word,
                    });
                }
            }
            return Ok(());
        }
        if !self.grammar.session {
            return Err(ParseError::UnknownSub {
                command: self.grammar.name,
                sub: word,
            });
        }
        self.parsed.positionals.push(word);
        Ok(())
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod gemini_tests;
