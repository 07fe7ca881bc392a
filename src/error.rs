//! One error type for the whole program. Every variant knows its exit code, and
//! `main` is the only place that turns an error into a process exit.

use std::path::{Path, PathBuf};

use crate::text_position::NotUtf8;

const NOT_UTF8: &str = "the file is not valid UTF-8";

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The command line itself was wrong (clap reports most of these itself).
    #[error("{0}")]
    Usage(String),

    #[error(
        "config file not found: {}; run `twsrt config --init` to create a starter",
        .0.display()
    )]
    ConfigMissing(PathBuf),

    #[error("{}:{line}:{column}: invalid TOML: {message}", path.display())]
    TomlSyntax {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },

    /// config.toml parsed but breaks the schema.
    #[error("{}: {message}", path.display())]
    Config { path: PathBuf, message: String },

    #[error("{}:{line}:{column}: {message}", path.display())]
    Jsonc {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },

    /// A fragment parsed but its content breaks the source kind's schema.
    #[error("{}: {message}", path.display())]
    Fragment { path: PathBuf, message: String },

    /// Fragments disagree, or a profile cannot be resolved, or a rule cannot be
    /// translated: the policy as a whole is ambiguous or unsupported.
    #[error("{0}")]
    Policy(String),

    /// A key its reader does not know (config.toml, a fragment, a sandbox
    /// override), at its `line:column` where the text has one.
    #[error("{}{}: {message}", path.display(), at(*position))]
    UnknownKey {
        path: PathBuf,
        position: Option<(usize, usize)>,
        message: String,
    },

    #[error("{}: {message}", path.display())]
    Target { path: PathBuf, message: String },

    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// The command's output could not be written to stdout (not a closed
    /// pipe: that ends the run quietly).
    #[error("cannot write the output to stdout: {0}")]
    StdoutFailed(std::io::Error),

    /// What a launch audit must read (the agent's command line, a file
    /// it points at) cannot be read: exit 2.
    #[error("{0}")]
    Unreadable(String),

    /// The command cannot start: `twsrt test` without srt, unreadable
    /// settings or a policy that does not load; `twsrt config` without a
    /// config.toml: exit 2.
    #[error("{0}")]
    Setup(String),

    /// `$EDITOR` names no program that can be started: exit 1.
    #[error("{0}")]
    Editor(String),

    /// `diff`'s text report stops at an agent target that does not exist:
    /// exit 2.
    #[error("{0}")]
    TargetMissing(String),

    /// `twsrt run` refuses to start the agent (an error finding, a stale
    /// setup with --no-generate): exit 1.
    #[error("{0}")]
    Refused(String),

    /// `twsrt run` found the agent (or srt) but could not start it: exit
    /// 126, as a shell says.
    #[error("{0}")]
    CannotStart(String),

    /// `twsrt run` found no agent (or srt) to start: exit 127, as a shell
    /// says.
    #[error("{0}")]
    NotFound(String),
}

impl Error {
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Usage(_) | Error::StdoutFailed(_) | Error::Unreadable(_) | Error::Setup(_) => 2,
            Error::TargetMissing(_) => 2,
            Error::CannotStart(_) => 126,
            Error::NotFound(_) => 127,
            _ => 1,
        }
    }

    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    pub fn config(path: &Path, message: impl Into<String>) -> Self {
        Error::Config {
            path: path.to_path_buf(),
            message: message.into(),
        }
    }

    pub fn fragment(path: &Path, message: impl Into<String>) -> Self {
        Error::Fragment {
            path: path.to_path_buf(),
            message: message.into(),
        }
    }

    /// A TOML file (config.toml, the Codex config) that is not UTF-8.
    pub fn toml_not_utf8(path: &Path, at: NotUtf8) -> Self {
        Error::TomlSyntax {
            path: path.to_path_buf(),
            line: at.line,
            column: at.column,
            message: NOT_UTF8.into(),
        }
    }

    /// A fragment that is not UTF-8.
    pub fn jsonc_not_utf8(path: &Path, at: NotUtf8) -> Self {
        Error::Jsonc {
            path: path.to_path_buf(),
            line: at.line,
            column: at.column,
            message: NOT_UTF8.into(),
        }
    }

    pub fn target(path: &Path, message: impl Into<String>) -> Self {
        Error::Target {
            path: path.to_path_buf(),
            message: message.into(),
        }
    }
}

/// `:line:column`, or nothing.
fn at(position: Option<(usize, usize)>) -> String {
    position.map_or_else(String::new, |(line, column)| format!(":{line}:{column}"))
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
