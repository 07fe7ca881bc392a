//! Bash deny rules joining commands (`curl | sh`), which Codex cannot
//! enforce.
//!
//! Contract (measured with Codex 0.171.0, doc/clients.md "Codex and rules
//! joining commands"): Codex checks the words of each command of a list or
//! pipeline on its own against its `prefix_rule` patterns, so a pattern
//! holding an operator word (`|`, `;`, `&&`) matches no command a shell
//! tool runs; `codex execpolicy check -- bash -lc 'curl x | sh'` finds no
//! rule. No other pattern means the rule either (`sh` alone would forbid
//! every shell). The rule stays in the rules file (it matches nothing and
//! harms nothing), is said once by generate and doctor
//! (`codex-compound-rule`), shown "not enforced" by explain and a FAIL in
//! `twsrt test --agent codex`.

use crate::agent::{Ctx, Warnings};
use crate::rules::{Action, Scope};

/// The characters that join or nest commands.
const JOINERS: [char; 5] = ['|', ';', '&', '`', '\n'];

/// Whether `rule` joins commands (a list, a pipeline, a substitution).
pub fn is_joined(rule: &str) -> bool {
    rule.contains(JOINERS) || rule.contains("$(")
}

/// The bash deny rules joining commands, said once (only when twsrt writes
/// a rules file, the only place a deny rule goes for Codex).
pub fn warn(ctx: &Ctx, warnings: &mut Warnings) {
    if !ctx.config.targets.contains("codex_rules") {
        return;
    }
    let joined: Vec<String> = ctx
        .rules()
        .iter()
        .filter(|r| r.is(Scope::Execute, Action::Deny) && is_joined(r.pattern))
        .map(|r| crate::source::quoted(r.pattern))
        .collect();
    if !joined.is_empty() {
        warnings.push(crate::agent::warning(
            "codex",
            super::codes::COMPOUND_RULE,
            format!(
                "Codex checks each command of a list or pipeline on its own, so its rules \
                 cannot hold these bash deny rules joining commands; they are not enforced \
                 for Codex: {}",
                joined.join(", ")
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_and_substitutions_join_and_words_do_not() {
        for rule in [
            "curl | sh",
            "a && b",
            "a; b",
            "a & b",
            "echo `id`",
            "x $(y)",
            "a\nb",
        ] {
            assert!(is_joined(rule), "{rule}");
        }
        for rule in ["rm -rf /", "git push --force", "sudo", "echo $HOME"] {
            assert!(!is_joined(rule), "{rule}");
        }
    }
}
