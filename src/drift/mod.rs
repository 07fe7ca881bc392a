//! Derived rules: which way a difference between the policy and a file on
//! disk points. One table of meanings (what a section does to access) is
//! read by every target's diff, so two targets cannot judge the same kind
//! of change differently.
//!
//! The rules, in the shape the sandbox itself reads them:
//! - a list that takes access away (`deny*`, `denied*`, `ask`, `--deny-*`):
//!   an entry missing on disk widens, an extra one narrows;
//! - a list that grants access (`allow*`, `allowed*`, `excludedCommands`,
//!   `--allow-*`): an extra entry widens, a missing one narrows;
//! - the enforcement switch `enabled` is judged on its own and
//!   asymmetrically: on in the policy and off or absent on disk widens
//!   (it bypasses every list, even when they all still match), the reverse
//!   narrows;
//! - any other boolean is a loosener (`allowLocalBinding`,
//!   `allowAllUnixSockets`, `enableWeaker*`, `autoAllowBashIfSandboxed`):
//!   on where the policy has it off widens;
//! - anything the model does not know (a key srt ignores, a number, an
//!   odd value) widens: unknown fails closed.

pub mod access;
pub mod canonical;
pub mod gate;
pub mod report;

pub use gate::AgentDiff;

use serde_json::{Map, Value};

/// Where an entry is: in the policy but not on disk, or the other way round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    Missing,
    Extra,
}

/// Whether a difference lets an agent do more (widening) or less.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    Widening,
    Narrowing,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::Missing => "missing",
            Side::Extra => "extra",
        }
    }
}

impl Direction {
    pub fn name(self) -> &'static str {
        match self {
            Direction::Widening => "widening",
            Direction::Narrowing => "narrowing",
        }
    }

    /// Widening when either is: the direction of a change made of parts.
    pub fn or(self, other: Direction) -> Direction {
        if self == Direction::Widening || other == Direction::Widening {
            Direction::Widening
        } else {
            Direction::Narrowing
        }
    }
}

/// One difference of one target: one entry of a list, one key's value, one
/// rule. Never a whole file or table standing in for what changed in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// Where it is, dotted (`filesystem.denyRead`, `permissions.deny`); for
    /// a key's value, the key itself (`network.allowLocalBinding`).
    pub section: String,
    /// The entry itself (`~/.aws`), or the value of a key (on disk for a
    /// changed value).
    pub entry: String,
    /// How the text report spells it (`network:github.com`, `Read(~/.aws)`).
    pub shown: String,
    pub side: Side,
    pub direction: Direction,
    /// A value changed in place: what the policy has instead of `entry`
    /// (the side is then `Extra`: the file holds a value the policy does
    /// not).
    pub policy: Option<String>,
}

impl Difference {
    pub fn new(section: &str, entry: &str, shown: &str, side: Side, direction: Direction) -> Self {
        Difference {
            section: section.to_string(),
            entry: entry.to_string(),
            shown: shown.to_string(),
            side,
            direction,
            policy: None,
        }
    }

    /// A difference the text report spells as the entry itself.
    pub fn plain(section: &str, entry: &str, side: Side, direction: Direction) -> Self {
        Self::new(section, entry, entry, side, direction)
    }

    /// The value at `section` is `disk` on disk where the policy has
    /// `policy`: one difference.
    pub fn changed(section: &str, disk: &str, policy: &str, direction: Direction) -> Self {
        Difference {
            policy: Some(policy.to_string()),
            ..Self::plain(section, disk, Side::Extra, direction)
        }
    }

    /// One line saying what changed and which way it points:
    /// `filesystem.denyRead: ~/.aws missing (widening)`,
    /// `network.allowLocalBinding: true instead of false (widening)`.
    pub fn describe(&self) -> String {
        let what = match (&self.policy, self.side) {
            (Some(policy), _) => format!("{} instead of {policy}", self.entry),
            (None, Side::Missing) => format!("{} missing", self.entry),
            (None, Side::Extra) => format!("{} extra", self.entry),
        };
        format!("{}: {what} ({})", self.section, self.direction.name())
    }
}

/// What the entries of a list do to access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meaning {
    /// Each entry takes access away.
    Restricts,
    /// Each entry grants access.
    Grants,
}

/// The keys of two objects compared key by key: the policy's in its order,
/// then those only on disk, each once.
pub fn union_keys<'a>(
    policy: &'a Map<String, Value>,
    disk: &'a Map<String, Value>,
) -> impl Iterator<Item = &'a String> {
    policy
        .keys()
        .chain(disk.keys().filter(|k| !policy.contains_key(*k)))
}

/// The dotted path of `key` inside the object at `path` (`""` is the top).
pub fn child_path(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// The meaning of a list named `key` (the last part of its section), or
/// `None` when the name says nothing (such a list fails closed).
pub fn list_meaning(key: &str) -> Option<Meaning> {
    let key = key.trim_start_matches('-');
    if key.starts_with("deny") || key.starts_with("denied") || key == "ask" {
        Some(Meaning::Restricts)
    } else if key.starts_with("allow") || key == "excludedCommands" {
        Some(Meaning::Grants)
    } else {
        None
    }
}

/// The direction of one entry of a list of `meaning` found on `side` only.
pub fn entry_direction(meaning: Option<Meaning>, side: Side) -> Direction {
    match (meaning, side) {
        (Some(Meaning::Restricts), Side::Missing) | (Some(Meaning::Grants), Side::Extra) => {
            Direction::Widening
        }
        (Some(_), _) => Direction::Narrowing,
        (None, _) => Direction::Widening,
    }
}

/// The key of the enforcement switch (srt and the Claude sandbox).
pub const SWITCH: &str = "enabled";

/// Booleans other than the switch that make the policy stricter when on
/// (srt's `network.strictAllowlist`: unlisted hosts refused without
/// asking), so turning one off on disk widens.
const STRICT_WHEN_ON: &[&str] = &["strictAllowlist"];

/// The direction of the value of `key` changing from `policy` to `disk`
/// (`None`: absent; `null` counts as absent).
pub fn value_change(key: &str, policy: Option<&Value>, disk: Option<&Value>) -> Direction {
    let policy = policy.filter(|v| !v.is_null());
    let disk = disk.filter(|v| !v.is_null());
    let on = |v: Option<&Value>| v == Some(&Value::Bool(true));
    let boolean = |v: Option<&Value>| v.is_none_or(Value::is_boolean);
    if boolean(policy) && boolean(disk) && (policy.is_some() || disk.is_some()) {
        let widens = if key == SWITCH || STRICT_WHEN_ON.contains(&key) {
            on(policy) && !on(disk)
        } else {
            on(disk) && !on(policy)
        };
        return narrowing_unless(widens);
    }
    let list = |v: Option<&Value>| v.is_none_or(Value::is_array);
    if list(policy) && list(disk) {
        return list_change(key, policy, disk);
    }
    Direction::Widening
}

/// A whole list replaced: widening when some entry widens.
fn list_change(key: &str, policy: Option<&Value>, disk: Option<&Value>) -> Direction {
    let items = |v: Option<&Value>| -> Vec<Value> {
        v.and_then(Value::as_array).cloned().unwrap_or_default()
    };
    let (want, have) = (items(policy), items(disk));
    let meaning = list_meaning(key);
    let missing = want.iter().any(|w| !have.contains(w));
    let extra = have.iter().any(|h| !want.contains(h));
    let widens = (missing && entry_direction(meaning, Side::Missing) == Direction::Widening)
        || (extra && entry_direction(meaning, Side::Extra) == Direction::Widening);
    narrowing_unless(widens)
}

pub fn narrowing_unless(widens: bool) -> Direction {
    if widens {
        Direction::Widening
    } else {
        Direction::Narrowing
    }
}

/// How [`unpaired`] pairs an entry with the other side's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pairing {
    /// As multisets: an entry pairs with one entry of the same key, so a
    /// second copy on one side is left over (a list where each copy counts:
    /// Gemini's rules).
    Multiset,
    /// As sets: an entry is paired when the other side holds its key at
    /// all, and every copy of an unpaired key is left over (a list the agent
    /// reads as a set: Copilot's flags and URL lists).
    Set,
}

/// What each side holds that the other lacks, as multisets
/// ([`Pairing::Multiset`]); see [`unpaired_as`].
pub fn unpaired<'a, T>(
    want: &'a [T],
    have: &'a [T],
    key: impl Fn(&T) -> String,
) -> (Vec<&'a T>, Vec<&'a T>) {
    unpaired_as(want, have, key, Pairing::Multiset)
}

/// What each side holds that the other lacks, paired as `pairing` says:
/// what is left on each side is returned in its own order (missing from
/// `have`, then extra in `have`). Linear in the sizes, for lists of any
/// length. Every generated-vs-on-disk comparison of a list goes through
/// here.
pub fn unpaired_as<'a, T>(
    want: &'a [T],
    have: &'a [T],
    key: impl Fn(&T) -> String,
    pairing: Pairing,
) -> (Vec<&'a T>, Vec<&'a T>) {
    let keys_want: Vec<String> = want.iter().map(&key).collect();
    let keys_have: Vec<String> = have.iter().map(&key).collect();
    (
        left_over(want, &keys_want, &keys_have, pairing),
        left_over(have, &keys_have, &keys_want, pairing),
    )
}

/// The items of `these` (keyed `mine`) that no key of `theirs` pairs with.
fn left_over<'a, T>(
    these: &'a [T],
    mine: &[String],
    theirs: &[String],
    pairing: Pairing,
) -> Vec<&'a T> {
    let mut counts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for k in theirs {
        *counts.entry(k.as_str()).or_default() += 1;
    }
    these
        .iter()
        .zip(mine)
        .filter(|(_, k)| match counts.get_mut(k.as_str()) {
            Some(_) if pairing == Pairing::Set => false,
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .map(|(item, _)| item)
        .collect()
}

/// How many of `differences` widen.
pub fn widening(differences: &[Difference]) -> usize {
    differences
        .iter()
        .filter(|d| d.direction == Direction::Widening)
        .count()
}

#[cfg(test)]
mod tests;
