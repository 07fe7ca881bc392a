//! The guard hook's engine: one tool call in, one verdict out. The agent
//! whose tool calls it guards speaks the protocol around it (Claude Code's
//! PreToolUse: `agent::claude::guard` reads the event and writes the
//! answer); every way the analysis ends is an answer ([`deadline`]).
//!
//! The event ([`event`]) names a tool and its input. For the file tools the
//! path is the input's own field; for Bash the command text is parsed with a
//! real shell grammar ([`bash`], brush-parser) into simple commands, whose
//! operands the command table ([`commands`]) sorts into reads and writes
//! ([`operands`]). Each access is then compared with the compiled policy
//! ([`policy`]) by path segment. The strictest verdict wins: deny over ask
//! over pass. Each simple command is also matched against the bash deny
//! and ask rules by meaning ([`meaning`]): `rm -fr` falls under `rm -rf`.
//! In yolo mode nobody is there to be asked, so every ask is a
//! deny.

mod bash;
#[rustfmt::skip]
mod commands;
mod deadline;
mod destinations;
mod domains;
mod event;
mod globs;
#[cfg(test)]
mod grammar_help;
mod inert;
mod kernel;
#[rustfmt::skip]
mod grammars;
mod matcher;
mod meaning;
mod named;
mod operands;
mod policy;
mod proc_paths;
mod reach;
mod sandbox;
mod syntax;
mod walks;
mod words;
#[rustfmt::skip]
mod wrapper_table;
mod wrappers;

pub use deadline::{ANALYSIS_STACK, DEADLINE, on_analysis_thread};
pub use domains::judge as judge_domains;
pub use event::{Event, parse_event};
pub use kernel::decide_kernel_held;
pub use meaning::missed_spellings;
pub use policy::Policy;
pub use sandbox::Sandbox;

use operands::{Access, Operand, Touch};

/// Who answers an `ask`: a person (full mode) or nobody (yolo).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Full,
    Yolo,
}

/// The hook's answer. The analysis answers `Pass`, `Ask` or `Deny`;
/// `Sandbox` is only made from an `Ask` on Bash in sandbox mode, after the
/// analysis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Pass,
    /// Allowed, with the tool input replaced by `input` (the Bash command
    /// wrapped to run inside srt); `reason` says why it was wrapped.
    Sandbox {
        input: serde_json::Value,
        reason: String,
    },
    Ask(String),
    Deny(String),
}

impl Verdict {
    fn rank(&self) -> u8 {
        match self {
            Verdict::Pass => 0,
            Verdict::Sandbox { .. } => 1,
            Verdict::Ask(_) => 2,
            Verdict::Deny(_) => 3,
        }
    }

    /// The stricter of two verdicts; of two equally strict, the first.
    fn stricter(self, other: Verdict) -> Verdict {
        if other.rank() > self.rank() {
            other
        } else {
            self
        }
    }
}

/// The verdict on one event under `policy`.
pub fn decide(event: &Event, policy: &Policy, mode: Mode) -> Verdict {
    let touches = match event::touches(event) {
        Ok(t) => t,
        Err(reason) => return Verdict::Deny(format!("twsrt hook: {reason}")),
    };
    let budget = reach::Budget::default();
    let one = |t: &Touch| judge(t, event, policy);
    let verdict = touches
        .iter()
        .map(|t| reach::judge(t, event, policy, &budget, &one))
        .fold(meaning::judge(event, policy), Verdict::stricter);
    match (verdict, mode) {
        (Verdict::Ask(reason), Mode::Yolo) => Verdict::Deny(reason),
        (v, _) => v,
    }
}

/// The verdict in sandbox mode: as [`decide`], except that with `sandbox`
/// usable a Bash command runs inside srt: one the analysis would ask about
/// (so deny in yolo mode), and one it passes unless it is inert
/// ([`inert`]) or a bash rule's words are in it (Claude Code then matches
/// the rule against the command as written). When `sandbox` is not usable
/// (`Err(why)`), the command is answered as without the mode, an ask's
/// reason saying why it was not wrapped.
pub fn decide_sandboxed(
    event: &Event,
    policy: &Policy,
    mode: Mode,
    sandbox: &Result<Sandbox, String>,
) -> Verdict {
    // What a bash rule asks about is asked, never run inside srt, where
    // Claude Code's own rules would not see it.
    let by_rule = meaning::judge(event, policy);
    let verdict = match decide(event, policy, Mode::Full) {
        Verdict::Ask(reason) if event.tool_name == "Bash" && by_rule == Verdict::Pass => {
            let command = event.tool_input.get("command").and_then(|c| c.as_str());
            let held = sandbox
                .as_ref()
                .ok()
                .zip(command)
                .and_then(|(s, c)| s.held_by(c));
            match (sandbox, command, held) {
                (Ok(_), Some(_), Some(rule)) => Verdict::Ask(format!(
                    "{reason}; not run inside srt, since the bash rule `{rule}` may cover it and Claude Code would not apply it to the rewritten command"
                )),
                (Ok(sandbox), Some(command), None) => {
                    return Verdict::Sandbox {
                        input: sandbox.wrap_input(&event.tool_input, command, &event.cwd),
                        reason: format!(
                            "{reason}; so it runs inside srt with {}",
                            sandbox.settings.display()
                        ),
                    };
                }
                (Err(why), _, _) => Verdict::Ask(format!(
                    "{reason}; the hook's sandbox mode cannot run it inside srt: {why}"
                )),
                (Ok(_), None, _) => Verdict::Deny(format!("{reason}; no command to wrap")),
            }
        }
        Verdict::Pass if event.tool_name == "Bash" => match (sandbox, command_of(event)) {
            (Ok(sandbox), Some(command))
                if !inert::inert(command, sandbox.path.as_deref())
                    && sandbox.held_by(command).is_none() =>
            {
                return Verdict::Sandbox {
                    input: sandbox.wrap_input(&event.tool_input, command, &event.cwd),
                    reason: format!(
                        "twsrt: runs inside srt with {}: the sandbox mode runs every command \
                         but a few inert ones there",
                        sandbox.settings.display()
                    ),
                };
            }
            _ => Verdict::Pass,
        },
        v => v,
    };
    match (verdict, mode) {
        (Verdict::Ask(reason), Mode::Yolo) => Verdict::Deny(reason),
        (v, _) => v,
    }
}

/// `verdict` with the verdict on the hosts the command names
/// ([`domains::judge`]): the stricter, an ask a deny in yolo mode; a
/// command already run inside srt stays there (srt's proxy holds its
/// hosts).
pub fn with_domains(verdict: Verdict, by_domain: Verdict, mode: Mode) -> Verdict {
    match (verdict, by_domain) {
        (Verdict::Sandbox { input, reason }, Verdict::Ask(_)) => Verdict::Sandbox { input, reason },
        (v, d) => match (v.stricter(d), mode) {
            (Verdict::Ask(reason), Mode::Yolo) => Verdict::Deny(reason),
            (v, _) => v,
        },
    }
}

/// The text of a Bash call's `command`.
fn command_of(event: &Event) -> Option<&str> {
    event.tool_input.get("command").and_then(|c| c.as_str())
}

/// One access against the policy.
fn judge(touch: &Touch, event: &Event, policy: &Policy) -> Verdict {
    let who = &touch.by;
    let is_dir = |dir: &str| policy::resolve(dir, &event.cwd, policy.home()).is_dir();
    let Some(text) = touch.operand.path(is_dir) else {
        let written = match &touch.operand {
            Operand::Unknown(w) | Operand::Opaque(w) => w.as_str(),
            _ => "",
        };
        let command = event.tool_input["command"].as_str().unwrap_or("");
        if matches!(touch.operand, Operand::Unknown(_))
            && globs::cannot_reach(written, touch.access, command, &event.cwd, policy)
        {
            return Verdict::Pass;
        }
        return Verdict::Ask(format!(
            "twsrt: cannot tell which file {who} {} from `{written}`; the policy denies some paths",
            touch.access.verb()
        ));
    };
    let resolved = policy::resolve(&text, &event.cwd, policy.home());
    let spellings: Vec<Vec<&str>> = resolved.spellings().collect();
    if touch.access == Access::Named {
        return named(who, &text, &spellings, policy);
    }
    let (entries, list) = match touch.access {
        Access::Read | Access::RecursiveRead => (policy.deny_read(), "denyRead"),
        _ => (policy.deny_write(), "denyWrite"),
    };
    if let Some(entry) = entries
        .iter()
        .find(|e| spellings.iter().any(|p| e.covers(p)))
    {
        if entry.is_guard() {
            return Verdict::Deny(format!(
                "twsrt: {who} {} {text}, which can switch the guard off or change what the \
                 agent loads (twsrt's guard entry {}); change it outside the agent",
                touch.access.verb(),
                entry.written()
            ));
        }
        return Verdict::Deny(format!(
            "twsrt: {who} {} {text}, which the policy's {list} entry {} covers",
            touch.access.verb(),
            entry.written()
        ));
    }
    if let Some(verdict) = through_hard_link(touch, &text, &resolved, entries, list, policy) {
        return verdict;
    }
    if touch.access.recursive()
        && let Some(entry) = entries
            .iter()
            .find(|e| spellings.iter().any(|p| e.below(p)))
    {
        return Verdict::Ask(format!(
            "twsrt: {who} {} {text} recursively, which holds the policy's {list} entry {}",
            touch.access.verb(),
            entry.written()
        ));
    }
    Verdict::Pass
}

/// A word naming `text` given to a program that may or may not open it:
/// ask when a denied entry covers it, or when it holds a denyWrite entry
/// the program may walk.
fn named(who: &str, text: &str, spellings: &[Vec<&str>], policy: &Policy) -> Verdict {
    let covering = |entries: &[policy::Entry]| {
        entries
            .iter()
            .find(|e| spellings.iter().any(|p| e.covers(p)))
            .map(|e| e.written().to_string())
    };
    let entry = covering(policy.deny_read())
        .map(|e| ("denyRead", e))
        .or_else(|| covering(policy.deny_write()).map(|e| ("denyWrite", e)));
    if let Some((list, entry)) = entry {
        return Verdict::Ask(format!(
            "twsrt: {who} is given {text}, which the policy's {list} entry {entry} covers; \
             the hook cannot tell whether {who} opens it"
        ));
    }
    // A directory above a denied entry: the program may walk it.
    let holding = policy
        .deny_write()
        .iter()
        .find(|e| spellings.iter().any(|p| e.below(p)));
    match holding {
        Some(entry) => Verdict::Ask(format!(
            "twsrt: {who} is given {text}, which holds the policy's denyWrite entry {}; \
             the hook cannot tell whether {who} walks it",
            entry.written()
        )),
        None => Verdict::Pass,
    }
}

/// `text` (resolved) as a hard link: the verdict on the protected file it
/// is another name of, an ask when the bounded walk could not tell, or
/// `None` when it is no hard link of a protected file.
fn through_hard_link(
    touch: &Touch,
    text: &str,
    resolved: &policy::Resolved,
    entries: &[policy::Entry],
    list: &str,
    policy: &Policy,
) -> Option<Verdict> {
    let who = &touch.by;
    match policy.hard_link(resolved) {
        policy::HardLink::No => {}
        policy::HardLink::Of(file) => {
            let target = policy::Resolved::of_real(&file);
            if let Some(entry) = entries
                .iter()
                .find(|e| target.spellings().any(|p| e.covers(&p)))
            {
                return Some(Verdict::Deny(format!(
                    "twsrt: {who} {} {text}, a hard link to {}, which the policy's {list} entry {} covers",
                    touch.access.verb(),
                    file.display(),
                    entry.written()
                )));
            }
        }
        policy::HardLink::Unknown(why) => {
            return Some(Verdict::Ask(format!(
                "twsrt: {who} {} {text}: {why}",
                touch.access.verb()
            )));
        }
    }
    None
}

#[cfg(test)]
mod tests;
