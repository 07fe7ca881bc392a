//! The `srt` source kind: Sandbox Runtime settings.

use std::path::Path;

use serde_json::Value;

use crate::error::{Error, Result};
use crate::known_keys::{self, Unknown};
use crate::rules::{Action, Scope, SecurityRule};
use crate::source::{string_list, strings, unknown_key};
use crate::srt::credentials;
use crate::srt::schema as srt_schema;

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

/// Schema checks on one fragment: first every key against srt's schema
/// ([`srt_schema`]: srt would drop an unknown one silently, a misspelt
/// `denyread` would be no rule at all; `allowed` names the keys config.toml
/// lets through), then the sections and rule lists.
pub fn validate(path: &Path, fragment: &Value, allowed: &[String]) -> Result<()> {
    if let Some(unknown) = known_keys::first_unknown(fragment, srt_schema::LEVELS, allowed) {
        let message = format!(
            "unknown srt key \"{}\" (srt {} drops unknown keys silently){}",
            unknown.dotted(),
            srt_schema::SRT_VERSION,
            hint(&unknown)
        );
        return Err(unknown_key(path, &unknown, message));
    }
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
    crate::source::spelling::check(path, fragment)?;
    crate::srt::credentials::check(path, fragment)
}

/// The nearest key of the same level, else a close key of another level
/// by its full path (`deniedDomains` at the top: `network.deniedDomains`),
/// else the level's keys.
fn hint(unknown: &Unknown) -> String {
    if known_keys::nearest(&unknown.key, unknown.known).is_none() {
        let elsewhere = srt_schema::LEVELS.iter().find_map(|(level, keys)| {
            let near = known_keys::nearest(&unknown.key, keys)?;
            (!level.contains("[]")).then(|| {
                if level.is_empty() {
                    near.to_string()
                } else {
                    format!("{level}.{near}")
                }
            })
        });
        if let Some(path) = elsewhere {
            return format!("; did you mean \"{path}\"?");
        }
    }
    known_keys::hint(&unknown.key, unknown.known)
}

/// Groups of lists a value may sit in only one of, in check order.
pub const OPPOSING: [&[&str]; 2] = [
    &["/network/allowedDomains", "/network/deniedDomains"],
    &["/filesystem/allowWrite", "/filesystem/denyWrite"],
];

/// The rules of the composed settings, list by list as `RULE_LISTS` has
/// them; after the read denies, every declared credential file (masked or
/// denied), which is a read deny for the agents' own file tools: a masked
/// file must not be readable through a Read tool either.
pub fn rules(doc: &Value) -> impl Iterator<Item = SecurityRule<'_>> {
    let list = move |(section, key, scope, action): (&str, &str, Scope, Action)| {
        strings(doc, &format!("/{section}/{key}")).map(move |pattern| SecurityRule {
            scope,
            action,
            pattern,
        })
    };
    let [read_denies, rest @ ..] = RULE_LISTS;
    let (section, key, _, _) = read_denies;
    let credentials = credentials::files(doc)
        // Once: a file denyRead lists already is that rule.
        .filter(move |file| !strings(doc, &format!("/{section}/{key}")).any(|p| p == file.name))
        .map(|file| SecurityRule {
            scope: Scope::Read,
            action: Action::Deny,
            pattern: file.name,
        });
    list(read_denies)
        .chain(credentials)
        .chain(rest.into_iter().flat_map(list))
}
#[cfg(test)]
mod credential_rules {
    use crate::rules::{Action, Scope};
    use serde_json::json;

    #[test]
    fn every_credential_file_is_a_read_deny_after_the_listed_ones_and_once() {
        let doc = json!({
            "filesystem": {"denyRead": ["~/.ssh", "~/.netrc"], "denyWrite": ["~/x"]},
            "credentials": {"files": [{"path": "~/.netrc", "mode": "mask"},
                                      {"path": "/etc/k", "mode": "deny"}],
                            "envVars": [{"name": "T", "mode": "deny"}]}});
        let rules: Vec<(Scope, Action, &str)> = super::rules(&doc)
            .map(|r| (r.scope, r.action, r.pattern))
            .collect();
        assert_eq!(
            rules,
            [
                (Scope::Read, Action::Deny, "~/.ssh"),
                (Scope::Read, Action::Deny, "~/.netrc"),
                (Scope::Read, Action::Deny, "/etc/k"),
                (Scope::Write, Action::Deny, "~/x"),
            ]
        );
    }
}
