//! The settings schema Claude Code applies to every settings file it loads
//! (read out of the pinned release by scripts/claude-settings-schema.py into
//! `settings_schema.json`; doc/clients.md, "The settings schema", says how
//! and what was measured). A value the schema refuses makes Claude Code drop
//! the whole file: every deny rule and sandbox setting in it is then gone.
//!
//! The table is a tree of nodes `{"t": kind, ...}`: `any` (not checked),
//! `bool`, `string`, `number` (`int`, `min`, `gt`, `max`, `lt`),
//! `literal` (`v`), `enum` (`v`, `alias`), `array` / `record` (`of`),
//! `object` (`keys`; keys it does not list are kept, never refused) and
//! `union` (`of`); `"null": true` also takes `null`.

use std::path::Path;
use std::sync::LazyLock;

use serde_json::{Map, Value};

use crate::drift::{Difference, Direction, Side};
use crate::error::{Error, Result};

/// The schema table, as extracted.
static TABLE: LazyLock<Value> = LazyLock::new(|| {
    // Compiled-in data, held parseable by a unit test; an unreadable table
    // would check nothing, so it is never replaced by a permissive one.
    serde_json::from_str(include_str!("settings_schema.json"))
        .expect("settings_schema.json is valid JSON")
});

/// The Claude Code release the schema was read from.
pub fn claude_code_version() -> &'static str {
    TABLE
        .get("claude_code")
        .and_then(Value::as_str)
        .unwrap_or("?")
}

/// Where a document breaks the schema: the JSON pointer of the value, what
/// kind of value is there and what Claude Code takes there. The value itself
/// is never shown (settings files can hold API keys in `env`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    pub pointer: String,
    pub found: &'static str,
    pub expected: String,
}

impl Rejection {
    /// The sentence a report shows: `/sandbox/enabled is a number where
    /// Claude Code 2.1.337 takes a boolean, so it drops the whole file`.
    pub fn message(&self) -> String {
        let at = if self.pointer.is_empty() {
            "the top level"
        } else {
            &self.pointer
        };
        format!(
            "{at} is {} where Claude Code {} takes {}, so Claude Code drops the whole file \
             (every rule and sandbox setting in it)",
            self.found,
            claude_code_version(),
            self.expected
        )
    }
}

/// `doc` (the settings file at `path`) as Claude Code takes it, or an
/// error naming the file and the JSON pointer of the value it refuses.
pub fn check_file(doc: &Map<String, Value>, path: &Path) -> Result<()> {
    match rejected_object(doc) {
        Some(r) => Err(Error::target(path, r.message())),
        None => Ok(()),
    }
}

/// The drift of a file Claude Code drops: the widest there is (none of its
/// rules is in force), one difference naming the refused value.
pub fn difference(doc: &Map<String, Value>) -> Option<Difference> {
    let r = rejected_object(doc)?;
    let shown = format!("schema:{} (Claude Code drops the whole file)", r.pointer);
    Some(Difference::new(
        "schema",
        &r.pointer,
        &shown,
        Side::Extra,
        Direction::Widening,
    ))
}

/// The first value of `doc` (a whole settings file) that Claude Code's
/// settings schema refuses, in document order; `None` when it takes it.
pub fn rejected(doc: &Value) -> Option<Rejection> {
    check(&TABLE["schema"], doc, &mut String::new())
}

/// [`rejected`] for a file's top-level object.
pub fn rejected_object(doc: &Map<String, Value>) -> Option<Rejection> {
    check_object(table_keys(&TABLE["schema"]), doc, &mut String::new())
}

fn table_keys(node: &Value) -> Option<&Map<String, Value>> {
    node.get("keys").and_then(Value::as_object)
}

fn check(node: &Value, value: &Value, at: &mut String) -> Option<Rejection> {
    let kind = node.get("t").and_then(Value::as_str).unwrap_or("any");
    if kind == "any" || (value.is_null() && node.get("null") == Some(&Value::Bool(true))) {
        return None;
    }
    match (kind, value) {
        ("bool", Value::Bool(_)) | ("string", Value::String(_)) => None,
        ("number", Value::Number(n)) => match n.as_f64() {
            Some(x) if fits(node, x) => None,
            _ => refuse(at, value, node),
        },
        ("literal", v) if node.get("v") == Some(v) => None,
        ("enum", Value::String(s)) if in_enum(node, s) => None,
        ("array", Value::Array(items)) => {
            let of = &node["of"];
            items
                .iter()
                .enumerate()
                .find_map(|(i, item)| nested(at, &i.to_string(), |at| check(of, item, at)))
        }
        ("record", Value::Object(map)) => {
            let of = &node["of"];
            map.iter()
                .find_map(|(k, item)| nested(at, k, |at| check(of, item, at)))
        }
        ("object", Value::Object(map)) => check_object(table_keys(node), map, at),
        ("union", v) => {
            let options = node.get("of").and_then(Value::as_array);
            let takes = options.is_none_or(|o| o.iter().any(|n| check(n, v, at).is_none()));
            if takes { None } else { refuse(at, value, node) }
        }
        _ => refuse(at, value, node),
    }
}

fn refuse(at: &str, value: &Value, node: &Value) -> Option<Rejection> {
    Some(Rejection {
        pointer: at.to_string(),
        found: found(value),
        expected: expected(node),
    })
}

fn check_object(
    keys: Option<&Map<String, Value>>,
    map: &Map<String, Value>,
    at: &mut String,
) -> Option<Rejection> {
    let keys = keys?;
    map.iter().find_map(|(k, v)| {
        let node = keys.get(k)?;
        nested(at, k, |at| check(node, v, at))
    })
}

/// Runs `f` with `at` extended by the pointer token `key` (`~` and `/`
/// escaped as RFC 6901 says), and restores `at` after.
fn nested(
    at: &mut String,
    key: &str,
    f: impl FnOnce(&mut String) -> Option<Rejection>,
) -> Option<Rejection> {
    let len = at.len();
    at.push('/');
    at.push_str(&key.replace('~', "~0").replace('/', "~1"));
    let out = f(at);
    at.truncate(len);
    out
}

fn bound(node: &Value, key: &str) -> Option<f64> {
    node.get(key).and_then(Value::as_f64)
}

fn fits(node: &Value, x: f64) -> bool {
    let int = node.get("int") == Some(&Value::Bool(true));
    !(int && x.fract() != 0.0)
        && bound(node, "min").is_none_or(|m| x >= m)
        && bound(node, "gt").is_none_or(|m| x > m)
        && bound(node, "max").is_none_or(|m| x <= m)
        && bound(node, "lt").is_none_or(|m| x < m)
}

fn in_enum(node: &Value, s: &str) -> bool {
    let listed = node
        .get("v")
        .and_then(Value::as_array)
        .is_some_and(|v| v.iter().any(|x| x.as_str() == Some(s)));
    listed || node.get("alias").and_then(|a| a.get(s)).is_some()
}

/// What kind of JSON value `v` is, as a report says it.
fn found(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// What a node takes, as a report says it.
fn expected(node: &Value) -> String {
    let kind = node.get("t").and_then(Value::as_str).unwrap_or("any");
    match kind {
        "bool" => "a boolean".into(),
        "string" => "a string".into(),
        "number" => number_expected(node),
        "literal" => format!("the value {}", node["v"]),
        "enum" => {
            let mut names: Vec<String> = node
                .get("v")
                .and_then(Value::as_array)
                .map(|v| {
                    v.iter()
                        .filter_map(Value::as_str)
                        .map(String::from)
                        .collect()
                })
                .unwrap_or_default();
            if let Some(alias) = node.get("alias").and_then(Value::as_object) {
                names.extend(alias.keys().cloned());
            }
            format!("one of {}", names.join(", "))
        }
        "array" => "a list".into(),
        "record" | "object" => "an object".into(),
        "union" => {
            let options: Vec<String> = node
                .get("of")
                .and_then(Value::as_array)
                .map(|o| o.iter().map(expected).collect())
                .unwrap_or_default();
            options.join(" or ")
        }
        _ => "any value".into(),
    }
}

fn number_expected(node: &Value) -> String {
    let mut text = String::from(if node.get("int") == Some(&Value::Bool(true)) {
        "a whole number"
    } else {
        "a number"
    });
    let bounds = [
        ("min", "at least"),
        ("gt", "above"),
        ("max", "at most"),
        ("lt", "below"),
    ];
    for (key, word) in bounds {
        if let Some(b) = bound(node, key) {
            text.push_str(&format!(" {word} {b}"));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rejection(doc: Value) -> Option<String> {
        rejected(&doc).map(|r| format!("{} {} / {}", r.pointer, r.found, r.expected))
    }

    #[test]
    fn the_table_is_read_from_the_pinned_release() {
        assert_eq!(claude_code_version(), "2.1.337");
        let keys = table_keys(&TABLE["schema"]).expect("an object at the top");
        for key in [
            "permissions",
            "sandbox",
            "model",
            "cleanupPeriodDays",
            "env",
        ] {
            assert!(keys.contains_key(key), "{key}");
        }
    }

    #[test]
    fn the_values_the_issue_measured_are_refused() {
        // Each of these made Claude Code 2.1.337 drop the file (doc/clients.md).
        let cases = [
            (
                json!({"sandbox": {"enabled": 1}}),
                "/sandbox/enabled a number / a boolean",
            ),
            (
                json!({"permissions": {"defaultMode": "plan2"}}),
                "/permissions/defaultMode a string / one of acceptEdits, auto, \
                 bypassPermissions, default, dontAsk, plan, manual",
            ),
            (json!({"model": 5}), "/model a number / a string"),
            (json!({"model": null}), "/model null / a string"),
            (
                json!({"cleanupPeriodDays": "x"}),
                "/cleanupPeriodDays a string / a whole number above 0",
            ),
            (
                json!({"cleanupPeriodDays": 0}),
                "/cleanupPeriodDays a number / a whole number above 0",
            ),
            (
                json!({"cleanupPeriodDays": 1.5}),
                "/cleanupPeriodDays a number / a whole number above 0",
            ),
            (
                json!({"permissions": {"allow": "Read"}}),
                "/permissions/allow a string / a list",
            ),
            (
                json!({"permissions": {"additionalDirectories": "x"}}),
                "/permissions/additionalDirectories a string / a list",
            ),
            (
                json!({"sandbox": {"filesystem": {"allowRead": 5}}}),
                "/sandbox/filesystem/allowRead a number / a list",
            ),
            (
                json!({"sandbox": {"network": {"httpProxyPort": "x"}}}),
                "/sandbox/network/httpProxyPort a string / a number",
            ),
            (json!([1]), " a list / an object"),
        ];
        for (doc, want) in cases {
            assert_eq!(rejection(doc.clone()).as_deref(), Some(want), "{doc}");
        }
    }

    #[test]
    fn what_claude_code_keeps_loading_is_taken() {
        // Measured: these files kept their deny rules in force.
        for doc in [
            json!({"fooBarTwsrt": 1, "permissions": {"fooTwsrt": 1}}),
            json!({"viewMode": 5}),
            json!({"permissions": {"defaultMode": "manual", "deny": ["Read(x)", 5]}}),
            json!({"sandbox": {"enabeld": false, "enabled": true}}),
            json!({"env": {"A": 1}}),
            json!({"cleanupPeriodDays": 3650, "model": "opus"}),
        ] {
            assert_eq!(rejection(doc.clone()), None, "{doc}");
        }
    }

    #[test]
    fn pointers_escape_their_tokens() {
        let doc = json!({"sandbox": {"ignoreViolations": {"a/b~c": [5]}}});
        assert_eq!(
            rejected(&doc).map(|r| r.pointer).as_deref(),
            Some("/sandbox/ignoreViolations/a~1b~0c/0")
        );
    }
}
