//! Codex CLI 0.171.0 (`codex --help`, `codex exec --help`): clap.
//!
//! `--yolo` is a hidden alias of `--dangerously-bypass-approvals-and-sandbox`
//! (accepted by 0.171.0, absent from `--help`). `--full-auto` is gone in
//! 0.171.0 (clap rejects it), so it fails closed as an unknown option.

use super::Arity::{Flag, Many, Value};
use super::{Grammar, Opt, Style, Sub};

const fn opt(names: &'static [&'static str], arity: super::Arity) -> Opt {
    Opt {
        names,
        arity,
        hidden: false,
    }
}

const HIDDEN_YOLO: Opt = Opt {
    names: &["--yolo"],
    arity: Flag,
    hidden: true,
};

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

/// `codex exec`'s own subcommands: no table, so they fail closed.
const EXEC_SUBCOMMANDS: &[Sub] = &[
    Sub {
        names: &["resume"],
        grammar: None,
    },
    Sub {
        names: &["fork"],
        grammar: None,
    },
    Sub {
        names: &["review"],
        grammar: None,
    },
    Sub {
        names: &["help"],
        grammar: None,
    },
];

pub static EXEC: Grammar = Grammar {
    name: "codex exec",
    style: Style::Clap,
    options: EXEC_OPTIONS,
    subcommands: EXEC_SUBCOMMANDS,
};

/// Every subcommand of 0.171.0; only `exec` (alias `e`) has a table.
const SUBCOMMANDS: &[Sub] = &[
    Sub {
        names: &["exec", "e"],
        grammar: Some(&EXEC),
    },
    Sub {
        names: &["agents"],
        grammar: None,
    },
    Sub {
        names: &["review"],
        grammar: None,
    },
    Sub {
        names: &["login"],
        grammar: None,
    },
    Sub {
        names: &["logout"],
        grammar: None,
    },
    Sub {
        names: &["mcp"],
        grammar: None,
    },
    Sub {
        names: &["plugin"],
        grammar: None,
    },
    Sub {
        names: &["app-server"],
        grammar: None,
    },
    Sub {
        names: &["remote-control"],
        grammar: None,
    },
    Sub {
        names: &["completion"],
        grammar: None,
    },
    Sub {
        names: &["update"],
        grammar: None,
    },
    Sub {
        names: &["doctor"],
        grammar: None,
    },
    Sub {
        names: &["sandbox"],
        grammar: None,
    },
    Sub {
        names: &["debug"],
        grammar: None,
    },
    Sub {
        names: &["apply", "a"],
        grammar: None,
    },
    Sub {
        names: &["resume"],
        grammar: None,
    },
    Sub {
        names: &["queue"],
        grammar: None,
    },
    Sub {
        names: &["archive"],
        grammar: None,
    },
    Sub {
        names: &["delete"],
        grammar: None,
    },
    Sub {
        names: &["migrate-rollouts"],
        grammar: None,
    },
    Sub {
        names: &["migrate-nfs-db"],
        grammar: None,
    },
    Sub {
        names: &["unarchive"],
        grammar: None,
    },
    Sub {
        names: &["fork"],
        grammar: None,
    },
    Sub {
        names: &["cloud"],
        grammar: None,
    },
    Sub {
        names: &["exec-server"],
        grammar: None,
    },
    Sub {
        names: &["features"],
        grammar: None,
    },
    Sub {
        names: &["help"],
        grammar: None,
    },
];

pub static CODEX: Grammar = Grammar {
    name: "codex",
    style: Style::Clap,
    options: CODEX_OPTIONS,
    subcommands: SUBCOMMANDS,
};
