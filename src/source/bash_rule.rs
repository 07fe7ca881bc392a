//! The one meaning of a bash rule: its shell words, each rule a prefix
//! ("this command and anything after it"), as every agent compiles it
//! (Claude `Bash(x)` and `Bash(x *)`, a Codex `prefix_rule`, a Gemini
//! `commandPrefix`, an OpenCode `x` and `x *`).
//!
//! [`canonical`] is the spelling every agent is given: outside quotes a
//! run of blanks is one space and the ends are trimmed (each agent's
//! matcher compares the text or its words, and `rm  -rf` matched nothing
//! in Gemini's and OpenCode's), and a trailing ` *` or the legacy `:*`
//! (Claude's prefix spelling) is dropped, since a rule is a prefix
//! already (Codex and Gemini would look for a literal `*`). A `*` left
//! unquoted anywhere else (a glob inside a word, `git * --force`) is a
//! wildcard in Claude's and OpenCode's rules and a literal in Codex's and
//! Gemini's, so no one rule says it to all of them: it is an error. A
//! quoted `*` is left as written (a literal to the shell).

use std::borrow::Cow;

use crate::srt::spelling::Problem;

/// The canonical spelling of the rule `rule`, or what is wrong with it.
pub fn canonical(rule: &str) -> Result<Cow<'_, str>, Problem> {
    let collapsed = collapse_blanks(rule);
    let mut text: &str = &collapsed;
    loop {
        let before = text.len();
        for suffix in [" *", ":*"] {
            if let Some(head) = text.strip_suffix(suffix)
                && !ends_inside_quotes(head)
            {
                text = head.trim_end();
            }
        }
        if text.len() == before {
            break;
        }
    }
    if text.is_empty() || text == "*" {
        return Err(Problem {
            what: "the rule holds no command (a rule of `*` alone would match every command); \
                   name one, as in"
                .into(),
            fix: "git push".into(),
        });
    }
    if unquoted_star(text).is_some() {
        return Err(Problem {
            what: "an unquoted `*` other than a trailing ` *` is a wildcard to some agents \
                   and a literal to others, so the rule would mean different commands to \
                   them: list each command it stands for (a trailing ` *` is the rule's \
                   prefix, as every rule is), or, for a literal `*`, quote it"
                .into(),
            fix: quote_stars(text),
        });
    }
    Ok(if text == rule {
        Cow::Borrowed(rule)
    } else {
        Cow::Owned(text.to_string())
    })
}

fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

/// `rule` trimmed, each run of blanks outside quotes one space.
fn collapse_blanks(rule: &str) -> Cow<'_, str> {
    let trimmed = rule.trim_matches(is_blank);
    let simple = !trimmed.contains(['\t', '\r', '\n', '\'', '"', '\\']) && !trimmed.contains("  ");
    if simple {
        return Cow::Borrowed(trimmed);
    }
    let mut out = String::with_capacity(trimmed.len());
    let mut quotes = Quotes::default();
    let mut blank = false;
    for c in trimmed.chars() {
        if quotes.plain(c) && is_blank(c) {
            blank = true;
            continue;
        }
        if blank {
            out.push(' ');
            blank = false;
        }
        out.push(c);
    }
    Cow::Owned(out)
}

/// How a shell reads quotes and backslashes, one character at a time.
#[derive(Default)]
struct Quotes {
    quote: Option<char>,
    escaped: bool,
}

impl Quotes {
    /// Steps over `c`: true when it is an ordinary character outside
    /// quotes (not a quote, a backslash, nor escaped by one).
    fn plain(&mut self, c: char) -> bool {
        if self.escaped {
            self.escaped = false;
        } else if c == '\\' && self.quote != Some('\'') {
            self.escaped = true;
        } else if self.quote == Some(c) {
            self.quote = None;
        } else if self.quote.is_none() && (c == '\'' || c == '"') {
            self.quote = Some(c);
        } else {
            return self.quote.is_none();
        }
        false
    }

    /// Whether a quote or a backslash is still open.
    fn open(&self) -> bool {
        self.quote.is_some() || self.escaped
    }
}

/// The byte offset of the first `*` outside quotes and not escaped.
fn unquoted_star(text: &str) -> Option<usize> {
    let mut quotes = Quotes::default();
    text.char_indices()
        .find(|&(_, c)| quotes.plain(c) && c == '*')
        .map(|(at, _)| at)
}

/// `text` with each unquoted, unescaped `*` quoted (`'*'`): the literal
/// spelling every agent reads alike.
fn quote_stars(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    let mut rest = text;
    while let Some(at) = unquoted_star(rest) {
        out.push_str(&rest[..at]);
        out.push_str("'*'");
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
    out
}

/// Whether a quote is still open at the end of `text`.
fn ends_inside_quotes(text: &str) -> bool {
    let mut quotes = Quotes::default();
    text.chars().for_each(|c| {
        quotes.plain(c);
    });
    quotes.open()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(rule: &str) -> Result<String, String> {
        canonical(rule).map(Cow::into_owned).map_err(|p| p.fix)
    }

    #[test]
    fn every_spelling_of_a_prefix_is_one_rule() {
        for (rule, want) in [
            ("rm -rf", "rm -rf"),
            ("rm  -rf", "rm -rf"),
            (" rm\t-rf\n", "rm -rf"),
            ("curl *", "curl"),
            ("curl:*", "curl"),
            ("npm publish:*", "npm publish"),
            ("npm publish *", "npm publish"),
            ("git commit -m 'a  b'", "git commit -m 'a  b'"),
            ("echo \"x  *\"", "echo \"x  *\""),
            ("echo '*'", "echo '*'"),
            ("a\\ b", "a\\ b"),
            // An escaped blank is a word's own; a backslash in single quotes
            // escapes nothing, so the quote closes and the blanks collapse.
            ("a\\  b", "a\\  b"),
            ("echo 'a\\'  b", "echo 'a\\' b"),
            ("echo \\*", "echo \\*"),
        ] {
            assert_eq!(c(rule), Ok(want.to_string()), "{rule:?}");
        }
    }

    #[test]
    fn a_star_no_agent_reads_alike_is_refused_with_its_literal_spelling() {
        assert_eq!(c("git * --force"), Err("git '*' --force".into()));
        assert_eq!(c("cu*rl"), Err("cu'*'rl".into()));
        assert_eq!(c("npm run* 'a*' *x"), Err("npm run'*' 'a*' '*'x".into()));
        assert_eq!(c("git '*' --force"), Ok("git '*' --force".into()));
        assert!(c("*").is_err());
        assert!(c(" :* ").is_err());
    }
}
