//! The lexical checks jsonc-parser does not make: JSON allows fewer
//! whitespace characters between tokens, no raw control characters in
//! strings and no byte order mark.

use super::PosError;

/// The first spot where the text breaks JSON's lexical rules in a way
/// jsonc-parser lets through: a BOM, a whitespace character JSON does not
/// allow between tokens, or a raw control character in a string.
pub(super) fn first_error(text: &str) -> Option<PosError> {
    if text.starts_with('\u{FEFF}') {
        return Some((
            0,
            "the file starts with a UTF-8 byte order mark (BOM)".to_string(),
        ));
    }
    let bytes = text.as_bytes();
    let mut i = 0;
    loop {
        // Only these bytes start something to look at; everything else
        // between tokens is skipped in one search.
        i += bytes[i..]
            .iter()
            .position(|&b| matches!(b, b'"' | b'/' | 0x0b | 0x0c) || b >= 0x80)?;
        match bytes[i] {
            b'"' => match string_end(bytes, i + 1)? {
                Ok(end) => i = end,
                Err(error) => return Some(error),
            },
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i += 2;
                i += bytes[i..]
                    .iter()
                    .position(|&b| b == b'\n' || b == b'\r')
                    .unwrap_or(bytes.len() - i);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                // An unterminated comment is jsonc-parser's to report.
                i = find_block_comment_end(bytes, i + 2)?;
            }
            b'/' => i += 1,
            b @ (0x0b | 0x0c) => {
                return Some((i, format!("U+{b:04X} is not a JSON whitespace character")));
            }
            _ => {
                let c = text[i..].chars().next()?;
                if c.is_whitespace() {
                    return Some((
                        i,
                        format!("U+{:04X} is not a JSON whitespace character", c as u32),
                    ));
                }
                i += c.len_utf8();
            }
        }
    }
}

/// The offset just past the closing quote of a string whose body starts at
/// `from`, or the first raw control character in it as an error. `None`
/// when the string is not terminated: that is jsonc-parser's to report.
fn string_end(bytes: &[u8], from: usize) -> Option<Result<usize, PosError>> {
    let mut i = from;
    loop {
        i += bytes[i..]
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        match bytes[i] {
            b'"' => return Some(Ok(i + 1)),
            // Skips the escaped character; a multi-byte one leaves us on
            // continuation bytes, which are never `"`, `\` or control bytes.
            b'\\' => i = (i + 2).min(bytes.len()),
            b => {
                return Some(Err((
                    i,
                    format!("invalid control character U+{b:04X} in string (escape it)"),
                )));
            }
        }
    }
}

/// The offset just past the `*/` closing a block comment whose body starts at `from`.
fn find_block_comment_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while i + 1 < bytes.len() {
        if bytes[i] == b'*' && bytes[i + 1] == b'/' {
            return Some(i + 2);
        }
        i += 1;
    }
    None
}

/// The offset of the first character at or after `pos` that is neither
/// whitespace (as jsonc-parser skips it) nor part of a comment.
pub(super) fn skip_blanks(text: &str, mut pos: usize) -> usize {
    let bytes = text.as_bytes();
    while pos < bytes.len() {
        match bytes[pos] {
            b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => pos += 1,
            b'/' if bytes.get(pos + 1) == Some(&b'/') => {
                pos += 2;
                while pos < bytes.len() && bytes[pos] != b'\n' && bytes[pos] != b'\r' {
                    pos += 1;
                }
            }
            b'/' if bytes.get(pos + 1) == Some(&b'*') => {
                match find_block_comment_end(bytes, pos + 2) {
                    Some(end) => pos = end,
                    None => return pos,
                }
            }
            0x80.. => match text[pos..].chars().next() {
                Some(c) if c.is_whitespace() => pos += c.len_utf8(),
                _ => return pos,
            },
            _ => return pos,
        }
    }
    pos
}
