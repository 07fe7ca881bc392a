//! `diff claude`: the generated document against the target on disk,
//! compared as sets of entries so order and unmanaged content never count.
//!
//! Entry spellings: the permission rule itself for `deny`, `ask` and the
//! allows twsrt owns (`WebFetch(domain:...)`, `Edit(...)`); `network:DOMAIN` for
//! `sandbox.network.allowedDomains`; `filesystem.allowRead:PATH` for
//! `sandbox.filesystem.allowRead` (twsrt's: an entry on disk only widens);
//! `network.config:KEY`,
//! `filesystem.config:KEY` and `sandbox.config:KEY` for a pass-through key
//! whose value differs (listed as missing when generated, as extra when on
//! disk; a `null` counts as absent, and values compare as Python's `==`);
//! `hook:PreToolUse <matcher> <command>` for twsrt's hook entry, compared
//! only when `[targets] claude_hook` generates one.
//! Each entry also gets its direction from [`crate::drift`], by its section
//! (the hook entry has no list meaning there: a difference in it widens).

use std::borrow::Cow;
use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::agent::claude::allow_read::KEY as ALLOW_READ;
use crate::agent::claude::hook_entry;
use crate::agent::claude::merge::is_managed_allow;
use crate::agent::claude::render::{MANAGED_PATH_LISTS, NETWORK_KEYS, SANDBOX_KEYS};
use crate::compose::equality_key;
use crate::drift::{self, Difference, Side};

/// The differences found, each with its direction, in the order found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Entries {
    /// Generated, not on disk.
    pub missing: Vec<Difference>,
    /// On disk, not generated.
    pub extra: Vec<Difference>,
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
        let managed = |s: &str| section != "allow" || is_managed_allow(s);
        out.compare_sets(
            "",
            &format!("permissions.{section}"),
            list(gen_permissions, section),
            list(disk_permissions, section),
            managed,
        );
    }
    let (gen_sandbox, disk_sandbox) = (object(generated, "sandbox"), object(on_disk, "sandbox"));
    let (gen_network, disk_network) = (
        object(gen_sandbox, "network"),
        object(disk_sandbox, "network"),
    );
    out.compare_sets(
        "network:",
        "sandbox.network.allowedDomains",
        list(gen_network, "allowedDomains"),
        list(disk_network, "allowedDomains"),
        |_| true,
    );
    out.compare_keys(
        ("network.config", "sandbox.network"),
        &compared(&NETWORK_KEYS, gen_network),
        gen_network,
        disk_network,
    );
    let (gen_filesystem, disk_filesystem) = (
        object(gen_sandbox, "filesystem"),
        object(disk_sandbox, "filesystem"),
    );
    out.compare_sets(
        "filesystem.allowRead:",
        "sandbox.filesystem.allowRead",
        list(gen_filesystem, ALLOW_READ),
        list(disk_filesystem, ALLOW_READ),
        |_| true,
    );
    out.compare_keys(
        ("filesystem.config", "sandbox.filesystem"),
        &MANAGED_PATH_LISTS,
        gen_filesystem,
        disk_filesystem,
    );
    out.compare_keys(
        ("sandbox.config", "sandbox"),
        &compared(&SANDBOX_KEYS, gen_sandbox),
        gen_sandbox,
        disk_sandbox,
    );
    // twsrt's hook entry, when it generates one.
    let want_hooks = hook_entry::entries(generated);
    if !want_hooks.is_empty() {
        let have_hooks = hook_entry::entries(on_disk);
        out.compare_sets(
            "hook:",
            "hooks.PreToolUse",
            &want_hooks,
            &have_hooks,
            |_| true,
        );
    }
    out
}

impl Entries {
    /// Generated entries (those `keep` accepts) that are not on disk are
    /// missing, entries on disk (those `keep` accepts) that are not
    /// generated are extra: a comparison of sets, reported as `prefix` +
    /// entry, each once.
    fn compare_sets<'a>(
        &mut self,
        prefix: &str,
        section: &str,
        want: &'a [Value],
        have: &'a [Value],
        keep: impl Fn(&str) -> bool,
    ) {
        // Borrowed from the documents: a large policy has tens of thousands
        // of entries on each side, and a copy of each is what costs most.
        let shown = |items: &'a [Value]| -> Vec<Cow<'a, str>> {
            items.iter().map(display).filter(|s| keep(s)).collect()
        };
        let (want, have) = (shown(want), shown(have));
        let (want_set, have_set): (HashSet<&str>, HashSet<&str>) = (
            want.iter().map(AsRef::as_ref).collect(),
            have.iter().map(AsRef::as_ref).collect(),
        );
        let mut reported: HashSet<&str> = HashSet::new();
        let meaning = drift::list_meaning(section.rsplit('.').next().unwrap_or(section));
        for (side, these, others) in [
            (Side::Missing, &want, &have_set),
            (Side::Extra, &have, &want_set),
        ] {
            for text in these {
                let text: &str = text;
                if !others.contains(text) && reported.insert(text) {
                    let shown = format!("{prefix}{text}");
                    let direction = drift::entry_direction(meaning, side);
                    self.push(Difference::new(section, text, &shown, side, direction));
                }
            }
        }
    }

    /// A pass-through key whose value differs: missing when generated,
    /// extra when on disk (`null` counts as absent).
    fn compare_keys(
        &mut self,
        (prefix, section): (&str, &str),
        keys: &[&str],
        generated: &Map<String, Value>,
        on_disk: &Map<String, Value>,
    ) {
        for key in keys {
            let want = generated.get(*key).filter(|v| !v.is_null());
            let have = on_disk.get(*key).filter(|v| !v.is_null());
            let same = match (want, have) {
                (Some(a), Some(b)) => equality_key(a) == equality_key(b),
                (None, None) => true,
                _ => false,
            };
            if same {
                continue;
            }
            let direction = drift::value_change(key, want, have);
            for (side, value) in [(Side::Missing, want), (Side::Extra, have)] {
                let Some(value) = value else { continue };
                let shown = format!("{prefix}:{key}");
                let entry = drift::canonical::shown(value);
                let section = format!("{section}.{key}");
                self.push(Difference::new(&section, &entry, &shown, side, direction));
            }
        }
    }
}

impl Entries {
    fn push(&mut self, difference: Difference) {
        match difference.side {
            Side::Missing => self.missing.push(difference),
            Side::Extra => self.extra.push(difference),
        }
    }

    /// The missing entries, then the extra ones, each in the order found.
    pub fn into_differences(self) -> Vec<Difference> {
        let Entries { mut missing, extra } = self;
        missing.extend(extra);
        missing
    }
}

/// The pass-through keys compared: all of `keys` but those twsrt has passed
/// through only since issue 33 (`credentials`, `strictAllowlist`), which
/// are compared only when generated, so a file that set them by hand before
/// is not drift the merge (which keeps keys it does not generate) could
/// never clear.
fn compared<'k>(keys: &[&'k str], generated: &Map<String, Value>) -> Vec<&'k str> {
    keys.iter()
        .copied()
        .filter(|k| !GENERATED_ONLY.contains(k) || generated.contains_key(*k))
        .collect()
}

const GENERATED_ONLY: [&str; 2] = ["credentials", "strictAllowlist"];

static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);

/// The object `key` of `parent`; an empty one when it is absent or not an object.
fn object<'a>(parent: &'a Map<String, Value>, key: &str) -> &'a Map<String, Value> {
    parent.get(key).and_then(Value::as_object).unwrap_or(&EMPTY)
}

/// The list `key` of `parent`; an empty one when it is absent or not a list.
fn list<'a>(parent: &'a Map<String, Value>, key: &str) -> &'a [Value] {
    parent
        .get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
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
