//! The regex texts, exactly. Whether Gemini's engine matches them as meant
//! is checked against the real engine by tests/clients/gemini_match.mjs.

use std::path::Path;

use super::*;

const HOME: &str = "/home/u";

fn anchored(pattern: &str) -> Option<Anchor> {
    anchor(pattern, Path::new(HOME)).unwrap()
}

#[test]
fn home_paths_are_expanded_and_spelled_as_gemini_sees_them() {
    let abs = |p: &str| Some(Anchor::Absolute(p.to_string()));
    assert_eq!(anchored("~/.ssh"), abs("/home/u/.ssh"));
    assert_eq!(anchored("~"), abs("/home/u"));
    assert_eq!(anchored("~/.aws/"), abs("/home/u/.aws"));
    assert_eq!(anchored("~/.kube/**"), abs("/home/u/.kube"));
    assert_eq!(anchored("/etc//./shadow"), abs("/etc/shadow"));
    assert_eq!(anchored("/"), abs("/"));
    assert_eq!(anchored("~bob/.ssh"), None);
}

#[test]
fn relative_paths_are_matched_at_any_depth() {
    let any = |p: &str| Some(Anchor::AnyDepth(p.to_string()));
    assert_eq!(anchored(".env"), any(".env"));
    assert_eq!(anchored("./secrets/x"), any("secrets/x"));
    assert_eq!(anchored("**/.env"), any(".env"));
    assert_eq!(anchored("**/*.pem"), any("*.pem"));
    assert_eq!(anchored("."), any(""));
}

#[test]
fn a_home_that_is_not_utf8_is_an_error_naming_the_rule() {
    use std::os::unix::ffi::OsStrExt;
    let home = Path::new(std::ffi::OsStr::from_bytes(b"/home/\xff"));
    let err = anchor("~/.ssh", home).unwrap_err().to_string();
    assert!(
        err.contains("not valid UTF-8") && err.contains("'~/.ssh'"),
        "{err}"
    );
    assert!(anchor("/etc/x", home).is_ok());
}

#[test]
fn an_absolute_path_is_matched_from_the_start_of_the_value() {
    let a = Anchor::Absolute("/home/u/.ssh".into());
    assert_eq!(
        path_pattern(&a, &["file_path"]),
        r#"\x00"file_path":[^\x00]*"/home/u/\.ssh[/"]"#
    );
    assert_eq!(
        path_pattern(&a, &["file_path", "include", "dir_path"]),
        r#"\x00"(?:file_path|include|dir_path)":[^\x00]*"/home/u/\.ssh[/"]"#
    );
    let root = Anchor::Absolute("/".into());
    assert_eq!(
        path_pattern(&root, &["file_path"]),
        r#"\x00"file_path":[^\x00]*"/"#
    );
}

#[test]
fn a_relative_path_is_matched_at_a_value_start_or_after_a_slash() {
    let a = Anchor::AnyDepth(".env".into());
    assert_eq!(
        path_pattern(&a, &["file_path"]),
        r#"\x00"file_path":[^\x00]*["/]\.env[/"]"#
    );
    let everything = Anchor::AnyDepth(String::new());
    assert_eq!(
        path_pattern(&everything, &["file_path"]),
        r#"\x00"file_path":[^\x00]*"#
    );
}

#[test]
fn globs_become_classes_that_never_narrow() {
    let g = |p: &str| path_pattern(&Anchor::Absolute(p.into()), &["k"]);
    assert_eq!(
        g("/h/.config/*/token"),
        r#"\x00"k":[^\x00]*"/h/\.config/[^/\x00]*/token[/"]"#
    );
    assert_eq!(g("/h/a?b"), r#"\x00"k":[^\x00]*"/h/a[^/\x00]b[/"]"#);
    assert_eq!(g("/h/[ab]c"), r#"\x00"k":[^\x00]*"/h/[^/\x00]c[/"]"#);
    assert_eq!(g("/h/[!]x]c"), r#"\x00"k":[^\x00]*"/h/[^/\x00]c[/"]"#);
    // An unclosed bracket is a literal.
    assert_eq!(g("/h/[x"), r#"\x00"k":[^\x00]*"/h/\[x[/"]"#);
    assert_eq!(g("/h/**/x"), r#"\x00"k":[^\x00]*"/h/(?:|[^\x00]*/)x[/"]"#);
    assert_eq!(g("/h/a**b"), r#"\x00"k":[^\x00]*"/h/a[^\x00]*b[/"]"#);
}

#[test]
fn literal_text_is_escaped_for_json_then_for_the_regex() {
    let g = |p: &str| path_pattern(&Anchor::Absolute(p.into()), &["k"]);
    // A quote is \" in JSON, a backslash \\; each regex-escaped again.
    assert_eq!(g("/a\"b"), r#"\x00"k":[^\x00]*"/a\\"b[/"]"#);
    assert_eq!(g("/a\\b"), r#"\x00"k":[^\x00]*"/a\\\\b[/"]"#);
    assert_eq!(g("/a\nb"), r#"\x00"k":[^\x00]*"/a\\nb[/"]"#);
    assert_eq!(g("/a\u{1}b"), r#"\x00"k":[^\x00]*"/a\\u0001b[/"]"#);
    assert_eq!(
        g("/(x)+{1}|$^.é"),
        r#"\x00"k":[^\x00]*"/\(x\)\+\{1\}\|\$\^\.é[/"]"#
    );
}

#[test]
fn hosts_are_plain_names_or_one_leading_wildcard() {
    assert_eq!(host("evil.com"), Some(Host::Exact("evil.com")));
    assert_eq!(host("*.evil.com"), Some(Host::Subdomains("evil.com")));
    assert_eq!(host("a_b-c.d9"), Some(Host::Exact("a_b-c.d9")));
    for odd in [
        "",
        "*",
        "*.",
        "a.*.com",
        "evil.com:443",
        "evil.com/x",
        "[::1]",
        ".x",
        "x.",
        "a..b",
        "ex ample.com",
        "bücher.de",
    ] {
        assert_eq!(host(odd), None, "{odd}");
    }
}

#[test]
fn a_host_matches_in_either_case_after_the_scheme_or_a_userinfo() {
    assert_eq!(
        fetch_pattern(Host::Exact("ev-1.io")),
        r#"\x00"prompt":[^\x00]*(?://|@)[eE][vV]-1\.[iI][oO]\.?[:/?#\s"\\]"#
    );
    assert_eq!(
        fetch_pattern(Host::Subdomains("x.io")),
        r#"\x00"prompt":[^\x00]*(?://|@)[^/?#@\s"\\\x00]*\.[xX]\.[iI][oO]\.?[:/?#\s"\\]"#
    );
}

#[test]
fn an_a_label_host_matches_in_its_unicode_spelling_too() {
    assert_eq!(
        fetch_pattern(Host::Exact("xn--bcher-kva.io")),
        r#"\x00"prompt":[^\x00]*(?://|@)(?:[xX][nN]--[bB][cC][hH][eE][rR]-[kK][vV][aA]\.[iI][oO]|[bB][üÜ][cC][hH][eE][rR]\.[iI][oO])\.?[:/?#\s"\\]"#
    );
    assert!(gemini_accepts(&fetch_pattern(Host::Subdomains(
        "xn--bcher-kva.io"
    ))));
    // An `xn--` label that is no A-label stays as written.
    assert_eq!(
        fetch_pattern(Host::Exact("xn--.io")).matches("(?:").count(),
        1
    );
}

/// Gemini's check as the regex it is, tried at every position the slow way.
fn nested_quantifier_oracle(p: &str) -> bool {
    let b = p.as_bytes();
    let q = |c: u8| matches!(c, b'*' | b'+' | b'?' | b'{');
    for open in 0..b.len() {
        if b[open] != b'(' {
            continue;
        }
        for mid in open + 1..b.len() {
            if b[mid] == b')' {
                break;
            }
            if !q(b[mid]) {
                continue;
            }
            for close in mid + 1..b.len().saturating_sub(1) {
                if b[close] == b')' && q(b[close + 1]) {
                    return true;
                }
            }
        }
    }
    false
}

#[test]
fn the_redos_check_is_the_one_gemini_applies() {
    for (p, rejected) in [
        ("(?:x)?", true),
        ("(a+)+", true),
        ("(a)+", false),
        ("(?:a|b)", false),
        ("(?:a|b)x(c)*", true),
        ("(ab)*", false),
        (r"\x00(?:|[^\x00]*/)x[/]", false),
        ("a*)+", false),
        ("(a*", false),
    ] {
        assert_eq!(nested_quantifier(p), rejected, "{p}");
        assert_eq!(nested_quantifier_oracle(p), rejected, "{p}");
    }
    let pieces = ["(", ")", "?", "*", "a", "{", "|", "[", "]"];
    for a in pieces {
        for b in pieces {
            for c in pieces {
                for d in pieces {
                    let p = format!("{a}{b}{c}{d}");
                    assert_eq!(nested_quantifier(&p), nested_quantifier_oracle(&p), "{p}");
                }
            }
        }
    }
}

#[test]
fn every_pattern_built_passes_the_redos_check() {
    let odd = [
        "/h/(x)*",
        "/h/a)+b",
        "/h/**/x/**/y",
        "/h/[x]*",
        "/h/?*",
        "/h/{a,b}",
        "/(((",
        "/)))*",
    ];
    for p in odd {
        for anchor in [Anchor::Absolute(p.into()), Anchor::AnyDepth(p[1..].into())] {
            let regex = path_pattern(&anchor, &["file_path", "dir_path"]);
            assert!(gemini_accepts(&regex), "{p}: {regex}");
        }
    }
    assert!(gemini_accepts(&fetch_pattern(Host::Subdomains("a.b"))));
}

#[test]
fn a_pattern_over_2048_characters_is_not_accepted() {
    assert!(gemini_accepts(&"a".repeat(MAX_PATTERN_LEN)));
    assert!(!gemini_accepts(&"a".repeat(MAX_PATTERN_LEN + 1)));
}

#[test]
fn the_length_is_counted_as_javascript_counts_it() {
    // 'é' is two bytes and one UTF-16 unit; '😀' four bytes and two units.
    assert!(gemini_accepts(&"é".repeat(MAX_PATTERN_LEN)));
    assert!(!gemini_accepts(&"😀".repeat(MAX_PATTERN_LEN / 2 + 1)));
}
