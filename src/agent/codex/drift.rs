//! Compare the managed parts of the Codex files with what would be generated.
//! Only managed data is compared and named; foreign values never appear.

use std::path::Path;

use toml_edit::{DocumentMut, Item};

use super::merge::{fragment_doc, parse_existing, reject_legacy};
use super::render::OWNED_KEYS;
use crate::error::{Error, Result};
use crate::tomltext::toml_to_json;

#[derive(Debug, Default)]
pub struct Drift {
    pub missing: Vec<String>,
    pub extra: Vec<String>,
}

impl Drift {
    /// A managed item that should be `expected` and is `existing` on disk:
    /// absent is missing; different (by value, not by formatting) is both.
    fn check(&mut self, entry: String, expected: Option<&Item>, existing: Option<&Item>) {
        let Some(existing) = existing else {
            self.missing.push(entry);
            return;
        };
        let want = expected.and_then(toml_to_json);
        let have = toml_to_json(existing);
        if want.is_none() || want != have {
            self.missing.push(entry.clone());
            self.extra.push(entry);
        }
    }
}

/// Owned keys and `permissions.twsrt` of config.toml (`config:<key>` entries).
pub fn compare_config(existing: &str, fragment: &str, path: &Path) -> Result<Drift> {
    let doc = parse_existing(existing, path)?;
    reject_legacy(&doc, path)?;
    let frag = fragment_doc(fragment)?;
    let mut drift = Drift::default();
    for (key, _) in OWNED_KEYS {
        drift.check(format!("config:{key}"), frag.get(key), doc.get(key));
    }
    drift.check(
        "config:permissions.twsrt".into(),
        profile(&frag),
        profile(&doc),
    );
    Ok(drift)
}

fn profile(doc: &DocumentMut) -> Option<&Item> {
    doc.get("permissions").and_then(|p| p.get("twsrt"))
}

/// The rules file must match byte for byte (`rules:<path>` entry).
pub fn compare_rules(path: &Path, expected: &str, drift: &mut Drift) -> Result<()> {
    let on_disk = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    if on_disk != expected.as_bytes() {
        let entry = format!("rules:{}", path.display());
        drift.missing.push(entry.clone());
        drift.extra.push(entry);
    }
    Ok(())
}
