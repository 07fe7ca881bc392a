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
use crate::compose::{FxHashMap, FxHashSet, equality_key};
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
type ConfigLookup<'g, 'v> = dyn Fn(&str) -> Option<&'v Value> + 'g;

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
            texts(disk_list(disk_permissions, section), managed),
            managed,
        );
    }

    let disk_sandbox = disk_object(on_disk, "sandbox");
    let disk_network = disk_object(disk_sandbox, "network");
    out.compare_sets(
        "network:",
        domains,
        texts(disk_list(disk_network, "allowedDomains"), |_| true),
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
    /// Generated entries (those `keep` accepts) not in `have` are missing,
    /// entries of `have` not generated are extra; both are reported as
    /// `prefix` + entry. The generated side is never collected: each entry
    /// is looked up in `have` as it comes.
    fn compare_sets(
        &mut self,
        prefix: &str,
        want: &EachEntry,
        mut have: Texts,
        keep: impl Fn(&str) -> bool,
    ) {
        let with_prefix = |s: &str| {
            let mut entry = String::with_capacity(prefix.len() + s.len());
            entry.push_str(prefix);
            entry.push_str(s);
            entry
        };
        let mut missing: FxHashSet<String> = FxHashSet::default();
        want(&mut |text: &str| {
            if !keep(text) {
                return;
            }
            match have.get_mut(text) {
                Some(found) => *found = true,
                None => {
                    if !missing.contains(text) {
                        missing.insert(text.to_string());
                    }
                }
            }
        });
        self.missing.extend(missing.iter().map(|s| with_prefix(s)));
        self.extra.extend(
            have.iter()
                .filter(|(_, found)| !**found)
                .map(|(s, _)| with_prefix(s)),
        );
    }

    fn compare_keys<'v>(
        &mut self,
        prefix: &str,
        keys: &[&str],
        generated: &dyn Fn(&str) -> Option<&'v Value>,
        on_disk: &Json,
    ) {
        for key in keys {
            let want = generated(key);
            let have = on_disk.get(key).filter(|v| !v.is_null());
            let same = match (want, have) {
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

fn not_null(value: Option<&Value>) -> Option<&Value> {
    value.filter(|v| !v.is_null())
}

#[cfg(test)]
fn present<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    map.get(key).filter(|v| !v.is_null())
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

/// The entries of a list on disk as they read in the report, each with
/// whether it was generated too.
type Texts<'a> = FxHashMap<Cow<'a, str>, bool>;

/// The entries of a list as text, keeping those `keep` accepts.
fn texts<'j>(items: Option<&'j [Json]>, keep: impl Fn(&str) -> bool) -> Texts<'j> {
    let items = items.unwrap_or_default();
    let mut set = Texts::with_capacity_and_hasher(items.len(), Default::default());
    set.extend(
        items
            .iter()
            .map(disk_display)
            .filter(|s| keep(s))
            .map(|s| (s, false)),
    );
    set
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
