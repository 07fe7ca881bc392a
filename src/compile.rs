//! From a loaded config and a profile name to canonical documents and rules.
//!
//! Per configured source kind, in config.toml order: every fragment of the
//! profile is read and parsed ([`crate::fragment`]), then each is checked
//! against its kind's schema, then all of them for opposing actions, and
//! only then composed ([`crate::compose`]); its set-like lists are sorted
//! ([`sets`]) and, for srt, `filesystem.denyWrite` gains the read denies,
//! the policy files and the agents' guard files ([`deny_write`],
//! [`policy_files`]). Errors keep the
//! reference's order: a parse error in any fragment before a schema error,
//! that before an opposing-action error, that before a composition conflict,
//! and that before a path that is read-denied and write-allowed. Nothing here writes; reading
//! fragments and looking up the policy files' symlinks is the only
//! filesystem access.

mod deny_write;
mod on_disk;
mod policy_files;
mod sets;

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::compose::{Composer, ParsedFragment};
use crate::config::{Config, Source};
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
    /// One per configured source kind, in config.toml order.
    pub canonical: Vec<Canonical>,
    /// The spellings of the agents' guard files the compile write-denied
    /// ([`crate::config::Config::guard_files`]), so a reader can say why a
    /// rule no fragment lists is there.
    pub guard_files: Vec<String>,
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

    /// The normalized rules of every document, srt's before bash's
    /// whatever order config.toml lists them in, each pattern borrowed from
    /// its document.
    pub fn rules(&self) -> Vec<SecurityRule<'_>> {
        // One list, sized first: a list per document joined afterwards
        // would hold the whole policy's rules twice for a moment.
        let ordered = || {
            SourceKind::ALL
                .into_iter()
                .flat_map(|kind| self.canonical.iter().filter(move |doc| doc.kind == kind))
        };
        let count = ordered().map(|doc| doc.kind.rule_count(&doc.value)).sum();
        let mut all = Vec::with_capacity(count);
        for doc in ordered() {
            doc.kind.extend_rules(&doc.value, &mut all);
        }
        all
    }
}

pub fn compile(config: &Config, profile: Option<&str>) -> Result<Compiled> {
    compile_protecting(config, profile, &[])
}

/// [`compile`], with `extra_deny_write` (rules as written, e.g. a project's
/// own output directory) added to srt's `filesystem.denyWrite` beside the
/// policy files.
pub fn compile_protecting(
    config: &Config,
    profile: Option<&str>,
    extra_deny_write: &[String],
) -> Result<Compiled> {
    let profile = resolve(config, profile)?;
    let mut guard_files = policy_files::guard_files(config)?;
    guard_files.extend(config.guard_rules.iter().cloned());
    let mut protected = extra_deny_write.to_vec();
    protected.extend(policy_files::policy_files(config)?);
    protected.extend(guard_files.iter().cloned());
    let mut canonical = Vec::new();
    for source in &config.sources {
        let mut value = compose_kind(&profile, source)?;
        match source.kind {
            SourceKind::Srt => crate::srt::domain_spelling::canonicalise(&mut value),
            SourceKind::Bash => crate::source::bash::canonicalise(&mut value).map_err(|e| {
                Error::Policy(format!("profile '{}', source 'bash': {e}", profile.name))
            })?,
        }
        sets::sort_sets(&mut value, source.kind.set_lists());
        if source.kind == SourceKind::Srt {
            crate::srt::credentials::check_composed(&profile.name, &value)?;
            deny_write::imply_write_denies(&profile.name, &mut value, &protected)?;
        }
        canonical.push(Canonical::new(source.kind, source.output.clone(), value));
    }
    Ok(Compiled {
        profile,
        canonical,
        guard_files,
    })
}

/// The checked composition of the profile's fragments of one kind, with
/// twsrt 3.3.3's order of errors, so that with several broken fragments the
/// same one is reported: a fragment that cannot be read or parsed, then the
/// first schema error, then the first value in two opposing lists, then the
/// first composition conflict.
///
/// Each fragment is composed as soon as it is read and checked, so only one
/// fragment's values are held beside the composition (for a large policy
/// they are most of its memory). A later error of a higher rank still wins:
/// reading and checking go on after a conflict. Opposing lists are looked
/// for in the composed lists; only when a value sits in two of them (or a
/// conflict stopped the composing) are the fragments read again, to name
/// the entry and files as the reference names them.
fn compose_kind(profile: &ResolvedProfile, source: &Source) -> Result<Value> {
    let kind = source.kind;
    let fragments = profile.fragments(kind);
    let mut composer = Composer::new(&profile.name, kind.name()).expecting(fragments.len());
    let mut invalid = None;
    let mut conflict = None;
    for f in fragments {
        let fragment = read_fragment(&f.path)?;
        if invalid.is_some() {
            continue;
        }
        if let Err(error) = kind.validate(&fragment.path, &fragment.value, &source.allowed_unknown)
        {
            invalid = Some(error);
        } else if conflict.is_none()
            && let Err(error) = composer.add(fragment)
        {
            conflict = Some(error);
        }
    }
    if let Some(error) = invalid {
        return Err(error);
    }
    let composed = composer.finish().into_value();
    let opposed = conflict.is_none() && kind.opposed_in(&composed);
    if conflict.is_some() || opposed {
        let parsed: Vec<ParsedFragment> = fragments
            .iter()
            .map(|f| read_fragment(&f.path))
            .collect::<Result<_>>()?;
        kind.check_opposing(&profile.name, &parsed)?;
    }
    if let Some(error) = conflict {
        return Err(error);
    }
    if opposed {
        // The fragments read again no longer hold what was composed.
        return Err(Error::Policy(format!(
            "profile '{}': the {} fragments changed while twsrt read them; run it again",
            profile.name,
            kind.name()
        )));
    }
    Ok(composed)
}

/// The fragment's parsed value. Its text is dropped at once, so the next
/// fragment is read into the same memory (a schema error reads the file
/// again for its position).
fn read_fragment(path: &Path) -> Result<ParsedFragment> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let text = crate::text_position::utf8(bytes).map_err(|at| Error::jsonc_not_utf8(path, at))?;
    let value = crate::fragment::parse(&text, path)?;
    Ok(ParsedFragment {
        path: path.to_path_buf(),
        value,
    })
}

#[cfg(test)]
mod tests;
