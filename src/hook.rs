//! The Claude Code PreToolUse guard: one tool call in, one verdict out.
//!
//! The event ([`event`]) names a tool and its input. For the file tools the
//! path is the input's own field; for Bash the command text is parsed with a
//! real shell grammar ([`bash`], brush-parser) into simple commands, whose
//! operands the command table ([`commands`]) sorts into reads and writes
//! ([`operands`]). Each access is then compared with the compiled policy
//! ([`policy`]) by path segment. The strictest verdict wins: deny over ask
//! over pass. In yolo mode nobody is there to be asked, so every ask is a
//! deny.

mod bash;
#[rustfmt::skip]
mod commands;
mod destinations;
mod event;
mod globs;
#[cfg(test)]
mod grammar_help;
#[rustfmt::skip]
mod grammars;
mod matcher;
mod named;
mod operands;
mod policy;
mod syntax;
mod words;
#[rustfmt::skip]
mod wrapper_table;
mod wrappers;

pub use event::{Event, parse_event};
pub use policy::Policy;

use operands::{Access, Operand, Touch};

/// Who answers an `ask`: a person (full mode) or nobody (yolo).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Full,
    Yolo,
}

/// The hook's answer, strictest last so `max` picks it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    Pass,
    Ask(String),
    Deny(String),
}

impl Verdict {
    fn rank(&self) -> u8 {
        match self {
            Verdict::Pass => 0,
            Verdict::Ask(_) => 1,
            Verdict::Deny(_) => 2,
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

    /// The JSON line Claude Code reads, or `None` for a pass (no output).
    pub fn answer(&self) -> Option<String> {
        let (decision, reason) = match self {
            Verdict::Pass => return None,
            Verdict::Ask(r) => ("ask", r),
            Verdict::Deny(r) => ("deny", r),
        };
        let value = serde_json::json!({
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": decision,
                "permissionDecisionReason": reason,
            }
        });
        Some(value.to_string())
    }
}

/// The verdict on one event under `policy`.
pub fn decide(event: &Event, policy: &Policy, mode: Mode) -> Verdict {
    let touches = match event::touches(event) {
        Ok(t) => t,
        Err(reason) => return Verdict::Deny(format!("twsrt hook: {reason}")),
    };
    let verdict = touches
        .iter()
        .map(|t| judge(t, event, policy))
        .fold(Verdict::Pass, Verdict::stricter);
    match (verdict, mode) {
        (Verdict::Ask(reason), Mode::Yolo) => Verdict::Deny(reason),
        (v, _) => v,
    }
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
    let covering = |entries: &[policy::Entry]| {
        entries
            .iter()
            .find(|e| spellings.iter().any(|p| e.covers(p)))
            .map(|e| e.written().to_string())
    };
    if touch.access == Access::Named {
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
        return match holding {
            Some(entry) => Verdict::Ask(format!(
                "twsrt: {who} is given {text}, which holds the policy's denyWrite entry {}; \
                 the hook cannot tell whether {who} walks it",
                entry.written()
            )),
            None => Verdict::Pass,
        };
    }
    let (entries, list) = match touch.access {
        Access::Read | Access::RecursiveRead => (policy.deny_read(), "denyRead"),
        _ => (policy.deny_write(), "denyWrite"),
    };
    if let Some(entry) = entries
        .iter()
        .find(|e| spellings.iter().any(|p| e.covers(p)))
    {
        return Verdict::Deny(format!(
            "twsrt: {who} {} {text}, which the policy's {list} entry {} covers",
            touch.access.verb(),
            entry.written()
        ));
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

#[cfg(test)]
mod tests;
