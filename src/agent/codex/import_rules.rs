//! The `prefix_rule(...)` calls of a Codex `.rules` file, read as data: the
//! small part of Starlark a rules file uses (keyword arguments whose values
//! are strings, lists of strings and lists of alternatives; `#` comments).
//! A call this reader cannot follow is reported with its line, never
//! guessed at.

/// One `prefix_rule` call: its line, its `pattern` (each position a list of
/// alternatives, one word for a plain string) and its `decision`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrefixRule {
    pub line: usize,
    pub pattern: Vec<Vec<String>>,
    pub decision: String,
}

/// What a rules file holds: the rules read, and (line, text) of each call
/// or statement that could not be read.
#[derive(Debug, Default)]
pub struct Read {
    pub rules: Vec<PrefixRule>,
    pub unread: Vec<(usize, String)>,
}

pub fn read(text: &str) -> Read {
    let mut out = Read::default();
    let mut lexer = Lexer::new(text);
    while let Some(token) = lexer.next() {
        let line = lexer.line;
        match token {
            Token::Ident(name) if name == "prefix_rule" => match call(&mut lexer) {
                Some(args) => match rule(line, args) {
                    Some(rule) => out.rules.push(rule),
                    None => out
                        .unread
                        .push((line, "a prefix_rule without a pattern of words".into())),
                },
                None => {
                    out.unread
                        .push((line, "a prefix_rule call this reader cannot follow".into()));
                    return out;
                }
            },
            Token::Ident(name) => {
                out.unread
                    .push((line, format!("`{name}`: not a prefix_rule")));
                return out;
            }
            _ => {
                out.unread.push((line, "text that is not a rule".into()));
                return out;
            }
        }
    }
    out
}

#[derive(Debug, Clone, PartialEq)]
enum Arg {
    Str(String),
    List(Vec<Arg>),
    Other,
}

fn rule(line: usize, args: Vec<(String, Arg)>) -> Option<PrefixRule> {
    let mut pattern = None;
    let mut decision = "allow".to_string();
    for (name, value) in args {
        match (name.as_str(), value) {
            ("pattern", Arg::List(items)) => {
                let words: Option<Vec<Vec<String>>> = items
                    .into_iter()
                    .map(|item| match item {
                        Arg::Str(word) => Some(vec![word]),
                        Arg::List(alternatives) => alternatives
                            .into_iter()
                            .map(|a| match a {
                                Arg::Str(w) => Some(w),
                                _ => None,
                            })
                            .collect(),
                        Arg::Other => None,
                    })
                    .collect();
                pattern = words.filter(|w| !w.is_empty());
            }
            ("decision", Arg::Str(d)) => decision = d,
            _ => {}
        }
    }
    Some(PrefixRule {
        line,
        pattern: pattern?,
        decision,
    })
}

/// `( name = value, ... )` after the function name.
fn call(lexer: &mut Lexer) -> Option<Vec<(String, Arg)>> {
    if lexer.next()? != Token::Open('(') {
        return None;
    }
    let mut args = Vec::new();
    loop {
        match lexer.next()? {
            Token::Close(')') => return Some(args),
            Token::Ident(name) => {
                if lexer.next()? != Token::Equals {
                    return None;
                }
                let (value, end) = value(lexer)?;
                args.push((name, value));
                match end {
                    Token::Comma => {}
                    Token::Close(')') => return Some(args),
                    _ => return None,
                }
            }
            _ => return None,
        }
    }
}

/// A value and the token after it (`,` or the closing bracket).
fn value(lexer: &mut Lexer) -> Option<(Arg, Token)> {
    let value = match lexer.next()? {
        Token::Str(s) => Arg::Str(s),
        Token::Open('[') => {
            let mut items = Vec::new();
            let mut token = lexer.next()?;
            loop {
                if token == Token::Close(']') {
                    break;
                }
                lexer.push_back(token);
                let (item, end) = value(lexer)?;
                items.push(item);
                match end {
                    Token::Comma => token = lexer.next()?,
                    Token::Close(']') => break,
                    _ => return None,
                }
            }
            Arg::List(items)
        }
        Token::Ident(_) => Arg::Other,
        _ => return None,
    };
    Some((value, lexer.next()?))
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Ident(String),
    Str(String),
    Open(char),
    Close(char),
    Equals,
    Comma,
    Bad,
}

struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    /// The line of the last token.
    line: usize,
    current: usize,
    back: Option<Token>,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Self {
        Lexer {
            chars: text.chars().peekable(),
            line: 1,
            current: 1,
            back: None,
        }
    }

    fn push_back(&mut self, token: Token) {
        self.back = Some(token);
    }

    fn next(&mut self) -> Option<Token> {
        if let Some(token) = self.back.take() {
            return Some(token);
        }
        loop {
            let c = *self.chars.peek()?;
            if c == '\n' {
                self.current += 1;
                self.chars.next();
            } else if c.is_whitespace() {
                self.chars.next();
            } else if c == '#' {
                while self.chars.peek().is_some_and(|&c| c != '\n') {
                    self.chars.next();
                }
            } else {
                break;
            }
        }
        self.line = self.current;
        let c = self.chars.next()?;
        Some(match c {
            '(' | '[' => Token::Open(c),
            ')' | ']' => Token::Close(c),
            '=' => Token::Equals,
            ',' => Token::Comma,
            '"' | '\'' => self.string(c).map_or(Token::Bad, Token::Str),
            c if c.is_alphanumeric() || c == '_' => {
                let mut name = c.to_string();
                while let Some(&c) = self.chars.peek() {
                    if !(c.is_alphanumeric() || c == '_') {
                        break;
                    }
                    name.push(c);
                    self.chars.next();
                }
                Token::Ident(name)
            }
            _ => Token::Bad,
        })
    }

    /// A string closed by `quote`, with Starlark's escapes (`\\`, `\"`,
    /// `\'`, `\n`, `\t`, `\uXXXX` with surrogate pairs).
    fn string(&mut self, quote: char) -> Option<String> {
        let mut out = String::new();
        let mut pending_high: Option<u32> = None;
        loop {
            let c = self.chars.next()?;
            if c == quote {
                return pending_high.is_none().then_some(out);
            }
            if c == '\n' {
                return None;
            }
            if c != '\\' {
                out.push(c);
                continue;
            }
            match self.chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'u' => {
                    let hex: String = (0..4).filter_map(|_| self.chars.next()).collect();
                    let code = u32::from_str_radix(&hex, 16).ok()?;
                    match (pending_high.take(), code) {
                        (None, 0xD800..=0xDBFF) => pending_high = Some(code),
                        (Some(high), 0xDC00..=0xDFFF) => {
                            let joined = 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00);
                            out.push(char::from_u32(joined)?);
                        }
                        (None, code) => out.push(char::from_u32(code)?),
                        (Some(_), _) => return None,
                    }
                }
                other => out.push(other),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_are_read_with_their_lines_alternatives_and_escapes() {
        let text = "# header\n\nprefix_rule(\n    pattern = [\"git\", \"push\"],\n    \
                    decision = \"forbidden\",\n    justification = \"x\",\n    \
                    match = [\"git push\"],\n)\n\
                    prefix_rule(pattern=['gh', ['pr', 'issue'], 'list'], decision='prompt')\n\
                    prefix_rule(pattern = [\"\\u00fc\", \"\\ud83d\\ude00\"])\n";
        let read = read(text);
        assert_eq!(read.unread, []);
        assert_eq!(
            read.rules,
            [
                PrefixRule {
                    line: 3,
                    pattern: vec![vec!["git".into()], vec!["push".into()]],
                    decision: "forbidden".into()
                },
                PrefixRule {
                    line: 9,
                    pattern: vec![
                        vec!["gh".into()],
                        vec!["pr".into(), "issue".into()],
                        vec!["list".into()]
                    ],
                    decision: "prompt".into()
                },
                PrefixRule {
                    line: 10,
                    pattern: vec![vec!["ü".into()], vec!["😀".into()]],
                    decision: "allow".into()
                },
            ]
        );
    }

    #[test]
    fn what_is_not_a_rule_is_reported_with_its_line() {
        let read =
            read("prefix_rule(pattern = [\"rm\"], decision = \"forbidden\")\n\nload(\"x\")\n");
        assert_eq!(read.rules.len(), 1);
        assert_eq!(read.unread, [(3, "`load`: not a prefix_rule".to_string())]);
        let read = super::read("prefix_rule(pattern = [\"rm\"\n");
        assert_eq!(read.unread.len(), 1);
        assert_eq!(
            super::read("prefix_rule(decision = \"allow\")")
                .unread
                .len(),
            1
        );
    }
}
