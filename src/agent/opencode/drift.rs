//! The config on disk against the entries twsrt generates. Only the
//! `permission` object is compared; every other key is the user's.
//!
//! Directions: a generated entry that is missing on disk, has another
//! action there, or is undone by an entry after it (OpenCode applies the
//! last matching entry: an allow or ask after a deny whose key and pattern
//! can match what the deny matches) widens. An entry under one of twsrt's
//! keys that twsrt does not generate is extra: an allow widens (unless the
//! policy's bash allow rules grant it too), an ask or a deny narrows. A changed entry is one missing and one extra. The
//! order is OpenCode's ([`evaluated`]): the deprecated `tools` map and
//! every agent's own permission count.

use serde_json::Value;

use rustc_hash::{FxHashMap, FxHashSet};

use super::evaluated;
use super::mapping::{Entry, FLAT_KEY, OWNED_KEYS, Verdict};
use super::merge::{self, Rule};
use super::pattern;
use crate::drift::{Difference, Direction, Side, narrowing_unless};

/// Every difference between `ours` and the config `on_disk`; an error says
/// what is wrong with the file's shape.
pub fn compare(ours: &[Entry], on_disk: &Value) -> Result<Vec<Difference>, String> {
    compare_granting(ours, &[], on_disk)
}

/// [`compare`], where `allows` are the policy's bash allow rules: a user's
/// bash allow entry they grant too (its commands all start with one of
/// them, and no generated deny or ask can match them) does not widen.
pub fn compare_granting(
    ours: &[Entry],
    allows: &[&str],
    on_disk: &Value,
) -> Result<Vec<Difference>, String> {
    let placed = evaluated::entries(on_disk)?;
    let have: Vec<Rule> = placed.iter().map(|p| p.rule.clone()).collect();
    // (key, pattern) -> the places of the top-level entries on disk: an
    // agent's own entry holds for that agent only.
    let mut places: FxHashMap<(&str, &str), Vec<usize>> = FxHashMap::default();
    for (i, p) in placed.iter().enumerate().filter(|(_, p)| p.top) {
        places
            .entry((p.rule.key.as_str(), p.rule.pattern.as_str()))
            .or_default()
            .push(i);
    }
    let generated: FxHashSet<(&str, &str, Verdict)> = ours
        .iter()
        .map(|e| (e.key, e.pattern.as_str(), e.verdict))
        .collect();
    // The places of the allows and asks, in order: only those can undo.
    let weaker: Vec<usize> = (0..have.len())
        .filter(|&i| have[i].verdict != Verdict::Deny)
        .collect();
    let mut out = Vec::new();
    for entry in ours {
        let want = Rule {
            key: entry.key.to_string(),
            pattern: entry.pattern.clone(),
            verdict: entry.verdict,
        };
        let text = merge::shown(&want);
        let section = format!("permission.{}", entry.key);
        // webfetch holds its strictest action: a stricter one on disk keeps
        // twsrt's in force (and is reported as an extra, narrowing).
        let holds = |r: &Rule| {
            r.key == want.key
                && r.pattern == want.pattern
                && (r.verdict == want.verdict
                    || (entry.key == FLAT_KEY && r.verdict > want.verdict))
        };
        let at = places
            .get(&(entry.key, entry.pattern.as_str()))
            .and_then(|found| found.iter().copied().find(|&i| holds(&have[i])));
        let shown = match at.and_then(|i| undoing(&have, &weaker, i, &want)) {
            None if at.is_some() => continue,
            None => format!("{section} {text}"),
            Some(later) => format!(
                "{section} {text} (undone by {} {} after it)",
                placed[later].section,
                merge::shown(&have[later])
            ),
        };
        out.push(Difference::new(
            &section,
            &text,
            &shown,
            Side::Missing,
            Direction::Widening,
        ));
    }
    out.extend(extras(&placed, &generated, ours, allows));
    Ok(out)
}

/// The entries under twsrt's keys on disk that it does not generate.
fn extras(
    placed: &[evaluated::Placed],
    generated: &FxHashSet<(&str, &str, Verdict)>,
    ours: &[Entry],
    allows: &[&str],
) -> Vec<Difference> {
    let mut out = Vec::new();
    for p in placed
        .iter()
        .filter(|p| p.top && p.section.starts_with("permission."))
    {
        let rule = &p.rule;
        let generated =
            generated.contains(&(rule.key.as_str(), rule.pattern.as_str(), rule.verdict));
        if generated || !OWNED_KEYS.contains(&rule.key.as_str()) {
            continue;
        }
        let section = format!("permission.{}", rule.key);
        let text = merge::shown(rule);
        out.push(Difference::new(
            &section,
            &text,
            &format!("{section} {text}"),
            Side::Extra,
            narrowing_unless(rule.verdict == Verdict::Allow && !granted(rule, allows, ours)),
        ));
    }
    out
}

/// The generated entries the top level of `doc` undoes (the shown text of
/// each): what a merge must never write. Agents' own permissions are left
/// to their warning.
pub fn undone_at_top(ours: &[Entry], doc: &Value) -> Result<Vec<String>, String> {
    let mut top = doc.clone();
    if let Value::Object(map) = &mut top {
        map.remove("agent");
        map.remove("mode");
    }
    Ok(compare(ours, &top)?
        .into_iter()
        .filter(|d| d.side == Side::Missing)
        .map(|d| d.shown)
        .collect())
}

/// Whether the policy grants everything the bash allow entry `rule`
/// allows: its pattern, without a final ` *`, is free of wildcards and is
/// one of `allows` or starts with one and a space, and no generated entry
/// (a deny or an ask) can match what it matches.
fn granted(rule: &Rule, allows: &[&str], ours: &[Entry]) -> bool {
    let core = rule.pattern.strip_suffix(" *").unwrap_or(&rule.pattern);
    let plain = !core.contains(['*', '?']);
    let covered = allows.iter().map(|a| a.trim()).any(|a| {
        !a.is_empty() && (core == a || core.strip_prefix(a).is_some_and(|r| r.starts_with(' ')))
    });
    rule.key == "bash"
        && plain
        && covered
        && !ours
            .iter()
            .any(|e| e.key == "bash" && pattern::overlap(&e.pattern, &rule.pattern))
}

/// The first entry of `have` after place `at` with a weaker action than
/// `rule` whose key and pattern can both match what `rule` matches;
/// `weaker` lists the places of `have`'s allows and asks, in order.
fn undoing(have: &[Rule], weaker: &[usize], at: usize, rule: &Rule) -> Option<usize> {
    let from = weaker.partition_point(|&i| i <= at);
    weaker[from..].iter().copied().find(|&i| {
        let r = &have[i];
        r.verdict < rule.verdict
            && pattern::matches(&rule.key, &r.key)
            && pattern::overlap(&r.pattern, &rule.pattern)
    })
}
