//! Which rule of a Gemini CLI policy file decides one tool call, as
//! Gemini's policy engine decides it for the rule shapes twsrt writes
//! (doc/clients.md "Gemini CLI"): rules are tried from the highest
//! `priority` down, in file order among equals, and the first whose
//! `toolName` and argument matcher fit decides. Arguments are matched as
//! Gemini serialises them: keys sorted, each top-level `"key":value` pair
//! wrapped in NUL characters. A shell command is also checked part by part
//! (`a && b`, `a | b`, `$(b)`, `bash -c 'b'`): a part that is denied denies
//! the whole call, one that asks makes it ask.
//!
//! `explain` runs the file `generate` renders through this, so its Gemini
//! row says what that file does, not what the policy meant.

use regex_lite::Regex;
use serde_json::Value;
use toml_edit::{DocumentMut, Item};

const SHELL_TOOL: &str = "run_shell_command";

/// What a rule does when it matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Deny,
    AskUser,
    Allow,
}

/// The rule that decided a call: its place among the file's `[[rule]]`
/// tables (from 0) and what it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    pub index: usize,
    pub outcome: Outcome,
}

enum Matcher {
    Any,
    Pattern(Regex),
}

struct LoadedRule {
    index: usize,
    tools: Vec<String>,
    matcher: Matcher,
    outcome: Outcome,
    priority: i64,
}

/// A policy file, loaded.
pub struct Policy {
    /// Highest priority first; file order among equals.
    rules: Vec<LoadedRule>,
}

impl Policy {
    /// Load the text of a policy file. A rule Gemini would reject (a bad
    /// decision, no priority, a regex that does not compile) is an error
    /// naming the rule: twsrt writes none, so one is a bug to report, not
    /// a rule to skip.
    pub fn load(text: &str) -> Result<Policy, String> {
        let mut rules = Vec::new();
        load_into(text, &mut rules)?;
        rules.sort_by_key(|r| std::cmp::Reverse(r.priority));
        Ok(Policy { rules })
    }

    /// Load the files of one tier (a policy folder's `.toml` files, in the
    /// order given) as one policy: every rule of every file ordered by
    /// priority, in file order among equals. A [`Match`]'s `index` counts
    /// across the files; the second value is where each file's rules start.
    /// An error names the file (from 0) and the rule.
    pub fn load_tier(texts: &[&str]) -> Result<(Policy, Vec<usize>), String> {
        let mut rules = Vec::new();
        let mut starts = Vec::new();
        for (file, text) in texts.iter().enumerate() {
            starts.push(rules.len());
            load_into(text, &mut rules).map_err(|e| format!("file {file}: {e}"))?;
        }
        rules.sort_by_key(|r| std::cmp::Reverse(r.priority));
        Ok((Policy { rules }, starts))
    }

    /// The rule deciding a call of `tool` with `args` (a JSON object);
    /// `None` when no rule of the file matches, and Gemini's own defaults
    /// decide.
    pub fn check(&self, tool: &str, args: &Value) -> Option<Match> {
        if tool != SHELL_TOOL {
            return self.first(tool, &stable_stringify(args));
        }
        let Some(command) = args.get("command").and_then(Value::as_str) else {
            return self.first(tool, &stable_stringify(args));
        };
        let mut texts = vec![command.to_string()];
        parts(command, 0, &mut texts);
        let decided: Vec<Match> = texts
            .iter()
            .filter_map(|part| {
                let mut args = args.clone();
                if let Some(object) = args.as_object_mut() {
                    object.insert("command".into(), Value::String(part.clone()));
                }
                self.first(tool, &stable_stringify(&args))
            })
            .collect();
        [Outcome::Deny, Outcome::AskUser, Outcome::Allow]
            .into_iter()
            .find_map(|outcome| decided.iter().copied().find(|m| m.outcome == outcome))
    }

    fn first(&self, tool: &str, serialised: &str) -> Option<Match> {
        self.rules
            .iter()
            .find(|rule| {
                rule.tools.iter().any(|t| t == tool || t == "*")
                    && match &rule.matcher {
                        Matcher::Any => true,
                        Matcher::Pattern(regex) => regex.is_match(serialised),
                    }
            })
            .map(|rule| Match {
                index: rule.index,
                outcome: rule.outcome,
            })
    }
}

/// Append the `[[rule]]` tables of `text` to `rules`, numbered on from
/// the rules already there.
fn load_into(text: &str, rules: &mut Vec<LoadedRule>) -> Result<(), String> {
    let doc: DocumentMut = text.parse().map_err(|e| format!("not TOML: {e}"))?;
    let Some(tables) = doc.get("rule") else {
        return Ok(());
    };
    let tables = tables
        .as_array_of_tables()
        .ok_or("`rule` is not an array of tables")?;
    let first = rules.len();
    for (local, table) in tables.iter().enumerate() {
        let rule =
            load_rule(first + local, table).map_err(|e| format!("rule {}: {e}", local + 1))?;
        rules.push(rule);
    }
    Ok(())
}

fn load_rule(index: usize, table: &toml_edit::Table) -> Result<LoadedRule, String> {
    let text = |key: &str| table.get(key).and_then(Item::as_str);
    let tools = match table.get("toolName") {
        Some(item) if item.is_str() => vec![item.as_str().unwrap_or_default().to_string()],
        Some(item) => item
            .as_array()
            .ok_or("toolName is neither a string nor a list")?
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or("toolName holds a non-string")
            })
            .collect::<Result<_, _>>()?,
        None => vec!["*".to_string()],
    };
    let matcher = match (text("argsPattern"), text("commandPrefix")) {
        (Some(_), Some(_)) => return Err("both argsPattern and commandPrefix".into()),
        (Some(pattern), None) => Matcher::Pattern(compile(pattern)?),
        (None, Some(prefix)) => Matcher::Pattern(compile(&prefix_pattern(prefix))?),
        (None, None) => Matcher::Any,
    };
    let outcome = match text("decision") {
        Some("deny") => Outcome::Deny,
        Some("ask_user") => Outcome::AskUser,
        Some("allow") => Outcome::Allow,
        other => return Err(format!("decision {other:?} is not deny, ask_user or allow")),
    };
    let priority = table
        .get("priority")
        .and_then(Item::as_integer)
        .ok_or("no integer priority")?;
    Ok(LoadedRule {
        index,
        tools,
        matcher,
        outcome,
        priority,
    })
}

fn compile(pattern: &str) -> Result<Regex, String> {
    Regex::new(pattern).map_err(|e| format!("argsPattern {pattern:?} does not compile: {e}"))
}

/// Gemini's regex for a `commandPrefix`: the `command` value starts with
/// the prefix (as JSON spells it), followed by whitespace, the closing
/// quote or an escaped quote.
fn prefix_pattern(prefix: &str) -> String {
    let json = Value::String(prefix.to_string()).to_string();
    let inner = &json[1..json.len() - 1];
    format!(
        r#""command":"{}(?:[\s"]|\\")"#,
        super::pattern::literal(inner)
    )
}

/// The arguments as Gemini's policy engine sees them: `{`, each top-level
/// pair as NUL, `"key":value` in JSON, NUL, joined by commas, `}`; keys
/// sorted, nested objects sorted too.
fn stable_stringify(args: &Value) -> String {
    let Some(object) = args.as_object() else {
        return sorted(args);
    };
    let mut keys: Vec<&String> = object.keys().collect();
    keys.sort();
    let pairs: Vec<String> = keys
        .iter()
        .map(|k| {
            let key = Value::String((*k).clone()).to_string();
            format!("\0{key}:{}\0", sorted(&object[k.as_str()]))
        })
        .collect();
    format!("{{{}}}", pairs.join(","))
}

/// `value` as JSON with every object's keys sorted.
pub(super) fn sorted(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let pairs: Vec<String> = keys
                .iter()
                .map(|k| {
                    let key = Value::String((*k).clone()).to_string();
                    format!("{key}:{}", sorted(&map[k.as_str()]))
                })
                .collect();
            format!("{{{}}}", pairs.join(","))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(sorted).collect();
            format!("[{}]", items.join(","))
        }
        other => other.to_string(),
    }
}

/// How deep `bash -c` and `$( )` are followed.
const MAX_DEPTH: usize = 8;

/// Push the text of every command inside `command` that Gemini checks on
/// its own: the parts of a list or pipeline, command substitutions, and
/// the script of `bash -c` / `sh -c`. Quotes are respected; a part equal
/// to `command` itself is not pushed again.
fn parts(command: &str, depth: usize, out: &mut Vec<String>) {
    if depth > MAX_DEPTH {
        return;
    }
    let (pieces, substitutions) = split(command);
    let compound = pieces.len() > 1;
    for piece in pieces {
        let piece = piece.trim();
        if piece.is_empty() {
            continue;
        }
        if compound {
            out.push(piece.to_string());
        }
        if let Ok(words) = crate::shellwords::split(piece)
            && let [shell, flag, script, ..] = words.as_slice()
            && matches!(shell.as_str(), "bash" | "sh" | "zsh")
            && flag == "-c"
        {
            out.push(script.trim().to_string());
            parts(script, depth + 1, out);
        } else if compound {
            parts(piece, depth + 1, out);
        }
    }
    for inner in substitutions {
        let inner = inner.trim();
        if !inner.is_empty() {
            out.push(inner.to_string());
            parts(inner, depth + 1, out);
        }
    }
}

/// `command` cut at its unquoted list and pipe operators (`&&`, `||`,
/// `;`, `|`, `&`, newline), and the text of its `$( )` and backtick
/// substitutions.
fn split(command: &str) -> (Vec<String>, Vec<String>) {
    let chars: Vec<char> = command.chars().collect();
    let (mut pieces, mut subs) = (Vec::new(), Vec::new());
    let mut current = String::new();
    let (mut single, mut double) = (false, false);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if !single => {
                current.push(c);
                if let Some(&next) = chars.get(i + 1) {
                    current.push(next);
                }
                i += 2;
                continue;
            }
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '$' if !single && chars.get(i + 1) == Some(&'(') => {
                let end = closing(&chars, i + 2);
                subs.push(chars[i + 2..end].iter().collect());
                current.extend(&chars[i..(end + 1).min(chars.len())]);
                i = end + 1;
                continue;
            }
            '`' if !single => {
                let end = (i + 1..chars.len())
                    .find(|&j| chars[j] == '`')
                    .unwrap_or(chars.len());
                subs.push(chars[i + 1..end].iter().collect());
                current.extend(&chars[i..(end + 1).min(chars.len())]);
                i = end + 1;
                continue;
            }
            ';' | '|' | '&' | '\n' if !single && !double => {
                pieces.push(std::mem::take(&mut current));
                while chars.get(i + 1).is_some_and(|n| matches!(n, '|' | '&')) {
                    i += 1;
                }
                i += 1;
                continue;
            }
            _ => {}
        }
        current.push(c);
        i += 1;
    }
    pieces.push(current);
    (pieces, subs)
}

/// The index of the `)` closing a `$(` whose text starts at `start`
/// (nested parentheses and quotes respected); the end of the text when
/// nothing closes it.
fn closing(chars: &[char], start: usize) -> usize {
    let (mut depth, mut single, mut double) = (0usize, false, false);
    let mut i = start;
    while i < chars.len() {
        match chars[i] {
            '\\' if !single => i += 1,
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '(' if !single && !double => depth += 1,
            ')' if !single && !double => {
                if depth == 0 {
                    return i;
                }
                depth -= 1;
            }
            _ => {}
        }
        i += 1;
    }
    chars.len()
}

#[cfg(test)]
#[path = "engine_tests.rs"]
mod tests;
