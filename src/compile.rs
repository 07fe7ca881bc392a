//! From a loaded config and a profile name to canonical documents and rules.
//!
//! Per source kind, in registry order: each fragment of the profile is read,
//! parsed ([`crate::fragment`]), checked against its kind's schema and
//! composed ([`crate::compose`]); then the composition is checked for
//! opposing actions. Errors keep the reference's order: every fragment is
//! read and checked before a composition conflict is reported, and a
//! conflict before an opposing-action error. Nothing here writes; reading
//! fragments is the only filesystem access.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::compose::{Composer, ParsedFragment};
use crate::config::Config;
use crate::error::{Error, Result};
use crate::profile::{ResolvedProfile, resolve};
use crate::rules::SecurityRule;
use crate::source::SourceKind;

/// One compiled canonical document, ready to write.
#[derive(Debug, Clone)]
pub struct Canonical {
    pub kind: SourceKind,
    pub output: PathBuf,
    value: Value,
}

impl Canonical {
    pub fn new(kind: SourceKind, output: PathBuf, value: Value) -> Self {
        Canonical {
            kind,
            output,
            value,
        }
    }

    /// The composed document (an object).
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// The exact bytes of the output file (Python-style JSON plus a newline).
    pub fn text(&self) -> String {
        let mut text = crate::pyjson::to_pretty(&self.value);
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
    /// The composed document of `kind` (`null` when the config has no such source).
    pub fn document(&self, kind: SourceKind) -> &Value {
        static EMPTY: Value = Value::Null;
        self.canonical
            .iter()
            .find(|c| c.kind == kind)
            .map_or(&EMPTY, |c| &c.value)
    }

    /// The composed srt settings (the pass-through source for generators).
    pub fn srt(&self) -> &Value {
        self.document(SourceKind::Srt)
    }

    /// The normalized rules of every document, in registry order, each
    /// pattern borrowed from its document.
    pub fn rules(&self) -> Vec<SecurityRule<'_>> {
        self.canonical
            .iter()
            .flat_map(|doc| doc.kind.rules(&doc.value))
            .collect()
    }
}

pub fn compile(config: &Config, profile: Option<&str>) -> Result<Compiled> {
    let profile = resolve(config, profile)?;
    let mut canonical = Vec::new();
    for source in &config.sources {
        let value = compose_kind(&profile, source.kind)?;
        canonical.push(Canonical::new(source.kind, source.output.clone(), value));
    }
    Ok(Compiled { profile, canonical })
}

/// The checked composition of the profile's fragments of one kind.
fn compose_kind(profile: &ResolvedProfile, kind: SourceKind) -> Result<Value> {
    let fragments = profile.fragments(kind);
    let mut composer = Composer::new(&profile.name, kind.name()).expecting(fragments.len());
    let mut conflict = None;
    for fragment in fragments {
        let parsed = read_fragment(&fragment.path)?;
        kind.validate(&parsed.path, &parsed.value)?;
        // After a conflict the remaining fragments are still read and
        // checked (their errors come first), but no longer composed.
        if conflict.is_none() {
            conflict = composer.add(parsed).err();
        }
    }
    if let Some(conflict) = conflict {
        return Err(conflict);
    }
    let composed = composer.finish();
    kind.check_opposing(&profile.name, &composed)?;
    Ok(composed.into_value())
}

fn read_fragment(path: &Path) -> Result<ParsedFragment> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let text = crate::text_position::utf8(bytes).map_err(|at| Error::jsonc_not_utf8(path, at))?;
    Ok(ParsedFragment {
        path: path.to_path_buf(),
        value: crate::fragment::parse(&text, path)?,
    })
}
