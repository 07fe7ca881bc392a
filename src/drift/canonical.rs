//! Directions for a JSON document against the one on disk: the canonical
//! srt and bash outputs, and (through [`compare_values`]) any other JSON
//! shaped like them. Objects are walked key by key, lists compared as sets
//! of entries, other values as a change of the key they belong to: one
//! difference per entry or key. A value of another shape on disk (a string
//! where a list belongs) is one extra difference, and what the policy holds
//! there is missing entry by entry: never a whole object standing in for
//! its contents.

use serde_json::{Map, Value};

use super::{
    Difference, Direction, Side, child_path, entry_direction, list_meaning, union_keys,
    value_change,
};
use crate::compose::equality_key;
use crate::source::SourceKind;

/// The keys a reader of the document knows, per object path ("" is the
/// top level). A key on disk at a listed path that is not listed is
/// ignored by that reader, silently (srt reads a misspelled `denyread` as
/// nothing at all), so it counts as widening. Paths not listed know every key.
pub type Schema = &'static [(&'static str, &'static [&'static str])];

/// srt's settings schema (the keys of the top level, `network` and
/// `filesystem`).
pub const SRT_SCHEMA: Schema = crate::srt::schema::LEVELS;

/// The bash rules document: three lists.
pub const BASH_SCHEMA: Schema = &[("", &["allow", "ask", "deny"])];

pub fn schema(kind: SourceKind) -> Schema {
    match kind {
        SourceKind::Srt => SRT_SCHEMA,
        SourceKind::Bash => BASH_SCHEMA,
    }
}

/// Every difference between the `policy` document and the `disk` one.
pub fn compare(policy: &Value, disk: &Value, schema: Schema) -> Vec<Difference> {
    let mut out = Vec::new();
    compare_values("", "", Some(policy), Some(disk), schema, &mut out);
    out
}

/// The differences of the value at `path` (whose last key is `key`).
pub fn compare_values(
    path: &str,
    key: &str,
    policy: Option<&Value>,
    disk: Option<&Value>,
    schema: Schema,
    out: &mut Vec<Difference>,
) {
    let policy = policy.filter(|v| !v.is_null());
    let disk = disk.filter(|v| !v.is_null());
    let same = match (policy, disk) {
        (Some(a), Some(b)) => equality_key(a) == equality_key(b),
        (None, None) => true,
        _ => false,
    };
    if same {
        return;
    }
    let object = |v: Option<&Value>| v.is_none_or(Value::is_object);
    let array = |v: Option<&Value>| v.is_none_or(Value::is_array);
    let container = |v: Option<&Value>| v.is_some_and(|v| v.is_object() || v.is_array());
    if object(policy) && object(disk) {
        compare_objects(path, as_object(policy), as_object(disk), schema, out);
    } else if array(policy) && array(disk) {
        compare_lists(path, key, as_list(policy), as_list(disk), out);
    } else if container(policy) || container(disk) {
        // Two shapes: each side's contents against nothing, so every entry
        // is named; a scalar side is one difference of its own.
        for (side, value) in [(Side::Missing, policy), (Side::Extra, disk)] {
            match value {
                Some(v) if !is_empty_container(v) && (v.is_object() || v.is_array()) => {
                    let (want, have) = match side {
                        Side::Missing => (Some(v), None),
                        Side::Extra => (None, Some(v)),
                    };
                    compare_values(path, key, want, have, schema, out);
                }
                Some(v) => out.push(Difference::plain(
                    &odd_place(path),
                    &shown(v),
                    side,
                    Direction::Widening,
                )),
                None => {}
            }
        }
    } else {
        let direction = value_change(key, policy, disk);
        out.push(match (policy, disk) {
            (Some(want), Some(have)) => {
                Difference::changed(path, &shown(have), &shown(want), direction)
            }
            (Some(want), None) => Difference::plain(path, &shown(want), Side::Missing, direction),
            (None, Some(have)) => Difference::plain(path, &shown(have), Side::Extra, direction),
            (None, None) => return,
        });
    }
}

fn is_empty_container(v: &Value) -> bool {
    v.as_object().is_some_and(Map::is_empty) || v.as_array().is_some_and(Vec::is_empty)
}

/// The section of a value found where the other side has a container: its
/// path, or `(document)` for the top level.
fn odd_place(path: &str) -> String {
    if path.is_empty() {
        DOCUMENT.to_string()
    } else {
        path.to_string()
    }
}

/// The section of a difference about the whole file (not JSON, not an
/// object).
pub const DOCUMENT: &str = "(document)";

fn compare_objects(
    path: &str,
    policy: &Map<String, Value>,
    disk: &Map<String, Value>,
    schema: Schema,
    out: &mut Vec<Difference>,
) {
    let known = schema
        .iter()
        .find(|(p, _)| *p == path)
        .map(|(_, keys)| keys);
    for key in union_keys(policy, disk) {
        let child = child_path(path, key);
        let unknown = known.is_some_and(|keys| !keys.contains(&key.as_str()));
        match (policy.get(key), disk.get(key)) {
            (None, Some(value)) if unknown && !value.is_null() => {
                // Its reader drops it: each entry it would have held widens.
                let entries = value.as_array().filter(|list| !list.is_empty());
                for item in entries.map_or_else(|| vec![value], |list| list.iter().collect()) {
                    out.push(Difference::plain(
                        &child,
                        &shown(item),
                        Side::Extra,
                        Direction::Widening,
                    ));
                }
            }
            (want, have) => compare_values(&child, key, want, have, schema, out),
        }
    }
}

/// Lists as sets of entries; the same entries in another order (or
/// repeated) change nothing the sandbox enforces, so that is a narrowing.
fn compare_lists(
    path: &str,
    key: &str,
    policy: &[Value],
    disk: &[Value],
    out: &mut Vec<Difference>,
) {
    let meaning = list_meaning(key);
    let before = out.len();
    for (side, these, others) in [(Side::Missing, policy, disk), (Side::Extra, disk, policy)] {
        let others: Vec<String> = others.iter().map(equality_key).collect();
        let mut seen = Vec::new();
        for item in these {
            let id = equality_key(item);
            if !others.contains(&id) && !seen.contains(&id) {
                out.push(Difference::plain(
                    path,
                    &shown(item),
                    side,
                    entry_direction(meaning, side),
                ));
                seen.push(id);
            }
        }
    }
    if out.len() == before {
        out.push(Difference::plain(
            path,
            "(order)",
            Side::Extra,
            Direction::Narrowing,
        ));
    }
}

static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);

fn as_object(v: Option<&Value>) -> &Map<String, Value> {
    v.and_then(Value::as_object).unwrap_or(&EMPTY)
}

fn as_list(v: Option<&Value>) -> &[Value] {
    v.and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// A string as it is, anything else as compact JSON.
pub fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => crate::pyjson::to_compact(other),
    }
}
