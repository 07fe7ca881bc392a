//! Path-segment comparison of an absolute path with a policy entry. Never a
//! string prefix: `/dev/muse-other` is not under `/dev/muse`. An entry may
//! be a glob as srt spells one: `*`, `?` and `[...]` within a segment, `**`
//! for any number of segments, matched by srt's glob matcher.

use crate::srt::glob::{self, Classes};

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

/// One segment against one glob segment, through srt's glob matcher
/// ([`crate::srt::glob::segment_matches`]). A class is read both as srt
/// reads it and as bash does, and the segment matches when either reading
/// does: the entry denies what srt denies, and what its writer meant when
/// that was bash's reading (`[]a]`), so neither reading leaves a gap.
pub fn segment_matches(glob: &str, text: &str) -> bool {
    glob::segment_matches(glob, text, Classes::Srt)
        || glob::segment_matches(glob, text, Classes::Bash)
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

    #[test]
    fn a_class_matches_as_srt_or_as_bash_reads_it() {
        // bash: a `]` first is a member.
        assert!(covers(&pat("/h/[]a]"), &segs("/h/a")));
        assert!(covers(&pat("/h/[]a]"), &segs("/h/]")));
        // srt: `[]` is text, so the entry is also the name `[]a]`.
        assert!(covers(&pat("/h/[]a]"), &segs("/h/[]a]")));
        // bash: `[!]a]` is one character but `]` or `a`; srt: any
        // character, then `a]`.
        assert!(covers(&pat("/h/[!]a]"), &segs("/h/b")));
        assert!(covers(&pat("/h/[!]a]"), &segs("/h/xa]")));
        assert!(!covers(&pat("/h/[!]a]"), &segs("/h/a")));
        assert!(below(&pat("/h/[]a]/k"), &segs("/h/[]a]")));
    }
}
