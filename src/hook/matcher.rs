//! Path-segment comparison of an absolute path with a policy entry. Never a
//! string prefix: `/dev/muse-other` is not under `/dev/muse`. An entry may
//! be a glob as srt spells one: `*`, `?` and `[...]` within a segment, `**`
//! for any number of segments.

/// Whether `path` is `pattern` or lies below something `pattern` names.
pub fn covers(pattern: &[String], path: &[&str]) -> bool {
    match pattern.split_first() {
        None => true,
        Some((first, rest)) if first == "**" => {
            (0..=path.len()).any(|skip| covers(rest, &path[skip..]))
        }
        Some((first, rest)) => match path.split_first() {
            Some((seg, tail)) => segment_matches(first, seg) && covers(rest, tail),
            None => false,
        },
    }
}

/// Whether something `pattern` names lies strictly below `path` (so a
/// recursive walk of `path` reaches it).
pub fn below(pattern: &[String], path: &[&str]) -> bool {
    match (pattern.split_first(), path.split_first()) {
        (None, _) => false,
        (Some((first, rest)), _) if first == "**" => !rest.is_empty() || !path.is_empty(),
        (Some(_), None) => true,
        (Some((first, rest)), Some((seg, tail))) => {
            segment_matches(first, seg) && below(rest, tail)
        }
    }
}

/// One segment against one glob segment: `*` any run, `?` one character,
/// `[...]` one of a set (`!` or `^` negates, `a-z` ranges).
pub fn segment_matches(glob: &str, text: &str) -> bool {
    if !glob.contains(['*', '?', '[']) {
        return glob == text;
    }
    let g: Vec<char> = glob.chars().collect();
    let t: Vec<char> = text.chars().collect();
    wildcard(&g, &t)
}

fn wildcard(g: &[char], t: &[char]) -> bool {
    match g.first() {
        None => t.is_empty(),
        Some('*') => (0..=t.len()).any(|i| wildcard(&g[1..], &t[i..])),
        Some('?') => !t.is_empty() && wildcard(&g[1..], &t[1..]),
        Some('[') => match (class(&g[1..]), t.first()) {
            (Some((set_len, negated, set)), Some(c)) => {
                in_set(set, *c) != negated && wildcard(&g[set_len + 2..], &t[1..])
            }
            // An unclosed `[` is a literal character.
            (None, Some('[')) => wildcard(&g[1..], &t[1..]),
            _ => false,
        },
        Some(c) => t.first() == Some(c) && wildcard(&g[1..], &t[1..]),
    }
}

/// The set of a `[...]` class after its `[`: (length up to the `]`,
/// negated, the members).
fn class(g: &[char]) -> Option<(usize, bool, &[char])> {
    let negated = matches!(g.first(), Some('!' | '^'));
    let start = usize::from(negated);
    // A `]` right after the opening is a member, not the end.
    let end = g
        .iter()
        .skip(start + 1)
        .position(|c| *c == ']')
        .map(|p| p + start + 1)?;
    Some((end, negated, &g[start..end]))
}

fn in_set(set: &[char], c: char) -> bool {
    let mut i = 0;
    while i < set.len() {
        if i + 2 < set.len() && set[i + 1] == '-' {
            if set[i] <= c && c <= set[i + 2] {
                return true;
            }
            i += 3;
        } else {
            if set[i] == c {
                return true;
            }
            i += 1;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pat(p: &str) -> Vec<String> {
        p.split('/')
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    }

    fn segs(p: &str) -> Vec<&str> {
        p.split('/').filter(|s| !s.is_empty()).collect()
    }

    #[test]
    fn segments_not_string_prefixes() {
        assert!(covers(&pat("/dev/muse"), &segs("/dev/muse")));
        assert!(covers(&pat("/dev/muse"), &segs("/dev/muse/a")));
        assert!(!covers(&pat("/dev/muse"), &segs("/dev/muse-other")));
        assert!(!covers(&pat("/dev/muse"), &segs("/dev")));
        assert!(below(&pat("/dev/muse"), &segs("/dev")));
        assert!(below(&pat("/dev/muse"), &segs("/")));
        assert!(!below(&pat("/dev/muse"), &segs("/dev/muse")));
        assert!(!below(&pat("/dev/muse"), &segs("/devx")));
    }

    #[test]
    fn globs_within_and_across_segments() {
        assert!(covers(&pat("**/.env"), &segs("/a/b/.env")));
        assert!(covers(&pat("**/*.pem"), &segs("/a/k.pem")));
        assert!(!covers(&pat("**/*.pem"), &segs("/a/k.pem.txt")));
        assert!(covers(&pat("/h/.ssh/id_*"), &segs("/h/.ssh/id_rsa")));
        assert!(covers(&pat("/h/[ab]?"), &segs("/h/bx")));
        assert!(!covers(&pat("/h/[!ab]?"), &segs("/h/bx")));
        assert!(covers(&pat("/h/[a-c]"), &segs("/h/b")));
        assert!(below(&pat("**/.env"), &segs("/a")));
        assert!(!segment_matches("[x", "y"));
        assert!(segment_matches("[x", "[x"));
    }
}
