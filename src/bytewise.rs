//! Equality and order of byte strings, eight bytes per step. The static
//! musl build's `memcmp` and `bcmp` compare one byte per step, which made
//! them about a twentieth of a large `generate` (doc/benchmarks.md); the
//! comparisons made once per policy entry (composing, sorting,
//! de-duplicating) call these instead. Same answers as `==` and `Ord` on
//! byte slices, which a test holds.

use std::cmp::Ordering;

/// `a == b`.
pub fn equal(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let (words_a, rest_a) = a.as_chunks::<8>();
    let (words_b, rest_b) = b.as_chunks::<8>();
    words_a
        .iter()
        .zip(words_b)
        .all(|(x, y)| u64::from_ne_bytes(*x) == u64::from_ne_bytes(*y))
        && rest_a.iter().zip(rest_b).all(|(x, y)| x == y)
}

/// `a.cmp(b)`: byte by byte, a prefix first.
pub fn compare(a: &[u8], b: &[u8]) -> Ordering {
    let (words_a, _) = a.as_chunks::<8>();
    let (words_b, _) = b.as_chunks::<8>();
    let mut words = 0;
    for (x, y) in words_a.iter().zip(words_b) {
        let (x, y) = (u64::from_be_bytes(*x), u64::from_be_bytes(*y));
        if x != y {
            return x.cmp(&y);
        }
        words += 1;
    }
    let (rest_a, rest_b) = (&a[words * 8..], &b[words * 8..]);
    for (x, y) in rest_a.iter().zip(rest_b) {
        if x != y {
            return x.cmp(y);
        }
    }
    a.len().cmp(&b.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answers_are_those_of_the_slice_operators() {
        let texts: Vec<Vec<u8>> = [
            "",
            "a",
            "b",
            "ab",
            "abcdefg",
            "abcdefgh",
            "abcdefgi",
            "abcdefghi",
            "abcdefghj",
            "abcdefgh\u{e9}",
            "abcdefghabcdefgh",
            "abcdefghabcdefgz",
            "abcdefghabcdefgh!",
            "\u{ff}\u{ff}",
            "~/.secrets/s1",
            "~/.secrets/s10",
            "~/.secrets/s2",
        ]
        .iter()
        .map(|t| t.as_bytes().to_vec())
        .chain([vec![0xff; 9], vec![0x00; 9], vec![0x7f, 0x80, 0x81]])
        .collect();
        for a in &texts {
            for b in &texts {
                assert_eq!(equal(a, b), a == b, "{a:?} == {b:?}");
                assert_eq!(compare(a, b), a.cmp(b), "{a:?} cmp {b:?}");
            }
        }
    }
}
