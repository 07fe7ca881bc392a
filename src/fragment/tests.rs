//! The fragment parser against the reference's messages and positions,
//! and against serde_json as an oracle.

use super::*;
use serde_json::json;
use std::path::PathBuf;

fn ok(text: &str) -> Value {
    let value = match parse(text, Path::new("f.jsonc")) {
        Ok(value) => value,
        Err(err) => panic!("{text:?} should parse, got: {err}"),
    };
    fast_agrees(text);
    value
}

/// The one-pass reader accepts nothing the full parser rejects, and what
/// it accepts it reads as the full parser does, key order included.
#[track_caller]
fn fast_agrees(text: &str) -> Option<Value> {
    let full = parse_inner(text, &strict_options(), &mut |_| {});
    let fast = fast::parse(text);
    if let Some(value) = &fast {
        let full = full.unwrap_or_else(|e| panic!("fast read {text:?}, full parser: {e:?}"));
        assert_eq!(value, &full, "values of {text:?}");
        assert_eq!(
            serde_json::to_string(value).unwrap(),
            serde_json::to_string(&full).unwrap(),
            "key order of {text:?}"
        );
    }
    fast
}

/// (line, column, message) of the error for `text`.
#[track_caller]
fn err(text: &str) -> (usize, usize, String) {
    assert_eq!(fast_agrees(text), None, "the fast reader accepted {text:?}");
    match parse(text, Path::new("f.jsonc")) {
        Ok(value) => panic!("{text:?} should fail, got {value}"),
        Err(Error::Jsonc {
            path,
            line,
            column,
            message,
        }) => {
            assert_eq!(path, PathBuf::from("f.jsonc"));
            (line, column, message)
        }
        Err(other) => panic!("wrong error variant: {other:?}"),
    }
}

#[track_caller]
fn err_at(text: &str, line: usize, column: usize, needle: &str) {
    let (l, c, message) = err(text);
    assert_eq!((l, c), (line, column), "position for {text:?} ({message})");
    assert!(
        message.contains(needle),
        "message for {text:?} is {message:?}, expected it to contain {needle:?}"
    );
}

fn number_text(v: &Value) -> &str {
    v.as_number().expect("a number").as_str()
}

#[test]
fn parses_plain_json_object() {
    let v = ok(r#"{"a": 1, "b": [true, false, null], "c": {"d": "e"}, "f": [], "g": {}}"#);
    assert_eq!(
        v,
        json!({"a": 1, "b": [true, false, null], "c": {"d": "e"}, "f": [], "g": {}})
    );
}

#[test]
fn keeps_key_order() {
    let v = ok(r#"{"z": 1, "a": 2, "m": {"y": 1, "b": 2}}"#);
    let keys: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, ["z", "a", "m"]);
    let inner: Vec<_> = v["m"].as_object().unwrap().keys().cloned().collect();
    assert_eq!(inner, ["y", "b"]);
}

#[test]
fn accepts_comments_everywhere() {
    let v = ok(
        "// head\n{/*x*/\"a\"/*y*/:/*z*/1/*w*/, // tail\n \"b\": [ /* in */ 2 // end\n ]}\n// after\n/* block\n more */",
    );
    assert_eq!(v, json!({"a": 1, "b": [2]}));
}

#[test]
fn comment_markers_inside_strings_are_text() {
    let v = ok(r#"{"a": "// not /* a comment */", "b": "*/", "u": "http://x/*"}"#);
    assert_eq!(v["a"], "// not /* a comment */");
    assert_eq!(v["b"], "*/");
    assert_eq!(v["u"], "http://x/*");
}

#[test]
fn crlf_and_lone_cr_line_endings() {
    assert_eq!(ok("{\r\n  // c\r\n  \"a\": 1\r\n}\r\n"), json!({"a": 1}));
    // A line comment ends at a lone CR too (reference accepts this file).
    assert_eq!(ok("{\r\"a\":1 // c\r,\"b\":2}"), json!({"a": 1, "b": 2}));
    // Reference: 3:1 for the trailing comma's closer after CRLF lines.
    err_at("{\r\n\"a\":1,\r\n}", 3, 1, "trailing comma");
    // Reference counts a lone CR as a line break: 3:6.
    err_at("{\r\"a\":1,\r\"b\": x}", 3, 6, "unexpected word");
}

#[test]
fn line_comment_ends_only_at_line_breaks() {
    // U+2028, U+0085 and form feed do not end a `//` comment (reference agrees).
    for sep in ["\u{2028}", "\u{85}", "\x0c"] {
        let text = format!("{{\"a\":1 // c{sep}, \"b\":2\n}}");
        assert_eq!(ok(&text), json!({"a": 1}), "{text:?}");
    }
}

#[test]
fn odd_characters_inside_comments_are_fine() {
    for c in ["\x0c", "\x0b", "\x1c", "\u{85}", "\u{2028}", "\u{feff}"] {
        let text = format!("{{/* {c} */\"a\":1}}");
        assert_eq!(ok(&text), json!({"a": 1}), "{text:?}");
    }
}

#[test]
fn numbers_keep_their_text() {
    let v = ok(
        r#"{"f": [0.1, 1e3, 1E-7, 1e16, 123456789012345678901234567890, -0, -0.0, 2.5E300, 8080, 8080.0, 1e-400]}"#,
    );
    let texts: Vec<_> = v["f"].as_array().unwrap().iter().map(number_text).collect();
    assert_eq!(
        texts,
        [
            "0.1",
            "1e+3",
            "1e-7",
            "1e+16",
            "123456789012345678901234567890",
            "-0",
            "-0.0",
            "2.5e+300",
            "8080",
            "8080.0",
            "1e-400"
        ]
    );
}

#[test]
fn string_escapes() {
    let v =
        ok(r#"{"a": "\u00e9\u00E9\/\"\\\b\f\n\r\t\u0000", "p": "\ud83d\ude00", "k\u00e9y": 1}"#);
    assert_eq!(v["a"], "\u{e9}\u{e9}/\"\\\u{8}\u{c}\n\r\t\u{0}");
    assert_eq!(v["p"], "\u{1F600}");
    assert_eq!(v["k\u{e9}y"], 1);
    // Raw non-ASCII and DEL are fine in strings.
    let v = ok("{\"a\": \"\u{e9}\u{1F600}\x7f\u{2028}\u{85}\"}");
    assert_eq!(v["a"], "\u{e9}\u{1F600}\x7f\u{2028}\u{85}");
}

#[test]
fn invalid_escapes() {
    // Reference: 1:8 (the backslash) for both.
    err_at(r#"{"a":"x\qy"}"#, 1, 8, "escape");
    err_at(r#"{"a":"x\'y"}"#, 1, 8, "escape");
    err_at(r#"{"a":"x\x41"}"#, 1, 8, "escape");
    err_at(r#"{"a":"x\v"}"#, 1, 8, "escape");
    err_at("{\"a\":\"x\\\ny\"}", 1, 8, "escape");
    // Reference: 1:9 (the `u`).
    err_at(r#"{"a":"x\u12zy"}"#, 1, 9, "four hex digits");
    // Reference: 1:14 (the second escape's `u`).
    err_at(r#"{"a":"\ud800\u12zz"}"#, 1, 14, "four hex digits");
    err_at(r#"{"a":"\ud800\uzzzz"}"#, 1, 14, "four hex digits");
}

#[test]
fn lone_surrogates_are_rejected() {
    // Deliberate divergence: the reference accepts these.
    err_at(r#"{"a":"\ud800"}"#, 1, 7, "surrogate");
    err_at(r#"{"a":"\udc00x"}"#, 1, 7, "surrogate");
    err_at(r#"{"a":"\ud800\u0041"}"#, 1, 7, "surrogate");
}

#[test]
fn raw_control_characters_in_strings() {
    // Reference: 1:8 for each.
    err_at("{\"a\":\"x\x01y\"}", 1, 8, "control character U+0001");
    err_at("{\"a\":\"x\ty\"}", 1, 8, "control character U+0009");
    err_at("{\"a\":\"x\ny\"}", 1, 8, "control character U+000A");
    err_at("{\"x\x1f\":1}", 1, 4, "control character");
    // Inside an unterminated string the control character comes first
    // (reference: 2:10 and 1:10).
    err_at("{\n\"a\":\"abc,\n\"b\":1}", 2, 10, "control character");
    err_at("{\"a\":\"abc\x01", 1, 10, "control character");
    // A control character after an earlier syntax error: the syntax error wins.
    err_at("{\"a\" 1, \"b\": \"\x01\"}", 1, 6, "':'");
    // A syntax error after the control character: the control character wins.
    err_at("{\"b\": \"\x01\", \"a\" 1}", 1, 8, "control character");
}

#[test]
fn non_json_whitespace_is_rejected() {
    // Reference: 1:8 for all three.
    err_at("{\"a\":1,\x0b\"b\":2}", 1, 8, "U+000B");
    err_at("{\"a\":1,\x0c\"b\":2}", 1, 8, "U+000C");
    err_at("{\"a\":1,\u{a0}\"b\":2}", 1, 8, "U+00A0");
    err_at("{\"a\":1,\u{2028}\"b\":2}", 1, 8, "U+2028");
}

#[test]
fn one_leading_bom_is_skipped_and_a_second_is_rejected() {
    // The reference refused the first one too (1:1, "Unexpected UTF-8 BOM").
    assert_eq!(ok("\u{feff}{\"a\":1}"), json!({"a": 1}));
    err_at("\u{feff}\u{feff}{\"a\":1}", 1, 1, "byte order mark");
    err_at("\u{feff}{\"a\":1,}", 1, 8, "trailing comma");
}

#[test]
fn trailing_commas() {
    // Reference: 1:8, the position of the `}`.
    err_at(r#"{"a":1,}"#, 1, 8, "trailing comma");
    // Reference: 1:12, the `]`.
    err_at(r#"{"a":[1,2, ]}"#, 1, 12, "trailing comma");
    // Reference: 1:18 / 2:3 / 3:3: comments are blanks.
    err_at(r#"{"a":1, /* cc */ }"#, 1, 18, "trailing comma");
    err_at("{\"a\":1, // x\n  }", 2, 3, "trailing comma");
    err_at("{\"a\":1,/*\n\n*/}", 3, 3, "trailing comma");
    err_at("{\"a\":1,/*\n\n*/\n  }", 4, 3, "trailing comma");
    // Reference: 1:19 (columns count characters, not bytes).
    err_at(
        "{\"\u{e9}\u{1F600}\":\"\u{fc}\", \"b\": 1,}",
        1,
        19,
        "trailing comma",
    );
}

#[test]
fn duplicate_keys() {
    err_at("{\"a\":1,\n \"a\":2}", 2, 2, "duplicate key \"a\"");
    err_at(
        r#"{"o": {"k": 1, "j": 2, "k": 3}}"#,
        1,
        24,
        "duplicate key \"k\"",
    );
    // Same key in different objects is fine.
    assert_eq!(
        ok(r#"{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}"#)["b"][1]["a"],
        2
    );
    // Keys equal after unescaping are duplicates.
    err_at(r#"{"é": 1, "\u00e9": 2}"#, 1, 10, "duplicate key");
}

#[test]
fn non_finite_numbers() {
    for (text, word) in [
        (r#"{"a":NaN}"#, "NaN"),
        (r#"{"a":Infinity}"#, "Infinity"),
        (r#"{"a":-Infinity}"#, "-Infinity"),
    ] {
        err_at(text, 1, 6, &format!("'{word}'"));
    }
}

#[test]
fn number_syntax_errors() {
    // Positions recorded from the reference.
    err_at(r#"{"a":0x10}"#, 1, 7, "hexadecimal");
    err_at(r#"{"a":-0x1}"#, 1, 8, "hexadecimal");
    err_at(r#"{"a":+1}"#, 1, 6, "'+'");
    err_at(r#"{"a":.5}"#, 1, 6, "decimal point");
    err_at(r#"{"a":5.}"#, 1, 7, "decimal point");
    err_at(r#"{"a":-}"#, 1, 6, "'-'");
    err_at(r#"{"a":1e}"#, 1, 7, "exponent");
    err_at(r#"{"a":01}"#, 1, 7, "comma");
    err_at(r#"{"a":-.5}"#, 1, 6, "decimal point");
    err_at(r#"{"a":1e+}"#, 1, 7, "exponent");
}

#[test]
fn float_overflow_is_rejected() {
    // The reference fails with a traceback when writing these.
    err_at(r#"{"a":1e400}"#, 1, 6, "out of range");
    err_at(r#"{"a": [-1.5e309]}"#, 1, 8, "out of range");
    // Underflow is fine: 0.0 in Python too.
    assert_eq!(number_text(&ok(r#"{"a":1e-400}"#)["a"]), "1e-400");
}

#[test]
fn integer_digit_limit() {
    let at_limit = format!("{{\"a\":1{}}}", "0".repeat(MAX_INT_DIGITS - 1));
    assert_eq!(number_text(&ok(&at_limit)["a"]).len(), MAX_INT_DIGITS);
    let negative = format!("{{\"a\":-1{}}}", "0".repeat(MAX_INT_DIGITS - 1));
    ok(&negative);
    let over = format!("{{\"a\":1{}}}", "0".repeat(MAX_INT_DIGITS));
    err_at(&over, 1, 6, "4301 digits");
    // Big integers below the limit are kept in full.
    let v = ok(r#"{"a":123456789012345678901234567890123456789012345678901234567890}"#);
    assert_eq!(
        number_text(&v["a"]),
        "123456789012345678901234567890123456789012345678901234567890"
    );
    // Long floats are not limited.
    let long_float = format!("{{\"a\":1.{}}}", "0".repeat(MAX_INT_DIGITS + 10));
    ok(&long_float);
}

#[test]
fn structural_errors() {
    // Positions recorded from the reference.
    err_at(r#"{a:1}"#, 1, 2, "double quotes");
    err_at(r#"{"a":'x'}"#, 1, 6, "double quotes");
    err_at(r#"{"a" 1}"#, 1, 6, "':'");
    err_at(r#"{"a":1 "b":2}"#, 1, 8, "comma");
    err_at(r#"{"a":1 /*c*/ "b":2}"#, 1, 14, "comma");
    err_at(r#"{"a":1"#, 1, 7, "not closed");
    err_at(r#"{"a":1 // c"#, 1, 12, "not closed");
    err_at(r#"{"a":[1,"#, 1, 9, "not closed");
    err_at(r#"{} {}"#, 1, 4, "after the top-level value");
    err_at(r#"{"a":1} /"#, 1, 9, "'/'");
    err_at(r#"{"a":1 /* a /* b */ */}"#, 1, 21, "'*'");
    err_at(r#"{"a":truex}"#, 1, 10, "after 'true'");
    err_at(r#"{"a":"abc}"#, 1, 6, "unterminated string");
    err_at(r#"{"a": }"#, 1, 7, "'}'");
    err_at(r#"{"a":"#, 1, 6, "value");
    err_at(r#"{"a": [1 2]}"#, 1, 10, "comma");
    err_at(r#"{"a": tru}"#, 1, 7, "unexpected word");
    err_at(r#"{"a": yes, "b": 1}"#, 1, 7, "unexpected word 'yes'");
    err_at(r#"{"a": [nullx, 1]}"#, 1, 12, "after 'null'");
    err_at(r#"{"a": [NaN, 1]}"#, 1, 8, "'NaN'");
    err_at("{\"a\": @}", 1, 7, "'@'");
}

#[test]
fn unterminated_block_comment() {
    // Reference: 1:9, "unterminated block comment".
    err_at(r#"{"a":1} /* abc"#, 1, 9, "unterminated block comment");
    err_at("/* abc", 1, 1, "unterminated block comment");
}

#[test]
fn root_must_be_an_object() {
    for text in ["[1]", "\"x\"", "1", "true", "null", "  // c\n [ ]"] {
        let (_, _, message) = err(text);
        assert!(message.contains("top-level"), "{text:?}: {message}");
    }
    err_at("\n  [1]", 2, 3, "top-level");
}

#[test]
fn empty_inputs() {
    // Reference: 1:1, 3:1 and 2:3 (the end of the file).
    err_at("", 1, 1, "empty");
    err_at("// hi\n/* x */\n", 3, 1, "only comments");
    err_at("  \n  ", 2, 3, "empty");
}

#[test]
fn nesting_is_limited_without_overflowing() {
    let deep = format!("{{\"a\":{}{}}}", "[".repeat(5000), "]".repeat(5000));
    let (_, _, message) = err(&deep);
    assert!(message.contains("nested too deeply"), "{message}");
    let fine = format!("{{\"a\":{}{}}}", "[".repeat(200), "]".repeat(200));
    ok(&fine);
}

#[test]
fn error_display_has_path_line_and_column() {
    let err = parse("{\"a\":1,}", Path::new("/x/y.jsonc")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "/x/y.jsonc:1:8: trailing comma is not allowed"
    );
}

#[test]
fn large_object_is_linear() {
    // 64,000 keys plus a duplicate at the end: quick, and the duplicate is found.
    let mut text = String::from("{");
    for i in 0..64_000 {
        text.push_str(&format!("\"key{i}\": [\"v{i}\", {i}],\n"));
    }
    text.push_str("\"last\": 1}");
    let v = ok(&text);
    assert_eq!(v.as_object().unwrap().len(), 64_001);
    let dup = text.replace("\"last\"", "\"key17\"");
    let (line, _, message) = err(&dup);
    assert_eq!(line, 64_001);
    assert!(message.contains("key17"));
}

/// serde_json as an oracle for text without comments: what this parser
/// accepts, serde_json accepts with the same value; what serde_json accepts
/// as an object, this parser accepts too unless it is one of the
/// documented extra rejections (duplicate keys, numbers Python cannot hold).
/// The oracle is given the text without the one leading byte order mark
/// this parser skips.
#[track_caller]
fn agree(text: &str) {
    fast_agrees(text);
    let text = crate::bom::strip(text);
    if text.contains('/') {
        return;
    }
    let ours = parse(text, Path::new("f.jsonc"));
    let theirs = serde_json::from_str::<Value>(text)
        .ok()
        .filter(Value::is_object);
    match (ours, theirs) {
        (Ok(ours), Some(theirs)) => assert_eq!(
            serde_json::to_string(&ours).unwrap(),
            serde_json::to_string(&theirs).unwrap(),
            "{text:?}"
        ),
        (Ok(ours), None) => panic!("{text:?} parsed as {ours}, serde_json refuses it"),
        (Err(err), Some(_)) => {
            let message = err.to_string();
            assert!(
                ["duplicate key", "out of range", "digits"]
                    .iter()
                    .any(|why| message.contains(why)),
                "{text:?} refused: {message}"
            );
        }
        (Err(_), None) => {}
    }
}

use crate::test_rng::Rng;

const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    ",",
    ":",
    "\"a\"",
    "\"b\"",
    "\"a\"",
    "\"\"",
    "\"\\u00e9\"",
    "\"\\ud83d\\ude00\"",
    "\"\\ud800\"",
    "\"\\udc00\"",
    "\"\\ud800\\u0041\"",
    "\"x\\\"y\"",
    "\"\\/\\b\\f\\n\\r\\t\\\\\"",
    "\"\\q\"",
    "\"\\u12\"",
    "\"\\u00E9\"",
    "\"\u{e9}\u{1F600}\"",
    "\"\x01\"",
    "\"\t\"",
    "\"\x7f\"",
    "\"",
    "\\",
    "0",
    "1",
    "-0",
    "-",
    "1.5",
    "1.",
    ".5",
    "01",
    "1e5",
    "1E+2",
    "1e-400",
    "1e400",
    "-1.5e309",
    "0x10",
    "+1",
    "12345678901234567890",
    "true",
    "false",
    "null",
    "truex",
    "nul",
    "NaN",
    "Infinity",
    " ",
    "\n",
    "\r",
    "\r\n",
    "\t",
    "\x0b",
    "\x0c",
    "\u{a0}",
    "\u{2028}",
    "\u{feff}",
    "// c\n",
    "// c",
    "//c\r",
    "/* c */",
    "/* c",
    "/*/",
    "/",
    "*/",
    "@",
    "'x'",
    "x",
    "\u{e9}",
];

#[test]
fn token_soup_is_judged_like_serde_json() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut accepted = 0;
    for _ in 0..60_000 {
        let len = 1 + rng.next() % 14;
        let mut text = String::from(if rng.next().is_multiple_of(4) {
            ""
        } else {
            "{"
        });
        for _ in 0..len {
            text.push_str(rng.pick(TOKENS));
        }
        if !rng.next().is_multiple_of(3) {
            text.push('}');
        }
        if parse(&text, Path::new("f.jsonc")).is_ok() {
            accepted += 1;
        }
        agree(&text);
    }
    assert!(accepted > 100, "only {accepted} inputs were accepted");
}

/// Valid documents with blanks and comments sprinkled between tokens, then
/// single-byte mutations of them.
#[test]
fn mutated_documents_are_judged_like_serde_json() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    const BLANKS: &[&str] = &[
        "", "", " ", "\n  ", "\r\n", "\t", "/* c */", "// c\n", "//\r",
    ];
    const SCALARS: &[&str] = &[
        "1",
        "-0",
        "0.25",
        "1e-7",
        "2.5E300",
        "\"s\"",
        "\"\\u00e9\\n\"",
        "true",
        "false",
        "null",
        "\"~/.ssh\"",
        "\"\\ud83d\\ude00\"",
        "[]",
        "{}",
    ];
    fn doc(rng: &mut Rng, depth: u32, out: &mut String) {
        let blank = |rng: &mut Rng, out: &mut String| out.push_str(rng.pick(BLANKS));
        match rng.next() % if depth > 3 { 1 } else { 3 } {
            0 => out.push_str(rng.pick(SCALARS)),
            1 => {
                out.push('[');
                let n = rng.next() % 4;
                for i in 0..n {
                    if i > 0 {
                        out.push(',');
                    }
                    blank(rng, out);
                    doc(rng, depth + 1, out);
                    blank(rng, out);
                }
                out.push(']');
            }
            _ => {
                out.push('{');
                let n = rng.next() % 4;
                for i in 0..n {
                    if i > 0 {
                        out.push(',');
                    }
                    blank(rng, out);
                    out.push_str(&format!("\"k{i}\""));
                    blank(rng, out);
                    out.push(':');
                    blank(rng, out);
                    doc(rng, depth + 1, out);
                    blank(rng, out);
                }
                out.push('}');
            }
        }
    }
    let noise: &[u8] = b"{}[]:,\"\\/*\n\r\t 0-.eE+ax\x01\x0b";
    for _ in 0..4_000 {
        let mut text = String::from("{\"root\":");
        doc(&mut rng, 0, &mut text);
        text.push('}');
        assert!(parse(&text, Path::new("f.jsonc")).is_ok(), "{text:?}");
        for _ in 0..8 {
            let mut bytes = text.clone().into_bytes();
            let at = (rng.next() % bytes.len() as u64) as usize;
            let b = noise[(rng.next() % noise.len() as u64) as usize];
            match rng.next() % 3 {
                0 => bytes[at] = b,
                1 => bytes.insert(at, b),
                _ => {
                    bytes.remove(at);
                }
            }
            if let Ok(mutated) = String::from_utf8(bytes) {
                agree(&mutated);
            }
        }
    }
}

#[test]
fn every_shipped_fragment_parses() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    let mut stack = vec![root.join("example"), root.join("src"), root.join("tests")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "jsonc") {
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                // Parity scenarios hold broken fragments on purpose; the
                // example policy must parse, and nothing may panic.
                let parsed = parse(&text, &path);
                if path.starts_with(root.join("example")) {
                    assert!(parsed.is_ok(), "{}: {parsed:?}", path.display());
                }
                agree(&text);
                seen += 1;
            }
        }
    }
    assert!(seen > 10, "found only {seen} fragments");
}

#[test]
fn trailing_commas_are_accepted_only_where_asked_for() {
    let text = "{\n  // c\n  \"a\": [1, 2,],\n  \"b\": {\"c\": true,},\n}\n";
    let path = std::path::Path::new("x.json");
    assert!(super::parse(text, path).is_err());
    let value = super::parse_trailing_commas(text, path).unwrap();
    assert_eq!(value, serde_json::json!({"a": [1, 2], "b": {"c": true}}));
    // Everything else stays strict: a missing comma is still an error.
    assert!(super::parse_trailing_commas("{\"a\": 1 \"b\": 2}", path).is_err());
}

#[test]
fn the_one_pass_reader_takes_everyday_fragments_as_the_full_parser_does() {
    let taken = [
        "{}",
        " \t\r\n{ } // end",
        "/* a */{/* b */\"k\"/* c */:/* d */[1, -0, 0.5, -1.25e+3, 2E-2, 10e5]/* e */}/* f */",
        r#"{"a": {"b": [true, false, null, {"c": []}]}, "d": "x"}"#,
        r#"{"esc": "\" \\ \/ \b \f \n \r \t \u00e9 \u00E9 \ud83d\ude00 \u0000", "ü": "ß→😀"}"#,
        "{\"a\": 1, // x /* not a block\r\"b\": 2}",
        r#"{"k": "/* not a comment */ // nor this"}"#,
        r#"{"big": 123456789012345678901234567890, "f": 1.0000000000000000001}"#,
    ];
    for text in taken {
        assert!(fast_agrees(text).is_some(), "not taken: {text:?}");
    }
    for dir in ["example/srt", "example/bash"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        for entry in std::fs::read_dir(&dir).unwrap() {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            assert!(fast_agrees(&text).is_some(), "not taken: {text}");
        }
    }
    // Left to the full parser, which accepts or rejects them itself.
    let left = [
        "{\"a\": 01}",
        "{\"a\": 1.}",
        "{\"a\": .5}",
        "{\"a\": +1}",
        "{\"a\": 1e}",
        "{\"a\": [1,]}",
        "{\"a\": 1,}",
        "{\"a\": 1 \"b\": 2}",
        "{\"a\": 1, \"a\": 2}",
        "{\"a\": \"\\ud800\"}",
        "{\"a\": \"\\udc00x\"}",
        "{\"a\": \"\\ud800\\u0041\"}",
        "{\"a\": \"\\x41\"}",
        "{\"a\": \"tab\there\"}",
        "{\"a\": tru}",
        "{\"a\": 1e400}",
        "\u{feff}{}",
        "{}\u{a0}",
        "{} /* open",
        "{} / x",
        "[]",
        "{} {}",
        "{\"a\": 1",
    ];
    for text in left {
        assert_eq!(fast_agrees(text), None, "taken: {text:?}");
    }
    let deep = format!("{{\"a\": {}1{}}}", "[".repeat(70), "]".repeat(70));
    assert_eq!(fast_agrees(&deep), None);
    assert!(parse(&deep, Path::new("f.jsonc")).is_ok());
}
