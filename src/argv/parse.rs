//! The parser: one pass over the words, a table at a time.

use super::{Arity, Grammar, Occurrence, Opt, Parsed, Style, Then};

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

/// Insert `words` into `argv` (binary first) as options: at the end, or
/// before the `--` that ends the options (after it they would be words).
pub fn with_options(
    grammar: &'static Grammar,
    argv: &mut Vec<String>,
    words: &[String],
) -> Result<(), ParseError> {
    let at = option_insert_at(grammar, argv)?;
    argv.splice(at..at, words.iter().cloned());
    Ok(())
}

/// Where [`with_options`] inserts options into `argv` (binary first): its
/// length, or the index of the `--` that ends the options.
pub fn option_insert_at(grammar: &'static Grammar, argv: &[String]) -> Result<usize, ParseError> {
    let parsed = parse(grammar, argv.get(1..).unwrap_or_default())?;
    Ok(parsed.terminator.map_or(argv.len(), |i| i + 1))
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

pub(super) struct Reader<'a> {
    pub(super) grammar: &'static Grammar,
    pub(super) args: &'a [String],
    pub(super) at: usize,
    pub(super) parsed: Parsed,
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

    pub(super) fn record(
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

    pub(super) fn positional(&mut self, word: String) -> Result<(), ParseError> {
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
