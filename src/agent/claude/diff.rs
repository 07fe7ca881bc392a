//! `diff claude`: the generated document against the target on disk,
//! compared as sets of entries so order and unmanaged content never count.
//!
//! Entry spellings: the permission rule itself for `deny`, `ask` and
//! `WebFetch(domain:...)` allows; `network:DOMAIN` for
//! `sandbox.network.allowedDomains`; `network.config:KEY`,
//! `filesystem.config:KEY` and `sandbox.config:KEY` for a pass-through key
//! whose value differs (listed as missing when generated, as extra when on
//! disk; a `null` counts as absent, and values compare as Python's `==`).

use std::borrow::Cow;

#[cfg(test)]
use serde_json::Map;
use serde_json::Value;

use crate::agent::claude::merge::WEB_FETCH_PREFIX;
use crate::agent::claude::render::{Domains, Generated};
use crate::agent::claude::render::{FILESYSTEM_KEYS, NETWORK_KEYS, SANDBOX_KEYS};
use crate::compose::{FxHashSet, equality_key};
use crate::jsonc::Json;

#[derive(Debug, Default, PartialEq, Eq)]
pub struct Entries {
    pub missing: Vec<String>,
    pub extra: Vec<String>,
}

/// Compare `generated` with `on_disk`. A section of the wrong type on
/// either side (a list where an object belongs, say) reads as empty, so it
/// shows up as drift rather than stopping the comparison.
#[cfg(test)]
pub fn entries(generated: &Map<String, Value>, on_disk: &Map<String, Value>) -> Entries {
    let on_disk = Json::Object(
        on_disk
            .iter()
            .map(|(k, v)| (Cow::Borrowed(k.as_str()), Json::of(v)))
            .collect(),
    );
    let on_disk = &on_disk;
    let gen_permissions = object(generated, "permissions");
    let gen_sandbox = object(generated, "sandbox");
    let gen_network = object(gen_sandbox, "network");
    let gen_filesystem = object(gen_sandbox, "filesystem");
    compare(
        &|section, f: &mut dyn FnMut(&str)| {
            for item in list(gen_permissions, section).into_iter().flatten() {
                f(&display(item));
            }
        },
        &|f: &mut dyn FnMut(&str)| {
            for item in list(gen_network, "allowedDomains").into_iter().flatten() {
                f(&display(item));
            }
        },
        [
            &|key| present(gen_network, key),
            &|key| present(gen_filesystem, key),
            &|key| present(gen_sandbox, key),
        ],
        on_disk,
    )
}

/// [`entries`] for the generated document as the renderer describes it,
/// without building it, and the file on disk as a view of its text (a JSON
/// object).
pub fn entries_generated(generated: &Generated, on_disk: &Json) -> Entries {
    let (network, domains) = generated.network();
    let filesystem = generated.filesystem();
    compare(
        &|section, f: &mut dyn FnMut(&str)| {
            generated.permissions(section, &mut String::new(), |text| f(text));
        },
        &|f: &mut dyn FnMut(&str)| match &domains {
            Domains::Rules(domains) => domains.iter().for_each(|d| f(d)),
            Domains::List(items) => {
                for item in items.iter().copied().flatten() {
                    f(&display(item));
                }
            }
        },
        [
            &|key| not_null(network.get(key)),
            &|key| not_null(filesystem.get(key)),
            &|key| not_null(generated.sandbox_key(key)),
        ],
        on_disk,
    )
}

/// Calls its second argument with each generated entry of a permission list.
type EachPermission<'g> = dyn Fn(&str, &mut dyn FnMut(&str)) + 'g;

/// The generated value of a pass-through key, if present.
type ConfigLookup<'g, 'v> = dyn Fn(&str) -> Option<Cow<'v, Value>> + 'g;

/// Calls its argument with each generated entry (as the report spells it).
type EachEntry<'g> = dyn Fn(&mut dyn FnMut(&str)) + 'g;

/// The comparison, with the generated side given as functions: the entries
/// of a permission list, the allowed domains, and the present (non-null)
/// value of a pass-through key of `network`, `filesystem` and `sandbox`.
fn compare<'v>(
    permissions: &EachPermission,
    domains: &EachEntry,
    config: [&ConfigLookup<'_, 'v>; 3],
    on_disk: &Json,
) -> Entries {
    let mut out = Entries::default();
    let disk_permissions = disk_object(on_disk, "permissions");
    for section in ["deny", "ask", "allow"] {
        let managed = |s: &str| section != "allow" || s.starts_with(WEB_FETCH_PREFIX);
        out.compare_sets(
            "",
            &|f: &mut dyn FnMut(&str)| permissions(section, f),
            disk_list(disk_permissions, section),
            managed,
        );
    }

    let disk_sandbox = disk_object(on_disk, "sandbox");
    let disk_network = disk_object(disk_sandbox, "network");
    out.compare_sets(
        "network:",
        domains,
        disk_list(disk_network, "allowedDomains"),
        |_| true,
    );

    let disk_filesystem = disk_object(disk_sandbox, "filesystem");
    let [network, filesystem, sandbox] = config;
    out.compare_keys("network.config", &NETWORK_KEYS, network, disk_network);
    out.compare_keys(
        "filesystem.config",
        &FILESYSTEM_KEYS,
        filesystem,
        disk_filesystem,
    );
    out.compare_keys("sandbox.config", &SANDBOX_KEYS, sandbox, disk_sandbox);
    out
}

impl Entries {
    /// Generated entries (those `keep` accepts) that are not on disk are
    /// missing, entries on disk (`have`, those `keep` accepts) that are not
    /// generated are extra: a comparison of sets, reported as `prefix` +
    /// entry.
    ///
    /// A file twsrt wrote lists the entries in the order they are generated,
    /// so both sides are walked in step first; the leading entries they
    /// share are in both sets and need no lookup. Only what follows the
    /// first difference is compared through hash sets (which then hold
    /// every entry on disk, shared or not, and every generated one).
    fn compare_sets(
        &mut self,
        prefix: &str,
        want: &EachEntry,
        have: Option<&[Json]>,
        keep: impl Fn(&str) -> bool,
    ) {
        let have: Vec<Cow<str>> = have
            .unwrap_or_default()
            .iter()
            .map(disk_display)
            .filter(|s| keep(s))
            .collect();
        // In step: `shared` leading entries are equal on both sides; the
        // generated entries after them are collected.
        let mut shared = 0;
        let mut rest: Vec<String> = Vec::new();
        want(&mut |text: &str| {
            if !keep(text) {
                return;
            }
            if rest.is_empty() && have.get(shared).is_some_and(|h| h == text) {
                shared += 1;
            } else {
                rest.push(text.to_string());
            }
        });
        if rest.is_empty() && shared == have.len() {
            return;
        }
        let with_prefix = |s: &str| {
            let mut entry = String::with_capacity(prefix.len() + s.len());
            entry.push_str(prefix);
            entry.push_str(s);
            entry
        };
        let on_disk: FxHashSet<&str> = have.iter().map(|s| s.as_ref()).collect();
        let generated: FxHashSet<&str> = have[..shared]
            .iter()
            .map(|s| s.as_ref())
            .chain(rest.iter().map(String::as_str))
            .collect();
        let mut missing: FxHashSet<&str> = FxHashSet::default();
        for text in &rest {
            if !on_disk.contains(text.as_str()) && missing.insert(text) {
                self.missing.push(with_prefix(text));
            }
        }
        let mut extra: FxHashSet<&str> = FxHashSet::default();
        for text in &have[shared..] {
            if !generated.contains(text.as_ref()) && extra.insert(text) {
                self.extra.push(with_prefix(text));
            }
        }
    }

    fn compare_keys<'v>(
        &mut self,
        prefix: &str,
        keys: &[&str],
        generated: &dyn Fn(&str) -> Option<Cow<'v, Value>>,
        on_disk: &Json,
    ) {
        for key in keys {
            let want = generated(key);
            let have = on_disk.get(key).filter(|v| !v.is_null());
            let same = match (&want, have) {
                (Some(a), Some(b)) => equality_key(a) == equality_key(&b.to_value()),
                (None, None) => true,
                _ => false,
            };
            if same {
                continue;
            }
            if want.is_some() {
                self.missing.push(format!("{prefix}:{key}"));
            }
            if have.is_some() {
                self.extra.push(format!("{prefix}:{key}"));
            }
        }
    }
}

fn not_null(value: Option<Cow<'_, Value>>) -> Option<Cow<'_, Value>> {
    value.filter(|v| !v.is_null())
}

#[cfg(test)]
fn present<'a>(map: &'a Map<String, Value>, key: &str) -> Option<Cow<'a, Value>> {
    map.get(key).filter(|v| !v.is_null()).map(Cow::Borrowed)
}

#[cfg(test)]
static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);

#[cfg(test)]
fn object<'a>(parent: &'a Map<String, Value>, key: &str) -> &'a Map<String, Value> {
    parent.get(key).and_then(Value::as_object).unwrap_or(&EMPTY)
}

#[cfg(test)]
fn list<'a>(parent: &'a Map<String, Value>, key: &str) -> Option<&'a Vec<Value>> {
    parent.get(key).and_then(Value::as_array)
}

static EMPTY_OBJECT: Json<'static> = Json::Object(Vec::new());

/// The object `key` of a view of an object; an empty one when it is absent
/// or not an object.
fn disk_object<'j, 'a>(parent: &'j Json<'a>, key: &str) -> &'j Json<'a> {
    match parent.get(key) {
        Some(object @ Json::Object(_)) => object,
        _ => &EMPTY_OBJECT,
    }
}

fn disk_list<'j, 'a>(parent: &'j Json<'a>, key: &str) -> Option<&'j [Json<'a>]> {
    parent.get(key).and_then(Json::as_array)
}

/// How an entry reads in the report: strings as they are, other values as
/// Python would print them (`5`, `True`, `None`; lists and objects as JSON).
fn display(value: &Value) -> Cow<'_, str> {
    match value {
        Value::String(s) => Cow::Borrowed(s),
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(_) | Value::Array(_) | Value::Object(_) => {
            crate::pyjson::to_compact(value).into()
        }
    }
}

/// [`display`] for an entry on disk.
fn disk_display<'j>(value: &'j Json) -> Cow<'j, str> {
    match value {
        Json::String(s) => Cow::Borrowed(s),
        Json::Null => "None".into(),
        Json::Bool(true) => "True".into(),
        Json::Bool(false) => "False".into(),
        Json::Number(_) | Json::Array(_) | Json::Object(_) => {
            crate::pyjson::to_compact(&value.to_value()).into()
        }
    }
}
