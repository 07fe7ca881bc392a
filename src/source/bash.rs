//! The `bash` source kind: command rules for the agents' app layer.

use std::path::Path;

use serde_json::Value;

use crate::error::{Error, Result};
use crate::rules::{Action, Scope, SecurityRule};
use crate::source::{bash_rule, string_list, strings, unknown_key};

/// The only keys a bash fragment may hold, in rule order.
const KEYS: [(&str, Action); 3] = [
    ("allow", Action::Allow),
    ("ask", Action::Ask),
    ("deny", Action::Deny),
];

/// Every bash list is a set (see [`SourceKind::set_lists`]); a command may
/// sit in only one of them.
pub const SET_LISTS: [&str; 3] = ["/allow", "/ask", "/deny"];

/// The keys as a level of [`crate::known_keys`].
const LEVELS: crate::known_keys::Levels = &[("", &["allow", "ask", "deny"])];

pub fn validate(path: &Path, fragment: &Value, allowed: &[String]) -> Result<()> {
    let Value::Object(members) = fragment else {
        return Err(Error::fragment(path, "the root must be an object"));
    };
    if let Some(unknown) = crate::known_keys::first_unknown(fragment, LEVELS, allowed) {
        let hint = crate::known_keys::nearest(&unknown.key, unknown.known)
            .map(|near| format!("; did you mean \"{near}\"?"))
            .unwrap_or_default();
        let message = format!(
            "unknown key `{}`; a bash fragment holds only allow, ask and deny{hint}",
            unknown.key
        );
        return Err(unknown_key(path, &unknown, message));
    }
    for (key, value) in members {
        string_list(path, key, value)?;
    }
    for (key, value) in members {
        let list = format!("/{key}");
        for (i, rule) in value.as_array().into_iter().flatten().enumerate() {
            if let Some(text) = rule.as_str()
                && let Err(problem) = bash_rule::canonical(text)
            {
                let at = (list.as_str(), list.as_str(), Some(i));
                return Err(crate::source::spelling::misspelt(path, at, text, problem));
            }
        }
    }
    Ok(())
}

/// The composed document with every rule in its canonical spelling
/// ([`bash_rule::canonical`]; the fragments were checked, so each rule has
/// one), each list without the duplicates that makes. `Err` names a rule
/// that two lists now share (`rm  -rf` allowed, `rm -rf` denied).
pub fn canonicalise(doc: &mut Value) -> std::result::Result<(), String> {
    let mut seen: std::collections::HashMap<String, &str> = Default::default();
    for (key, _) in KEYS {
        let Some(items) = doc.get_mut(key).and_then(Value::as_array_mut) else {
            continue;
        };
        let mut changed = false;
        for item in items.iter_mut() {
            if let Some(text) = item.as_str()
                && let Ok(std::borrow::Cow::Owned(rule)) = bash_rule::canonical(text)
            {
                *item = Value::String(rule);
                changed = true;
            }
        }
        if changed {
            let mut once = std::collections::HashSet::new();
            items.retain(|item| once.insert(item.as_str().map(str::to_string)));
        }
        for rule in items.iter().filter_map(Value::as_str) {
            if let Some(other) = seen.insert(rule.to_string(), key)
                && other != key
            {
                return Err(format!(
                    "bash rule {} is in {other} and in {key} once its spelling is made \
                     canonical (blanks collapsed, a trailing ` *` or `:*` dropped); one rule \
                     cannot be both",
                    crate::source::quoted(rule)
                ));
            }
        }
    }
    Ok(())
}

/// The rules of the composed document, in order: allow, ask, then deny.
pub fn rules(doc: &Value) -> impl Iterator<Item = SecurityRule<'_>> {
    KEYS.into_iter().flat_map(|(key, action)| {
        strings(doc, &format!("/{key}")).map(move |pattern| SecurityRule {
            scope: Scope::Execute,
            action,
            pattern,
        })
    })
}
