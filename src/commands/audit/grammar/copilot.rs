//! GitHub Copilot CLI 1.0.102 (`copilot --help`): commander.

use super::Arity::{Flag, Optional, OptionalMany, Value};
use super::{Grammar, Opt, Style, Sub};

const fn opt(names: &'static [&'static str], arity: super::Arity) -> Opt {
    Opt {
        names,
        arity,
        hidden: false,
    }
}

const OPTIONS: &[Opt] = &[
    opt(&["--version", "-v"], Flag),
    opt(&["--interactive", "-i"], Value),
    opt(&["--fleet"], Flag),
    opt(&["--prompt", "-p"], Value),
    opt(&["--trust-folder"], Flag),
    opt(&["--silent", "-s"], Flag),
    opt(&["--disable-client-telemetry"], Flag),
    opt(&["--enable-memory"], Flag),
    opt(&["--model"], Value),
    opt(&["--reasoning-effort"], Value),
    opt(&["--context"], Value),
    opt(&["--auto-tier"], Value),
    opt(&["--agent"], Value),
    opt(&["--resume", "-r"], Optional),
    opt(&["--continue"], Flag),
    opt(&["--name", "-n"], Value),
    opt(&["--session-id"], Value),
    opt(&["--connect"], Optional),
    opt(&["--allow-all-tools"], Flag),
    opt(&["--allow-all-paths"], Flag),
    opt(&["--disallow-temp-dir"], Flag),
    opt(&["--banner"], Flag),
    opt(&["--screen-reader"], Flag),
    opt(&["--plain-diff"], Flag),
    opt(&["-C"], Value),
    opt(&["--log-dir"], Value),
    opt(&["--extension-sdk-path"], Value),
    opt(&["--log-level"], Value),
    opt(&["--stream"], Value),
    opt(&["--output-format"], Value),
    opt(&["--share"], Optional),
    opt(&["--share-gist"], Flag),
    opt(&["--add-dir"], Value),
    opt(&["--attachment"], Value),
    opt(&["--disable-mcp-server"], Value),
    opt(&["--disable-builtin-mcps"], Flag),
    opt(&["--enable-all-github-mcp-tools"], Flag),
    opt(&["--add-github-mcp-toolset"], Value),
    opt(&["--add-github-mcp-tool"], Value),
    opt(&["--plugin-dir"], Value),
    opt(&["--additional-mcp-config"], Value),
    opt(&["--mcp-github-auth"], Value),
    opt(&["--allow-all-mcp-server-instructions"], Flag),
    opt(&["--allow-tool"], OptionalMany),
    opt(&["--deny-tool"], OptionalMany),
    opt(&["--available-tools"], OptionalMany),
    opt(&["--excluded-tools"], OptionalMany),
    opt(&["--secret-env-vars"], OptionalMany),
    opt(&["--allow-url"], OptionalMany),
    opt(&["--deny-url"], OptionalMany),
    opt(&["--allow-all-urls"], Flag),
    opt(&["--allow-all"], Flag),
    opt(&["--yolo"], Flag),
    opt(&["--max-autopilot-continues"], Value),
    opt(&["--mode"], Value),
    opt(&["--autopilot"], Flag),
    opt(&["--plan"], Flag),
    opt(&["--experimental"], Flag),
    opt(&["--bash-env"], Optional),
    opt(&["--mouse"], Optional),
    opt(&["--acp"], Flag),
    opt(&["--remote"], Flag),
    opt(&["--remote-export"], Flag),
    opt(&["--environment-host"], Value),
    opt(&["--environment-compute-id"], Value),
    opt(&["--dynamic-retrieval"], Value),
    opt(&["--enable-mcp-server"], Value),
    opt(&["--max-ai-credits"], Value),
    opt(&["--assisted-approval"], Flag),
    opt(&["--usage-output-file"], Value),
    opt(&["--no-custom-instructions"], Flag),
    opt(&["--no-auto-update"], Flag),
    opt(&["--no-ask-user"], Flag),
    opt(&["--no-color"], Flag),
    opt(&["--no-experimental"], Flag),
    opt(&["--no-bash-env"], Flag),
    opt(&["--no-mouse"], Flag),
    opt(&["--no-remote"], Flag),
    opt(&["--no-remote-export"], Flag),
    opt(&["--no-eager-powershell-resolution"], Flag),
    opt(&["--help", "-h"], Flag),
];

/// Every subcommand of 1.0.102; none has a table (none starts a session).
const SUBCOMMANDS: &[Sub] = &[
    Sub {
        names: &["app"],
        grammar: None,
    },
    Sub {
        names: &["login"],
        grammar: None,
    },
    Sub {
        names: &["help"],
        grammar: None,
    },
    Sub {
        names: &["init"],
        grammar: None,
    },
    Sub {
        names: &["config"],
        grammar: None,
    },
    Sub {
        names: &["update"],
        grammar: None,
    },
    Sub {
        names: &["version"],
        grammar: None,
    },
    Sub {
        names: &["workflow"],
        grammar: None,
    },
    Sub {
        names: &["sessions"],
        grammar: None,
    },
    Sub {
        names: &["memories"],
        grammar: None,
    },
    Sub {
        names: &["plugin"],
        grammar: None,
    },
    Sub {
        names: &["mcp"],
        grammar: None,
    },
    Sub {
        names: &["skill"],
        grammar: None,
    },
    Sub {
        names: &["instruction"],
        grammar: None,
    },
    Sub {
        names: &["lsp"],
        grammar: None,
    },
    Sub {
        names: &["sandbox"],
        grammar: None,
    },
    Sub {
        names: &["completion"],
        grammar: None,
    },
];

pub static COPILOT: Grammar = Grammar {
    name: "copilot",
    style: Style::Commander,
    options: OPTIONS,
    subcommands: SUBCOMMANDS,
};
