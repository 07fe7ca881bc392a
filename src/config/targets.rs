//! `[targets]`: where each agent's configuration is written. config.toml
//! reads the table without knowing the agents; each agent declares its keys
//! ([`TargetKey`]) and [`Targets::check`] holds the table to those
//! declarations, so adding an agent never touches this file.

use std::path::{Path, PathBuf};

use toml_edit::Item;

use super::Loader;
use crate::error::{Error, Result};
use crate::paths::{resolve_config_path, yolo_variant};

/// What a target key's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetKind {
    /// A non-empty path string, resolved against config.toml's directory.
    Path,
    /// `true` or `false`.
    Flag,
    /// `true`, `false` or one of these words (`claude_hook = "sandbox"`).
    FlagOr(&'static [&'static str]),
}

/// One `[targets]` key an agent reads.
#[derive(Debug)]
pub struct TargetKey {
    pub name: &'static str,
    /// The key this one refines: alone, it would configure half an agent.
    pub needs: Option<&'static str>,
    pub kind: TargetKind,
    /// A further rule on a path value: the error message when it breaks it.
    pub check: Option<fn(&Path) -> Option<String>>,
}

impl TargetKey {
    pub const fn path(name: &'static str) -> Self {
        TargetKey {
            name,
            needs: None,
            kind: TargetKind::Path,
            check: None,
        }
    }

    pub const fn flag(name: &'static str) -> Self {
        TargetKey {
            kind: TargetKind::Flag,
            ..TargetKey::path(name)
        }
    }

    /// A flag that may also be set to one of `words`.
    pub const fn flag_or(name: &'static str, words: &'static [&'static str]) -> Self {
        TargetKey {
            kind: TargetKind::FlagOr(words),
            ..TargetKey::path(name)
        }
    }

    pub const fn needs(mut self, primary: &'static str) -> Self {
        self.needs = Some(primary);
        self
    }

    pub const fn check(mut self, check: fn(&Path) -> Option<String>) -> Self {
        self.check = Some(check);
        self
    }
}

/// A `[targets]` value as written, read before anyone knows which kind of
/// value its key wants.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Value {
    /// A string, resolved as a path, and as written.
    Path(PathBuf, String),
    Flag(bool),
    /// Anything else (an empty string, a number, a table).
    Other,
}

#[derive(Debug, Clone, Default)]
pub struct Targets {
    /// (key, value, the value as config.toml spells it), in file order.
    entries: Vec<(String, Value, String)>,
    /// Where each key of `entries` is written (line, column), same order.
    positions: Vec<Option<(usize, usize)>>,
}

impl Targets {
    /// The path `key` holds, if it is set to one.
    pub fn path(&self, key: &str) -> Option<&Path> {
        self.value(key).and_then(|v| match v {
            Value::Path(p, _) => Some(p.as_path()),
            _ => None,
        })
    }

    /// Whether `key` is set to `true`.
    pub fn flag(&self, key: &str) -> bool {
        self.value(key) == Some(&Value::Flag(true))
    }

    /// The string `key` holds as written, if it is set to one.
    pub fn word(&self, key: &str) -> Option<&str> {
        self.value(key).and_then(|v| match v {
            Value::Path(_, text) => Some(text.as_str()),
            _ => None,
        })
    }

    /// The file of a target with a yolo variant, for the mode: `key`'s
    /// path, or in yolo mode `yolo_key`'s or else the derived name of
    /// `key`'s ([`yolo_variant`]). `None` while `key` is not set.
    pub fn for_mode(&self, key: &str, yolo_key: &str, yolo: bool) -> Option<PathBuf> {
        let full = self.path(key)?;
        if !yolo {
            return Some(full.to_path_buf());
        }
        Some(
            self.path(yolo_key)
                .map_or_else(|| yolo_variant(full), Path::to_path_buf),
        )
    }

    pub fn contains(&self, key: &str) -> bool {
        self.value(key).is_some()
    }

    fn value(&self, key: &str) -> Option<&Value> {
        self.entries
            .iter()
            .find(|(k, _, _)| k == key)
            .map(|(_, v, _)| v)
    }

    /// Hold the table to the agents' declared `keys`, in their order:
    /// unknown keys first (a misspelt key would leave its agent silently
    /// unwritten), then secondary keys without their primary, then each
    /// value's kind, then the keys' own rules.
    pub fn check(&self, keys: &[&TargetKey], config_path: &Path) -> Result<()> {
        let err = |message: String| Error::config(config_path, message);
        let mut unknown: Vec<&str> = self
            .entries
            .iter()
            .map(|(k, _, _)| k.as_str())
            .filter(|k| !keys.iter().any(|key| key.name == *k))
            .collect();
        if !unknown.is_empty() {
            let first = unknown[0];
            let position = self
                .entries
                .iter()
                .position(|(k, _, _)| k == first)
                .and_then(|i| self.positions.get(i).copied().flatten());
            unknown.sort_unstable();
            let known: Vec<&str> = keys.iter().map(|k| k.name).collect();
            let hint = crate::known_keys::nearest(first, &known)
                .map(|near| format!("; did you mean \"{near}\" for \"{first}\"?"))
                .unwrap_or_default();
            return Err(Error::UnknownKey {
                path: config_path.to_path_buf(),
                position,
                message: format!(
                    "targets: unknown key(s) {}; the targets twsrt knows are {}{hint}",
                    unknown.join(", "),
                    known.join(", ")
                ),
            });
        }
        for key in keys {
            if let Some(primary) = key
                .needs
                .filter(|p| self.contains(key.name) && !self.contains(p))
            {
                let name = key.name;
                return Err(err(format!(
                    "targets.{name} requires {primary}: set targets.{primary} as well, or remove targets.{name}"
                )));
            }
        }
        check_kinds(&self.entries, keys, &err)?;
        for key in keys {
            let broken = key
                .check
                .zip(self.path(key.name))
                .and_then(|(check, path)| check(path));
            if let Some(message) = broken {
                return Err(err(message));
            }
        }
        Ok(())
    }
}

/// Each set key's value is of its kind (a path, a flag, or one of the
/// words a `FlagOr` key also takes).
fn check_kinds(
    entries: &[(String, Value, String)],
    keys: &[&TargetKey],
    err: &dyn Fn(String) -> Error,
) -> Result<()> {
    for key in keys {
        let Some((_, value, shown)) = entries.iter().find(|(k, _, _)| k == key.name) else {
            continue;
        };
        let name = key.name;
        match (key.kind, value) {
            (TargetKind::Path, Value::Path(..))
            | (TargetKind::Flag | TargetKind::FlagOr(_), Value::Flag(_)) => {}
            (TargetKind::FlagOr(words), Value::Path(_, text)) if words.contains(&text.as_str()) => {
            }
            // The value is named, as the reference names it.
            (TargetKind::Path, _) => {
                return Err(err(format!(
                    "targets.{name} must be a non-empty path string, found {shown}"
                )));
            }
            (TargetKind::Flag, _) => {
                return Err(err(format!(
                    "targets.{name} must be true or false, found {shown}"
                )));
            }
            (TargetKind::FlagOr(words), _) => {
                let words: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
                return Err(err(format!(
                    "targets.{name} must be true, false or {}, found {shown}",
                    words.join(", ")
                )));
            }
        }
    }
    Ok(())
}

impl Loader<'_> {
    pub(super) fn targets(&self) -> Targets {
        let table = self.root.get("targets").and_then(Item::as_table_like);
        let entries = table
            .into_iter()
            .flat_map(|t| t.iter())
            .map(|(key, item)| {
                let value = match (item.as_str(), item.as_bool()) {
                    (Some(s), _) if !s.is_empty() => {
                        Value::Path(resolve_config_path(s, self.dir), s.to_string())
                    }
                    (None, Some(b)) => Value::Flag(b),
                    _ => Value::Other,
                };
                (key.to_string(), value, super::shown(item))
            })
            .collect();
        let positions = table
            .into_iter()
            .flat_map(|t| t.iter().map(move |(key, _)| self.key_position(t, key)))
            .collect();
        Targets { entries, positions }
    }
}
