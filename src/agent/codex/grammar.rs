//! Codex CLI 0.171.0 (`codex --help`, `codex exec --help`): clap. The other
//! session subcommands are in [`super::grammar_sessions`].
//!
//! `--yolo` is a hidden alias of `--dangerously-bypass-approvals-and-sandbox`
//! (accepted by 0.171.0, absent from `--help`). `--full-auto` is gone in
//! 0.171.0 (clap rejects it), so it fails closed as an unknown option.

use super::grammar_sessions::{self as sessions, HIDDEN_YOLO};
use crate::argv::Arity::{Flag, Many, Value};
use crate::argv::{Grammar, Opt, Style, Sub, opt};

const CODEX_OPTIONS: &[Opt] = &[
    opt(&["--config", "-c"], Value),
    opt(&["--enable"], Value),
    opt(&["--disable"], Value),
    opt(&["--remote"], Value),
    opt(&["--remote-auth-token-env"], Value),
    opt(&["--strict-config"], Flag),
    opt(&["--image", "-i"], Many),
    opt(&["--model", "-m"], Value),
    opt(&["--oss"], Flag),
    opt(&["--local-provider"], Value),
    opt(&["--profile", "-p"], Value),
    opt(&["--sandbox", "-s"], Value),
    opt(&["--approve-for-me"], Flag),
    opt(&["--dangerously-bypass-approvals-and-sandbox"], Flag),
    HIDDEN_YOLO,
    opt(&["--dangerously-bypass-hook-trust"], Flag),
    opt(&["--cd", "-C"], Value),
    opt(&["--worktree"], Flag),
    opt(&["--add-dir"], Value),
    opt(&["--ask-for-approval", "-a"], Value),
    opt(&["--search"], Flag),
    opt(&["--no-alt-screen"], Flag),
    opt(&["--no-daemon"], Flag),
    opt(&["--help", "-h"], Flag),
    opt(&["--version", "-V"], Flag),
];
const EXEC_OPTIONS: &[Opt] = &[
    opt(&["--config", "-c"], Value),
    opt(&["--enable"], Value),
    opt(&["--disable"], Value),
    opt(&["--remote"], Value),
    opt(&["--remote-auth-token-env"], Value),
    opt(&["--strict-config"], Flag),
    opt(&["--image", "-i"], Many),
    opt(&["--model", "-m"], Value),
    opt(&["--oss"], Flag),
    opt(&["--local-provider"], Value),
    opt(&["--profile", "-p"], Value),
    opt(&["--sandbox", "-s"], Value),
    opt(&["--approve-for-me"], Flag),
    opt(&["--dangerously-bypass-approvals-and-sandbox"], Flag),
    HIDDEN_YOLO,
    opt(&["--dangerously-bypass-hook-trust"], Flag),
    opt(&["--cd", "-C"], Value),
    opt(&["--worktree"], Flag),
    opt(&["--add-dir"], Value),
    opt(&["--thread-source"], Value),
    opt(&["--cyber-access-program"], Value),
    opt(&["--skip-git-repo-check"], Flag),
    opt(&["--trust"], Flag),
    opt(&["--ephemeral"], Flag),
    opt(&["--ignore-user-config"], Flag),
    opt(&["--ignore-rules"], Flag),
    opt(&["--output-schema"], Value),
    opt(&["--color"], Value),
    opt(&["--json"], Flag),
    opt(&["--output-last-message", "-o"], Value),
    opt(&["--help", "-h"], Flag),
    opt(&["--version", "-V"], Flag),
];

/// `codex exec`'s own subcommands: each starts a session of its own table.
const EXEC_SUBCOMMANDS: &[Sub] = &[
    Sub::table(&["resume"], &sessions::EXEC_RESUME),
    Sub::table(&["fork"], &sessions::EXEC_FORK),
    Sub::table(&["review"], &sessions::EXEC_REVIEW),
    Sub::pass(&["help"]),
];

pub static EXEC: Grammar = Grammar {
    name: "codex exec",
    style: Style::Clap,
    options: EXEC_OPTIONS,
    subcommands: EXEC_SUBCOMMANDS,
    session: true,
};

/// Every subcommand of 0.171.0 (`codex --help`). The sessions have tables;
/// the ones that manage logins, MCP servers, plugins, saved sessions,
/// features and the installation start no session and pass; the servers
/// and daemons that run sessions for other clients (`app-server`,
/// `remote-control`, `exec-server`) and the debugging tools (`debug
/// app-server send-message-v2` drives a session) fail closed. `cloud` runs
/// its tasks in Codex Cloud and `sandbox` runs one given command in Codex's
/// own sandbox, no agent: both pass. `queue` adds a message to a session
/// already running under the policy it was started with: it passes.
const SUBCOMMANDS: &[Sub] = &[
    Sub::table(&["exec", "e"], &EXEC),
    Sub::table(&["agents"], &sessions::AGENTS),
    Sub::table(&["review"], &sessions::REVIEW),
    Sub::pass(&["login"]),
    Sub::pass(&["logout"]),
    Sub::pass(&["mcp"]),
    Sub::pass(&["plugin"]),
    Sub::refuse(&["app-server"]),
    Sub::refuse(&["remote-control"]),
    Sub::pass(&["completion"]),
    Sub::pass(&["update"]),
    Sub::pass(&["doctor"]),
    Sub::pass(&["sandbox"]),
    Sub::refuse(&["debug"]),
    Sub::pass(&["apply", "a"]),
    Sub::table(&["resume"], &sessions::RESUME),
    Sub::pass(&["queue"]),
    Sub::pass(&["archive"]),
    Sub::pass(&["delete"]),
    Sub::pass(&["migrate-rollouts"]),
    Sub::pass(&["migrate-nfs-db"]),
    Sub::pass(&["unarchive"]),
    Sub::table(&["fork"], &sessions::FORK),
    Sub::pass(&["cloud"]),
    Sub::refuse(&["exec-server"]),
    Sub::pass(&["features"]),
    Sub::pass(&["help"]),
];

pub static CODEX: Grammar = Grammar {
    name: "codex",
    style: Style::Clap,
    options: CODEX_OPTIONS,
    subcommands: SUBCOMMANDS,
    session: true,
};
