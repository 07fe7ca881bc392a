//! The nearest known key to an unknown one, for the `did you mean "..."?`
//! of every unknown-key error (config.toml, srt fragments, sandbox
//! overrides). A key that differs only in case is always the answer;
//! otherwise the closest key by edit distance (a swap counts once), when it
//! is close enough to be the key the user meant.
//!
//! [`first_unknown`] walks a JSON document against [`Levels`]: the keys of
//! each object, named by its dotted path from the top.

use serde_json::Value;

/// Known keys per object: (dotted path, keys). `""` is the top level, `[]`
/// the objects inside a list (`credentials.files[]`). An object whose path
/// is not listed takes any key.
pub type Levels = &'static [(&'static str, &'static [&'static str])];

/// An unknown key of a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unknown {
    /// The JSON pointer of the object holding it (`/filesystem`).
    pub pointer: String,
    /// Its dotted path (`filesystem`, `""` at the top).
    pub level: &'static str,
    pub key: String,
    /// The keys that level knows.
    pub known: &'static [&'static str],
}

impl Unknown {
    /// The key as a dotted path from the top (`filesystem.denyread`).
    pub fn dotted(&self) -> String {
        if self.level.is_empty() {
            self.key.clone()
        } else {
            format!("{}.{}", self.level.replace("[]", "[*]"), self.key)
        }
    }
}

/// The first key of `doc`, in document order (depth first), that its level
/// does not know and `allowed` (dotted paths, [`Unknown::dotted`]) does not
/// name.
pub fn first_unknown(doc: &Value, levels: Levels, allowed: &[String]) -> Option<Unknown> {
    walk(doc, "", &mut Vec::new(), levels, allowed)
}

/// One step of the path from the top to the object being walked.
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// The JSON pointer of `path` (RFC 6901 escaping); built only for an
/// unknown key, so a walk over a large list allocates nothing per entry.
fn pointer_of(path: &[Step<'_>]) -> String {
    let mut pointer = String::new();
    for step in path {
        pointer.push('/');
        match step {
            Step::Key(key) => pointer.push_str(&key.replace('~', "~0").replace('/', "~1")),
            Step::Index(i) => pointer.push_str(&i.to_string()),
        }
    }
    pointer
}

/// Only objects hold keys: a walk descends into objects and lists and
/// skips every other value.
fn holds_keys(value: &Value) -> bool {
    matches!(value, Value::Object(_) | Value::Array(_))
}

fn walk<'a>(
    value: &'a Value,
    level: &str,
    path: &mut Vec<Step<'a>>,
    levels: Levels,
    allowed: &[String],
) -> Option<Unknown> {
    match value {
        Value::Object(map) => {
            let known = levels.iter().find(|(l, _)| *l == level);
            for (key, child) in map {
                if let Some(&(level, keys)) = known
                    && !keys.contains(&key.as_str())
                {
                    let unknown = Unknown {
                        pointer: pointer_of(path),
                        level,
                        key: key.clone(),
                        known: keys,
                    };
                    if !allowed.contains(&unknown.dotted()) {
                        return Some(unknown);
                    }
                    continue;
                }
                if !holds_keys(child) {
                    continue;
                }
                let child_level = if level.is_empty() {
                    key.clone()
                } else {
                    format!("{level}.{key}")
                };
                let found = descend(child, Step::Key(key), &child_level, path, levels, allowed);
                if found.is_some() {
                    return found;
                }
            }
            None
        }
        Value::Array(items) => {
            if !items.iter().any(holds_keys) {
                return None;
            }
            let item_level = format!("{level}[]");
            for (i, item) in items.iter().enumerate() {
                if !holds_keys(item) {
                    continue;
                }
                let found = descend(item, Step::Index(i), &item_level, path, levels, allowed);
                if found.is_some() {
                    return found;
                }
            }
            None
        }
        _ => None,
    }
}

/// [`walk`] of `child`, one `step` below the path.
fn descend<'a>(
    child: &'a Value,
    step: Step<'a>,
    level: &str,
    path: &mut Vec<Step<'a>>,
    levels: Levels,
    allowed: &[String],
) -> Option<Unknown> {
    path.push(step);
    let found = walk(child, level, path, levels, allowed);
    path.pop();
    found
}

/// The known key `key` most likely misspells, if any is close.
pub fn nearest<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    let lower = key.to_lowercase();
    if let Some(same) = known.iter().find(|k| k.to_lowercase() == lower) {
        return Some(same);
    }
    known
        .iter()
        .map(|k| (strsim::damerau_levenshtein(&lower, &k.to_lowercase()), *k))
        .filter(|(distance, k)| *distance <= allowed_distance(key.len().max(k.len())))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, k)| k)
}

/// How many edits still read as a typo of a name `len` long: one in a
/// short name, about one in three in a long one.
fn allowed_distance(len: usize) -> usize {
    (len / 3).clamp(1, 4)
}

/// `; did you mean "KEY"?` for the nearest known key, or `; the known keys
/// are a, b, c` when none is close.
pub fn hint(key: &str, known: &[&str]) -> String {
    match nearest(key, known) {
        Some(near) => format!("; did you mean \"{near}\"?"),
        None => format!("; the known keys are {}", known.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_key_is_found_for_the_usual_typos() {
        let fs = ["denyRead", "allowRead", "allowWrite", "denyWrite"];
        assert_eq!(nearest("denyread", &fs), Some("denyRead"));
        assert_eq!(nearest("denyWirte", &fs), Some("denyWrite"));
        assert_eq!(
            nearest("filesytem", &["filesystem", "network"]),
            Some("filesystem")
        );
        assert_eq!(
            nearest("deniedDomain", &["allowedDomains", "deniedDomains"]),
            Some("deniedDomains")
        );
        assert_eq!(nearest("enabeld", &["enabled", "network"]), Some("enabled"));
        assert_eq!(nearest("target", &["targets", "sources"]), Some("targets"));
    }

    const LEVELS: Levels = &[
        ("", &["filesystem", "network"]),
        ("filesystem", &["denyRead"]),
        ("filesystem.denyRead[]", &["path"]),
    ];

    #[test]
    fn the_first_unknown_key_in_document_order_is_found_at_any_depth() {
        let doc =
            serde_json::json!({"filesystem": {"denyRead": ["a", {"path": "b", "lit": 1}]}, "x": 1});
        let found = first_unknown(&doc, LEVELS, &[]).unwrap();
        assert_eq!(found.pointer, "/filesystem/denyRead/1");
        assert_eq!(found.key, "lit");
        assert_eq!(found.dotted(), "filesystem.denyRead[*].lit");
        let top = first_unknown(
            &serde_json::json!({"network": {"any": 1}, "filesytem": {}}),
            LEVELS,
            &[],
        );
        assert_eq!(
            top.map(|u| (u.pointer, u.key)),
            Some((String::new(), "filesytem".into()))
        );
        // `network` lists no keys of its own: anything goes there.
        assert_eq!(
            first_unknown(&serde_json::json!({"network": {"any": 1}}), LEVELS, &[]),
            None
        );
        // A key named on purpose passes, with what it holds; the next one is found.
        let doc = serde_json::json!({"newKey": {"x": 1}, "filesystem": {"denyread": []}});
        let found = first_unknown(&doc, LEVELS, &["newKey".to_string()]).unwrap();
        assert_eq!(found.dotted(), "filesystem.denyread");
    }

    #[test]
    fn the_pointer_escapes_keys_and_counts_every_list_item() {
        const ODD: Levels = &[("a/b~c", &["k"]), ("a/b~c.k[]", &["v"])];
        let doc = serde_json::json!({"a/b~c": {"z": 1}});
        assert_eq!(first_unknown(&doc, ODD, &[]).unwrap().pointer, "/a~1b~0c");
        // Strings before the object are skipped but still counted.
        let doc = serde_json::json!({"a/b~c": {"k": ["s", "t", {"v": 1}, {"w": 2}]}});
        let found = first_unknown(&doc, ODD, &[]).unwrap();
        assert_eq!(
            (found.pointer.as_str(), found.key.as_str()),
            ("/a~1b~0c/k/3", "w")
        );
    }

    #[test]
    fn a_key_far_from_every_known_one_gets_the_list() {
        assert_eq!(nearest("zzz", &["denyRead", "allowWrite"]), None);
        assert_eq!(
            hint("zzz", &["denyRead", "allowWrite"]),
            "; the known keys are denyRead, allowWrite"
        );
        assert_eq!(
            hint("denyread", &["denyRead"]),
            "; did you mean \"denyRead\"?"
        );
    }
}
