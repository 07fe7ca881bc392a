//! jsonc-parser's syntax tree to `serde_json` values, with the checks the
//! reference's JSON module makes on values: duplicate keys, numbers that
//! overflow a double, integers longer than Python converts.

use jsonc_parser::ast;
use serde_json::map::Entry;
use serde_json::{Map, Number, Value};

use super::{MAX_INT_DIGITS, PosError};

fn value(node: ast::Value<'_>) -> std::result::Result<Value, PosError> {
    Ok(match node {
        ast::Value::Object(members) => object(members)?,
        ast::Value::Array(array) => {
            let mut items = Vec::with_capacity(array.elements.len());
            for element in array.elements {
                items.push(value(element)?);
            }
            Value::Array(items)
        }
        ast::Value::StringLit(lit) => Value::String(lit.value.into_owned()),
        ast::Value::NumberLit(lit) => Value::Number(number(lit.value, lit.range.start)?),
        ast::Value::BooleanLit(lit) => Value::Bool(lit.value),
        ast::Value::NullKeyword(_) => Value::Null,
    })
}

pub(super) fn object(object: ast::Object<'_>) -> std::result::Result<Value, PosError> {
    let mut map = Map::with_capacity(object.properties.len());
    for prop in object.properties {
        let (key, key_start) = match prop.name {
            ast::ObjectPropName::String(lit) => (lit.value.into_owned(), lit.range.start),
            // Unreachable with loose property names switched off.
            ast::ObjectPropName::Word(word) => {
                return Err((
                    word.range.start,
                    "object keys must be double-quoted strings".to_string(),
                ));
            }
        };
        // The map's own hash lookup finds duplicates: linear in the key count.
        match map.entry(key) {
            Entry::Vacant(slot) => {
                slot.insert(value(prop.value)?);
            }
            Entry::Occupied(slot) => {
                return Err((key_start, format!("duplicate key {:?}", slot.key())));
            }
        }
    }
    Ok(Value::Object(map))
}

pub(super) fn number(raw: &str, start: usize) -> std::result::Result<Number, PosError> {
    if raw.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
        match raw.parse::<f64>() {
            Ok(f) if f.is_finite() => {}
            _ => {
                return Err((
                    start,
                    format!("number {raw} is out of range (it overflows a double)"),
                ));
            }
        }
    } else {
        let digits = raw.len() - usize::from(raw.starts_with('-'));
        if digits > MAX_INT_DIGITS {
            return Err((
                start,
                format!(
                    "integer with {digits} digits is too long (at most {MAX_INT_DIGITS} are allowed)"
                ),
            ));
        }
    }
    raw.parse::<Number>()
        .map_err(|_| (start, format!("invalid number {raw}")))
}
