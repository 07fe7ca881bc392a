//! JSON string literals as Python's `ensure_ascii` encoder writes them: only
//! the printable ASCII characters other than `"` and `\` stand for themselves;
//! `"`, `\`, `\n`, `\r`, `\t`, `\b` and `\f` are escaped by name and every
//! other character as lowercase `\uXXXX` (UTF-16 units, so a surrogate pair
//! above U+FFFF). `/` is not escaped.

use super::Out;

/// Whether a byte is written as itself inside a string literal (printable
/// ASCII but `"` and `\`), as a table: the scan below looks at every byte
/// of every string twsrt prints.
static PLAIN: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = matches!(b, 0x20..=0x7e) && b != b'"' as usize && b != b'\\' as usize;
        b += 1;
    }
    table
};

/// Appends `s` as a JSON string literal the way Python's `ensure_ascii` encoder
/// writes it.
pub fn write_str<O: Out + ?Sized>(out: &mut O, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    write_escaped(out, s);
    out.push('"');
}

/// [`write_str`] of the concatenation of `parts`, without building it.
pub fn write_str_parts<O: Out + ?Sized>(out: &mut O, parts: &[&str]) {
    out.push('"');
    for part in parts {
        write_escaped(out, part);
    }
    out.push('"');
}

/// [`write_str`] without the quotes: the escaped characters of `s`, with the
/// runs of characters that stand for themselves copied in one piece. The
/// scan looks at bytes: every byte of a character outside ASCII is >= 0x80,
/// so a plain run ends exactly where a character needs an escape.
pub fn write_escaped<O: Out + ?Sized>(out: &mut O, s: &str) {
    if needs_no_escape(s) {
        out.push_str(s);
        return;
    }
    let mut rest = s;
    while let Some(at) = rest.bytes().position(|b| !PLAIN[usize::from(b)]) {
        out.push_str(&rest[..at]);
        // `at` is a char boundary: an ASCII byte or the lead byte of a
        // longer character, whose continuation bytes never start a run.
        let Some(c) = rest[at..].chars().next() else {
            break;
        };
        write_escape(out, c);
        rest = &rest[at + c.len_utf8()..];
    }
    out.push_str(rest);
}

/// Whether every byte of `s` stands for itself (most strings twsrt
/// prints): one pass without branches, which the compiler vectorises.
fn needs_no_escape(s: &str) -> bool {
    !s.bytes().fold(false, |escape, b| {
        escape | !(0x20..0x7f).contains(&b) | (b == b'"') | (b == b'\\')
    })
}

/// The escape of one character that does not stand for itself.
fn write_escape<O: Out + ?Sized>(out: &mut O, c: char) {
    let named = match c {
        '"' => "\\\"",
        '\\' => "\\\\",
        '\n' => "\\n",
        '\r' => "\\r",
        '\t' => "\\t",
        '\u{8}' => "\\b",
        '\u{c}' => "\\f",
        _ => {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                push_u_escape(out, *unit);
            }
            return;
        }
    };
    out.push_str(named);
}

fn push_u_escape<O: Out + ?Sized>(out: &mut O, unit: u16) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let digit = |shift: u16| char::from(HEX[usize::from((unit >> shift) & 0xf)]);
    out.push_str("\\u");
    for shift in [12, 8, 4, 0] {
        out.push(digit(shift));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quote(s: &str) -> String {
        let mut out = String::new();
        write_str(&mut out, s);
        out
    }

    #[test]
    fn string_escapes() {
        assert_eq!(quote(""), "\"\"");
        assert_eq!(quote("plain /path"), "\"plain /path\"");
        assert_eq!(quote("\"\\"), r#""\"\\""#);
        assert_eq!(quote("\n\r\t\u{8}\u{c}"), r#""\n\r\t\b\f""#);
        assert_eq!(
            quote("\u{0}\u{1}\u{b}\u{1f}\u{7f}"),
            r#""\u0000\u0001\u000b\u001f\u007f""#
        );
        assert_eq!(quote("é"), r#""\u00e9""#);
        assert_eq!(quote("\u{e9}x\u{4e2d}"), r#""\u00e9x\u4e2d""#);
        assert_eq!(quote("😀"), r#""\ud83d\ude00""#);
        assert_eq!(
            quote("\u{10ffff}\u{10000}"),
            r#""\udbff\udfff\ud800\udc00""#
        );
        assert_eq!(
            quote("\u{ffff}\u{feff}\u{2028}\u{85}"),
            r#""\uffff\ufeff\u2028\u0085""#
        );
        assert_eq!(quote("a😀b\"c"), r#""a\ud83d\ude00b\"c""#);
    }

    /// The escaping of one character, written the slow and obvious way.
    fn naive_escape(c: char) -> String {
        const NAMED: [(char, &str); 7] = [
            ('"', r#"\""#),
            ('\\', r"\\"),
            ('\n', r"\n"),
            ('\r', r"\r"),
            ('\t', r"\t"),
            ('\u{8}', r"\b"),
            ('\u{c}', r"\f"),
        ];
        if let Some((_, name)) = NAMED.iter().find(|(named, _)| *named == c) {
            return name.to_string();
        }
        if (' '..='~').contains(&c) {
            return c.to_string();
        }
        let mut units = [0u16; 2];
        c.encode_utf16(&mut units)
            .iter()
            .map(|u| format!("\\u{u:04x}"))
            .collect()
    }

    /// Every ASCII character and a few beyond, at every position of short
    /// and longer strings.
    fn sample_texts() -> Vec<String> {
        let mut specials: Vec<char> = (0u8..0x80).map(char::from).collect();
        specials.extend([
            '\u{80}',
            '\u{e9}',
            '\u{7ff}',
            '\u{800}',
            '\u{2028}',
            '\u{fffd}',
            '\u{10000}',
            '\u{1F600}',
        ]);
        let mut texts = Vec::new();
        for c in specials {
            for at in 0..18 {
                for len in [at, at + 1, at + 9, 24] {
                    let mut text: String = "a".repeat(at);
                    text.push(c);
                    text.push_str(&"b".repeat(len - at));
                    texts.push(text);
                }
            }
        }
        texts
    }

    #[test]
    fn escaping_matches_the_character_rules() {
        for text in sample_texts() {
            let expected: String = text.chars().map(naive_escape).collect();
            assert_eq!(quote(&text), format!("\"{expected}\""), "{text:?}");
        }
    }
}
