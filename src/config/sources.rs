//! `[sources.<kind>]`: the canonical source kinds a config registers, each
//! with its output file and its fragments.
//!
//! Kinds are read in the order config.toml lists them, and that order is
//! kept: it is the order they are compiled (so which error comes first), and
//! the order their outputs are written and reported. Only srt is required;
//! without `[sources.bash]` there are no command rules at all.

use toml_edit::Item;

use super::{Fragment, Loader, Source, keys};
use crate::error::Result;
use crate::paths::resolve_config_path;
use crate::source::SourceKind;

/// The kinds a config must register.
const REQUIRED: [SourceKind; 1] = [SourceKind::Srt];

impl Loader<'_> {
    pub(super) fn sources(&self) -> Result<Vec<Source>> {
        let table = self
            .root
            .get("sources")
            .and_then(Item::as_table_like)
            .filter(|t| !t.is_empty())
            .ok_or_else(|| {
                self.err("no [sources]: configure at least [sources.srt] with its fragments")
            })?;
        let mut sources: Vec<Source> = Vec::new();
        for (name, item) in table.iter() {
            let Some(kind) = SourceKind::from_name(name) else {
                let known = SourceKind::names();
                let hint = crate::known_keys::nearest(name, &known)
                    .map(|near| format!("; did you mean \"{near}\"?"))
                    .unwrap_or_default();
                return Err(self.unknown_key(
                    self.key_position(table, name),
                    format!(
                        "sources.{name}: unknown source kind '{name}'; known kinds: {}{hint}",
                        known.join(", ")
                    ),
                ));
            };
            let source = self.source(kind, item, &sources)?;
            sources.push(source);
        }
        let missing: Vec<&str> = REQUIRED
            .iter()
            .filter(|k| !sources.iter().any(|s| s.kind == **k))
            .map(|k| k.name())
            .collect();
        if !missing.is_empty() {
            return Err(self.err(format!(
                "missing source kind(s): {}; add [sources.{}] with its fragments",
                missing.join(", "),
                missing[0]
            )));
        }
        Ok(sources)
    }

    /// A list of non-empty strings.
    fn key_list(&self, key: &str, item: &Item) -> Result<Vec<String>> {
        let list = item.as_array().and_then(|a| {
            a.iter()
                .map(|v| v.as_str().filter(|s| !s.is_empty()).map(str::to_string))
                .collect::<Option<Vec<_>>>()
        });
        list.ok_or_else(|| {
            self.err(format!(
                "{key} must be a list of dotted key paths (non-empty strings)"
            ))
        })
    }

    /// One kind's table; `earlier` are the kinds read before it, whose
    /// outputs it may not share.
    fn source(&self, kind: SourceKind, item: &Item, earlier: &[Source]) -> Result<Source> {
        let name = kind.name();
        let Some(table) = item.as_table_like() else {
            return Err(self.err(format!("sources.{name} must be a table")));
        };
        let known = if kind == SourceKind::Srt {
            keys::SRT_SOURCE
        } else {
            keys::SOURCE
        };
        self.check_keys(table, &format!("[sources.{name}]"), known)?;
        let output = match table.get("output") {
            Some(item) => self.path_value(&format!("sources.{name}.output"), item)?,
            // Beside config.toml, named after the kind.
            None => resolve_config_path(kind.default_output(), self.dir),
        };
        // Checked before the fragments, which are read after the output.
        if let Some(other) = earlier.iter().find(|s| s.output == output) {
            return Err(self.err(format!(
                "sources.{name} and sources.{} both write {}",
                other.kind.name(),
                output.display()
            )));
        }
        let mut fragments = Vec::new();
        let listed = table.get("fragments").and_then(Item::as_table_like);
        for (frag_name, frag) in listed.into_iter().flat_map(|t| t.iter()) {
            let key = format!("sources.{name}.fragments.{frag_name}.path");
            let frag = frag.as_table_like();
            let path_item = frag
                .and_then(|t| t.get("path"))
                .ok_or_else(|| self.err(format!("{key} is required{}", misspelt_path(frag))))?;
            if let Some(frag) = frag {
                let table = format!("[sources.{name}.fragments.{frag_name}]");
                self.check_keys(frag, &table, keys::FRAGMENT)?;
            }
            let path = self.path_value(&key, path_item)?;
            if !path.to_string_lossy().ends_with(".jsonc") {
                return Err(self.err(format!(
                    "{key} must name a .jsonc file, not {}",
                    path.display()
                )));
            }
            if path == output {
                return Err(self.err(format!(
                    "sources.{name}.fragments.{frag_name} is the same file as \
                     sources.{name}.output; compiling would overwrite it"
                )));
            }
            fragments.push(Fragment {
                name: frag_name.to_string(),
                path,
            });
        }
        if fragments.is_empty() {
            return Err(self.err(format!(
                "sources.{name} needs at least one [sources.{name}.fragments.<name>]"
            )));
        }
        let allowed_unknown = match table.get("allow_unknown_keys") {
            None => Vec::new(),
            Some(item) => self.key_list(&format!("sources.{name}.allow_unknown_keys"), item)?,
        };
        Ok(Source {
            kind,
            output,
            fragments,
            allowed_unknown,
        })
    }
}

/// `; did you mean "path" for "X"?` when a fragment table without `path`
/// holds a key close to it.
fn misspelt_path(frag: Option<&dyn toml_edit::TableLike>) -> String {
    frag.into_iter()
        .flat_map(|t| t.iter())
        .find(|(key, _)| crate::known_keys::nearest(key, keys::FRAGMENT).is_some())
        .map(|(key, _)| format!("; did you mean \"path\" for \"{key}\"?"))
        .unwrap_or_default()
}
