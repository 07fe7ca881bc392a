//! OpenCode 1.18.33 (`opencode --help`, `opencode run --help`): yargs.
//!
//! Read from its `--help` (doc/clients.md, "OpenCode: launch options").
//! Hidden: `--yolo` and `--dangerously-skip-permissions`, which the client
//! reads as `--auto`. `[array]` options take one value per occurrence
//! (`many`); `--title` and `run --port` take a value only if one follows.
//! The default command (`opencode [project]`) and `run` start a session;
//! `acp`, `serve`, `web`, `attach`, `pr` and `github` start or drive one
//! through a server or another program, which twsrt has no table for, so
//! they fail closed; the rest manage providers, sessions, plugins and
//! data, and pass.

use crate::argv::Arity::{Flag, Many, Optional, Value};
use crate::argv::{Grammar, Opt, Style, Sub, hidden, opt};

const OPTIONS: &[Opt] = &[
    opt(&["--help", "-h"], Flag),
    opt(&["--version", "-v"], Flag),
    opt(&["--print-logs"], Flag),
    opt(&["--log-level"], Value),
    opt(&["--pure"], Flag),
    opt(&["--port"], Value),
    opt(&["--hostname"], Value),
    opt(&["--mdns"], Flag),
    opt(&["--mdns-domain"], Value),
    opt(&["--cors"], Many),
    opt(&["--model", "-m"], Value),
    opt(&["--continue", "-c"], Flag),
    opt(&["--session", "-s"], Value),
    opt(&["--fork"], Flag),
    opt(&["--prompt"], Value),
    opt(&["--agent"], Value),
    opt(&["--auto"], Flag),
    opt(&["--mini"], Flag),
    opt(&["--no-replay"], Flag),
    opt(&["--replay-limit"], Value),
    hidden(&["--yolo"], Flag),
    hidden(&["--dangerously-skip-permissions"], Flag),
];

const RUN_OPTIONS: &[Opt] = &[
    opt(&["--help", "-h"], Flag),
    opt(&["--version", "-v"], Flag),
    opt(&["--print-logs"], Flag),
    opt(&["--log-level"], Value),
    opt(&["--pure"], Flag),
    opt(&["--command"], Value),
    opt(&["--continue", "-c"], Flag),
    opt(&["--session", "-s"], Value),
    opt(&["--fork"], Flag),
    opt(&["--share"], Flag),
    opt(&["--model", "-m"], Value),
    opt(&["--agent"], Value),
    opt(&["--format"], Value),
    opt(&["--file", "-f"], Many),
    opt(&["--title"], Optional),
    opt(&["--attach"], Value),
    opt(&["--password", "-p"], Value),
    opt(&["--username", "-u"], Value),
    opt(&["--dir"], Value),
    opt(&["--port"], Optional),
    opt(&["--variant"], Value),
    opt(&["--thinking"], Flag),
    opt(&["--interactive", "-i"], Flag),
    opt(&["--auto"], Flag),
    hidden(&["--yolo"], Flag),
    hidden(&["--dangerously-skip-permissions"], Flag),
];

const SUBCOMMANDS: &[Sub] = &[
    Sub::table(&["run"], &RUN),
    Sub::refuse(&["acp"]),
    Sub::refuse(&["serve"]),
    Sub::refuse(&["web"]),
    Sub::refuse(&["attach"]),
    Sub::refuse(&["pr"]),
    Sub::refuse(&["github"]),
    Sub::pass(&["completion"]),
    Sub::pass(&["mcp"]),
    Sub::pass(&["debug"]),
    Sub::pass(&["providers", "auth"]),
    Sub::pass(&["agent"]),
    Sub::pass(&["upgrade"]),
    Sub::pass(&["uninstall"]),
    Sub::pass(&["models"]),
    Sub::pass(&["stats"]),
    Sub::pass(&["export"]),
    Sub::pass(&["import"]),
    Sub::pass(&["session"]),
    Sub::pass(&["plugin", "plug"]),
    Sub::pass(&["db"]),
];

pub static OPENCODE: Grammar = Grammar {
    name: "opencode",
    style: Style::Yargs,
    options: OPTIONS,
    subcommands: SUBCOMMANDS,
    session: true,
};

static RUN: Grammar = Grammar {
    name: "opencode run",
    style: Style::Yargs,
    options: RUN_OPTIONS,
    subcommands: &[],
    session: true,
};
