//! The `bash` source kind: command rules for the agents' app layer.

use std::path::Path;

use serde_json::Value;

use crate::error::{Error, Result};
use crate::rules::{Action, Scope, SecurityRule};
use crate::source::{string_list, strings, unknown_key};

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
