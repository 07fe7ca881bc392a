//! Claude Code 2.1.337 (`claude --help`): commander.

use super::grammar_subcommands as subs;
use crate::argv::Arity::{Flag, Many, Optional, Value};
use crate::argv::{Grammar, Opt, Style, Sub, opt};

const OPTIONS: &[Opt] = &[
    opt(&["--add-dir"], Many),
    opt(&["--agent"], Value),
    opt(&["--agents"], Value),
    opt(&["--allow-dangerously-skip-permissions"], Flag),
    opt(&["--allowedTools", "--allowed-tools"], Many),
    opt(&["--append-system-prompt"], Value),
    opt(&["--autocompact"], Value),
    opt(&["--ax-screen-reader"], Flag),
    opt(&["--bg", "--background"], Flag),
    opt(&["--bare"], Flag),
    opt(&["--betas"], Many),
    opt(&["--brief"], Flag),
    opt(&["--chrome"], Flag),
    opt(&["--cloud"], Optional),
    opt(&["--continue", "-c"], Flag),
    opt(&["--dangerously-skip-permissions"], Flag),
    opt(&["--debug", "-d"], Optional),
    opt(&["--debug-file"], Value),
    opt(&["--desktop"], Flag),
    opt(&["--disable-slash-commands"], Flag),
    opt(&["--disallowedTools", "--disallowed-tools"], Many),
    opt(&["--effort"], Value),
    opt(&["--environment"], Value),
    opt(&["--exclude-dynamic-system-prompt-sections"], Flag),
    opt(&["--fallback-model"], Value),
    opt(&["--file"], Many),
    opt(&["--fork-session"], Flag),
    opt(&["--forward-subagent-text"], Flag),
    opt(&["--from-pr"], Optional),
    opt(&["--help", "-h"], Flag),
    opt(&["--ide"], Flag),
    opt(&["--include-hook-events"], Flag),
    opt(&["--include-partial-messages"], Flag),
    opt(&["--input-format"], Value),
    opt(&["--json-schema"], Value),
    opt(&["--max-budget-usd"], Value),
    opt(&["--mcp-config"], Many),
    opt(&["--model"], Value),
    opt(&["--name", "-n"], Value),
    opt(&["--no-chrome"], Flag),
    opt(&["--no-session-persistence"], Flag),
    opt(&["--output-format"], Value),
    opt(&["--permission-mode"], Value),
    opt(&["--permission-prompts"], Value),
    opt(&["--plugin-dir"], Value),
    opt(&["--plugin-url"], Value),
    opt(&["--print", "-p"], Flag),
    opt(&["--prompt-suggestions"], Optional),
    opt(&["--remote-control"], Optional),
    opt(&["--remote-control-session-name-prefix"], Value),
    opt(&["--replay-user-messages"], Flag),
    opt(&["--restricted"], Flag),
    opt(&["--resume", "-r"], Optional),
    opt(&["--safe-mode"], Flag),
    opt(&["--session-id"], Value),
    opt(&["--setting-sources"], Value),
    opt(&["--settings"], Value),
    opt(&["--strict-mcp-config"], Flag),
    opt(&["--system-prompt"], Value),
    opt(&["--system-prompt-snapshot"], Value),
    opt(&["--teleport"], Optional),
    opt(&["--tmux"], Flag),
    opt(&["--tools"], Many),
    opt(&["--verbose"], Flag),
    opt(&["--version", "-v"], Flag),
    opt(&["--worktree", "-w"], Optional),
];

/// Every subcommand of 2.1.337 (`claude --help`). `agents` dispatches
/// sessions and `mcp`, `plugin` are groups: their tables are in
/// [`super::grammar_subcommands`]. `respawn` restarts background sessions
/// with launch options twsrt never saw: it fails closed. The rest start no
/// session (`attach`, `logs`, `rm`, `stop` act on background sessions
/// already running; `ultrareview` runs in the cloud; `accept-program`,
/// new in 2.1.337, lists or records a moved or newly installed program
/// Claude Code runs, such as git or bwrap) and pass.
const SUBCOMMANDS: &[Sub] = &[
    Sub::pass(&["accept-program"]),
    Sub::table(&["agents"], &subs::AGENTS),
    Sub::pass(&["attach"]),
    Sub::pass(&["auth"]),
    Sub::pass(&["auto-mode"]),
    Sub::pass(&["doctor"]),
    Sub::pass(&["gateway"]),
    Sub::pass(&["import"]),
    Sub::pass(&["install"]),
    Sub::pass(&["logs"]),
    Sub::table(&["mcp"], &subs::MCP),
    Sub::table(&["plugin", "plugins"], &subs::PLUGIN),
    Sub::pass(&["purge"]),
    Sub::refuse(&["respawn"]),
    Sub::pass(&["rm"]),
    Sub::pass(&["setup-token"]),
    Sub::pass(&["stop", "kill"]),
    Sub::pass(&["ultrareview"]),
    Sub::pass(&["update", "upgrade"]),
];

pub static CLAUDE: Grammar = Grammar {
    name: "claude",
    style: Style::Commander,
    options: OPTIONS,
    subcommands: SUBCOMMANDS,
    session: true,
};

#[cfg(test)]
mod tests {
    use crate::argv::parse;

    /// `accept-program` (2.1.337) records a program Claude Code runs and
    /// starts no session: it passes, its path untouched.
    #[test]
    fn accept_program_starts_no_session() {
        let line: Vec<String> = ["accept-program", "/usr/bin/bwrap"]
            .iter()
            .map(|w| w.to_string())
            .collect();
        let parsed = parse(&super::CLAUDE, &line).unwrap();
        assert!(!parsed.session);
        assert_eq!(
            parsed.positionals.last().map(String::as_str),
            Some("/usr/bin/bwrap")
        );
    }
}
