//! Reading a CLI's argv the way its own argument parser does: the grammar
//! types (a table of options and subcommands per command line), the parser,
//! and the table dump `make test-clients` compares with the real `--help`.
//!
//! The tables are data owned by the agents (`src/agent/<name>/grammar.rs`),
//! taken from the `--help` of the version `make test-clients` installs. The
//! parser is shared: clap and commander differ only in whether a value
//! option takes a following `-word` as its value; yargs reads more
//! spellings, in [`yargs`]. A token the table cannot place is an error,
//! never a pass. Nothing here knows an agent.

mod dump;
pub mod os;
mod parse;
pub mod yargs;

pub use dump::dump;
pub use parse::{ParseError, option_insert_at, parse, shown_option, with_options};

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
    /// Rust's clap: a required value never starts with `-`.
    Clap,
    /// Node's commander: a required value is the next word, whatever it
    /// looks like.
    Commander,
    /// Node's yargs-parser: `--no-NAME`, camelCase and loose
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
    /// `tool`, `tool run`: the command line this table reads.
    pub name: &'static str,
    pub style: Style,
    pub options: &'static [Opt],
    pub subcommands: &'static [Sub],
    /// The command starts an agent session; a group (`tool plugin`) does not,
    /// and a word that is none of its subcommands fails closed.
    pub session: bool,
}

/// An option listed by `--help`.
pub const fn opt(names: &'static [&'static str], arity: Arity) -> Opt {
    Opt {
        names,
        arity,
        hidden: false,
    }
}

/// An option the CLI accepts but `--help` does not list.
pub const fn hidden(names: &'static [&'static str], arity: Arity) -> Opt {
    Opt {
        names,
        arity,
        hidden: true,
    }
}

/// Every table of a command line (its own and its subcommands'), root
/// first.
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
    /// The table that read the last words (`tool run` after `run`).
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
