//! The managed (system-wide) scope: `--scope managed` of generate, diff,
//! show and doctor. An agent with a managed layer declares it through
//! [`Agent::managed`]: the files it owns under a root (Linux paths,
//! relative: `etc/claude-code/...`), their rendering from the policy, the
//! comparison of one of them with the file on disk, its `[managed.<agent>]`
//! switches and its doctor checks of the installed files. This module is
//! the one loop over them; it names no agent.
//!
//! Every managed file is owned by twsrt as a whole (a drop-in, a
//! requirements file, an admin policy): it is written whole, never merged,
//! with mode 0644 in directories created 0755 ([`FileKind::Managed`]), all
//! files of one command in one transaction.

use std::path::{Path, PathBuf};

use crate::agent::{Agent, AgentDiff, Ctx, Warnings};
use crate::config::Config;
use crate::diag::Diagnostic;
use crate::drift::Difference;
use crate::error::{Error, Result};
use crate::plan::{FileKind, Plan};
use crate::ui;

/// Which layer a command works on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Scope {
    /// The user's own files (`~/.claude/settings.json`, ...).
    #[default]
    User,
    /// The system-wide files an administrator installs (`/etc/...`).
    Managed,
}

/// The root the managed paths hang from: `/` unless `--root DIR`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    dir: PathBuf,
    /// `--root` was given (a build tree, not the machine's own /etc).
    pub built: bool,
}

impl Root {
    pub fn new(dir: Option<&Path>) -> Self {
        match dir {
            Some(dir) => Root {
                dir: dir.to_path_buf(),
                built: true,
            },
            None => Root {
                dir: PathBuf::from("/"),
                built: false,
            },
        }
    }

    /// Where `file` (relative to the root) is.
    pub fn join(&self, file: &str) -> PathBuf {
        self.dir.join(file)
    }

    /// Where `file` is, refused when it or a directory on the way to it
    /// below the root is a symlink: a managed file is a system file, and
    /// one reached through a link lives wherever the link points (outside
    /// `--root`'s directory, or in a file a user may edit), so twsrt
    /// neither writes nor judges it there.
    pub fn join_unlinked(&self, file: &str) -> Result<PathBuf> {
        let mut at = self.dir.clone();
        for part in Path::new(file).components() {
            at.push(part);
            match std::fs::symlink_metadata(&at) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    return Err(Error::target(
                        &at,
                        "is a symlink: a managed file is written and compared in place, never \
                         through a link (it would land where the link points); replace the \
                         link by a directory or remove it",
                    ));
                }
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => break,
                Err(e) => return Err(Error::io(&at, e)),
            }
        }
        Ok(self.join(file))
    }
}

/// One file of a managed layer, fully rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManagedFile {
    /// Relative to the root, on Linux (`etc/codex/requirements.toml`).
    pub path: &'static str,
    /// The whole file, ending in a newline.
    pub text: String,
}

/// An agent's managed layer.
pub trait Managed {
    /// The `[managed.<agent>]` switches this layer reads.
    fn switches(&self) -> &'static [&'static str] {
        &[]
    }

    /// The layer's files for `ctx`, in write order.
    fn render(&self, ctx: &Ctx, warnings: &mut Warnings) -> Result<Vec<ManagedFile>>;

    /// The differences between `file` (as generated) and `on_disk`, the
    /// text of `path`, each with its direction.
    fn compare(&self, file: &ManagedFile, on_disk: &str, path: &Path) -> Result<Vec<Difference>>;

    /// The other managed sources beside `file` (installed at `path`) that
    /// undo what it says: another drop-in read after it that sets one of
    /// its values otherwise, another admin policy that allows. Each widens.
    fn neighbours(&self, _file: &ManagedFile, _path: &Path) -> Result<Vec<Difference>> {
        Ok(Vec::new())
    }

    /// `doctor --scope managed`: checks of the installed files under
    /// `root` (ownership, modes), appended to `out`.
    fn doctor(&self, _root: &Root, _out: &mut Vec<Diagnostic>) {}
}

/// An agent with its managed layer.
pub type WithLayer = (Box<dyn Agent>, &'static dyn Managed);

/// The `[managed.*]` switches every agent with a managed layer declares.
pub fn switches() -> Vec<(&'static str, &'static [&'static str])> {
    crate::agent::registry()
        .iter()
        .filter_map(|a| a.managed().map(|m| (a.name(), m.switches())))
        .collect()
}

/// Hold config.toml's `[managed]` to what the agents declare.
pub fn check_switches(config: &Config) -> Result<()> {
    config.managed.check(&switches(), &config.path)
}

/// The agents of `selected` with a managed layer. One without it is
/// skipped with a note, or is an error when it was named (`explicit`).
pub fn with_layer(selected: Vec<Box<dyn Agent>>, explicit: bool) -> Result<Vec<WithLayer>> {
    let mut out = Vec::new();
    for agent in selected {
        match agent.managed() {
            Some(layer) => out.push((agent, layer)),
            None if explicit => {
                return Err(Error::Usage(format!(
                    "{} has no managed policy layer: only {} do (--scope managed)",
                    agent.name(),
                    with_a_layer().join(", ")
                )));
            }
            None => ui::note(&format!(
                "{} skipped: it has no managed policy layer (--scope managed)",
                agent.name()
            )),
        }
    }
    Ok(out)
}

fn with_a_layer() -> Vec<&'static str> {
    switches().into_iter().map(|(name, _)| name).collect()
}

/// Stage every file of `agents`' managed layers under `root`; each file
/// is shown in the preview under its path relative to the root.
pub fn stage(
    agents: &[WithLayer],
    ctx: &Ctx,
    root: &Root,
    plan: &mut Plan,
    warnings: &mut Warnings,
) -> Result<()> {
    for (_, layer) in agents {
        for file in layer.render(ctx, warnings)? {
            plan.show_preview(file.path, file.text.trim_end_matches('\n'));
            plan.write(root.join_unlinked(file.path)?, file.text, FileKind::Managed);
        }
    }
    Ok(())
}

/// Write (or preview) the staged managed files. A write the machine does
/// not permit (the real /etc without root) is one clear error, and the
/// transaction has left nothing behind.
pub fn finish(plan: &Plan, warnings: &Warnings, writes: bool, root: &Root) -> Result<()> {
    crate::apply::finish(plan, warnings, writes).map_err(|e| not_permitted(e, root))
}

/// A write refused for want of permission, said as what to do about it.
fn not_permitted(error: Error, root: &Root) -> Error {
    match error {
        Error::Io { path, source } if source.kind() == std::io::ErrorKind::PermissionDenied => {
            let how = if root.built {
                "--root's directory must be writable"
            } else {
                "the managed files are system files: run as root (sudo), or build them \
                 under a directory with --root DIR"
            };
            Error::Target {
                path,
                message: format!("cannot be written ({source}); nothing was written: {how}"),
            }
        }
        other => other,
    }
}

/// `diff --scope managed`: each agent's files under `root` against the
/// policy: (agent, the file named in the report, the comparison).
pub fn diffs(
    agents: &[WithLayer],
    ctx: &Ctx,
    root: &Root,
    warnings: &mut Warnings,
) -> Result<Vec<(&'static str, PathBuf, AgentDiff)>> {
    let mut out = Vec::new();
    for (agent, layer) in agents {
        let files = layer.render(ctx, warnings)?;
        let shown = files.first().map(|f| root.join(f.path)).unwrap_or_default();
        let mut differences = Vec::new();
        let mut missing = None;
        for file in &files {
            let path = root.join_unlinked(file.path)?;
            match read(&path)? {
                Some(text) => {
                    differences.extend(layer.compare(file, &text, &path)?);
                    differences.extend(layer.neighbours(file, &path)?);
                }
                None => {
                    missing.get_or_insert_with(|| {
                        format!(
                            "{} managed file not found: {}",
                            agent.name(),
                            path.display()
                        )
                    });
                }
            }
        }
        let diff = match missing {
            Some(message) => AgentDiff::TargetMissing(message),
            None => AgentDiff::Compared(differences),
        };
        out.push((agent.name(), shown, diff));
    }
    Ok(out)
}

/// `show --scope managed`: every file, under a `--- PATH ---` heading
/// when there are several.
pub fn show(agents: &[WithLayer], ctx: &Ctx, root: &Root, warnings: &mut Warnings) -> Result<()> {
    let mut files = Vec::new();
    for (_, layer) in agents {
        files.extend(layer.render(ctx, warnings)?);
    }
    crate::diag::print_warnings(warnings);
    for file in &files {
        if files.len() > 1 {
            ui::heading(&format!("--- {} ---", root.join(file.path).display()));
        }
        ui::data(file.text.trim_end_matches('\n'));
    }
    Ok(())
}

/// `doctor --scope managed`: every managed layer's checks of its installed
/// files under `root`, in registry order.
pub fn doctor_checks(root: &Root, out: &mut Vec<Diagnostic>) {
    for agent in crate::agent::registry() {
        if let Some(layer) = agent.managed() {
            layer.doctor(root, out);
        }
    }
}

/// The text of `path`, `None` when there is no file.
fn read(path: &Path) -> Result<Option<String>> {
    match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| Error::target(path, "is not UTF-8 text")),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(path, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_write_to_the_real_paths_says_to_run_as_root() {
        let denied = Error::io(
            Path::new("/etc/some-agent"),
            std::io::Error::from(std::io::ErrorKind::PermissionDenied),
        );
        let message = not_permitted(denied, &Root::new(None)).to_string();
        assert!(
            message.starts_with("/etc/some-agent: cannot be written ("),
            "{message}"
        );
        assert!(message.contains("nothing was written: the managed files are system files: run as root (sudo), or build them under a directory with --root DIR"), "{message}");
        let other = Error::io(
            Path::new("/x"),
            std::io::Error::from(std::io::ErrorKind::NotFound),
        );
        assert!(matches!(
            not_permitted(other, &Root::new(None)),
            Error::Io { .. }
        ));
    }

    #[test]
    fn a_symlink_below_the_root_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let root = Root::new(Some(dir.path()));
        assert_eq!(
            root.join_unlinked("etc/a/b.json").unwrap(),
            dir.path().join("etc/a/b.json")
        );
        std::fs::create_dir(dir.path().join("etc")).unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("etc/a")).unwrap();
        let err = root.join_unlinked("etc/a/b.json").unwrap_err().to_string();
        assert!(err.contains("etc/a: is a symlink"), "{err}");
        std::fs::remove_file(dir.path().join("etc/a")).unwrap();
        std::fs::create_dir(dir.path().join("etc/a")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("x"), dir.path().join("etc/a/b.json"))
            .unwrap();
        assert!(root.join_unlinked("etc/a/b.json").is_err());
        // The root itself may be a link (a build tree's place).
        let linked = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(dir.path(), linked.path().join("r")).unwrap();
        assert!(
            Root::new(Some(&linked.path().join("r")))
                .join_unlinked("etc/z")
                .is_ok()
        );
    }

    #[test]
    fn the_root_is_slash_unless_given() {
        assert_eq!(Root::new(None).join("etc/x"), PathBuf::from("/etc/x"));
        assert!(!Root::new(None).built);
        let built = Root::new(Some(Path::new("out")));
        assert_eq!(built.join("etc/x"), PathBuf::from("out/etc/x"));
        assert!(built.built);
    }
}
