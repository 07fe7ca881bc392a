//! The policy file on disk against the generated one, rule by rule. The
//! file is owned by twsrt, so every rule is compared (as a set: Gemini sorts
//! rules by priority, not by their place in the file) and named.
//!
//! Directions: a deny or ask_user rule takes calls away, so one missing on
//! disk widens and an extra one narrows; any other rule (an allow, an
//! unknown decision) or any other top-level key fails closed and widens
//! when extra. A changed rule is one missing and one extra: a deny whose
//! priority or pattern was edited counts as a missing deny.

use std::path::Path;

use serde_json::Value;

use crate::drift::canonical::shown;
use crate::drift::{Difference, Direction, Side, narrowing_unless, unpaired};
use crate::error::Result;
use crate::tomltext::{parse_document, toml_to_json};

/// The section every rule is reported under.
const SECTION: &str = "rule";

/// Every difference between `generated` (our own text, which parses) and
/// `on_disk`; `path` names the file in a syntax error.
pub fn compare(generated: &str, on_disk: &str, path: &Path) -> Result<Vec<Difference>> {
    if generated == on_disk {
        return Ok(Vec::new());
    }
    let want = entries(&parse_document(generated, path)?);
    let have = entries(&parse_document(on_disk, path)?);
    // A rule's identity: its JSON with every object's keys sorted, so the
    // same rule with its keys in another order pairs.
    let (missing, extra) = unpaired(&want, &have, super::engine::sorted);
    let mut out = Vec::new();
    for (side, entries) in [(Side::Missing, missing), (Side::Extra, extra)] {
        for entry in entries {
            let text = shown(entry);
            let direction = direction(entry, side);
            out.push(Difference::new(SECTION, &text, &text, side, direction));
        }
    }
    Ok(out)
}

/// Each `[[rule]]` as a JSON object, and every other top-level key as
/// `{key: value}` (so it is reported, and widens).
pub(super) fn entries(doc: &toml_edit::DocumentMut) -> Vec<Value> {
    let mut out = Vec::new();
    for (key, item) in doc.iter() {
        let value = toml_to_json(item).unwrap_or(Value::Null);
        match (key, value) {
            ("rule", Value::Array(rules)) => out.extend(rules),
            (key, value) => {
                let mut map = serde_json::Map::new();
                map.insert(key.to_string(), value);
                out.push(Value::Object(map));
            }
        }
    }
    out
}

/// A rule that restricts: a deny or ask_user decision.
pub(super) fn restricts(entry: &Value) -> bool {
    matches!(
        entry.get("decision").and_then(Value::as_str),
        Some("deny" | "ask_user")
    )
}

fn direction(entry: &Value, side: Side) -> Direction {
    let restricts = restricts(entry);
    narrowing_unless(match side {
        Side::Missing => restricts,
        Side::Extra => !restricts,
    })
}
