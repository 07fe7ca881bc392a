//! What Claude Code loads for a mode against what twsrt keeps there.
//!
//! Claude Code reads `settings.json`; twsrt keeps it a symlink to the
//! mode's target (or writes the target there when the two are one path).
//! A regular file in its place, a link to another file, a dangling link or
//! no file at all means Claude Code does not load the settings twsrt wrote:
//! `diff` compares the policy with what it loads instead, and `audit`
//! reports it.

use std::path::{Path, PathBuf};

use super::anchor;
use crate::config::Config;
use crate::drift::{Difference, Direction, Side};

/// What is at `settings.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Anchor {
    /// The target itself, or a symlink that resolves to it.
    Target,
    /// Nothing: Claude Code loads no user settings.
    Missing,
    /// A regular file (or anything else that is no symlink).
    NotALink,
    /// A symlink to something else; its stored value.
    Elsewhere(PathBuf),
}

/// The settings Claude Code loads for one mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    /// `settings.json`.
    pub anchor: PathBuf,
    /// twsrt's settings file for the mode.
    pub target: PathBuf,
    pub state: Anchor,
    pub yolo: bool,
}

/// Look at `settings.json` for the mode (`lstat`, `readlink`, and a
/// `realpath` of both ends for a link).
pub fn loaded(config: &Config, yolo: bool) -> Loaded {
    let target = anchor::target_path(config, yolo);
    let anchor = anchor::anchor_path(config);
    let state = if target == anchor {
        Anchor::Target
    } else {
        state(&anchor, &target)
    };
    Loaded {
        anchor,
        target,
        state,
        yolo,
    }
}

fn state(anchor: &Path, target: &Path) -> Anchor {
    let Ok(meta) = std::fs::symlink_metadata(anchor) else {
        return Anchor::Missing;
    };
    if !meta.file_type().is_symlink() {
        return Anchor::NotALink;
    }
    let Ok(stored) = std::fs::read_link(anchor) else {
        return Anchor::NotALink;
    };
    let resolves_to_target = match (std::fs::canonicalize(anchor), std::fs::canonicalize(target)) {
        (Ok(a), Ok(t)) => a == t,
        // A link to a target that is gone is still the link twsrt keeps
        // (the target's absence is reported on its own).
        _ => anchor.parent().map(|dir| dir.join(&stored)).as_deref() == Some(target),
    };
    if resolves_to_target {
        Anchor::Target
    } else {
        Anchor::Elsewhere(stored)
    }
}

impl Loaded {
    /// Whether Claude Code loads the target.
    pub fn is_target(&self) -> bool {
        self.state == Anchor::Target
    }

    /// The file `diff` compares: the target when Claude Code loads it,
    /// else `settings.json` (what it loads, if anything).
    pub fn compared(&self) -> &Path {
        if self.is_target() {
            &self.target
        } else {
            &self.anchor
        }
    }

    /// The drift of the link itself: the symlink twsrt keeps is missing,
    /// and what is there instead is extra. Both widen: Claude Code does not
    /// load what twsrt writes, so no later policy change reaches it.
    pub fn differences(&self) -> Vec<Difference> {
        let name = anchor::ANCHOR_NAME;
        let found = match &self.state {
            Anchor::Target => return Vec::new(),
            Anchor::Missing => None,
            Anchor::NotALink => Some((
                "not a symlink".to_string(),
                format!("{name} (not a symlink)"),
            )),
            Anchor::Elsewhere(stored) => {
                let stored = stored.display().to_string();
                let shown = format!("{name} -> {stored}");
                Some((stored, shown))
            }
        };
        let want = anchor::link_value(&self.anchor, &self.target)
            .display()
            .to_string();
        let mut out = vec![Difference::new(
            name,
            &want,
            &format!("link:{name} -> {want}"),
            Side::Missing,
            Direction::Widening,
        )];
        if let Some((entry, shown)) = found {
            out.push(Difference::new(
                name,
                &entry,
                &format!("link:{shown}"),
                Side::Extra,
                Direction::Widening,
            ));
        }
        out
    }

    /// Why Claude Code does not load the generated settings of the mode
    /// (`None` when it does): the `audit` finding.
    pub fn problem(&self) -> Option<String> {
        let target = self.target.display();
        let mode = if self.yolo { " --yolo" } else { "" };
        let generate = format!("run twsrt generate claude{mode} -w");
        let (why, fix) = match &self.state {
            Anchor::Target if self.target.exists() => return None,
            Anchor::Target if self.anchor == self.target => {
                ("does not exist".to_string(), generate)
            }
            Anchor::Target => (format!("links to {target}, which does not exist"), generate),
            Anchor::Missing => ("does not exist".to_string(), generate),
            Anchor::NotALink => (
                format!("is not the symlink to {target} that twsrt keeps"),
                format!("move what it holds into {target}, remove it and {generate}"),
            ),
            Anchor::Elsewhere(stored) => (
                format!("links to {}, not to {target}", stored.display()),
                generate,
            ),
        };
        Some(format!(
            "{why}: Claude Code does not load the settings twsrt generates; {fix}"
        ))
    }
}
