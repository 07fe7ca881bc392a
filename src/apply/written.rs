//! twsrt's record of the canonical outputs it wrote: `written.json` beside
//! config.toml maps each output's path to a digest of the bytes twsrt last
//! wrote there. A file whose bytes match its entry is twsrt's; any other
//! file at an output path (a hand-kept `~/.srt-settings.json`) was written
//! by someone else and is never taken for twsrt's record nor replaced
//! without consent. The record lives outside the outputs, so each output
//! stays exactly the document its program reads.
//!
//! The digest (length and 64-bit FNV-1a) tells twsrt's bytes from an edit;
//! it is no defence against a writer who forges the record, which needs
//! write access to the config folder, where the policy itself lives.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

const RECORD_NAME: &str = "written.json";

/// The record of the configuration at `config` (config.toml's path).
pub fn record_path(config: &Path) -> PathBuf {
    config.with_file_name(RECORD_NAME)
}

/// `content`'s digest as the record stores it.
fn digest(content: &[u8]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in content {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{}:{hash:016x}", content.len())
}

/// The record's entries (each path's recent digests, newest last); a
/// missing or unreadable record has none, so every existing output then
/// counts as foreign (fail closed).
fn read(config: &Path) -> BTreeMap<String, Vec<String>> {
    let Ok(Some(bytes)) = super::read_existing(&record_path(config)) else {
        return BTreeMap::new();
    };
    serde_json::from_slice(&bytes).unwrap_or_default()
}

/// Whether `content` is what twsrt last wrote to `file`.
pub fn is_recorded(config: &Path, file: &Path, content: &[u8]) -> bool {
    read(config)
        .get(&file.to_string_lossy().into_owned())
        .is_some_and(|digests| digests.contains(&digest(content)))
}

/// Add `files` (path, bytes now there) to the record and write it whole
/// (temp file, then rename; new record 0600). Runs hold the config folder
/// locked meanwhile, so two racing runs both land in the record; each path
/// keeps its last [`KEPT`] digests, so the bytes of either racer count.
pub fn remember<'a>(
    config: &Path,
    files: impl IntoIterator<Item = (&'a Path, &'a [u8])>,
) -> Result<()> {
    let dir = match config.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let lock = std::fs::File::open(dir).map_err(|e| Error::io(dir, e))?;
    lock.lock().map_err(|e| Error::io(dir, e))?;
    let mut record = read(config);
    for (path, content) in files {
        let digests = record
            .entry(path.to_string_lossy().into_owned())
            .or_default();
        let new = digest(content);
        digests.retain(|d| *d != new);
        digests.push(new);
        let excess = digests.len().saturating_sub(KEPT);
        digests.drain(..excess);
    }
    let mut text = serde_json::to_string_pretty(&record).unwrap_or_default();
    text.push('\n');
    let mut plan = crate::plan::Plan::default();
    plan.write(record_path(config), text, crate::plan::FileKind::Canonical);
    super::apply(&plan).map(|_| ())
}

/// How many digests the record keeps per path.
const KEPT: usize = 8;

/// `remember`, with a failure said as a warning: the outputs are written;
/// the next `generate -w` then takes them for foreign and refuses, which
/// loses nothing.
pub fn remember_or_warn<'a>(config: &Path, files: impl IntoIterator<Item = (&'a Path, &'a [u8])>) {
    if let Err(e) = remember(config, files) {
        crate::ui::warning(&format!(
            "{}: could not record what twsrt wrote ({e}); the next generate -w will take \
             those files for hand-written ones",
            record_path(config).display()
        ));
    }
}

/// The refusal for an srt output at `path` holding bytes twsrt did not
/// write: replacing it would lose the user's settings.
pub fn foreign_output(config: &Path, path: &Path, existing: &[u8], new: &[u8]) -> Option<Error> {
    if existing == new || is_recorded(config, path, existing) {
        return None;
    }
    let import = if config == crate::config::config_path(None) {
        "twsrt import srt".to_string()
    } else {
        format!("twsrt -c '{}' import srt", config.display())
    };
    Some(Error::target(
        path,
        format!(
            "this file was not written by twsrt (hand-written, or changed since twsrt wrote it); \
             replacing it with the policy would lose its settings. Run `{import}` to turn it \
             into a fragment of the policy, then generate -w again; or run generate -w \
             --drop-foreign to replace it."
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_recorded_only_with_the_bytes_twsrt_wrote() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("config.toml");
        let out = dir.path().join("srt-settings.json");
        assert!(!is_recorded(&config, &out, b"{}"));
        remember(&config, [(out.as_path(), b"{}".as_slice())]).unwrap();
        assert!(is_recorded(&config, &out, b"{}"));
        assert!(!is_recorded(&config, &out, b"{ }"));
        assert!(!is_recorded(&config, &dir.path().join("other.json"), b"{}"));
    }

    #[test]
    fn the_digest_is_stable() {
        // FNV-1a 64 of "a": a fixed value, so a record outlives a toolchain.
        assert_eq!(digest(b"a"), "1:af63dc4c8601ec8c");
    }
}
