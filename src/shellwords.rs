//! Words of a POSIX shell command, both ways: [`split`] reads text into
//! words the way a shell reads a simple command (as Python's `shlex.split`
//! does: quotes are removed, backslashes escape, `#` is an ordinary
//! character and `$VAR` stays literal); [`quote`] writes one word so that a
//! shell reads it back unchanged (as Python's `shlex.quote` does).

/// Why a rule could not be split.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitError {
    /// A `'` or `"` is never closed.
    UnclosedQuote,
    /// The rule ends with a lone backslash.
    TrailingBackslash,
}

impl SplitError {
    pub fn describe(self) -> &'static str {
        match self {
            SplitError::UnclosedQuote => "a quote is opened but never closed",
            SplitError::TrailingBackslash => "it ends with a backslash that escapes nothing",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Plain,
    Single,
    Double,
    /// After a backslash; remembers whether it was inside double quotes.
    Escaped {
        in_double: bool,
    },
}

fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

pub fn split(text: &str) -> Result<Vec<String>, SplitError> {
    let mut words = Vec::new();
    let mut word = String::new();
    // A word exists once anything (even an empty pair of quotes) started it.
    let mut started = false;
    let mut state = State::Plain;
    for c in text.chars() {
        match state {
            State::Plain => match c {
                c if is_blank(c) => {
                    if started {
                        words.push(std::mem::take(&mut word));
                        started = false;
                    }
                }
                '\\' => {
                    started = true;
                    state = State::Escaped { in_double: false };
                }
                '\'' => {
                    started = true;
                    state = State::Single;
                }
                '"' => {
                    started = true;
                    state = State::Double;
                }
                _ => {
                    started = true;
                    word.push(c);
                }
            },
            State::Single => match c {
                '\'' => state = State::Plain,
                _ => word.push(c),
            },
            State::Double => match c {
                '"' => state = State::Plain,
                '\\' => state = State::Escaped { in_double: true },
                _ => word.push(c),
            },
            State::Escaped { in_double } => {
                // Inside double quotes only `"` and `\` can be escaped; any
                // other character keeps its backslash.
                if in_double && c != '"' && c != '\\' {
                    word.push('\\');
                }
                word.push(c);
                state = if in_double {
                    State::Double
                } else {
                    State::Plain
                };
            }
        }
    }
    match state {
        State::Single | State::Double => Err(SplitError::UnclosedQuote),
        State::Escaped { .. } => Err(SplitError::TrailingBackslash),
        State::Plain => {
            if started {
                words.push(word);
            }
            Ok(words)
        }
    }
}

/// `word` as one POSIX shell word, as Python's `shlex.quote` spells it:
/// as it is when it is non-empty and every character is an ASCII letter or
/// digit or one of `@%+=:,./-_`; otherwise inside single quotes, each `'`
/// written `'\''`. A shell reads it back as exactly `word` (no expansion,
/// no splitting), so [`split`] does too.
pub fn quote(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "@%+=:,./-_".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        return word.to_string();
    }
    single_quote(word)
}

/// `word` inside single quotes whatever it holds, each `'` written `'\''`
/// (closed, escaped, reopened): the spelling for text that is always
/// quoted where [`quote`] would leave a plain word bare. A shell reads it
/// back as exactly `word`.
pub fn single_quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Vec<String> {
        split(text).unwrap()
    }

    #[test]
    fn words_split_like_a_posix_shell() {
        assert_eq!(ok("git push --force"), ["git", "push", "--force"]);
        assert_eq!(ok("  lead  trail  "), ["lead", "trail"]);
        assert_eq!(ok("tab\there"), ["tab", "here"]);
        assert_eq!(ok(r"a\ b"), ["a b"]);
        assert_eq!(ok("x'y' z"), ["xy", "z"]);
        assert_eq!(ok("echo \"a b\"#c"), ["echo", "a b#c"]);
        assert_eq!(ok("$HOME/x"), ["$HOME/x"]);
        assert_eq!(ok("rm -rf /tmp/'a b'"), ["rm", "-rf", "/tmp/a b"]);
    }

    #[test]
    fn backslashes_follow_the_quote_rules() {
        assert_eq!(ok(r"a\\b"), [r"a\b"]);
        assert_eq!(ok(r"a\nb"), ["anb"]);
        assert_eq!(ok(r#"c\"d"#), [r#"c"d"#]);
        assert_eq!(ok(r#""a\$b\`c\x""#), [r"a\$b\`c\x"]);
        assert_eq!(ok(r#"a"\\"b"#), [r"a\b"]);
        assert_eq!(ok(r"a\'b"), ["a'b"]);
        assert_eq!(ok("'a\\b'"), [r"a\b"]);
        assert_eq!(ok("x\\\ny"), ["x\ny"]);
        assert_eq!(ok("\"a\\\nb\""), ["a\\\nb"]);
    }

    #[test]
    fn empty_quotes_make_empty_words() {
        assert_eq!(ok("\"\""), [""]);
        assert_eq!(ok("a '' b"), ["a", "", "b"]);
        assert_eq!(ok("\"\"x\"\""), ["x"]);
        assert!(ok("   ").is_empty());
    }

    #[test]
    fn only_four_characters_separate_words() {
        assert_eq!(ok("a\u{b}b c\u{c}d"), ["a\u{b}b", "c\u{c}d"]);
        assert_eq!(ok("ü 😀"), ["ü", "😀"]);
    }

    #[test]
    fn quoting_keeps_plain_words_and_single_quotes_the_rest() {
        assert_eq!(quote("/a/b.txt"), "/a/b.txt");
        assert_eq!(quote("user@host:%a+b=c,d-e_f"), "user@host:%a+b=c,d-e_f");
        assert_eq!(quote("/a b"), "'/a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("~/x"), "'~/x'");
        assert_eq!(quote("%{http_connect}"), "'%{http_connect}'");
        assert_eq!(quote("ü"), "'ü'");
        for word in [
            "", "a b", "it's", "$HOME", "a\\b", "\"'\"", "*", "x\ny", "ü 😀",
        ] {
            assert_eq!(split(&quote(word)).unwrap(), [word], "{word:?}");
            assert_eq!(split(&single_quote(word)).unwrap(), [word], "{word:?}");
        }
    }

    #[test]
    fn broken_rules_are_errors() {
        assert_eq!(split("echo \"x"), Err(SplitError::UnclosedQuote));
        assert_eq!(split("echo 'x"), Err(SplitError::UnclosedQuote));
        assert_eq!(split("trail\\"), Err(SplitError::TrailingBackslash));
        assert_eq!(split("\"a\\"), Err(SplitError::TrailingBackslash));
    }
}
