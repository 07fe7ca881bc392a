//! `[features] network_proxy = true`, which twsrt owns in the managed
//! config.toml whenever the profile lets sandboxed commands reach the
//! network (`[permissions.twsrt.network] enabled = true` with its domain
//! lists).
//!
//! Contract (measured with Codex 0.171, doc/clients.md "Codex's network
//! lists, measured"): without the feature Codex ignores
//! `[permissions.twsrt.network.domains]` and a sandboxed command reaches any
//! host; with it every connection goes through Codex's proxy, which refuses
//! a denied host and one outside the allowlist (an empty allowlist refuses
//! all), and a connection around the proxy fails. So twsrt never writes the
//! network on without the feature: the fragment carries it, the merge sets
//! it (keeping a feature already on, in either form Codex reads), and `diff`
//! calls a feature that is off or missing widening.

use std::path::Path;

use toml_edit::{DocumentMut, Item, Table, value};

use crate::error::{Error, Result};

/// The profile table whose lists Codex reads only with the feature on.
const DOMAINS_TABLE: &str = "[permissions.twsrt.network.domains]";

/// The lines the fragment carries before its profile.
const FEATURE_LINES: &str = "[features]\nnetwork_proxy = true\n\n";

/// The fragment with `[features] network_proxy = true` before its profile,
/// when the profile writes domain lists (a fragment without them is
/// returned as it is).
pub fn with_network_proxy(fragment: String) -> String {
    if !emits_domains(&fragment) {
        return fragment;
    }
    match fragment.find("[permissions.twsrt]\n") {
        Some(at) => format!("{}{FEATURE_LINES}{}", &fragment[..at], &fragment[at..]),
        None => fragment,
    }
}

fn emits_domains(fragment: &str) -> bool {
    fragment.lines().any(|line| line.trim() == DOMAINS_TABLE)
}

/// The note of a write that turns the feature on in `existing` (the text
/// of the managed config.toml at `path`, `None` when it does not exist).
pub fn note(fragment: &str, existing: Option<&str>, path: &Path) -> Option<String> {
    let on = |text: &str| toml_edit::Document::parse(text).is_ok_and(|doc| is_on(doc.as_table()));
    if !on(fragment) || existing.is_some_and(on) {
        return None;
    }
    Some(format!(
        "codex: turns on Codex's network_proxy feature ([features] network_proxy = true in \
         {}): Codex (measured with 0.171) enforces the profile's allowed and denied domains \
         only with it, and without it a sandboxed command reaches any host",
        path.display()
    ))
}

/// Whether the fragment (`frag`) owns the feature.
pub fn owned(frag: &Table) -> bool {
    frag.get("features")
        .and_then(|f| f.get("network_proxy"))
        .is_some()
}

/// Whether a parsed config.toml turns the feature on: `[features]
/// network_proxy = true`, or `[features.network_proxy] enabled = true`.
pub fn is_on(doc: &Table) -> bool {
    let Some(feature) = doc.get("features").and_then(|f| f.get("network_proxy")) else {
        return false;
    };
    feature.as_bool() == Some(true) || feature.get("enabled").and_then(Item::as_bool) == Some(true)
}

/// Turn the feature on in `doc` when the fragment owns it. A feature
/// already on is left as it is; a `[features]` table the user has gets the
/// key (its other keys kept); without one, `[features]` ends the file.
/// A `features` that is not a table is refused, naming the file.
pub fn set(doc: &mut DocumentMut, frag: &Table, path: &Path) -> Result<()> {
    if !owned(frag) || is_on(doc.as_table()) {
        return Ok(());
    }
    let next = next_position(doc);
    match doc.get_mut("features") {
        None => {
            let mut table = Table::new();
            table.insert("network_proxy", value(true));
            table.set_position(Some(next));
            table.decor_mut().set_prefix("\n");
            doc.insert("features", Item::Table(table));
        }
        Some(Item::Table(table)) => match table.get_mut("network_proxy") {
            Some(Item::Table(sub)) => {
                sub.insert("enabled", value(true));
            }
            Some(Item::Value(old)) => {
                let decor = old.decor().clone();
                *old = true.into();
                *old.decor_mut() = decor;
            }
            _ => {
                table.insert("network_proxy", value(true));
            }
        },
        Some(Item::Value(toml_edit::Value::InlineTable(table))) => {
            table.insert("network_proxy", true.into());
        }
        Some(_) => {
            return Err(Error::target(
                path,
                "`features` is not a table, so twsrt cannot turn on Codex's network_proxy \
                 feature, without which Codex ignores the profile's domain lists; write it \
                 as a [features] table",
            ));
        }
    }
    Ok(())
}

/// A position after every table of `doc`.
fn next_position(doc: &DocumentMut) -> isize {
    fn max_in(table: &Table) -> isize {
        let own = table.position().unwrap_or(0);
        table
            .iter()
            .filter_map(|(_, item)| match item {
                Item::Table(sub) => Some(max_in(sub)),
                Item::ArrayOfTables(tables) => tables.iter().map(max_in).max(),
                _ => None,
            })
            .fold(own, isize::max)
    }
    max_in(doc.as_table()) + 1
}
