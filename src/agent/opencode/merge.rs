//! The selective merge into an existing OpenCode config: twsrt owns the
//! entries it generates in the `permission` maps of [`OWNED_KEYS`] and
//! keeps every other key and entry.
//!
//! OpenCode evaluates the `permission` object as one list, key by key and
//! entry by entry in file order, and the last entry whose key and pattern
//! match decides (doc/clients.md "OpenCode: permissions"). So the merge
//! orders what it writes such that no allow or ask can come after a deny:
//! the keys twsrt writes entries under come after every other key (a
//! foreign `"*": "allow"` key matches every permission), and within such a
//! key the entries are the foreign allows and asks, twsrt's asks, the
//! foreign denies, twsrt's denies, each group in its own order. Moving a
//! foreign entry only narrows (an allow that came after a deny to carve an
//! exception out of it no longer does), and is reported.
//!
//! An ask or deny entry on disk that twsrt replaces by a weaker one, or
//! that the write removes, and that no policy of the record renders, was
//! written by someone else: removing it needs `--drop-foreign`. So does a
//! foreign deny under a wildcard key (`"*": "deny"`) that one of twsrt's
//! asks, coming after it, would undo for some call.

use rustc_hash::{FxHashMap, FxHashSet};
use serde_json::{Map, Value};

use super::mapping::{Entry, FLAT_KEY, OWNED_KEYS, Verdict};

/// The schema line a new file starts with (OpenCode's docs write it).
pub const SCHEMA: &str = "https://opencode.ai/config.json";

/// A merged config.
#[derive(Debug, Default)]
pub struct Merged {
    pub value: Value,
    /// Entries the write removes or weakens that twsrt never wrote, as
    /// (section, entry): `permission.bash`, `"git *": "deny"`.
    pub foreign: Vec<(String, String)>,
    /// Whether foreign entries changed their order (see the module doc).
    pub reordered: bool,
}

/// One entry of a `permission` object as OpenCode lists it: the key, the
/// pattern (`*` for a key given a plain action) and the action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub key: String,
    pub pattern: String,
    pub verdict: Verdict,
}

/// `existing` (the config on disk, `None` when there is none) with `ours`
/// merged in; `recorded` says whether an entry is one twsrt writes for a
/// policy of the record.
/// An error is what is wrong with the file's shape.
pub fn merge(
    existing: Option<&Value>,
    ours: &[Entry],
    recorded: &dyn Fn(&Rule) -> bool,
) -> Result<Merged, String> {
    let mut doc = match existing {
        None => {
            let mut doc = Map::new();
            doc.insert("$schema".to_string(), Value::String(SCHEMA.to_string()));
            doc
        }
        Some(Value::Object(map)) => map.clone(),
        Some(_) => return Err(shape("the config must be a JSON object")),
    };
    let permission = permission_object(doc.get("permission"))?;
    let before = rules_of(&permission)?;
    let mut merged = Merged::default();
    let mut out = Map::new();
    // Keys twsrt writes no entry under (and removes none from) stay as
    // they are, in their place.
    let touched: Vec<&str> = OWNED_KEYS
        .into_iter()
        .filter(|key| {
            ours.iter().any(|e| e.key == *key)
                || before.iter().any(|r| r.key == *key && recorded(r))
        })
        .collect();
    for (key, value) in &permission {
        if !touched.contains(&key.as_str()) {
            out.insert(key.clone(), value.clone());
        }
    }
    for key in touched {
        let mine: FxHashMap<&str, &Entry> = ours
            .iter()
            .filter(|e| e.key == key)
            .map(|e| (e.pattern.as_str(), e))
            .collect();
        let mine_in_order: Vec<&Entry> = ours.iter().filter(|e| e.key == key).collect();
        let theirs = keep_foreign(&before, key, &mine, recorded, &mut merged.foreign);
        if let Some(value) = render_key(key, &theirs, &mine_in_order) {
            out.insert(key.to_string(), value);
        }
    }
    let after = rules_of(&out)?;
    merged.reordered = reordered(&before, &after, ours);
    merged.foreign.extend(undone_by_our_asks(&after, ours));
    doc.insert("permission".to_string(), Value::Object(out));
    merged.value = Value::Object(doc);
    Ok(merged)
}

/// The `permission` value as an object: absent is empty, a plain action is
/// `{"*": action}` (OpenCode reads it so).
pub fn permission_object(value: Option<&Value>) -> Result<Map<String, Value>, String> {
    match value {
        None => Ok(Map::new()),
        Some(Value::Object(map)) => Ok(map.clone()),
        Some(Value::String(action)) if Verdict::parse(action).is_some() => {
            let mut map = Map::new();
            map.insert("*".to_string(), Value::String(action.clone()));
            Ok(map)
        }
        Some(_) => Err(shape(
            "permission must be an action (allow, ask, deny) or an object",
        )),
    }
}

/// Every entry of a `permission` object in the order OpenCode evaluates
/// them.
pub fn rules_of(permission: &Map<String, Value>) -> Result<Vec<Rule>, String> {
    let mut out = Vec::new();
    for (key, value) in permission {
        let mut push = |pattern: &str, action: &Value| -> Result<(), String> {
            let verdict = action
                .as_str()
                .and_then(Verdict::parse)
                .ok_or_else(|| shape(&format!("permission.{key} holds an unknown action")))?;
            out.push(Rule {
                key: key.clone(),
                pattern: pattern.to_string(),
                verdict,
            });
            Ok(())
        };
        match value {
            Value::Object(map) => {
                for (pattern, action) in map {
                    push(pattern, action)?;
                }
            }
            action => push("*", action)?,
        }
    }
    Ok(out)
}

/// The foreign entries of `key` (those twsrt neither generates now nor
/// wrote for a policy of the record), in order; every ask or deny that is
/// dropped or weakened without being twsrt's is added to `foreign`.
fn keep_foreign(
    before: &[Rule],
    key: &str,
    mine: &FxHashMap<&str, &Entry>,
    recorded: &dyn Fn(&Rule) -> bool,
    foreign: &mut Vec<(String, String)>,
) -> Vec<Rule> {
    let mut kept = Vec::new();
    for rule in before.iter().filter(|r| r.key == key) {
        let ours = mine.get(rule.pattern.as_str());
        let weakened = match ours {
            Some(e) => e.verdict < rule.verdict,
            None => rule.verdict != Verdict::Allow,
        };
        // webfetch keeps its strictest action ([`render_key`]): a foreign
        // one is never weakened, so never refused.
        if (key == FLAT_KEY || ours.is_none()) && !recorded(rule) {
            kept.push(rule.clone());
        } else if weakened && !recorded(rule) {
            foreign.push((format!("permission.{key}"), shown(rule)));
        }
    }
    kept
}

/// How a removal names an entry: `"git *": "deny"`, or `"ask"` for the
/// plain action of a key.
pub fn shown(rule: &Rule) -> String {
    let action = Value::String(rule.verdict.as_str().to_string());
    if rule.key == FLAT_KEY {
        return action.to_string();
    }
    format!("{}: {}", Value::String(rule.pattern.clone()), action)
}

/// A key's value: foreign allows and asks, our asks, foreign denies, our
/// denies; `webfetch` is its strictest action. `None` when empty.
fn render_key(key: &str, theirs: &[Rule], mine: &[&Entry]) -> Option<Value> {
    if key == FLAT_KEY {
        let strictest = theirs
            .iter()
            .map(|r| r.verdict)
            .chain(mine.iter().map(|e| e.verdict))
            .max()?;
        return Some(Value::String(strictest.as_str().to_string()));
    }
    let mut map = Map::new();
    let mut put = |pattern: &str, verdict: Verdict| {
        map.insert(
            pattern.to_string(),
            Value::String(verdict.as_str().to_string()),
        );
    };
    for r in theirs.iter().filter(|r| r.verdict != Verdict::Deny) {
        put(&r.pattern, r.verdict);
    }
    for e in mine.iter().filter(|e| e.verdict != Verdict::Deny) {
        put(&e.pattern, e.verdict);
    }
    for r in theirs.iter().filter(|r| r.verdict == Verdict::Deny) {
        put(&r.pattern, r.verdict);
    }
    for e in mine.iter().filter(|e| e.verdict == Verdict::Deny) {
        put(&e.pattern, e.verdict);
    }
    (!map.is_empty()).then_some(Value::Object(map))
}

/// The foreign denies of a key twsrt does not write under (`"*"`, `"b*"`)
/// that one of twsrt's asks, which comes after them, would undo for some
/// call: the write weakens them, so it needs the user's consent.
fn undone_by_our_asks(after: &[Rule], ours: &[Entry]) -> Vec<(String, String)> {
    after
        .iter()
        .filter(|r| r.verdict == Verdict::Deny && !OWNED_KEYS.contains(&r.key.as_str()))
        .filter(|r| {
            ours.iter().any(|e| {
                e.verdict == Verdict::Ask
                    && super::pattern::matches(e.key, &r.key)
                    && super::pattern::overlap(&e.pattern, &r.pattern)
            })
        })
        .map(|r| (format!("permission.{}", r.key), shown(r)))
        .collect()
}

/// Whether the foreign entries kept (those of `after` that are not
/// generated) come in another order than they did in `before`.
fn reordered(before: &[Rule], after: &[Rule], ours: &[Entry]) -> bool {
    let generated: FxHashSet<(&str, &str)> =
        ours.iter().map(|e| (e.key, e.pattern.as_str())).collect();
    fn id(r: &Rule) -> (&str, &str) {
        (r.key.as_str(), r.pattern.as_str())
    }
    let kept: Vec<(&str, &str)> = after
        .iter()
        .map(id)
        .filter(|k| !generated.contains(k))
        .collect();
    let kept_set: FxHashSet<(&str, &str)> = kept.iter().copied().collect();
    let was: Vec<(&str, &str)> = before
        .iter()
        .map(id)
        .filter(|k| kept_set.contains(k))
        .collect();
    kept != was
}

fn shape(message: &str) -> String {
    message.to_string()
}

/// The per-agent permission objects of the config (`agent.NAME.permission`
/// and `.tools`, and the same under `mode`, which OpenCode reads as
/// agents), which OpenCode evaluates after the top-level one: the agents'
/// names (`build`, `mode.build`).
pub fn agent_permissions(doc: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for group in ["agent", "mode"] {
        let Some(Value::Object(agents)) = doc.get(group) else {
            continue;
        };
        let prefix = if group == "agent" { "" } else { "mode." };
        out.extend(
            agents
                .iter()
                .filter(|(_, agent)| ["permission", "tools"].iter().any(|k| sets(agent.get(*k))))
                .map(|(name, _)| format!("{prefix}{name}")),
        );
    }
    out
}

/// Whether a per-agent `permission` or `tools` value adds entries.
fn sets(value: Option<&Value>) -> bool {
    match value {
        Some(Value::Object(map)) => !map.is_empty(),
        Some(Value::Null) | None => false,
        Some(_) => true,
    }
}

/// Every entry of the config's `permission` object, in the order OpenCode
/// evaluates them.
pub fn permission_rules(doc: &Value) -> Result<Vec<Rule>, String> {
    let Value::Object(map) = doc else {
        return Err(shape("the config must be a JSON object"));
    };
    rules_of(&permission_object(map.get("permission"))?)
}
