//! Command-line words as the operating system hands them over (bytes, not
//! necessarily UTF-8) and the text twsrt reads them as.
//!
//! Contract: a word that is UTF-8 reads as itself; any other reads with
//! each invalid byte sequence as U+FFFD, so no byte string makes twsrt
//! panic. What twsrt reads is only ever a view: a command line it starts
//! is built from the original words, byte for byte, plus the words twsrt
//! inserts.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};

/// The text each word reads as.
pub fn text(words: &[OsString]) -> Vec<String> {
    words
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect()
}

/// One word as text (see the module contract).
pub fn word(word: &OsStr) -> String {
    word.to_string_lossy().into_owned()
}

/// `word` single-quoted for a POSIX shell, byte for byte: every `'` becomes
/// `'\''`, nothing else changes.
pub fn single_quote(word: &OsStr) -> OsString {
    let mut out = Vec::with_capacity(word.len() + 2);
    out.push(b'\'');
    for &b in word.as_bytes() {
        if b == b'\'' {
            out.extend_from_slice(b"'\\''");
        } else {
            out.push(b);
        }
    }
    out.push(b'\'');
    OsString::from_vec(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(b: &[u8]) -> OsString {
        OsString::from_vec(b.to_vec())
    }

    #[test]
    fn a_word_that_is_not_utf8_reads_with_a_replacement_character() {
        let words = [bytes(b"caf\xe9.txt"), bytes(b"plain"), bytes(b"\xff/x")];
        assert_eq!(text(&words), ["caf\u{FFFD}.txt", "plain", "\u{FFFD}/x"]);
    }

    #[test]
    fn a_quoted_word_keeps_every_byte_and_agrees_with_the_text_quoting() {
        let raw = bytes(b"it's caf\xe9");
        assert_eq!(single_quote(&raw).as_bytes(), b"'it'\\''s caf\xe9'");
        for w in ["a b", "it's", "\"x\"", ""] {
            let ours = single_quote(OsStr::new(w));
            assert_eq!(
                ours.to_str(),
                Some(crate::shellwords::single_quote(w).as_str())
            );
        }
    }
}
