//! The `bash` source kind: command rules for the agents' app layer.

use std::path::Path;

use serde_json::Value;

use crate::compose::{Composed, FxHashMap, ParsedFragment};
use crate::error::{Error, Result};
use crate::jsonc::Json;
use crate::rules::{Action, Scope, SecurityRule};
use crate::source::{SourceKind, opposing, string_list};

/// The only keys a bash fragment may hold, in rule order.
const KEYS: [(&str, Action); 3] = [
    ("allow", Action::Allow),
    ("ask", Action::Ask),
    ("deny", Action::Deny),
];

pub fn validate(path: &Path, fragment: &Json) -> Result<()> {
    let Json::Object(members) = fragment else {
        return Err(Error::fragment(path, "the root must be an object"));
    };
    for (key, value) in members {
        if !KEYS.iter().any(|(k, _)| k == key) {
            return Err(Error::fragment(
                path,
                format!("unknown key `{key}`; a bash fragment holds only allow, ask and deny"),
            ));
        }
        string_list(path, key, value)?;
    }
    Ok(())
}

/// A command may sit in only one of allow, ask and deny across the fragments.
pub fn check_opposing(profile: &str, fragments: &[ParsedFragment]) -> Result<()> {
    let mut first: FxHashMap<&str, (&str, &ParsedFragment)> = FxHashMap::default();
    for (key, _) in KEYS {
        for f in fragments {
            for v in list(&f.value, key) {
                match first.get(v) {
                    Some((other_key, other)) if *other_key != key => {
                        return Err(opposing(
                            profile,
                            SourceKind::Bash,
                            v,
                            (other_key, &other.path),
                            (key, &f.path),
                        ));
                    }
                    Some(_) => {}
                    None => {
                        first.insert(v, (key, f));
                    }
                }
            }
        }
    }
    Ok(())
}

/// [`check_opposing`] on the composed lists, through the composition's own
/// index of each list: an entry of a later key is looked up in each earlier
/// key's list, so the first key that has it is the one named.
pub fn check_opposing_composed(profile: &str, composed: &Composed) -> Result<()> {
    let lists = KEYS.map(|(key, _)| composed.lookup(&format!("/{key}")));
    for (later, (key, _)) in KEYS.iter().enumerate().skip(1) {
        // `find_map` rather than a loop: the entries come through nested
        // iterators, which fold into plain loops this way.
        let found = composed.list(&format!("/{key}")).find_map(|(v, path)| {
            KEYS.iter()
                .zip(&lists)
                .take(later)
                .find_map(|((other_key, _), list)| Some((*other_key, list.as_ref()?.source_of(v)?)))
                .map(|(other_key, other)| (v, other_key, other, path))
        });
        if let Some((v, other_key, other, path)) = found {
            return Err(opposing(
                profile,
                SourceKind::Bash,
                v,
                (other_key, other),
                (key, path),
            ));
        }
    }
    Ok(())
}

fn list<'a>(value: &'a Value, key: &str) -> impl Iterator<Item = &'a str> {
    value
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

/// The rules of `composed`, in order: allow, ask, then deny; a list whose
/// (scope, action) `keep` refuses is skipped unread.
pub fn rule_iter(
    composed: &Composed,
    keep: impl Fn(Scope, Action) -> bool,
) -> impl Iterator<Item = SecurityRule<'_>> {
    KEYS.into_iter()
        .filter(move |&(_, action)| keep(Scope::Execute, action))
        .flat_map(move |(key, action)| {
            composed
                .strings(&format!("/{key}"))
                .map(move |pattern| SecurityRule {
                    scope: Scope::Execute,
                    action,
                    pattern,
                    source: SourceKind::Bash,
                })
        })
}
