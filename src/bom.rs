//! The UTF-8 byte order mark a JSON file may start with. Editors on
//! Windows write one, and the agents' own readers skip it (Claude Code
//! loads such a settings file and its denies hold), so every JSON and JSONC
//! file twsrt reads is read without it, and a file twsrt rewrites keeps it.

use std::path::Path;

/// The UTF-8 byte order mark.
pub const BOM: &str = "\u{feff}";

/// `text` without one leading byte order mark.
pub fn strip(text: &str) -> &str {
    text.strip_prefix(BOM).unwrap_or(text)
}

/// `bytes` without one leading byte order mark.
pub fn strip_bytes(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(BOM.as_bytes()).unwrap_or(bytes)
}

/// Whether the file at `path` starts with a byte order mark. No file, or
/// one that cannot be read, is `false`.
pub fn starts_file(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 3];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| head == *BOM.as_bytes())
}

/// The mark to write before a rewrite of the file at `path`: the mark when
/// the file has one, else nothing.
pub fn kept_for(path: &Path) -> &'static str {
    if starts_file(path) { BOM } else { "" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_leading_mark_goes_and_nothing_else() {
        assert_eq!(strip("\u{feff}{}"), "{}");
        assert_eq!(strip("{}"), "{}");
        assert_eq!(strip("\u{feff}\u{feff}{}"), "\u{feff}{}");
        assert_eq!(strip("{\"a\":\"\u{feff}\"}"), "{\"a\":\"\u{feff}\"}");
        assert_eq!(strip_bytes(b"\xef\xbb\xbf[]"), b"[]");
    }

    #[test]
    fn a_rewrite_keeps_the_mark_of_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let with = dir.path().join("a.json");
        let without = dir.path().join("b.json");
        std::fs::write(&with, "\u{feff}{}").unwrap();
        std::fs::write(&without, "{}").unwrap();
        assert_eq!(kept_for(&with), BOM);
        assert_eq!(kept_for(&without), "");
        assert_eq!(kept_for(&dir.path().join("none.json")), "");
    }
}
