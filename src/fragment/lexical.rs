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
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                loop {
                    // An unterminated string is jsonc-parser's to report.
                    let &b = bytes.get(i)?;
                    match b {
                        b'"' => {
                            i += 1;
                            break;
                        }
                        // Skips the escaped character; a multi-byte one leaves us
                        // on continuation bytes, which match none of these arms.
                        b'\\' => i += 2,
                        0..=0x1f => {
                            return Some((
                                i,
                                format!(
                                    "invalid control character U+{b:04X} in string (escape it)"
                                ),
                            ));
                        }
                        _ => i += 1,
                    }
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i += 2;
                while i < bytes.len() && bytes[i] != b'\n' && bytes[i] != b'\r' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                // An unterminated comment is jsonc-parser's to report.
                let end = find_block_comment_end(bytes, i + 2)?;
                i = end;
            }
            b @ (0x0b | 0x0c) => {
                return Some((i, format!("U+{b:04X} is not a JSON whitespace character")));
            }
            0x80.. => {
                let c = text[i..].chars().next()?;
                if c.is_whitespace() {
                    return Some((
                        i,
                        format!("U+{:04X} is not a JSON whitespace character", c as u32),
                    ));
                }
                i += c.len_utf8();
            }
            _ => i += 1,
        }
    }
    None
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
