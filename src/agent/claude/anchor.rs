//! Where `generate claude -w` writes, and the `settings.json` anchor Claude
//! Code actually reads: a symlink beside the full-mode target that points at
//! whichever mode was written last.

use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::error::{Error, Result};

/// The anchor's file name.
pub const ANCHOR_NAME: &str = "settings.json";

/// The settings file for the mode: `claude_settings`, or in yolo mode
/// `claude_settings_yolo` or its derived name (`settings.yolo.json`).
/// Only called for a configured Claude agent (the commands skip an agent
/// whose target key is not set).
pub fn target_path(config: &Config, yolo: bool) -> PathBuf {
    config
        .targets
        .for_mode("claude_settings", "claude_settings_yolo", yolo)
        .unwrap_or_default()
}

/// The full-mode target. Only called for a configured Claude agent (the
/// commands skip an agent whose target key is not set).
fn full_target(config: &Config) -> &Path {
    config
        .targets
        .path("claude_settings")
        .unwrap_or(Path::new(""))
}

/// `claude_settings` may not be the anchor's own name: the check config.toml
/// loading applies to the key.
pub fn not_the_anchor_name(path: &Path) -> Option<String> {
    (path.file_name()? == ANCHOR_NAME).then(|| {
        "targets.claude_settings may not be called settings.json: twsrt keeps that \
         name for the symlink to the active settings file (try settings.full.json)"
            .to_string()
    })
}

/// `settings.json` in the full-mode target's directory, for both modes.
pub fn anchor_path(config: &Config) -> PathBuf {
    let full = full_target(config);
    full.parent().unwrap_or(Path::new("")).join(ANCHOR_NAME)
}

/// What staging a Claude write involves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub target: PathBuf,
    /// The file whose content is the base of the merge (if it exists).
    pub base: PathBuf,
    /// Set when the content Claude Code loads through `settings.json` (a
    /// regular file there, or the user's own file a link points at) moves
    /// into the target.
    pub migrate_from: Option<PathBuf>,
    /// (anchor, the target as the symlink stores it); `None` when the
    /// target is the anchor itself.
    pub symlink: Option<(PathBuf, PathBuf)>,
    /// The file `settings.json` links to when that is an existing file
    /// other than twsrt's mode files: the user's own settings, which Claude
    /// Code loads now and which the write must not lose.
    pub foreign: Option<PathBuf>,
}

/// Decide the layout from what is on disk now. `mode_files` are twsrt's
/// settings files of both modes; `sync` says whether `[claude_sync]` will
/// rebuild the target from what the anchor points at.
///
/// A link to the user's own file (a dotfiles repository, say) is adopted
/// like a regular `settings.json`: its content becomes the base of the
/// merge and the link is repointed, the file itself stays as it is. With
/// `[claude_sync]` the sync copies it over instead. When the target exists
/// as well and nothing syncs, the linked file is adopted the same way if
/// the target holds nothing of the user's that it lacks
/// ([`super::relink`]); otherwise the write is refused naming what would
/// be lost.
pub fn layout(
    target: PathBuf,
    anchor: PathBuf,
    mode_files: &[PathBuf],
    sync: bool,
) -> Result<Layout> {
    if target == anchor {
        return Ok(Layout {
            base: target.clone(),
            target,
            migrate_from: None,
            symlink: None,
            foreign: None,
        });
    }
    let anchor_is_regular = std::fs::symlink_metadata(&anchor).is_ok_and(|m| m.is_file());
    let link = link_value(&anchor, &target);
    if anchor_is_regular {
        if target.exists() {
            return Err(Error::target(
                &anchor,
                format!(
                    "is a regular file and {} exists as well; twsrt will not choose \
                     between them, so remove one and run generate -w again",
                    target.display()
                ),
            ));
        }
        return Ok(Layout {
            base: anchor.clone(),
            target,
            migrate_from: Some(anchor.clone()),
            symlink: Some((anchor, link)),
            foreign: None,
        });
    }
    let foreign = foreign_link(&anchor, mode_files);
    if let Some(file) = foreign.as_ref().filter(|_| !sync) {
        // A re-linked dotfile is adopted when that loses nothing of the target.
        let lost = match target.exists() {
            true => super::relink::lost_by_adopting(&target, file)?,
            false => Vec::new(),
        };
        if !lost.is_empty() {
            return Err(Error::target(
                &anchor,
                format!(
                    "is a symlink to {}, a settings file twsrt does not write, and {} \
                     exists as well, holding settings of yours the linked file does not hold \
                     alike: \
                     {}. Adopting the linked file would lose them, so nothing was written: \
                     copy them into {} (or remove them from {}), then run \
                     `twsrt generate -w claude`",
                    file.display(),
                    target.display(),
                    lost.join(", "),
                    file.display(),
                    target.display()
                ),
            ));
        }
        return Ok(Layout {
            base: file.clone(),
            target,
            migrate_from: Some(file.clone()),
            symlink: Some((anchor, link)),
            foreign,
        });
    }
    Ok(Layout {
        base: target.clone(),
        target,
        migrate_from: None,
        symlink: Some((anchor, link)),
        foreign,
    })
}

/// The real path of the existing file `anchor` links to, when that is none
/// of `mode_files` (however either is spelt).
pub fn foreign_link(anchor: &Path, mode_files: &[PathBuf]) -> Option<PathBuf> {
    let is_link = std::fs::symlink_metadata(anchor).is_ok_and(|m| m.file_type().is_symlink());
    if !is_link {
        return None;
    }
    let file = std::fs::canonicalize(anchor).ok()?;
    if !file.is_file() {
        return None;
    }
    let ours = mode_files
        .iter()
        .any(|m| std::fs::canonicalize(m).is_ok_and(|m| m == file));
    (!ours).then_some(file)
}

/// Both modes' targets: the files twsrt writes and `settings.json` may
/// point at.
pub fn mode_files(config: &Config) -> [PathBuf; 2] {
    [target_path(config, false), target_path(config, true)]
}

/// The bare file name when the target sits beside the anchor, else the
/// target's full path.
pub fn link_value(anchor: &Path, target: &Path) -> PathBuf {
    match (anchor.parent(), target.parent(), target.file_name()) {
        (Some(a), Some(t), Some(name)) if a == t => PathBuf::from(name),
        _ => target.to_path_buf(),
    }
}
