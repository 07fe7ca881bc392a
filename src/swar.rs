//! Eight bytes at a time ("SIMD within a register"): the scans of the JSON
//! parser and writer look at a whole word to skip plain text quickly. Each
//! function returns a word that is zero exactly when no byte matches. The
//! lowest matching byte has its high bit set, and [`first`] finds it; bytes
//! above it may be marked too, from the borrow, so only the lowest mark is
//! a position (a borrow only ever runs upward from a real match).

const ONES: u64 = 0x0101_0101_0101_0101;
/// The high bit of every byte: a byte at or above 0x80.
pub const HIGH: u64 = 0x8080_8080_8080_8080;

/// Bytes equal to `byte`.
#[inline]
pub fn bytes_equal(word: u64, byte: u8) -> u64 {
    let x = word ^ (ONES * u64::from(byte));
    x.wrapping_sub(ONES) & !x & HIGH
}

/// Bytes below `limit` (at most 0x80).
#[inline]
pub fn bytes_below(word: u64, limit: u8) -> u64 {
    word.wrapping_sub(ONES * u64::from(limit)) & !word & HIGH
}

/// The position (0 to 7, first byte in memory first) of the lowest marked
/// byte of a non-zero result, for words read with `from_le_bytes`.
#[inline]
#[allow(dead_code)] // Goes with this module once pyjson scans plainly.
pub fn first(marks: u64) -> usize {
    (marks.trailing_zeros() / 8) as usize
}

/// Eight spaces: a word XOR this is zero exactly in the bytes that are
/// spaces, so [`first`] of it is the position of the first other byte.
#[allow(dead_code)]
pub const SPACES: u64 = ONES * b' ' as u64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_value_in_every_position_is_found() {
        for at in 0..8 {
            for b in 0..=255u8 {
                let mut bytes = [b'a'; 8];
                bytes[at] = b;
                let word = u64::from_le_bytes(bytes);
                assert_eq!(bytes_equal(word, b'"') != 0, b == b'"', "{b} at {at}");
                assert_eq!(bytes_below(word, 0x20) != 0, b < 0x20, "{b} at {at}");
                // Every pair of bytes too: the borrow of one must not hide the other.
                for c in [0u8, 0x01, 0x1f, 0x20, b'"', 0x7f, 0x80, 0xff] {
                    for other in (0..8).filter(|&o| o != at) {
                        let mut pair = bytes;
                        pair[other] = c;
                        let word = u64::from_le_bytes(pair);
                        let quote = b == b'"' || c == b'"';
                        let control = b < 0x20 || c < 0x20;
                        assert_eq!(bytes_equal(word, b'"') != 0, quote, "{b}@{at} {c}@{other}");
                        assert_eq!(
                            bytes_below(word, 0x20) != 0,
                            control,
                            "{b}@{at} {c}@{other}"
                        );
                        // The lowest mark is the first match, whatever lies above it.
                        let lowest = |hit: &dyn Fn(u8) -> bool| pair.iter().position(|&x| hit(x));
                        let marks = bytes_equal(word, b'"');
                        if let Some(p) = lowest(&|x| x == b'"') {
                            assert_eq!(first(marks), p, "quote: {b}@{at} {c}@{other}");
                        }
                        let marks = bytes_below(word, 0x20);
                        if let Some(p) = lowest(&|x| x < 0x20) {
                            assert_eq!(first(marks), p, "control: {b}@{at} {c}@{other}");
                        }
                        if let Some(p) = lowest(&|x| x != b' ') {
                            assert_eq!(first(word ^ SPACES), p, "space: {b}@{at} {c}@{other}");
                        }
                    }
                }
            }
        }
    }
}
