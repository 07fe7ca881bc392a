//! Glob patterns as the sandbox's path rules use them: `**` crosses
//! directories, `*` and `?` stay within one name, `[...]` is a class.

/// Whether `text` (a path) matches `pattern` as a whole.
pub fn matches(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    at(&p, &t)
}

fn at(p: &[char], t: &[char]) -> bool {
    match p.first() {
        None => t.is_empty(),
        Some('*') if p.get(1) == Some(&'*') => {
            // `**/` also matches no directory at all.
            let rest = &p[2..];
            let rest_no_slash = rest.strip_prefix(&['/']).unwrap_or(rest);
            (0..=t.len()).any(|i| at(rest, &t[i..]))
                || (0..=t.len()).any(|i| (i == 0 || t[i - 1] == '/') && at(rest_no_slash, &t[i..]))
        }
        Some('*') => (0..=t.len())
            .take_while(|&i| i == 0 || t[i - 1] != '/')
            .any(|i| at(&p[1..], &t[i..])),
        Some('?') => t.first().is_some_and(|c| *c != '/') && at(&p[1..], &t[1..]),
        Some('[') => match p.iter().position(|c| *c == ']') {
            Some(end) if end > 1 => {
                let class = &p[1..end];
                let (negate, class) = match class.first() {
                    Some('!' | '^') => (true, &class[1..]),
                    _ => (false, class),
                };
                t.first().is_some_and(|c| in_class(class, *c) != negate)
                    && at(&p[end + 1..], &t[1..])
            }
            _ => t.first() == Some(&'[') && at(&p[1..], &t[1..]),
        },
        Some(c) => t.first() == Some(c) && at(&p[1..], &t[1..]),
    }
}

fn in_class(class: &[char], c: char) -> bool {
    let mut i = 0;
    while i < class.len() {
        if i + 2 < class.len() && class[i + 1] == '-' {
            if class[i] <= c && c <= class[i + 2] {
                return true;
            }
            i += 3;
        } else {
            if class[i] == c {
                return true;
            }
            i += 1;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn double_star_crosses_directories_and_single_star_does_not() {
        assert!(matches("**/.env", "/home/me/work/.env"));
        assert!(matches("**/.env", ".env"));
        assert!(matches("**/*.pem", "/a/b/key.pem"));
        assert!(!matches("**/*.pem", "/a/b/key.pem.bak"));
        assert!(matches("/h/.config/*/token", "/h/.config/gh/token"));
        assert!(!matches("/h/.config/*/token", "/h/.config/a/b/token"));
        assert!(matches("/h/f?le", "/h/file"));
        assert!(!matches("/h/f?le", "/h/f/le"));
        assert!(matches("/h/[a-c]x", "/h/bx"));
        assert!(!matches("/h/[!a-c]x", "/h/bx"));
    }
}
