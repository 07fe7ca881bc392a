//! `diff claude`: the generated document against the target on disk,
//! compared as sets of entries so order and unmanaged content never count.
//!
//! Entry spellings: the permission rule itself for `deny`, `ask` and
//! `WebFetch(domain:...)` allows; `network:DOMAIN` for
//! `sandbox.network.allowedDomains`; `network.config:KEY`,
//! `filesystem.config:KEY` and `sandbox.config:KEY` for a pass-through key
//! whose value differs (listed as missing when generated, as extra when on
//! disk; a `null` counts as absent, and values compare as Python's `==`).

use std::collections::HashSet;
use std::sync::LazyLock;

use serde_json::{Map, Value};

use crate::agent::claude::merge::WEB_FETCH_PREFIX;
use crate::agent::claude::render::{FILESYSTEM_KEYS, NETWORK_KEYS, SANDBOX_KEYS};
use crate::compose::equality_key;

#[derive(Debug, Default, PartialEq, Eq)]
pub struct Entries {
    pub missing: Vec<String>,
    pub extra: Vec<String>,
}

/// Compare `generated` with `on_disk`. A section of the wrong type on
/// either side (a list where an object belongs, say) reads as empty, so it
/// shows up as drift rather than stopping the comparison.
pub fn entries(generated: &Map<String, Value>, on_disk: &Map<String, Value>) -> Entries {
    let mut out = Entries::default();
    let (gen_permissions, disk_permissions) = (
        object(generated, "permissions"),
        object(on_disk, "permissions"),
    );
    for section in ["deny", "ask", "allow"] {
        let managed = |s: &str| section != "allow" || s.starts_with(WEB_FETCH_PREFIX);
        out.compare_sets(
            texts(list(gen_permissions, section), "", managed),
            texts(list(disk_permissions, section), "", managed),
        );
    }

    let (gen_sandbox, disk_sandbox) = (object(generated, "sandbox"), object(on_disk, "sandbox"));
    let (gen_network, disk_network) = (
        object(gen_sandbox, "network"),
        object(disk_sandbox, "network"),
    );
    let all = |_: &str| true;
    out.compare_sets(
        texts(list(gen_network, "allowedDomains"), "network:", all),
        texts(list(disk_network, "allowedDomains"), "network:", all),
    );

    let gen_filesystem = object(gen_sandbox, "filesystem");
    let disk_filesystem = object(disk_sandbox, "filesystem");
    out.compare_keys("network.config", &NETWORK_KEYS, gen_network, disk_network);
    out.compare_keys(
        "filesystem.config",
        &FILESYSTEM_KEYS,
        gen_filesystem,
        disk_filesystem,
    );
    out.compare_keys("sandbox.config", &SANDBOX_KEYS, gen_sandbox, disk_sandbox);
    out
}

impl Entries {
    fn compare_sets(&mut self, want: HashSet<String>, have: HashSet<String>) {
        self.missing.extend(want.difference(&have).cloned());
        self.extra.extend(have.difference(&want).cloned());
    }

    fn compare_keys(
        &mut self,
        prefix: &str,
        keys: &[&str],
        generated: &Map<String, Value>,
        on_disk: &Map<String, Value>,
    ) {
        for key in keys {
            let want = present(generated, key);
            let have = present(on_disk, key);
            let same = match (want, have) {
                (Some(a), Some(b)) => equality_key(a) == equality_key(b),
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

fn present<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    map.get(key).filter(|v| !v.is_null())
}

static EMPTY: LazyLock<Map<String, Value>> = LazyLock::new(Map::new);

fn object<'a>(parent: &'a Map<String, Value>, key: &str) -> &'a Map<String, Value> {
    parent.get(key).and_then(Value::as_object).unwrap_or(&EMPTY)
}

fn list<'a>(parent: &'a Map<String, Value>, key: &str) -> Option<&'a Vec<Value>> {
    parent.get(key).and_then(Value::as_array)
}

/// The entries of a list as text (`prefix` + entry), keeping those `keep`
/// accepts.
fn texts(items: Option<&Vec<Value>>, prefix: &str, keep: impl Fn(&str) -> bool) -> HashSet<String> {
    items
        .into_iter()
        .flatten()
        .map(display)
        .filter(|s| keep(s))
        .map(|s| format!("{prefix}{s}"))
        .collect()
}

/// How an entry reads in the report: strings as they are, other values as
/// Python would print them (`5`, `True`, `None`; lists and objects as JSON).
fn display(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(_) | Value::Array(_) | Value::Object(_) => crate::pyjson::to_compact(value),
    }
}
