//! The `srt` source kind: Sandbox Runtime settings.

use std::path::Path;

use serde_json::Value;

use crate::compose::{Composed, FxHashMap, ParsedFragment};
use crate::error::{Error, Result};
use crate::jsonc::Json;
use crate::rules::{Action, Scope, SecurityRule};
use crate::source::{SourceKind, opposing, string_list};

/// Lists that become rules, in rule order.
const RULE_LISTS: [(&str, &str, Scope, Action); 5] = [
    ("filesystem", "denyRead", Scope::Read, Action::Deny),
    ("filesystem", "denyWrite", Scope::Write, Action::Deny),
    ("filesystem", "allowWrite", Scope::Write, Action::Allow),
    ("network", "allowedDomains", Scope::Network, Action::Allow),
    ("network", "deniedDomains", Scope::Network, Action::Deny),
];

/// Schema checks on one fragment. Unknown keys pass through untouched: srt
/// grows new settings faster than twsrt, and the canonical file is srt's.
pub fn validate(path: &Path, fragment: &Json) -> Result<()> {
    for section in ["filesystem", "network"] {
        match fragment.get(section) {
            None | Some(Json::Object(_)) => {}
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

/// Lists whose values may not be in the other list of the pair, in check order.
type ListName = (&'static str, &'static str);

const OPPOSING: [(ListName, ListName); 2] = [
    (("network", "allowedDomains"), ("network", "deniedDomains")),
    (("filesystem", "allowWrite"), ("filesystem", "denyWrite")),
];

/// The same value may not be both allowed and denied by the selected fragments.
pub fn check_opposing(profile: &str, fragments: &[ParsedFragment]) -> Result<()> {
    for ((s1, k1), (s2, k2)) in OPPOSING {
        let first = |section: &str, key: &str| -> FxHashMap<&str, &ParsedFragment> {
            let mut map = FxHashMap::default();
            for f in fragments {
                for v in list(&f.value, section, key) {
                    map.entry(v).or_insert(f);
                }
            }
            map
        };
        let allowed = first(s1, k1);
        for f in fragments {
            for v in list(&f.value, s2, k2) {
                if let Some(a) = allowed.get(v) {
                    return Err(opposing(
                        profile,
                        SourceKind::Srt,
                        v,
                        (&format!("{s1}.{k1}"), &a.path),
                        (&format!("{s2}.{k2}"), &f.path),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// [`check_opposing`] on the composed lists, through the composition's own
/// index of each list.
pub fn check_opposing_composed(profile: &str, composed: &Composed) -> Result<()> {
    for ((s1, k1), (s2, k2)) in OPPOSING {
        let Some(first) = composed.lookup(&format!("/{s1}/{k1}")) else {
            continue;
        };
        // `find_map` rather than a loop: the entries come through nested
        // iterators, which fold into plain loops this way.
        let found = composed
            .list(&format!("/{s2}/{k2}"))
            .find_map(|(v, path)| Some((v, first.source_of(v)?, path)));
        if let Some((v, a, path)) = found {
            return Err(opposing(
                profile,
                SourceKind::Srt,
                v,
                (&format!("{s1}.{k1}"), a),
                (&format!("{s2}.{k2}"), path),
            ));
        }
    }
    Ok(())
}

fn list<'a>(value: &'a Value, section: &str, key: &str) -> impl Iterator<Item = &'a str> {
    value
        .get(section)
        .and_then(|s| s.get(key))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

/// The rules of `composed`, in order, list by list as `RULE_LISTS` has
/// them; a list whose (scope, action) `keep` refuses is skipped unread.
pub fn rule_iter(
    composed: &Composed,
    keep: impl Fn(Scope, Action) -> bool,
) -> impl Iterator<Item = SecurityRule<'_>> {
    RULE_LISTS
        .into_iter()
        .filter(move |&(_, _, scope, action)| keep(scope, action))
        .flat_map(move |(section, key, scope, action)| {
            let pointer = format!("/{section}/{key}");
            composed.strings(&pointer).map(move |pattern| SecurityRule {
                scope,
                action,
                pattern,
                source: SourceKind::Srt,
            })
        })
}
