//! Which way a Codex drift entry points (see [`crate::drift`]). The text
//! report names whole keys (`config:permissions.twsrt`); the differences
//! look inside them: a profile entry that reads or writes more than the
//! policy says (`deny` to `read` or `write`), a domain `allow` added, the
//! network or every unix socket turned on, `default_permissions` pointing
//! elsewhere, a lower approval policy, a `.rules` rule missing or edited, an
//! extra rule that does not forbid or prompt: each widens. What the model
//! does not know widens.

use serde_json::{Map, Value};

use super::render::toml_key;
use crate::drift::{Direction, child_path, narrowing_unless, union_keys};

/// How much a profile value lets through; `None` for a value the model
/// does not know.
fn rank(value: &str) -> Option<u8> {
    match value {
        "deny" | "none" => Some(0),
        "read" => Some(1),
        "write" | "allow" => Some(2),
        _ => None,
    }
}

/// An owned top-level key of config.toml changed from `policy` to `disk`.
pub fn owned_key(key: &str, policy: Option<&Value>, disk: Option<&Value>) -> Direction {
    match key {
        "allow_login_shell" => switched_on(policy, disk),
        "approval_policy" => {
            // Higher asks more often; an unknown or absent policy fails closed.
            let level = |v: Option<&Value>| match v.and_then(Value::as_str) {
                Some("untrusted") => Some(3),
                Some("on-request") => Some(2),
                Some("on-failure") => Some(1),
                Some("never") => Some(0),
                _ => None,
            };
            match (level(policy), level(disk)) {
                (Some(want), Some(have)) => narrowing_unless(have < want),
                _ => Direction::Widening,
            }
        }
        // default_permissions elsewhere, another reviewer: fail closed.
        _ => Direction::Widening,
    }
}

/// One changed value inside `[permissions.twsrt]`: its dotted path (each
/// key spelt as TOML spells it: `filesystem."~/.ssh"`), the value in the
/// policy and on disk, and its direction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub path: String,
    pub policy: Option<Value>,
    pub disk: Option<Value>,
    pub direction: Direction,
}

/// Every changed value of `[permissions.twsrt]` from `policy` to `disk`.
pub fn profile(policy: Option<&Value>, disk: Option<&Value>) -> Vec<Change> {
    let mut out = Vec::new();
    walk("", "", policy, disk, &mut out);
    out
}

fn walk(
    path: &str,
    key: &str,
    policy: Option<&Value>,
    disk: Option<&Value>,
    out: &mut Vec<Change>,
) {
    if policy == disk {
        return;
    }
    let object = |v: Option<&Value>| v.is_none_or(Value::is_object);
    if object(policy) && object(disk) {
        let (policy, disk) = (as_object(policy), as_object(disk));
        for key in union_keys(policy, disk) {
            let child = child_path(path, &toml_key(key));
            walk(&child, key, policy.get(key), disk.get(key), out);
        }
        return;
    }
    out.push(Change {
        path: path.to_string(),
        policy: policy.cloned(),
        disk: disk.cloned(),
        direction: leaf(key, policy, disk),
    });
}

/// The direction of one value of the profile.
fn leaf(key: &str, policy: Option<&Value>, disk: Option<&Value>) -> Direction {
    let boolean = |v: Option<&Value>| v.is_none_or(Value::is_boolean);
    if boolean(policy) && boolean(disk) {
        return switched_on(policy, disk);
    }
    if key == "description" {
        // Words for people; they change nothing Codex enforces.
        return Direction::Narrowing;
    }
    let level = |v: Option<&Value>| v.and_then(Value::as_str).and_then(rank);
    match (policy, level(policy), disk, level(disk)) {
        (Some(_), Some(want), Some(_), Some(have)) => narrowing_unless(have > want),
        (None, _, Some(_), Some(have)) => narrowing_unless(have > 0),
        (Some(_), Some(want), None, _) => narrowing_unless(want == 0),
        _ => Direction::Widening,
    }
}

/// A boolean that lets more through when on.
fn switched_on(policy: Option<&Value>, disk: Option<&Value>) -> Direction {
    let on = |v: Option<&Value>| v == Some(&Value::Bool(true));
    narrowing_unless(on(disk) && !on(policy))
}

static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);

fn as_object(v: Option<&Value>) -> &Map<String, Value> {
    v.and_then(Value::as_object).unwrap_or(&EMPTY)
}

/// One rule of a `.rules` file: the name it is reported by (its
/// `pattern = [...]`, else its first line) and its text without comments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub name: String,
    pub text: String,
}

/// The rules of a `.rules` file, in order: each starts at a line that opens
/// `prefix_rule(`; comment and blank lines are not part of any; text before
/// the first rule is a rule of its own (Codex reads it too).
pub fn rules(text: &str) -> Vec<Rule> {
    let mut blocks: Vec<Vec<&str>> = Vec::new();
    for line in text.lines().map(str::trim_end) {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        match blocks.last_mut() {
            Some(block) if !line.starts_with("prefix_rule(") => block.push(line),
            _ => blocks.push(vec![line]),
        }
    }
    blocks
        .into_iter()
        .map(|lines| {
            let name = lines
                .iter()
                .find_map(|l| l.trim_start().strip_prefix("pattern = "))
                .unwrap_or(lines[0].trim())
                .trim_end_matches(',')
                .to_string();
            Rule {
                name,
                text: lines.join("\n"),
            }
        })
        .collect()
}

/// An extra rule narrows only when it forbids or prompts: any other
/// decision, or text that is not a rule, may let a command through.
pub fn extra_rule(rule: &Rule) -> Direction {
    let restricts = rule.text.starts_with("prefix_rule(")
        && rule.text.lines().any(|l| {
            matches!(
                l.trim().trim_end_matches(','),
                "decision = \"forbidden\"" | "decision = \"prompt\""
            )
        });
    narrowing_unless(!restricts)
}

#[cfg(test)]
mod tests;
