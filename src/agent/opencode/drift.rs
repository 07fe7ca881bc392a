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

use super::mapping::{Entry, FLAT_KEY, OWNED_KEYS};
use super::merge::{self, Rule};
use super::pattern;
use crate::drift::{Difference, Direction, Side, narrowing_unless};

/// Every difference between `ours` and the config `on_disk`; an error says
/// what is wrong with the file's shape.
pub fn compare(ours: &[Entry], on_disk: &Value) -> Result<Vec<Difference>, String> {
    let have = merge::permission_rules(on_disk)?;
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
        let at = have.iter().position(holds);
        let shown = match at.and_then(|i| undoing(&have[i + 1..], &want)) {
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
        let generated = ours
            .iter()
            .any(|e| e.key == rule.key && e.pattern == rule.pattern && e.verdict == rule.verdict);
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
            narrowing_unless(rule.verdict == super::mapping::Verdict::Allow),
        ));
    }
    Ok(out)
}

/// The first of `later` (the entries after `rule`) with a weaker action
/// whose key and pattern can both match what `rule` matches.
pub fn undoing<'a>(later: &'a [Rule], rule: &Rule) -> Option<&'a Rule> {
    later.iter().find(|r| {
        r.verdict < rule.verdict
            && pattern::matches(&rule.key, &r.key)
            && pattern::overlap(&r.pattern, &rule.pattern)
    })
}
