//! Everything one `generate -w` will do, fully rendered before the first byte
//! is written: previewed (`-n`) or applied as one all-or-nothing transaction.

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
    /// A line (or block) for stdout when applying, e.g. the Copilot snippet
    /// when there is no output file, or the Codex restart note.
    Print { text: String, info: bool },
}

/// The steps in order, plus what each agent shows in a dry run.
#[derive(Debug, Default)]
pub struct Plan {
    pub steps: Vec<Step>,
    /// (agent name, rendering) for `--- Dry run: NAME ---` blocks.
    pub dry_run: Vec<(String, String)>,
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

    pub fn print(&mut self, text: impl Into<String>) {
        self.steps.push(Step::Print {
            text: text.into(),
            info: false,
        });
    }

    /// An informational line (cyan on a terminal).
    pub fn info(&mut self, text: impl Into<String>) {
        self.steps.push(Step::Print {
            text: text.into(),
            info: true,
        });
    }

    pub fn dry_run(&mut self, agent: &str, rendering: impl Into<String>) {
        self.dry_run.push((agent.to_string(), rendering.into()));
    }
}
