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
/// `;`, `&`, `&&`, `|`, `||` or line break), of a subshell (`(` and `)`
/// end a part) and the commands of a `$(...)` substitution (also inside
/// double quotes), which stays in its word of the outer command too. A
/// backtick substitution is one word: Copilot 1.0.102 does not check the
/// command inside it (measured). Quotes and backslashes are honoured.
pub fn parts(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut part = String::new();
    let mut inner = Vec::new();
    let chars: Vec<char> = command.chars().collect();
    let mut quote: Option<char> = None;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        match (quote, c) {
            (Some('\''), '\'') => quote = None,
            (Some('\''), _) => {}
            (_, '\\') => {
                part.push(c);
                part.extend(chars.get(i));
                i += 1;
                continue;
            }
            (_, '$') if chars.get(i) == Some(&'(') => {
                let end = closing(&chars, i + 1, ')');
                let text: String = chars[i + 1..end].iter().collect();
                part.push_str("$(");
                part.push_str(&text);
                part.extend(chars.get(end));
                inner.extend(parts(&text));
                i = end + 1;
                continue;
            }
            (_, '`') => {
                let end = closing(&chars, i, '`');
                let text: String = chars[i..end].iter().collect();
                part.push('`');
                part.push_str(&text);
                part.extend(chars.get(end));
                i = end + 1;
                continue;
            }
            (Some('"'), '"') => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(' | ')' | ';' | '&' | '|' | '\n') => {
                end_part(&mut part, &mut out);
                continue;
            }
            _ => {}
        }
        part.push(c);
    }
    end_part(&mut part, &mut out);
    out.extend(inner);
    out
}

/// The index of the `close` that ends the substitution whose text starts
/// at `from` (`)` counts nested `(`), or the end of `chars`; quoted and
/// escaped characters do not count.
fn closing(chars: &[char], from: usize, close: char) -> usize {
    let (mut depth, mut quote, mut i) = (0usize, None::<char>, from);
    while i < chars.len() {
        let c = chars[i];
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\\') => i += 1,
            (None, '\'' | '"') if close == ')' => quote = Some(c),
            (None, '(') if close == ')' => depth += 1,
            (None, _) if c == close && depth == 0 => return i,
            (None, ')') => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    chars.len()
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
        let cases: [(&str, &[&str]); 9] = [
            ("a && b", &["a", "b"]),
            ("a; b", &["a", "b"]),
            ("a | b || c & d", &["a", "b", "c", "d"]),
            ("(git push --force)", &["git push --force"]),
            ("echo 'a; b' \"c | d\"", &["echo 'a; b' \"c | d\""]),
            ("echo a\\; b", &["echo a\\; b"]),
            (
                "echo $(a; b) \"`c | d`\"",
                &["echo $(a; b) \"`c | d`\"", "a", "b"],
            ),
            ("a\nb", &["a", "b"]),
            (
                "x $(y $(z)) '$(no)'",
                &["x $(y $(z)) '$(no)'", "y $(z)", "z"],
            ),
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
