//! Adoption loses nothing: the deny and ask entries a write would take out
//! of the Claude settings, less those twsrt wrote there itself.
//!
//! twsrt tells its own entries by its record ([`crate::agent::record`]),
//! never by their look: what it generates from the current and the earlier
//! policies, each for both modes. An entry the
//! merged file no longer holds that none of these renderings holds was
//! written by someone else (a hand-written `Bash(curl:*)`, an MCP tool's
//! deny, a `WebSearch` ask): removing it would weaken what Claude Code
//! enforces, so the merge keeps it beside twsrt's entries ([`keep`]: a
//! deny or ask only narrows), unless `--drop-foreign` asks for its removal.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::render;
use crate::agent::Ctx;
use crate::agent::record;
use crate::compile::Canonical;
use crate::plan::Removal;
use crate::rules::SecurityRule;
use crate::source::SourceKind;

/// The lists whose entries take access away, dotted: a merge replaces
/// them with the generated ones (a test holds the merged file's lists
/// equal to the generated ones).
pub(super) const GUARDED: [&str; 4] = [
    "permissions.deny",
    "permissions.ask",
    "sandbox.filesystem.denyRead",
    "sandbox.filesystem.denyWrite",
];

/// The dotted list `section` of `doc` (empty when absent or no list).
pub(super) fn list<'a>(doc: &'a Map<String, Value>, section: &str) -> &'a [Value] {
    let mut keys = section.split('.');
    let first = keys.next().and_then(|k| doc.get(k));
    keys.fold(first, |value, key| value.and_then(|v| v.get(key)))
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The string entries of the dotted list `section` of `doc`.
fn entries<'a>(doc: &'a Map<String, Value>, section: &str) -> impl Iterator<Item = &'a str> {
    list(doc, section).iter().filter_map(Value::as_str)
}

/// Whether the written list holds `entry` itself, or for Claude Code's
/// legacy prefix spelling `Bash(CMD:*)` the two rules that mean the same
/// (`Bash(CMD)` and `Bash(CMD *)`, as twsrt writes a bash rule).
fn held(kept: &HashSet<&str>, entry: &str) -> bool {
    if kept.contains(entry) {
        return true;
    }
    let Some(command) = entry
        .strip_prefix("Bash(")
        .and_then(|rest| rest.strip_suffix(":*)"))
    else {
        return false;
    };
    kept.contains(format!("Bash({command})").as_str())
        && kept.contains(format!("Bash({command} *)").as_str())
}

/// The guarded entries of `before` (each file with the document read from
/// it) that `after` (the merged document) does not hold and twsrt's record
/// does not know, each once, in file and document order.
pub fn removals(
    ctx: &Ctx,
    home: &Path,
    before: &[(PathBuf, &Map<String, Value>)],
    after: &Map<String, Value>,
) -> Vec<Removal> {
    let mut lost = Vec::new();
    let mut seen = HashSet::new();
    for section in GUARDED {
        // The everyday write over twsrt's own file holds the same list.
        let after_list = list(after, section);
        if before
            .iter()
            .all(|(_, doc)| list(doc, section) == after_list)
        {
            continue;
        }
        let kept: HashSet<&str> = entries(after, section).collect();
        for (path, doc) in before {
            for entry in entries(doc, section) {
                if !held(&kept, entry) && seen.insert((section, entry)) {
                    lost.push(Removal {
                        agent: "claude",
                        path: path.clone(),
                        section: section.to_string(),
                        entry: entry.to_string(),
                    });
                }
            }
        }
    }
    if lost.is_empty() {
        // The everyday case, a write over twsrt's own file: no record needed.
        return lost;
    }
    let record = record(ctx, home);
    lost.retain(|r| !record.contains(&(r.section.clone(), r.entry.clone())));
    lost
}

/// (section, entry) as the record keeps it.
type Key = (String, String);

fn key(section: &str, entry: &str) -> Key {
    (section.to_string(), entry.to_string())
}

/// Every guarded entry twsrt writes or wrote: the renderings of the current
/// policy and of the earlier ones ([`record::earlier_policies`]), in both
/// modes, plus the srt path lists themselves (the Claude sandbox lists held
/// them before they became permission rules).
fn record(ctx: &Ctx, home: &Path) -> HashSet<Key> {
    let mut record = HashSet::new();
    add_rendered(&mut record, ctx, home, ctx.rules(), ctx.compiled.srt());
    for docs in &record::earlier_policies(ctx) {
        let srt = docs
            .iter()
            .find(|d| d.kind == SourceKind::Srt)
            .map_or(&Value::Null, Canonical::value);
        // srt's rules before bash's, as `Compiled::rules` orders them.
        let rules: Vec<SecurityRule> = SourceKind::ALL
            .into_iter()
            .flat_map(|kind| docs.iter().filter(move |d| d.kind == kind))
            .flat_map(|d| d.kind.rules(d.value()))
            .collect();
        add_rendered(&mut record, ctx, home, &rules, srt);
    }
    record
}

/// The guarded entries of one policy (its rules and srt document), both
/// modes, into `record`.
fn add_rendered(
    record: &mut HashSet<Key>,
    ctx: &Ctx,
    home: &Path,
    rules: &[SecurityRule],
    srt: &Value,
) {
    for yolo in [false, true] {
        let generated = render::render(&render::Input {
            rules,
            srt,
            overrides: ctx.config.overrides(yolo),
            yolo,
            home,
            hooks: None,
        });
        for section in GUARDED {
            record.extend(entries(&generated, section).map(|e| key(section, e)));
        }
    }
    for list in ["denyRead", "denyWrite"] {
        let section = format!("sandbox.filesystem.{list}");
        let paths = srt.pointer(&format!("/filesystem/{list}"));
        let paths = paths.and_then(Value::as_array).into_iter().flatten();
        record.extend(paths.filter_map(Value::as_str).map(|p| key(&section, p)));
    }
}

/// Put `kept` (foreign entries, as [`removals`] lists them) back into the
/// merged `doc`, each at the end of its list, so the file holds twsrt's
/// entries and the user's.
pub fn keep(doc: &mut Map<String, Value>, kept: &[Removal]) {
    for removal in kept {
        let mut keys = removal.section.split('.');
        let Some(last) = keys.next_back() else {
            continue;
        };
        let mut object = &mut *doc;
        for key in keys {
            let slot = object
                .entry(key.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            let Value::Object(next) = slot else {
                // The merge checked the shape of every section it writes.
                return;
            };
            object = next;
        }
        let list = object
            .entry(last.to_string())
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(items) = list {
            items.push(Value::String(removal.entry.clone()));
        }
    }
}

/// The deny lists of `doc` (`permissions.deny`, `sandbox.filesystem`'s
/// `denyRead` and `denyWrite`), alone in their sections; empty when it has
/// none.
pub fn deny_lists(doc: &Map<String, Value>) -> Map<String, Value> {
    let mut out = Map::new();
    for section in [
        "permissions.deny",
        "sandbox.filesystem.denyRead",
        "sandbox.filesystem.denyWrite",
    ] {
        let entries = list(doc, section);
        if entries.is_empty() {
            continue;
        }
        let kept: Vec<Removal> = entries
            .iter()
            .filter_map(Value::as_str)
            .map(|entry| Removal {
                agent: "claude",
                path: PathBuf::new(),
                section: section.to_string(),
                entry: entry.to_string(),
            })
            .collect();
        keep(&mut out, &kept);
    }
    out
}

/// Whether `(section, entry)` on disk is foreign: twsrt's record does not
/// know it ([`removals`]'s test). Built once, asked per entry.
pub fn foreign_test(ctx: &Ctx, home: &Path) -> impl Fn(&str, &str) -> bool + use<> {
    let record = record(ctx, home);
    move |section: &str, entry: &str| !record.contains(&key(section, entry))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Bash(CMD:*)` is held only when both rules it means are written.
    #[test]
    fn a_legacy_prefix_rule_is_held_by_both_rules_it_means() {
        let kept = |list: &[&'static str]| list.iter().copied().collect::<HashSet<&str>>();
        let both = kept(&["Bash(curl)", "Bash(curl *)"]);
        assert!(held(&both, "Bash(curl:*)"));
        assert!(held(&kept(&["Bash(curl:*)"]), "Bash(curl:*)"));
        assert!(!held(&kept(&["Bash(curl *)"]), "Bash(curl:*)"));
        assert!(!held(&kept(&["Bash(curl)"]), "Bash(curl:*)"));
        assert!(!held(&both, "Bash(curlx:*)"));
        assert!(!held(&both, "Read(curl:*)"));
    }
}
