//! Bash deny and ask rules that hold quotes or a backslash
//! (`git commit -m 'a  b'`). Codex compares a command's words, so any
//! quoting of the same words meets its rule; Claude Code, Copilot CLI,
//! Gemini CLI and OpenCode compare the command's text, so only the spelling
//! the rule is written in does (measured, doc/clients.md "Quoted bash
//! rules"): `echo "a  b"` and `echo a\ \ b` pass a rule `echo 'a  b'`
//! there. No spelling twsrt could write holds every quoting, so each of
//! those agents says once which rules it holds for their spelling only.

use crate::agent::Ctx;
use crate::rules::{Action, Scope};

/// The mode's bash deny and ask rules that hold a quote or a backslash
/// (ask rules only outside yolo mode, where they are in force).
pub fn quoted<'c>(ctx: &'c Ctx<'_>) -> Vec<&'c str> {
    ctx.rules()
        .iter()
        .filter(|r| r.scope == Scope::Execute)
        .filter(|r| r.action == Action::Deny || (r.action == Action::Ask && !ctx.yolo))
        .map(|r| r.pattern)
        .filter(|p| p.contains(['\'', '"', '\\']))
        .collect()
}

/// The warning `agent` (its display name) gives for `rules`, `None` for none.
pub fn message(agent: &str, rules: &[&str]) -> Option<String> {
    if rules.is_empty() {
        return None;
    }
    let list: Vec<String> = rules.iter().map(|r| crate::source::quoted(r)).collect();
    Some(format!(
        "{agent} matches a bash rule against the command's text, so these rules holding quotes \
         hold only for a command quoted exactly as they are: the same words quoted another way \
         (\"a  b\" for 'a  b', a\\ \\ b) pass them there: {}; \
         write the command without quotes where its words need none",
        list.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_names_the_agent_and_each_rule() {
        assert_eq!(message("Agent X", &[]), None);
        let text = message("Agent X", &["echo 'a  b'"]).unwrap();
        assert!(text.starts_with("Agent X matches a bash rule"), "{text}");
        assert!(text.contains("\"echo 'a  b'\""), "{text}");
    }
}
