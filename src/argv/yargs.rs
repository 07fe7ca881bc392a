//! How yargs-parser reads a word that starts with `-`, where it differs from
//! clap and commander (the evidence, read from the bundled yargs-parser of
//! the client that uses it: doc/clients.md, "Gemini CLI: launch options").
//!
//! - A long key matches its option as declared (`--approval-mode`), as
//!   yargs' camelCase alias (`--approvalMode`), and loosely: any key with a
//!   `-` whose camelCase is the option's (`--APPROVAL-MODE`, `--YOLO-`:
//!   camelCase, the alias setArg adds, accepted by `.strict()`).
//! - `--no-NAME` sets any option to false (boolean-negation).
//! - A boolean takes a following `true` or `false`.
//! - A `nargs: 1` string takes the next word unless it looks like an option
//!   (`-` then a non-digit; eatNargs); an array (`nargs: 1`
//!   too) or a string without nargs takes it unless it starts with `-`
//!   (eatArray); a negative number is always a value.
//! - `-abc`: each letter but the last is a flag unless `=`, a number or a
//!   non-word character follows it, which is then its value; the last
//!   letter reads like a long option.
//!
//! A dotted key (`--yolo.x`, which yargs turns into a truthy object) finds
//! no option and fails closed.

use super::parse::Reader;
use super::{Arity, Occurrence, Opt, ParseError};

/// `-5`, `-1.5`, `-.5`: yargs' `negative` pattern, a value.
pub fn is_negative_number(word: &str) -> bool {
    let Some(rest) = word.strip_prefix('-') else {
        return false;
    };
    let (int, frac) = match rest.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (rest, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match frac {
        None => digits(int),
        Some(f) => digits(f) && (int.is_empty() || digits(int)),
    }
}

/// yargs' camelCase of a key: a key that is all one case is
/// lowercased first; each `-` or `_` after the first character drops out
/// and upper-cases the character after it.
pub fn camel(key: &str) -> String {
    let mixed = key != key.to_lowercase() && key != key.to_uppercase();
    let key = if mixed {
        key.to_string()
    } else {
        key.to_lowercase()
    };
    if !key.contains(['-', '_']) {
        return key;
    }
    let mut out = String::new();
    let mut upper = false;
    let body = key.trim_start_matches('-');
    for (i, c) in body.chars().enumerate() {
        let lead = i == 0 && body.len() == key.len();
        if (c == '-' || c == '_') && !lead {
            upper = true;
        } else if c != '-' && c != '_' {
            if upper {
                out.extend(c.to_uppercase());
            } else {
                out.push(c);
            }
            upper = false;
        }
    }
    out
}

/// Whether a typed long key (without `--`) names the option spelled `long`
/// (with `--`).
fn matches(key: &str, long: &str) -> bool {
    let Some(name) = long.strip_prefix("--") else {
        return false;
    };
    if key == name || key == camel(name) {
        return true;
    }
    key.contains('-') && camel(key) == camel(name)
}

/// Whether `word` is the value of an option of `arity` (see the module
/// documentation for the two rules).
fn takes(word: &str, arity: Arity) -> bool {
    if is_negative_number(word) {
        return true;
    }
    match arity {
        Arity::Value => {
            let mut chars = word.chars();
            !(chars.next() == Some('-') && chars.next().is_some_and(|c| !c.is_ascii_digit()))
        }
        _ => !word.starts_with('-'),
    }
}

/// `-5` and the like after `-`: a number (yargs' pattern).
fn is_number(text: &str) -> bool {
    let t = text.strip_prefix('-').unwrap_or(text);
    let (mantissa, exp) = match t.split_once('e') {
        Some((m, e)) => (m, Some(e)),
        None => (t, None),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (mantissa, None),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let exp_ok = exp.is_none_or(|e| {
        let e = e.strip_prefix('-').unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    !int.is_empty() && digits(int) && frac.is_none_or(digits) && exp_ok
}

impl Reader<'_> {
    /// One word that starts with `-`, read as yargs-parser does.
    pub(super) fn yargs_word(&mut self, word: &str) -> Result<(), ParseError> {
        if word == "-" || is_negative_number(word) {
            return self.positional(word.to_string());
        }
        if let Some(body) = word.strip_prefix("--") {
            return self.yargs_long(body);
        }
        self.yargs_shorts(&word[1..])
    }

    fn yargs_find(&self, key: &str) -> Option<&'static Opt> {
        self.grammar
            .options
            .iter()
            .find(|o| o.names.iter().any(|n| matches(key, n)))
    }

    fn unknown(&self, typed: String) -> ParseError {
        ParseError::Unknown {
            command: self.grammar.name,
            option: typed,
        }
    }

    fn yargs_long(&mut self, body: &str) -> Result<(), ParseError> {
        let (key, inline) = match body.split_once('=') {
            Some((k, v)) => (k, Some(v.to_string())),
            None => (body, None),
        };
        let typed = format!("--{key}");
        if inline.is_none()
            && let Some(opt) = key.strip_prefix("no-").and_then(|k| self.yargs_find(k))
        {
            self.parsed.options.push(Occurrence {
                typed,
                name: opt.names[0],
                joiner: " ",
                values: Vec::new(),
                negated: true,
            });
            return Ok(());
        }
        let opt = self
            .yargs_find(key)
            .ok_or_else(|| self.unknown(typed.clone()))?;
        let joiner = if inline.is_some() { "=" } else { " " };
        self.yargs_take(opt, typed, joiner, inline)
    }

    fn short(&self, c: char) -> Result<&'static Opt, ParseError> {
        let typed = format!("-{c}");
        self.grammar
            .options
            .iter()
            .find(|o| o.names.contains(&typed.as_str()))
            .ok_or_else(|| self.unknown(typed))
    }

    /// `-abc`: the letters before the last, then the last one.
    fn yargs_shorts(&mut self, body: &str) -> Result<(), ParseError> {
        let letters: Vec<(usize, char)> = body.char_indices().collect();
        let Some((&(_, last), before)) = letters.split_last() else {
            return Ok(());
        };
        let word_char = |ch: char| ch.is_ascii_alphanumeric() || ch == '_';
        for &(i, c) in before {
            let opt = self.short(c)?;
            let rest = &body[i + c.len_utf8()..];
            let typed = format!("-{c}");
            if let Some(value) = rest.strip_prefix('=') {
                return self.yargs_take(opt, typed, "=", Some(value.to_string()));
            }
            // The rest of the word is this letter's value; after `-x-` the
            // last letter is `-`, which yargs skips.
            let attached = rest == "-"
                || (c.is_ascii_alphabetic() && is_number(rest))
                || rest.chars().next().is_some_and(|n| !word_char(n));
            if attached {
                self.record(opt, typed, "", vec![rest.to_string()]);
                return Ok(());
            }
            self.record(opt, typed, " ", Vec::new());
        }
        let opt = self.short(last)?;
        self.yargs_take(opt, format!("-{last}"), " ", None)
    }

    /// The values of `opt`: the inline one, else the next word when its
    /// arity takes it.
    fn yargs_take(
        &mut self,
        opt: &'static Opt,
        typed: String,
        joiner: &'static str,
        inline: Option<String>,
    ) -> Result<(), ParseError> {
        if let Some(value) = inline {
            self.record(opt, typed, joiner, vec![value]);
            return Ok(());
        }
        let next = self.args.get(self.at).cloned();
        let taken = match (opt.arity, next) {
            (Arity::Flag, Some(w)) if w == "true" || w == "false" => Some(w),
            (Arity::Flag, _) | (_, None) => None,
            (arity, Some(w)) => takes(&w, arity).then_some(w),
        };
        if taken.is_none() && matches!(opt.arity, Arity::Value | Arity::Many) {
            // eatNargs/eatArray: "Not enough arguments following".
            return Err(ParseError::MissingValue {
                command: self.grammar.name,
                option: typed,
            });
        }
        if taken.is_some() {
            self.at += 1;
        }
        self.record(opt, typed, " ", taken.into_iter().collect());
        Ok(())
    }
}
