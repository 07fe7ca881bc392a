//! Everything one `generate -w` will do, fully rendered before the first byte
//! is written: checked and listed by the preview, or applied as one
//! all-or-nothing transaction.

use std::path::PathBuf;

/// What a staged file is, which decides its status line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A compiled canonical document (`Wrote canonical: P`).
    Canonical,
    /// An agent's target file (`Wrote: P`).
    AgentTarget,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Replace (or create) `path` with `content`.
    Write {
        path: PathBuf,
        content: Vec<u8>,
        kind: FileKind,
    },
    /// Make `link` a symlink whose stored target is `target` (as written).
    Symlink { link: PathBuf, target: PathBuf },
    /// A regular settings.json becomes the target: prints `Migrated: A → B`.
    /// Its content is merged into the target's `Write`; applying it only
    /// prints the line (the anchor's `Symlink` step then replaces the file).
    Migrate { from: PathBuf, to: PathBuf },
    /// An `Info:` line on stderr once every file was written, e.g. the
    /// Codex restart notice. The preview does not print it.
    Notice(String),
}

/// The steps in order, what each agent shows on stdout, and the notes
/// staging raised.
#[derive(Debug, Default)]
pub struct Plan {
    pub steps: Vec<Step>,
    /// (agent name, rendering): the generated configuration the preview
    /// prints (also for `-n`, the 1.0.0 dry run, hence the name).
    pub dry_run: Vec<(String, String)>,
    /// `Info:` lines raised while staging (a settings sync, say), printed
    /// by the preview and by `-w` alike, before any other status line.
    pub notes: Vec<String>,
}

impl Plan {
    pub fn write(&mut self, path: PathBuf, content: impl Into<Vec<u8>>, kind: FileKind) {
        self.steps.push(Step::Write {
            path,
            content: content.into(),
            kind,
        });
    }

    pub fn symlink(&mut self, link: PathBuf, target: PathBuf) {
        self.steps.push(Step::Symlink { link, target });
    }

    pub fn migrate(&mut self, from: PathBuf, to: PathBuf) {
        self.steps.push(Step::Migrate { from, to });
    }

    /// An `Info:` line for after the writes of `-w` ([`Step::Notice`]).
    pub fn notice(&mut self, text: impl Into<String>) {
        self.steps.push(Step::Notice(text.into()));
    }

    /// An `Info:` line that staging raised, shown in both modes.
    pub fn note(&mut self, text: impl Into<String>) {
        self.notes.push(text.into());
    }

    pub fn dry_run(&mut self, agent: &str, rendering: impl Into<String>) {
        self.dry_run.push((agent.to_string(), rendering.into()));
    }
}
