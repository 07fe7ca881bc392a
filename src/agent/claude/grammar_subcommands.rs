//! The Claude Code 2.1.337 subcommands with a table, each from its own
//! `--help`: `claude agents` (it dispatches background sessions with the
//! launch options it is given), the groups `claude mcp` and `claude plugin`,
//! and `claude mcp serve` (it serves Claude Code's tools to an MCP client: a
//! session under the same settings).

use crate::argv::Arity::{Flag, Value};
use crate::argv::{Grammar, Opt, Style, Sub, opt};

const NONE: &[Sub] = &[];

const AGENTS_OPTIONS: &[Opt] = &[
    opt(&["--add-dir"], Value),
    opt(&["--agent"], Value),
    opt(&["--all"], Flag),
    opt(&["--allow-dangerously-skip-permissions"], Flag),
    opt(&["--cwd"], Value),
    opt(&["--dangerously-skip-permissions"], Flag),
    opt(&["--effort"], Value),
    opt(&["--help", "-h"], Flag),
    opt(&["--json"], Flag),
    opt(&["--mcp-config"], Value),
    opt(&["--model"], Value),
    opt(&["--permission-mode"], Value),
    opt(&["--plugin-dir"], Value),
    opt(&["--restricted"], Flag),
    opt(&["--setting-sources"], Value),
    opt(&["--settings"], Value),
    opt(&["--strict-mcp-config"], Flag),
];

pub static AGENTS: Grammar = Grammar {
    name: "claude agents",
    style: Style::Commander,
    options: AGENTS_OPTIONS,
    subcommands: NONE,
    session: true,
};

const HELP: &[Opt] = &[opt(&["--help", "-h"], Flag)];

const SERVE_OPTIONS: &[Opt] = &[
    opt(&["--debug", "-d"], Flag),
    opt(&["--help", "-h"], Flag),
    opt(&["--verbose"], Flag),
];

pub static MCP_SERVE: Grammar = Grammar {
    name: "claude mcp serve",
    style: Style::Commander,
    options: SERVE_OPTIONS,
    subcommands: NONE,
    session: true,
};

/// `claude mcp`: configuring servers starts nothing; `serve` is a session.
pub static MCP: Grammar = Grammar {
    name: "claude mcp",
    style: Style::Commander,
    options: HELP,
    subcommands: &[
        Sub::pass(&["add"]),
        Sub::pass(&["add-from-claude-desktop"]),
        Sub::pass(&["add-json"]),
        Sub::pass(&["get"]),
        Sub::pass(&["help"]),
        Sub::pass(&["list"]),
        Sub::pass(&["login"]),
        Sub::pass(&["logout"]),
        Sub::pass(&["remove"]),
        Sub::pass(&["reset-project-choices"]),
        Sub::table(&["serve"], &MCP_SERVE),
    ],
    session: false,
};

/// `claude plugin`: managing plugins starts nothing; `eval` runs sessions
/// with the plugin loaded and `test` runs a plugin's code, so both fail
/// closed.
pub static PLUGIN: Grammar = Grammar {
    name: "claude plugin",
    style: Style::Commander,
    options: HELP,
    subcommands: &[
        Sub::pass(&["configure"]),
        Sub::pass(&["details"]),
        Sub::pass(&["disable"]),
        Sub::pass(&["enable"]),
        Sub::refuse(&["eval"]),
        Sub::pass(&["help"]),
        Sub::pass(&["init", "new"]),
        Sub::pass(&["install", "i"]),
        Sub::pass(&["list"]),
        Sub::pass(&["marketplace"]),
        Sub::pass(&["prune", "autoremove"]),
        Sub::pass(&["restore-set-aside"]),
        Sub::pass(&["tag"]),
        Sub::refuse(&["test"]),
        Sub::pass(&["uninstall", "remove"]),
        Sub::pass(&["update"]),
        Sub::pass(&["validate"]),
    ],
    session: false,
};
