//! Everything one `generate -w` will do, fully rendered before the first byte
//! is written: checked and listed by the preview, or applied as one
//! all-or-nothing transaction.

use std::path::PathBuf;

use crate::ui;

/// What a staged file is, which decides its status line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A compiled canonical document (`Wrote canonical: P`).
    Canonical,
    /// An agent's target file (`Wrote: P`).
    AgentTarget,
    /// A file that only supports the others (the `.gitignore` of
    /// `generate --project`): written with them, never listed.
    Support,
    /// A file of an agent's managed (system-wide) layer (`Wrote managed:
    /// P`): always mode 0644, in directories created 0755, so every user
    /// can read what they cannot change.
    Managed,
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
    /// prints (also for `-n`, the 1.0.0 dry run, hence the name). Read it
    /// through [`Plan::renderings`].
    previews: Vec<(String, Shown)>,
    /// `Info:` lines raised while staging (a settings sync, say), printed
    /// by the preview and by `-w` alike, before any other status line.
    pub notes: Vec<String>,
    /// Entries twsrt did not write that the staged files would no longer
    /// hold (a hand-written deny rule): `generate` refuses the plan unless
    /// the user accepts their removal.
    pub removals: Vec<Removal>,
}

/// One entry a staged write would remove from a file twsrt did not write
/// it into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removal {
    /// The agent whose file it is.
    pub agent: &'static str,
    /// The file that holds it now.
    pub path: PathBuf,
    /// Where in that file, dotted (`permissions.deny`).
    pub section: String,
    pub entry: String,
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
    pub fn note_after_writes(&mut self, text: impl Into<String>) {
        self.steps.push(Step::Notice(text.into()));
    }

    /// An `Info:` line that staging raised, shown in both modes.
    pub fn note_before_writes(&mut self, text: impl Into<String>) {
        self.notes.push(text.into());
    }

    /// Record an entry that the staged writes remove ([`Removal`]).
    pub fn removal(&mut self, removal: Removal) {
        self.removals.push(removal);
    }

    pub fn show_preview(&mut self, agent: &str, rendering: impl Into<String>) {
        self.previews
            .push((agent.to_string(), Shown::Text(rendering.into())));
    }

    /// Write `rendering` and a final newline to `path`, and show `rendering`
    /// as `agent`'s preview: a new file that is exactly what the preview
    /// shows is held once (for a large policy that text is most of what a
    /// preview allocates).
    pub fn write_shown(&mut self, agent: &str, path: PathBuf, rendering: String, kind: FileKind) {
        let mut content = rendering.into_bytes();
        content.push(b'\n');
        self.previews
            .push((agent.to_string(), Shown::Step(self.steps.len())));
        self.write(path, content, kind);
    }

    /// The status lines of the applied plan, all on stderr: `Wrote: P` (or
    /// `Wrote canonical: P`) only for a file whose bytes changed, and
    /// `Unchanged: P` (`Unchanged canonical: P`) for one already right;
    /// `Migrated: A → B` lines; then the notices, each only when a target
    /// staged before it (since the previous notice) was written: a restart
    /// hint for files that did not change would send the user on an errand.
    pub fn print_applied(&self, applied: &Applied) {
        let mut notices = Vec::new();
        let mut wrote_since_notice = false;
        for (i, step) in self.steps.iter().enumerate() {
            let changed = applied.changed(i);
            match step {
                Step::Write { path, kind, .. } => {
                    let what = match kind {
                        FileKind::Canonical => " canonical",
                        FileKind::AgentTarget => "",
                        FileKind::Managed => " managed",
                        FileKind::Support => continue,
                    };
                    if changed {
                        wrote_since_notice |= *kind == FileKind::AgentTarget;
                        ui::wrote(&format!("Wrote{what}: {}", path.display()));
                    } else {
                        ui::note_plain(&format!("Unchanged{what}: {}", path.display()));
                    }
                }
                Step::Migrate { from, to } => {
                    ui::note(&format!("Migrated: {} → {}", from.display(), to.display()))
                }
                Step::Notice(text) => {
                    if std::mem::take(&mut wrote_since_notice) {
                        notices.push(text);
                    }
                }
                Step::Symlink { .. } => wrote_since_notice |= changed,
            }
        }
        for text in notices {
            ui::note(text);
        }
    }

    /// Each agent's preview text, in staging order.
    pub fn renderings(&self) -> impl Iterator<Item = (&str, &str)> {
        self.previews.iter().map(|(agent, shown)| {
            let text = match shown {
                Shown::Text(text) => text.as_str(),
                Shown::Step(i) => match self.steps.get(*i) {
                    Some(Step::Write { content, .. }) => std::str::from_utf8(content)
                        .unwrap_or_default()
                        .strip_suffix('\n')
                        .unwrap_or_default(),
                    _ => "",
                },
            };
            (agent.as_str(), text)
        })
    }
}

/// What applying a plan changed (`apply::apply`): for each step, whether
/// it touched the disk (a file whose bytes were already right, or a symlink
/// already pointing where it should, is left alone).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Applied {
    changed: Vec<bool>,
}

impl Applied {
    /// One flag per step of the plan, in order.
    pub fn new(changed: Vec<bool>) -> Self {
        Applied { changed }
    }

    /// Whether step `index` of the plan changed anything on disk.
    pub fn changed(&self, index: usize) -> bool {
        self.changed.get(index).copied().unwrap_or(false)
    }
}

/// Where a preview's text is kept.
#[derive(Debug)]
enum Shown {
    Text(String),
    /// The content of the `Write` step at this index, without its final
    /// newline.
    Step(usize),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shown_write_is_held_once_and_previewed_without_its_newline() {
        let mut plan = Plan::default();
        plan.show_preview("codex", "flags");
        plan.write_shown(
            "claude",
            "s.json".into(),
            "{}".into(),
            FileKind::AgentTarget,
        );
        assert_eq!(
            plan.steps,
            [Step::Write {
                path: "s.json".into(),
                content: b"{}\n".to_vec(),
                kind: FileKind::AgentTarget,
            }]
        );
        let shown: Vec<_> = plan.renderings().collect();
        assert_eq!(shown, [("codex", "flags"), ("claude", "{}")]);
    }
}
