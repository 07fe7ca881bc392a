//! From a loaded config and a profile name to canonical documents and rules.
//! Nothing here writes; reading fragments is the only filesystem access.

use std::cell::OnceCell;
use std::path::PathBuf;

use serde_json::Value;

use crate::compose::{Composed, Composer, ParsedFragment};
use crate::config::Config;
use crate::error::{Error, Result};
use crate::profile::{ResolvedProfile, resolve};
use crate::rules::{Action, Scope, SecurityRule};
use crate::source::SourceKind;

/// One compiled canonical document, ready to write.
#[derive(Debug, Clone)]
pub struct Canonical {
    pub kind: SourceKind,
    pub output: PathBuf,
    /// The composition, its lists packed.
    composed: Composed,
    /// The document as a value, built on first use (see [`Canonical::value`]).
    value: OnceCell<Value>,
}

impl Canonical {
    pub fn new(kind: SourceKind, output: PathBuf, composed: Composed) -> Self {
        Canonical {
            kind,
            output,
            composed,
            value: OnceCell::new(),
        }
    }

    /// A document given as a value (tests, fuzz targets).
    pub fn from_value(kind: SourceKind, output: PathBuf, value: Value) -> Self {
        Self::new(kind, output, Composed::from_value(value))
    }

    /// The document as a value. Built the first time it is asked for: the
    /// Claude preview and the rules read the composition itself and never
    /// need it.
    pub fn value(&self) -> &Value {
        self.value.get_or_init(|| self.composed.to_value())
    }

    /// The composition, for reads that need no value (see
    /// [`Composed::node`] and [`Composed::strings`]).
    pub fn composed(&self) -> &Composed {
        &self.composed
    }

    /// The exact bytes of the output file (Python-style JSON plus a newline).
    /// Rendered on demand: a preview never needs it.
    pub fn text(&self) -> String {
        let mut text = crate::pyjson::to_pretty(self.value());
        text.push('\n');
        text
    }
}

#[derive(Debug, Clone)]
pub struct Compiled {
    pub profile: ResolvedProfile,
    /// In registry order: srt, then bash.
    pub canonical: Vec<Canonical>,
}

impl Compiled {
    pub fn document(&self, kind: SourceKind) -> &Value {
        static EMPTY: Value = Value::Null;
        self.canonical
            .iter()
            .find(|c| c.kind == kind)
            .map(Canonical::value)
            .unwrap_or(&EMPTY)
    }

    /// The composed srt settings, unbuilt (see [`Canonical::composed`]).
    pub fn srt_composed(&self) -> &Composed {
        static EMPTY: Composed = Composed::EMPTY;
        self.canonical
            .iter()
            .find(|c| c.kind == SourceKind::Srt)
            .map(Canonical::composed)
            .unwrap_or(&EMPTY)
    }

    /// The composed srt settings (the pass-through source for generators).
    pub fn srt(&self) -> &Value {
        self.document(SourceKind::Srt)
    }

    /// The normalized rules of every document, in registry order, each
    /// pattern borrowed from its document, as a list. Built at most once per
    /// command (see [`crate::agent::Ctx::rules`]), never per agent.
    pub fn rules(&self) -> Vec<SecurityRule<'_>> {
        // Counted first, then sized once: growing the list between documents
        // would copy the first one's rules into fresh memory.
        let mut rules = Vec::with_capacity(self.rule_iter(|_, _| true).count());
        rules.extend(self.rule_iter(|_, _| true));
        rules
    }

    /// [`Compiled::rules`] one at a time, without the list, and only those
    /// whose (scope, action) `keep` accepts: the other lists are not read.
    pub fn rule_iter(
        &self,
        keep: impl Fn(Scope, Action) -> bool + Copy,
    ) -> impl Iterator<Item = SecurityRule<'_>> {
        self.canonical
            .iter()
            .flat_map(move |doc| doc.kind.rule_iter(&doc.composed, keep))
    }
}

pub fn compile(config: &Config, profile: Option<&str>) -> Result<Compiled> {
    let profile = resolve(config, profile)?;
    let mut canonical = Vec::new();
    // One buffer for every fragment's bytes: each is read over the last, so
    // a policy of many fragments costs the memory of its largest one.
    let mut bytes = Vec::new();
    for source in &config.sources {
        let kind = source.kind;
        // Fragments are merged as they are read, so only one is in memory at
        // a time. Errors keep their order: every fragment is read and checked
        // before a composition conflict is reported, and a conflict before an
        // opposing-action error.
        let mut composer =
            Composer::new(&profile.name, kind.name()).expecting(profile.fragments(kind).len());
        let mut conflict = None;
        for fragment in profile.fragments(kind) {
            read_into(&fragment.path, &mut bytes).map_err(|e| Error::io(&fragment.path, e))?;
            let text = std::str::from_utf8(&bytes).map_err(|e| {
                let valid = e.valid_up_to();
                let (line, column) =
                    crate::tomltext::line_column(&String::from_utf8_lossy(&bytes[..valid]), valid);
                Error::Jsonc {
                    path: fragment.path.clone(),
                    line,
                    column,
                    message: "the file is not valid UTF-8".into(),
                }
            })?;
            // The common case: a view of the text, whose list entries are
            // copied only when they are new to the composition.
            if let Some(view) = crate::jsonc::parse_view(text) {
                kind.validate_view(&fragment.path, &view)?;
                if conflict.is_none() {
                    conflict = composer.add_view(fragment.path.clone(), view).err();
                }
                continue;
            }
            // The one-pass parser refused it: the full one reports why.
            let value = crate::jsonc::parse_slow(text, &fragment.path)?;
            let parsed_fragment = ParsedFragment {
                name: fragment.name.clone(),
                path: fragment.path.clone(),
                value,
            };
            kind.validate(&parsed_fragment)?;
            if conflict.is_none() {
                conflict = composer.add(parsed_fragment).err();
            }
        }
        if let Some(conflict) = conflict {
            return Err(conflict);
        }
        let composed = composer.finish();
        kind.check_opposing_composed(&profile.name, &composed)?;
        canonical.push(Canonical::new(kind, source.output.clone(), composed));
    }
    Ok(Compiled { profile, canonical })
}

/// Replaces the contents of `buffer` with the bytes of the file at `path`.
fn read_into(path: &std::path::Path, buffer: &mut Vec<u8>) -> std::io::Result<()> {
    use std::io::Read;
    buffer.clear();
    std::fs::File::open(path)?.read_to_end(buffer)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_rule_list_is_sized_once_for_every_document() {
        let doc = |kind, value| Canonical::from_value(kind, PathBuf::from("/out"), value);
        let compiled = Compiled {
            profile: ResolvedProfile {
                name: "p".into(),
                fragments: Vec::new(),
            },
            canonical: vec![
                doc(
                    SourceKind::Srt,
                    json!({"filesystem": {"denyRead": ["a", "b", "c"], "allowWrite": ["w"]},
                           "network": {"allowedDomains": ["x.org", 7]}}),
                ),
                doc(SourceKind::Bash, json!({"allow": ["ls"], "deny": ["rm"]})),
            ],
        };
        let rules = compiled.rules();
        let patterns: Vec<&str> = rules.iter().map(|r| r.pattern).collect();
        assert_eq!(patterns, ["a", "b", "c", "w", "x.org", "ls", "rm"]);
        // Exactly as long as it has to be: the list never grew between documents.
        assert_eq!(rules.capacity(), rules.len());
    }
}
