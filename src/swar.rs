//! Eight bytes at a time ("SIMD within a register"): the scans of the JSON
//! parser and writer look at a whole word to skip plain text quickly. Each
//! function returns a word that is zero exactly when no byte matches (the
//! lowest matching byte has its high bit set; bytes above it may too, from
//! the borrow, so use the result as a yes/no).

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
                    }
                }
            }
        }
    }
}
