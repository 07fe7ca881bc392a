//! The config on disk against the entries twsrt generates. Only the
//! `permission` object is compared; every other key is the user's.
//!
//! Directions: a generated entry that is missing on disk, has another
//! action there, or is undone by an entry after it (OpenCode applies the
//! last matching entry: an allow or ask after a deny whose key and pattern
//! can match what the deny matches) widens. An entry under one of twsrt's
//! keys that twsrt does not generate is extra: an allow widens, an ask or
//! a deny narrows. A changed entry is one missing and one extra.

use serde_json::Value;

use rustc_hash::{FxHashMap, FxHashSet};

use super::mapping::{Entry, FLAT_KEY, OWNED_KEYS, Verdict};
use super::merge::{self, Rule};
use super::pattern;
use crate::drift::{Difference, Direction, Side, narrowing_unless};

/// Every difference between `ours` and the config `on_disk`; an error says
/// what is wrong with the file's shape.
pub fn compare(ours: &[Entry], on_disk: &Value) -> Result<Vec<Difference>, String> {
    let have = merge::permission_rules(on_disk)?;
    // (key, pattern) -> the places of the entries on disk.
    let mut places: FxHashMap<(&str, &str), Vec<usize>> = FxHashMap::default();
    for (i, r) in have.iter().enumerate() {
        places
            .entry((r.key.as_str(), r.pattern.as_str()))
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
                "{section} {text} (undone by permission.{} {} after it)",
                later.key,
                merge::shown(later)
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
    for rule in &have {
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
            narrowing_unless(rule.verdict == Verdict::Allow),
        ));
    }
    Ok(out)
}

/// The first entry of `have` after place `at` with a weaker action than
/// `rule` whose key and pattern can both match what `rule` matches;
/// `weaker` lists the places of `have`'s allows and asks, in order.
fn undoing<'a>(have: &'a [Rule], weaker: &[usize], at: usize, rule: &Rule) -> Option<&'a Rule> {
    let from = weaker.partition_point(|&i| i <= at);
    weaker[from..].iter().map(|&i| &have[i]).find(|r| {
        r.verdict < rule.verdict
            && pattern::matches(&rule.key, &r.key)
            && pattern::overlap(&r.pattern, &rule.pattern)
    })
}
