//! `twsrt import srt`: an srt settings file kept by hand (the srt output
//! path, `~/.srt-settings.json` by default, or `--from FILE`) as a policy
//! fragment. Every string of a policy list becomes that list's entry; every
//! other value is copied as a setting at its JSON pointer, so the fragment
//! holds all the file says (the compile check refuses what srt's schema
//! does not know, naming the key).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Ctx, Entry, Imported, Importer, List, Origin};
use crate::error::{Error, Result};
use crate::source::SourceKind;

pub struct SrtImport;

pub static SRT_IMPORT: SrtImport = SrtImport;

/// The srt output config.toml names (where `generate -w` writes).
pub fn output_path(config: &crate::config::Config) -> Option<PathBuf> {
    config
        .sources
        .iter()
        .find(|s| s.kind == SourceKind::Srt)
        .map(|s| s.output.clone())
}

impl Importer for SrtImport {
    fn import(&self, ctx: &Ctx) -> Result<Imported> {
        let path = match ctx.from {
            Some(from) => from.to_path_buf(),
            None => output_path(ctx.config).ok_or_else(|| {
                Error::config(&ctx.config.path, "no [sources.srt] to import into")
            })?,
        };
        let Some(bytes) = crate::apply::read_existing(&path)? else {
            return Err(Error::target(
                &path,
                "no srt settings file here to import; name one with --from FILE",
            ));
        };
        let value: Value = serde_json::from_slice(&bytes).map_err(|e| {
            Error::target(
                &path,
                format!("line {}, column {}: not JSON: {e}", e.line(), e.column()),
            )
        })?;
        if !value.is_object() {
            return Err(Error::target(
                &path,
                "an srt settings file is a JSON object",
            ));
        }
        let mut imported = Imported {
            sources: vec![path.clone()],
            ..Imported::default()
        };
        walk(&path, &value, String::new(), &mut imported);
        Ok(imported)
    }
}

/// The srt policy list at `pointer`, if it is one.
fn list_at(pointer: &str) -> Option<List> {
    List::ALL
        .into_iter()
        .find(|l| l.kind() == SourceKind::Srt && l.pointer() == pointer)
}

/// Every entry under `value` (at `pointer`): list strings as entries, every
/// other leaf (and every list that is no policy list) as a setting.
fn walk(file: &Path, value: &Value, pointer: String, out: &mut Imported) {
    match value {
        Value::Object(map) if !map.is_empty() || pointer.is_empty() => {
            for (key, child) in map {
                let escaped = key.replace('~', "~0").replace('/', "~1");
                walk(file, child, format!("{pointer}/{escaped}"), out);
            }
        }
        Value::Array(items) if list_at(&pointer).is_some() => {
            let Some(list) = list_at(&pointer) else {
                return;
            };
            for (i, item) in items.iter().enumerate() {
                let origin = Origin::new(file, format!("{pointer}/{i}"));
                match item.as_str() {
                    Some(text) => out.add(Entry::listed(list, text, origin)),
                    None => out.add(Entry::setting(pointer.clone(), value.clone(), origin)),
                }
            }
        }
        _ => {
            let origin = Origin::new(file, pointer.clone());
            out.add(Entry::setting(pointer, value.clone(), origin));
        }
    }
}
