//! Gemini CLI 0.61.0 (`gemini --help`): yargs, `.strict()`.
//!
//! Read from its parseArguments (doc/clients.md, "Gemini CLI: launch
//! options"). The arities: `boolean` is a flag; a `string` with `nargs: 1` is a value;
//! a `string` without nargs (`--worktree`, `--resume`, `--delete-session`,
//! the hidden test options) takes a value only if one follows; an `array`
//! has `nargs: 1`, so it takes one value per occurrence (Gemini splits it
//! at commas) and is listed as `many`. Hidden: `--isCommand` (an internal
//! flag that makes the session non-interactive) and the fake/record
//! response files for Gemini's own tests. The camelCase and `--no-`
//! spellings yargs adds are the parser's, not rows here.

use crate::argv::Arity::{Flag, Many, Optional, Value};
use crate::argv::{Grammar, Opt, Style, Sub, hidden, opt};

const OPTIONS: &[Opt] = &[
    opt(&["--debug", "-d"], Flag),
    opt(&["--model", "-m"], Value),
    opt(&["--prompt", "-p"], Value),
    opt(&["--prompt-interactive", "-i"], Value),
    opt(&["--skip-trust"], Flag),
    opt(&["--worktree", "-w"], Optional),
    opt(&["--sandbox", "-s"], Flag),
    opt(&["--yolo", "-y"], Flag),
    opt(&["--approval-mode"], Value),
    opt(&["--policy"], Many),
    opt(&["--admin-policy"], Many),
    opt(&["--acp"], Flag),
    opt(&["--experimental-acp"], Flag),
    opt(&["--allowed-mcp-server-names"], Many),
    opt(&["--allowed-tools"], Many),
    opt(&["--extensions", "-e"], Many),
    opt(&["--list-extensions", "-l"], Flag),
    opt(&["--resume", "-r"], Optional),
    opt(&["--session-file"], Value),
    opt(&["--session-id"], Value),
    opt(&["--list-sessions"], Flag),
    opt(&["--delete-session"], Optional),
    opt(&["--include-directories"], Many),
    opt(&["--screen-reader"], Flag),
    opt(&["--output-format", "-o"], Value),
    opt(&["--raw-output"], Flag),
    opt(&["--accept-raw-output-risk"], Flag),
    opt(&["--version", "-v"], Flag),
    opt(&["--help", "-h"], Flag),
    hidden(&["--isCommand"], Flag),
    hidden(&["--fake-responses"], Optional),
    hidden(&["--fake-responses-non-strict"], Optional),
    hidden(&["--record-responses"], Optional),
];

/// Every subcommand of 0.61.0 (`gemini --help`): they manage MCP servers,
/// extensions, skills, hooks and local Gemma routing; none starts a session,
/// so all pass.
const SUBCOMMANDS: &[Sub] = &[
    Sub::pass(&["mcp"]),
    Sub::pass(&["extensions", "extension"]),
    Sub::pass(&["skills", "skill"]),
    Sub::pass(&["hooks", "hook"]),
    Sub::pass(&["gemma"]),
];

pub static GEMINI: Grammar = Grammar {
    name: "gemini",
    style: Style::Yargs,
    options: OPTIONS,
    subcommands: SUBCOMMANDS,
    session: true,
};
