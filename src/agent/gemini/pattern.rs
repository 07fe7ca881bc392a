//! The `argsPattern` regexes of the Gemini rules, built the way Gemini CLI
//! (0.61.0) matches them. Facts from its bundle (see
//! doc/clients.md "Gemini CLI"):
//!
//! - the arguments are serialised by `stableStringify` (keys sorted, every
//!   top-level `"key":value` pair wrapped in NUL characters, values as
//!   `JSON.stringify` writes them), and `argsPattern` is a JavaScript
//!   `RegExp` without flags tested anywhere in that text;
//! - `isSafeRegExp` drops (with an error) a pattern over 2048 characters or
//!   one that the text `\([^)]*[*+?{].*\)[*+?{]` matches: a group followed
//!   by a quantifier, even `(?:x)?`. No pattern here quantifies a group.
//!
//! A value is matched at the start of its key's pair (`\x00"key":`), so a
//! path in another argument (a file's content) never matches. Over-matching
//! only ever denies more: globs and relative patterns are widened rather
//! than narrowed wherever the two differ.

use std::path::Path;

use crate::error::{Error, Result};

/// Gemini drops longer patterns (`isSafeRegExp`), counted in UTF-16 units.
pub const MAX_PATTERN_LEN: usize = 2048;

/// Any run of characters inside one top-level argument.
const IN_ARGUMENT: &str = r"[^\x00]*";
/// Any run of characters inside one path segment.
const IN_SEGMENT: &str = r"[^/\x00]*";
/// One character inside a path segment.
const ONE_IN_SEGMENT: &str = r"[^/\x00]";

/// `text` as `JSON.stringify` writes it, without the quotes: the spelling
/// of a string value in the serialised arguments.
fn json_inner(text: &str) -> String {
    let quoted = serde_json::Value::String(text.to_string()).to_string();
    quoted[1..quoted.len() - 1].to_string()
}

/// `text` as a regex that matches it literally.
pub fn literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for c in text.chars() {
        if "\\^$.|?*+()[]{}".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `text` as a regex for its JSON spelling.
fn json_literal(text: &str) -> String {
    literal(&json_inner(text))
}

/// The start of a top-level argument named by one of `keys`, up to its
/// value (`\x00"file_path":` then anything in that argument).
fn argument_start(keys: &[&str]) -> String {
    let names = keys.iter().map(|k| literal(k)).collect::<Vec<_>>();
    let names = if names.len() == 1 {
        names[0].clone()
    } else {
        format!("(?:{})", names.join("|"))
    };
    format!(r#"\x00"{names}":{IN_ARGUMENT}"#)
}

/// Where a path pattern is anchored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Anchor {
    /// An absolute path (`~` already expanded): the value starts with it.
    Absolute(String),
    /// Relative to the working directory, which twsrt cannot know: matched
    /// at the start of a value or after any `/`, at any depth.
    AnyDepth(String),
}

/// A policy path as Gemini will see it: `~` and `~/` expanded to `home`,
/// `.` segments, repeated and trailing slashes and a final `/**` dropped
/// (a denied directory covers what is under it). `None` for `~user`, whose
/// home twsrt does not resolve for Gemini.
pub fn anchor(pattern: &str, home: &Path) -> Result<Option<Anchor>> {
    let expanded = if pattern == "~" || pattern.starts_with("~/") {
        let home = home.to_str().ok_or_else(|| {
            Error::Policy(format!(
                "the home directory {} is not valid UTF-8, so the Gemini rule for {} cannot \
                 spell it",
                home.display(),
                crate::source::quoted(pattern)
            ))
        })?;
        format!("{home}{}", &pattern[1..])
    } else if pattern.starts_with('~') {
        return Ok(None);
    } else {
        pattern.to_string()
    };
    let absolute = expanded.starts_with('/');
    let mut parts: Vec<&str> = expanded
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    if parts.last() == Some(&"**") {
        parts.pop();
    }
    if absolute {
        return Ok(Some(Anchor::Absolute(format!("/{}", parts.join("/")))));
    }
    // A leading `**/` says "at any depth", which relative patterns get anyway.
    while parts.first() == Some(&"**") {
        parts.remove(0);
    }
    Ok(Some(Anchor::AnyDepth(parts.join("/"))))
}

/// A glob (or plain path) as a regex over its JSON spelling: `**` any run,
/// `*` a run inside one segment, `?` and a bracket expression one character
/// there (a class is widened to any character: a deny only grows).
fn glob(text: &str) -> String {
    let mut out = String::new();
    let mut literal_run = String::new();
    let flush = |out: &mut String, run: &mut String| {
        out.push_str(&json_literal(run));
        run.clear();
    };
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' if chars.peek() == Some(&'*') => {
                while chars.peek() == Some(&'*') {
                    chars.next();
                }
                flush(&mut out, &mut literal_run);
                // `**/` also matches no directory at all.
                if chars.peek() == Some(&'/') {
                    chars.next();
                    out.push_str(&format!("(?:|{IN_ARGUMENT}/)"));
                } else {
                    out.push_str(IN_ARGUMENT);
                }
            }
            '*' => {
                flush(&mut out, &mut literal_run);
                out.push_str(IN_SEGMENT);
            }
            '?' => {
                flush(&mut out, &mut literal_run);
                out.push_str(ONE_IN_SEGMENT);
            }
            '[' => match class_len(chars.clone()) {
                Some(len) => {
                    chars.nth(len - 1);
                    flush(&mut out, &mut literal_run);
                    out.push_str(ONE_IN_SEGMENT);
                }
                None => literal_run.push(c),
            },
            c => literal_run.push(c),
        }
    }
    flush(&mut out, &mut literal_run);
    out
}

/// How many characters after a `[` its bracket expression takes, up to
/// and with the closing `]` (one right after `[` or `[!` belongs to the
/// class); `None` when nothing closes it, and the `[` is literal.
fn class_len(rest: impl Iterator<Item = char>) -> Option<usize> {
    let mut first = true;
    for (i, c) in rest.enumerate() {
        match c {
            ']' if !first => return Some(i + 1),
            '!' | '^' if first && i == 0 => continue,
            _ => first = false,
        }
    }
    None
}

/// The `argsPattern` denying a path (and everything under it) in any of
/// the arguments `keys`, whether the argument is a string or a list of
/// strings (`read_many_files` `include`).
pub fn path_pattern(anchor: &Anchor, keys: &[&str]) -> String {
    let start = argument_start(keys);
    match anchor {
        // Every path: the tool itself, whenever it names one.
        Anchor::AnyDepth(rest) if rest.is_empty() => start,
        Anchor::Absolute(path) if path == "/" => format!(r#"{start}"/"#),
        Anchor::Absolute(path) => format!(r#"{start}"{}[/"]"#, glob(path)),
        Anchor::AnyDepth(rest) => format!(r#"{start}["/]{}[/"]"#, glob(rest)),
    }
}

/// How a denied domain is matched in `web_fetch`'s `prompt`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Host<'a> {
    /// Exactly this host.
    Exact(&'a str),
    /// Any subdomain of this one (`*.example.com`), not the domain itself.
    Subdomains(&'a str),
}

/// A deniedDomains entry as a host to match, `None` when it is not a plain
/// host name or `*.` and one (a port, a path, an IPv6 literal, a wildcard
/// elsewhere): those are warned about and left to the sandbox.
pub fn host(entry: &str) -> Option<Host<'_>> {
    let plain = |h: &str| {
        !h.is_empty()
            && !h.starts_with('.')
            && !h.ends_with('.')
            && !h.contains("..")
            && h.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-' || b == b'_')
    };
    match entry.strip_prefix("*.") {
        Some(rest) if plain(rest) => Some(Host::Subdomains(rest)),
        None if plain(entry) => Some(Host::Exact(entry)),
        _ => None,
    }
}

/// The `argsPattern` denying a `web_fetch` whose prompt holds a URL for
/// `host`. Gemini takes every whitespace-separated word with `://` in the
/// prompt as a URL and parses it with WHATWG `URL` (`parsePrompt`), which
/// lowercases the host and turns a Unicode name into its A-label: letters
/// match in either case, and a host with `xn--` labels matches in its
/// Unicode spelling too (the model may write either), after `//` or a
/// userinfo `@`, followed by an optional root `.` and the end of the host
/// (`:`, `/`, `\`, `?`, `#`, whitespace, a JSON escape or the end).
pub fn fetch_pattern(host: Host) -> String {
    let (prefix, name) = match host {
        Host::Exact(name) => ("", name),
        Host::Subdomains(name) => (r#"[^/?#@\s"\\\x00]*\."#, name),
    };
    let mut spelled = any_case(name);
    let (unicode, valid) = idna::domain_to_unicode(name);
    if valid.is_ok() && unicode != name {
        spelled = format!("(?:{spelled}|{})", any_case(&unicode));
    }
    format!(
        r#"{}(?://|@){prefix}{spelled}\.?[:/?#\s"\\]"#,
        argument_start(&["prompt"])
    )
}

/// `name` as a regex matching it in any letter case: a letter whose
/// lowercase and uppercase are one UTF-16 unit each is a class of both
/// (Gemini's patterns are JavaScript regexes without the `u` flag).
fn any_case(name: &str) -> String {
    let mut spelled = String::new();
    for c in name.chars() {
        let (mut lower, mut upper) = (c.to_lowercase(), c.to_uppercase());
        match (lower.next(), lower.next(), upper.next(), upper.next()) {
            (Some(l), None, Some(u), None)
                if l != u && l.len_utf16() == 1 && u.len_utf16() == 1 =>
            {
                spelled.extend(['[', l, u, ']']);
            }
            _ => spelled.push_str(&literal(&c.to_string())),
        }
    }
    spelled
}

/// Gemini's `isSafeRegExp` on the text of a pattern, minus the
/// compilation (every pattern here is built to compile): what it rejects
/// as a possible ReDoS is dropped from the policy with an error.
pub fn gemini_accepts(pattern: &str) -> bool {
    utf16_len(pattern) <= MAX_PATTERN_LEN && !nested_quantifier(pattern)
}

/// The length JavaScript gives a string (UTF-16 code units).
pub fn utf16_len(text: &str) -> usize {
    text.encode_utf16().count()
}

/// `\([^)]*[*+?{].*\)[*+?{]` found anywhere in `pattern`: an `(`, later a
/// quantifier character before the next `)`, and later still a `)` directly
/// followed by a quantifier character.
fn nested_quantifier(pattern: &str) -> bool {
    let b = pattern.as_bytes();
    let quantifier = |c: u8| matches!(c, b'*' | b'+' | b'?' | b'{');
    // The last `)` followed by a quantifier: the `.*` of the text reaches it.
    let Some(last_close) = (0..b.len().saturating_sub(1))
        .rev()
        .find(|&i| b[i] == b')' && quantifier(b[i + 1]))
    else {
        return false;
    };
    (0..last_close).filter(|&i| b[i] == b'(').any(|open| {
        b[open + 1..last_close]
            .iter()
            .take_while(|&&c| c != b')')
            .any(|&c| quantifier(c))
    })
}

#[cfg(test)]
#[path = "pattern_tests.rs"]
mod tests;
