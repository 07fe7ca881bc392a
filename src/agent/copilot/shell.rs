//! A bash rule as the `shell(...)` tool pattern Copilot CLI enforces.
//!
//! Contract (measured with Copilot CLI 1.0.102, doc/clients.md "Copilot's
//! shell patterns, measured"): `shell(P:*)` refuses every simple command
//! (each part of a list, pipeline or subshell on its own) whose text starts
//! with the words of P, which is the meaning of a twsrt bash rule; a bare
//! `shell(P)` refuses only the command's own name as Copilot sees it (one
//! word, or two for tools such as `git`) or exactly the text P, so it is
//! never emitted. A rule joining commands (`|`, `;`, `&`, a substitution)
//! can match no single part: it has no pattern and is said once.

/// The characters that join or nest commands: a rule holding one is
/// checked by Copilot part by part and can match no part.
const JOINERS: [char; 5] = ['|', ';', '&', '`', '\n'];

/// The `shell(...)` value that holds `rule`, or `None` when Copilot cannot
/// express it ([`is_compound`]).
pub fn pattern(rule: &str) -> Option<String> {
    let words = rule.trim();
    (!words.is_empty() && !is_compound(words)).then(|| format!("shell({words}:*)"))
}

/// Whether `rule` joins commands (a list, a pipeline, a command
/// substitution), which no Copilot pattern can match.
pub fn is_compound(rule: &str) -> bool {
    rule.contains(JOINERS) || rule.contains("$(")
}

/// The bash rule a `shell(...)` value stands for: `P` for `shell(P:*)` and
/// for a bare `shell(P)` (read as twsrt's prefix, which is at least as wide
/// as what Copilot refuses). `None` for anything else.
pub fn rule_of(value: &str) -> Option<&str> {
    let inner = value.strip_prefix("shell(")?.strip_suffix(')')?;
    let inner = inner.strip_suffix(":*").unwrap_or(inner).trim();
    (!inner.is_empty()).then_some(inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_of_words_is_a_prefix_pattern() {
        assert_eq!(pattern("rm -rf /").as_deref(), Some("shell(rm -rf /:*)"));
        assert_eq!(pattern("sudo").as_deref(), Some("shell(sudo:*)"));
        assert_eq!(pattern(" git push ").as_deref(), Some("shell(git push:*)"));
    }

    #[test]
    fn a_rule_joining_commands_has_no_pattern() {
        for rule in [
            "curl | sh",
            "a; b",
            "a && b",
            "a & b",
            "echo `id`",
            "echo $(id)",
            "a\nb",
        ] {
            assert_eq!(pattern(rule), None, "{rule:?}");
        }
        assert_eq!(pattern("  "), None);
    }

    #[test]
    fn a_value_reads_back_as_its_rule() {
        assert_eq!(rule_of("shell(rm -rf:*)"), Some("rm -rf"));
        assert_eq!(rule_of("shell(sudo)"), Some("sudo"));
        assert_eq!(rule_of("shell()"), None);
        assert_eq!(rule_of("shell(:*)"), None);
        assert_eq!(rule_of("read"), None);
    }
}
