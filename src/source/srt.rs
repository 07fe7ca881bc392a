//! The `srt` source kind: Sandbox Runtime settings.

use std::path::Path;

use serde_json::Value;

use crate::error::{Error, Result};
use crate::rules::{Action, Scope, SecurityRule};
use crate::source::{string_list, strings};

/// Lists that become rules, in rule order.
const RULE_LISTS: [(&str, &str, Scope, Action); 5] = [
    ("filesystem", "denyRead", Scope::Read, Action::Deny),
    ("filesystem", "denyWrite", Scope::Write, Action::Deny),
    ("filesystem", "allowWrite", Scope::Write, Action::Allow),
    ("network", "allowedDomains", Scope::Network, Action::Allow),
    ("network", "deniedDomains", Scope::Network, Action::Deny),
];

/// The lists that are sets (see [`SourceKind::set_lists`]): the rule lists,
/// the socket paths and srt's per-command violation lists. Everything else,
/// `network.allowMachLookup` included, keeps fragment order.
pub const SET_LISTS: [&str; 7] = [
    "/filesystem/allowWrite",
    "/filesystem/denyWrite",
    "/filesystem/denyRead",
    "/network/allowedDomains",
    "/network/deniedDomains",
    "/network/allowUnixSockets",
    "/ignoreViolations/*",
];

/// Schema checks on one fragment. Unknown keys pass through untouched: srt
/// grows new settings faster than twsrt, and the canonical file is srt's.
pub fn validate(path: &Path, fragment: &Value) -> Result<()> {
    for section in ["filesystem", "network"] {
        match fragment.get(section) {
            None | Some(Value::Object(_)) => {}
            Some(_) => {
                return Err(Error::fragment(
                    path,
                    format!("`{section}` must be an object"),
                ));
            }
        }
    }
    for (section, key, _, _) in RULE_LISTS {
        if let Some(v) = fragment.get(section).and_then(|s| s.get(key)) {
            string_list(path, &format!("{section}.{key}"), v)?;
        }
    }
    Ok(())
}

/// Groups of lists a value may sit in only one of, in check order.
pub const OPPOSING: [&[&str]; 2] = [
    &["/network/allowedDomains", "/network/deniedDomains"],
    &["/filesystem/allowWrite", "/filesystem/denyWrite"],
];

/// The rules of the composed settings, list by list as `RULE_LISTS` has them.
pub fn rules(doc: &Value) -> Vec<SecurityRule<'_>> {
    RULE_LISTS
        .into_iter()
        .flat_map(|(section, key, scope, action)| {
            strings(doc, &format!("/{section}/{key}")).map(move |pattern| SecurityRule {
                scope,
                action,
                pattern,
            })
        })
        .collect()
}
