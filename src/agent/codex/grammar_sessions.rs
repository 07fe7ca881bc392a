//! The Codex CLI 0.171.0 subcommands that start an agent session, each
//! from its own `--help` (`codex resume --help`, ...): they load the same
//! config layers as `codex`, so they are audited like it. `--yolo` is
//! accepted (hidden) where the session has
//! `--dangerously-bypass-approvals-and-sandbox`.

use crate::argv::Arity::{Flag, Many, Value};
use crate::argv::{Grammar, Opt, Style, Sub, hidden, opt};

/// Codex accepts `--yolo` (not in its help) wherever the bypass flag is.
pub(super) const HIDDEN_YOLO: Opt = hidden(&["--yolo"], Flag);

/// None of these sessions has subcommands of its own.
const NONE: &[Sub] = &[];

const RESUME_OPTIONS: &[Opt] = &[
    opt(&["--config", "-c"], Value),
    opt(&["--last"], Flag),
    opt(&["--all"], Flag),
    opt(&["--enable"], Value),
    opt(&["--disable"], Value),
    opt(&["--include-non-interactive"], Flag),
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

/// `codex resume`: the interactive CLI on a saved session.
pub static RESUME: Grammar = Grammar {
    name: "codex resume",
    style: Style::Clap,
    options: RESUME_OPTIONS,
    subcommands: NONE,
    session: true,
};

const FORK_OPTIONS: &[Opt] = &[
    opt(&["--config", "-c"], Value),
    opt(&["--last"], Flag),
    opt(&["--all"], Flag),
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

/// `codex fork`: the interactive CLI on a copy of a saved session.
pub static FORK: Grammar = Grammar {
    name: "codex fork",
    style: Style::Clap,
    options: FORK_OPTIONS,
    subcommands: NONE,
    session: true,
};

const REVIEW_OPTIONS: &[Opt] = &[
    opt(&["--config", "-c"], Value),
    opt(&["--strict-config"], Flag),
    opt(&["--enable"], Value),
    opt(&["--trust"], Flag),
    opt(&["--disable"], Value),
    opt(&["--uncommitted"], Flag),
    opt(&["--base"], Value),
    opt(&["--commit"], Value),
    opt(&["--title"], Value),
    opt(&["--help", "-h"], Flag),
];

/// `codex review`: a non-interactive code review session.
pub static REVIEW: Grammar = Grammar {
    name: "codex review",
    style: Style::Clap,
    options: REVIEW_OPTIONS,
    subcommands: NONE,
    session: true,
};

const AGENTS_OPTIONS: &[Opt] = &[
    opt(&["--config", "-c"], Value),
    opt(&["--no-daemon"], Flag),
    opt(&["--enable"], Value),
    opt(&["--remote"], Value),
    opt(&["--disable"], Value),
    opt(&["--remote-auth-token-env"], Value),
    opt(&["--cd", "-C"], Value),
    opt(&["--no-alt-screen"], Flag),
    opt(&["--help", "-h"], Flag),
];

/// `codex agents`: the command center that dispatches sessions.
pub static AGENTS: Grammar = Grammar {
    name: "codex agents",
    style: Style::Clap,
    options: AGENTS_OPTIONS,
    subcommands: NONE,
    session: true,
};

const EXEC_RESUME_OPTIONS: &[Opt] = &[
    opt(&["--config", "-c"], Value),
    opt(&["--last"], Flag),
    opt(&["--all"], Flag),
    opt(&["--enable"], Value),
    opt(&["--disable"], Value),
    opt(&["--image", "-i"], Value),
    opt(&["--remote"], Value),
    opt(&["--remote-auth-token-env"], Value),
    opt(&["--strict-config"], Flag),
    opt(&["--model", "-m"], Value),
    opt(&["--dangerously-bypass-approvals-and-sandbox"], Flag),
    HIDDEN_YOLO,
    opt(&["--dangerously-bypass-hook-trust"], Flag),
    opt(&["--worktree"], Flag),
    opt(&["--thread-source"], Value),
    opt(&["--cyber-access-program"], Value),
    opt(&["--skip-git-repo-check"], Flag),
    opt(&["--trust"], Flag),
    opt(&["--ephemeral"], Flag),
    opt(&["--ignore-user-config"], Flag),
    opt(&["--ignore-rules"], Flag),
    opt(&["--output-schema"], Value),
    opt(&["--json"], Flag),
    opt(&["--output-last-message", "-o"], Value),
    opt(&["--help", "-h"], Flag),
];

/// `codex exec resume`: `exec` on a saved session.
pub static EXEC_RESUME: Grammar = Grammar {
    name: "codex exec resume",
    style: Style::Clap,
    options: EXEC_RESUME_OPTIONS,
    subcommands: NONE,
    session: true,
};

const EXEC_FORK_OPTIONS: &[Opt] = &[
    opt(&["--config", "-c"], Value),
    opt(&["--image", "-i"], Value),
    opt(&["--enable"], Value),
    opt(&["--disable"], Value),
    opt(&["--remote"], Value),
    opt(&["--remote-auth-token-env"], Value),
    opt(&["--strict-config"], Flag),
    opt(&["--model", "-m"], Value),
    opt(&["--dangerously-bypass-approvals-and-sandbox"], Flag),
    HIDDEN_YOLO,
    opt(&["--dangerously-bypass-hook-trust"], Flag),
    opt(&["--worktree"], Flag),
    opt(&["--thread-source"], Value),
    opt(&["--cyber-access-program"], Value),
    opt(&["--skip-git-repo-check"], Flag),
    opt(&["--trust"], Flag),
    opt(&["--ephemeral"], Flag),
    opt(&["--ignore-user-config"], Flag),
    opt(&["--ignore-rules"], Flag),
    opt(&["--output-schema"], Value),
    opt(&["--json"], Flag),
    opt(&["--output-last-message", "-o"], Value),
    opt(&["--help", "-h"], Flag),
];

/// `codex exec fork`: `exec` on a copy of a saved session.
pub static EXEC_FORK: Grammar = Grammar {
    name: "codex exec fork",
    style: Style::Clap,
    options: EXEC_FORK_OPTIONS,
    subcommands: NONE,
    session: true,
};

const EXEC_REVIEW_OPTIONS: &[Opt] = &[
    opt(&["--config", "-c"], Value),
    opt(&["--uncommitted"], Flag),
    opt(&["--base"], Value),
    opt(&["--enable"], Value),
    opt(&["--commit"], Value),
    opt(&["--disable"], Value),
    opt(&["--remote"], Value),
    opt(&["--title"], Value),
    opt(&["--remote-auth-token-env"], Value),
    opt(&["--strict-config"], Flag),
    opt(&["--model", "-m"], Value),
    opt(&["--dangerously-bypass-approvals-and-sandbox"], Flag),
    HIDDEN_YOLO,
    opt(&["--dangerously-bypass-hook-trust"], Flag),
    opt(&["--worktree"], Flag),
    opt(&["--thread-source"], Value),
    opt(&["--cyber-access-program"], Value),
    opt(&["--skip-git-repo-check"], Flag),
    opt(&["--trust"], Flag),
    opt(&["--ephemeral"], Flag),
    opt(&["--ignore-user-config"], Flag),
    opt(&["--ignore-rules"], Flag),
    opt(&["--output-schema"], Value),
    opt(&["--json"], Flag),
    opt(&["--output-last-message", "-o"], Value),
    opt(&["--help", "-h"], Flag),
];

/// `codex exec review`: `exec` running a code review.
pub static EXEC_REVIEW: Grammar = Grammar {
    name: "codex exec review",
    style: Style::Clap,
    options: EXEC_REVIEW_OPTIONS,
    subcommands: NONE,
    session: true,
};
