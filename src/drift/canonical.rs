//! Directions for a JSON document against the one on disk: the canonical
//! srt and bash outputs, and (through [`compare_values`]) any other JSON
//! shaped like them. Objects are walked key by key, lists compared as sets
//! of entries, other values as a change of the key they belong to.

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
pub const SRT_SCHEMA: Schema = crate::source::srt_schema::LEVELS;

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
    if object(policy) && object(disk) {
        compare_objects(path, as_object(policy), as_object(disk), schema, out);
    } else if array(policy) && array(disk) {
        compare_lists(path, key, as_list(policy), as_list(disk), out);
    } else {
        let direction = value_change(key, policy, disk);
        for (side, value) in [(Side::Missing, policy), (Side::Extra, disk)] {
            if let Some(value) = value {
                out.push(Difference::plain(path, &shown(value), side, direction));
            }
        }
    }
}

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
            (None, Some(value)) if unknown && !value.is_null() => out.push(Difference::plain(
                &child,
                &shown(value),
                Side::Extra,
                Direction::Widening,
            )),
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
