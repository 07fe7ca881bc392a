//! The permission entries of a config in the order OpenCode 1.18.33
//! evaluates them (doc/clients.md "OpenCode: permissions"), each with the
//! section of the file it comes from.
//!
//! The deprecated `tools` map (`{"read": true}`) becomes permission keys
//! placed *before* the `permission` object's: a key both name keeps the
//! `tools` place and the `permission` value, so `"tools": {"read": true,
//! "*": true}` puts a `"*": "allow"` after twsrt's `read` denies. An
//! agent's own permission (`agent.NAME`, and `mode.NAME`, which OpenCode
//! reads as an agent) is built the same way from its `tools` and
//! `permission` and comes after the top level.

use serde_json::{Map, Value};

use super::merge::{self, Rule};

/// One entry and the section it is written in (`permission.read`,
/// `tools.*`, `agent.build.permission.bash`).
#[derive(Debug, Clone)]
pub struct Placed {
    pub section: String,
    pub rule: Rule,
    /// Whether it belongs to the top level (every agent evaluates it).
    pub top: bool,
}

/// The top-level entries, then every agent's, in evaluation order.
pub fn entries(doc: &Value) -> Result<Vec<Placed>, String> {
    let Value::Object(map) = doc else {
        return Err("the config must be a JSON object".to_string());
    };
    let mut out = level(map, "", true)?;
    for group in ["agent", "mode"] {
        if let Some(Value::Object(agents)) = map.get(group) {
            for (name, agent) in agents {
                if let Value::Object(agent) = agent {
                    out.extend(level(agent, &format!("{group}.{name}."), false)?);
                }
            }
        }
    }
    Ok(out)
}

/// The entries of one level (the config, or an agent): its `tools` keys
/// first, each holding the `permission` value of the same key if any,
/// then the `permission` keys `tools` does not name.
fn level(map: &Map<String, Value>, prefix: &str, top: bool) -> Result<Vec<Placed>, String> {
    let permission =
        merge::permission_object(map.get("permission")).map_err(|m| format!("{prefix}{m}"))?;
    let mut keys: Vec<(String, Value, &'static str)> = Vec::new();
    if let Some(Value::Object(tools)) = map.get("tools") {
        for (tool, enabled) in tools {
            let key = match tool.as_str() {
                "write" | "edit" | "patch" => "edit",
                other => other,
            };
            let action = if truthy(enabled) { "allow" } else { "deny" };
            match keys.iter_mut().find(|(k, _, _)| k == key) {
                Some(slot) => slot.1 = Value::String(action.to_string()),
                None => keys.push((key.to_string(), Value::String(action.to_string()), "tools")),
            }
        }
    }
    for (key, value) in &permission {
        match keys.iter_mut().find(|(k, _, _)| k == key) {
            Some(slot) => *slot = (key.clone(), value.clone(), "permission"),
            None => keys.push((key.clone(), value.clone(), "permission")),
        }
    }
    let mut out = Vec::new();
    for (key, value, from) in keys {
        let mut one = Map::new();
        one.insert(key.clone(), value);
        for rule in merge::rules_of(&one).map_err(|m| format!("{prefix}{m}"))? {
            out.push(Placed {
                section: format!("{prefix}{from}.{key}"),
                rule,
                top,
            });
        }
    }
    Ok(out)
}

/// JavaScript's truthiness, which OpenCode applies to a `tools` value.
fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}
