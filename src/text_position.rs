//! Positions in text for error messages: one definition of line and column
//! for every parser twsrt reports errors of (JSONC fragments, config.toml,
//! the Codex config), so the same spot is always named the same way.

/// 1-based line and character column of byte offset `pos` in `text`.
/// `\n`, `\r\n` and a lone `\r` each end a line, as the reference counts
/// fragment lines and as editors show them. TOML allows a lone `\r`
/// nowhere, so in a TOML file it only moves errors at or after one (such
/// an error is then placed on the line the `\r` starts). An offset inside
/// a character counts from its first byte.
pub fn line_column(text: &str, pos: usize) -> (usize, usize) {
    let mut pos = pos.min(text.len());
    while !text.is_char_boundary(pos) {
        pos -= 1;
    }
    let bytes = text.as_bytes();
    let mut line = 1;
    let mut line_start = 0;
    for (i, &b) in bytes[..pos].iter().enumerate() {
        if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
            line += 1;
            line_start = i + 1;
        }
    }
    (line, text[line_start..pos].chars().count() + 1)
}

/// Where bytes that are not valid UTF-8 stop being text: the line and
/// column of the first invalid byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotUtf8 {
    pub line: usize,
    pub column: usize,
}

/// `bytes` as text, or the position of the first byte that is not UTF-8.
pub fn utf8(bytes: Vec<u8>) -> Result<String, NotUtf8> {
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        // The prefix before `valid` is UTF-8 by definition.
        let text = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
        let (line, column) = line_column(text, valid);
        NotUtf8 { line, column }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_at_lf_crlf_and_a_lone_cr() {
        let text = "ab\ncd\r\nef\rgh";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 3), (2, 1));
        assert_eq!(line_column(text, 7), (3, 1));
        assert_eq!(line_column(text, 10), (4, 1));
        assert_eq!(line_column(text, text.len()), (4, 3));
        // The `\n` of a `\r\n` is on the line the `\r` ends.
        assert_eq!(line_column(text, 6), (2, 4));
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let text = "x\néé=1";
        let at = text.find('=').unwrap();
        assert_eq!(line_column(text, at), (2, 3));
        // Inside a character: counted from its first byte.
        assert_eq!(line_column(text, 3), (2, 1));
        assert_eq!(line_column(text, 99), (2, 5));
    }

    #[test]
    fn invalid_utf8_is_placed_at_its_first_byte() {
        assert_eq!(utf8(b"ok".to_vec()), Ok("ok".to_string()));
        assert_eq!(
            utf8(b"a\nb\xc3\xa9\xff".to_vec()),
            Err(NotUtf8 { line: 2, column: 3 })
        );
    }
}
