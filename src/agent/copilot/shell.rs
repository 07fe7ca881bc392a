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

/// The simple commands of `command` as Copilot checks them, each one's
/// text trimmed: the parts of a list or pipeline (split at an unquoted
/// `;`, `&`, `&&`, `|`, `||` or line break) and of a subshell (`(` and `)`
/// end a part). Quotes and backslashes are honoured; a command
/// substitution (`$(...)`, a backtick pair) stays inside its word, since
/// Copilot's check of it is not measured.
pub fn parts(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut part = String::new();
    let mut chars = command.chars().peekable();
    let mut quote: Option<char> = None;
    let mut depth = 0usize;
    while let Some(c) = chars.next() {
        part.push(c);
        match (quote, c) {
            (Some('\''), '\'') => quote = None,
            (Some('\''), _) => {}
            (_, '\\') => part.extend(chars.next()),
            (Some('"'), '"') => quote = None,
            (Some('`'), '`') => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"' | '`') => quote = Some(c),
            (None, '$') if chars.peek() == Some(&'(') => {
                part.extend(chars.next());
                depth += 1;
            }
            (None, ')') if depth > 0 => depth -= 1,
            (None, '(' | ')') if depth == 0 => {
                part.pop();
                end_part(&mut part, &mut out);
            }
            (None, ';' | '&' | '|' | '\n') if depth == 0 => {
                part.pop();
                end_part(&mut part, &mut out);
            }
            _ => {}
        }
    }
    end_part(&mut part, &mut out);
    out
}

/// Move `part`, trimmed and unless blank, to `out`.
fn end_part(part: &mut String, out: &mut Vec<String>) {
    let text = part.trim();
    if !text.is_empty() {
        out.push(text.to_string());
    }
    part.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_pipeline_or_subshell_is_checked_part_by_part() {
        let cases: [(&str, &[&str]); 8] = [
            ("a && b", &["a", "b"]),
            ("a; b", &["a", "b"]),
            ("a | b || c & d", &["a", "b", "c", "d"]),
            ("(git push --force)", &["git push --force"]),
            ("echo 'a; b' \"c | d\"", &["echo 'a; b' \"c | d\""]),
            ("echo a\\; b", &["echo a\\; b"]),
            ("echo $(a; b) `c | d`", &["echo $(a; b) `c | d`"]),
            ("a\nb", &["a", "b"]),
        ];
        for (command, want) in cases {
            assert_eq!(parts(command), want, "{command:?}");
        }
        assert!(parts(" ; ").is_empty());
    }

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
