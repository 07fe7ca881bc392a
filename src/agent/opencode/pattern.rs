//! OpenCode's permission patterns (its `Wildcard.match`, doc/clients.md
//! "OpenCode: permissions"): `*` is any text (`/` and line breaks
//! included), `?` one character, every other character itself, the whole
//! text matched; backslashes count as `/` on both sides; a pattern ending
//! in ` *` also matches the text without that ending (`git *` matches
//! `git`).

/// One piece of a pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    Star,
    One,
    Char(char),
}

fn tokens(pattern: &str) -> Vec<Token> {
    pattern
        .chars()
        .map(|c| match c {
            '*' => Token::Star,
            '?' => Token::One,
            '\\' => Token::Char('/'),
            c => Token::Char(c),
        })
        .collect()
}

/// The token lists a pattern means: itself, and without a final ` *`.
fn variants(pattern: &str) -> Vec<Vec<Token>> {
    let all = tokens(pattern);
    let mut out = vec![all.clone()];
    if let [rest @ .., Token::Char(' '), Token::Star] = all.as_slice() {
        out.push(rest.to_vec());
    }
    out
}

/// Whether OpenCode's `pattern` matches `text`.
pub fn matches(text: &str, pattern: &str) -> bool {
    let text: Vec<char> = text
        .chars()
        .map(|c| if c == '\\' { '/' } else { c })
        .collect();
    let as_tokens: Vec<Token> = text.iter().map(|&c| Token::Char(c)).collect();
    variants(pattern).iter().any(|p| intersect(p, &as_tokens))
}

/// Whether some text matches both patterns (so an entry with one can
/// decide what an entry with the other was meant to).
pub fn overlap(a: &str, b: &str) -> bool {
    variants(a)
        .iter()
        .any(|x| variants(b).iter().any(|y| intersect(x, y)))
}

/// Whether some text matches both token lists: a walk over the pairs of
/// positions, each visited once.
fn intersect(a: &[Token], b: &[Token]) -> bool {
    let width = b.len() + 1;
    let mut seen = vec![false; (a.len() + 1) * width];
    let mut todo = vec![(0usize, 0usize)];
    while let Some((i, j)) = todo.pop() {
        if std::mem::replace(&mut seen[i * width + j], true) {
            continue;
        }
        if i == a.len() && j == b.len() {
            return true;
        }
        let (x, y) = (a.get(i).copied(), b.get(j).copied());
        // A star may match nothing.
        if x == Some(Token::Star) {
            todo.push((i + 1, j));
        }
        if y == Some(Token::Star) {
            todo.push((i, j + 1));
        }
        // Or one more character of the other side's.
        match (x, y) {
            (Some(Token::Star), Some(Token::Star)) => {}
            (Some(Token::Star), Some(_)) => todo.push((i, j + 1)),
            (Some(_), Some(Token::Star)) => todo.push((i + 1, j)),
            (Some(Token::Char(p)), Some(Token::Char(q))) if p != q => {}
            (Some(_), Some(_)) => todo.push((i + 1, j + 1)),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_as_opencode_does() {
        assert!(matches("git push --force origin", "git push --force *"));
        assert!(matches("git push --force", "git push --force *"));
        assert!(!matches(
            "git push --force-with-lease",
            "git push --force *"
        ));
        assert!(matches("../../home/u/.ssh/id", "*/.ssh/*"));
        assert!(matches("a/b", "a?b"));
        assert!(!matches("ab", "a?b"));
        assert!(matches("a\nb", "a*b"));
        assert!(matches("C:\\x\\y", "C:/x/*"));
        assert!(matches("bash", "*"));
        assert!(!matches("bash", "ba"));
        assert!(matches("x.ENV", "x.ENV"));
        assert!(!matches("x.env", "x.ENV"));
    }

    #[test]
    fn overlap_finds_a_common_text() {
        assert!(overlap("git *", "git push --force *"));
        assert!(overlap("*", "anything"));
        assert!(overlap("ls *", "ls"));
        assert!(overlap("*.env", ".env/*") == overlap(".env/*", "*.env"));
        assert!(!overlap("npm *", "git *"));
        assert!(!overlap("a?c", "abbc"));
        assert!(overlap("a*c", "ab?c"));
        assert!(!overlap("git push *", "git pull *"));
    }
}
