//! Apply a [`Plan`] as one transaction.
//!
//! Every file is first written to a temp file in its target's directory and
//! synced; only then are the temp files renamed into place, in plan order. If
//! any step fails, every step already done is undone (old content and mode
//! restored, new files and directories removed) and no temp file is left.
//! Existing files keep their mode; new files are created 0600 because they
//! describe what an agent may do and may sit next to credentials. A managed
//! file ([`FileKind::Managed`]) is the exception: 0644 always, in
//! directories this transaction creates 0755, so every user can read it.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

mod outcome;
pub mod written;

pub use outcome::finish;

use crate::error::{Error, Result};
use crate::plan::{Applied, FileKind, Plan, Step};

const NEW_FILE_MODE: u32 = 0o600;
/// A managed file's mode, and the mode of the directories created for it.
const MANAGED_FILE_MODE: u32 = 0o644;
const MANAGED_DIR_MODE: u32 = 0o755;

/// What was at a path before the transaction touched it.
#[derive(Debug)]
enum Before {
    Nothing,
    File { content: Vec<u8>, mode: u32 },
    Symlink(PathBuf),
}

/// One prepared change: the temp entry that will be renamed onto `dest`.
#[derive(Debug)]
struct Prepared {
    dest: PathBuf,
    temp: PathBuf,
    before: Before,
}

/// Apply every write and symlink of the plan, or none of them.
pub fn apply(plan: &Plan) -> Result<Applied> {
    apply_with(plan, fault::from_env())
}

/// Every check [`apply`] makes before its first write, without writing: a
/// preview fails on exactly the targets a real run would fail on.
pub fn check(plan: &Plan) -> Result<()> {
    for step in &plan.steps {
        let (path, follow) = match step {
            Step::Write { path, .. } => (path, true),
            Step::Symlink { link, .. } => (link, false),
            Step::Migrate { .. } | Step::Notice(_) => continue,
        };
        let dest = if follow {
            resolve_symlinked_file(path)?
        } else {
            path.clone()
        };
        if is_link_after_checks(&dest)? && follow {
            return Err(Error::target(
                &dest,
                "is a symlink that could not be resolved",
            ));
        }
        // The nearest existing ancestor must be a directory we can create in.
        if let Some(blocker) = dest
            .ancestors()
            .skip(1)
            .find(|a| !a.as_os_str().is_empty() && fs::symlink_metadata(a).is_ok())
            && !blocker.is_dir()
        {
            return Err(Error::target(
                blocker,
                format!(
                    "is not a directory, so {} cannot be written",
                    dest.display()
                ),
            ));
        }
    }
    Ok(())
}

/// [`apply`], with the rename of prepared entry `fail_at` (0-based) made to
/// fail: the hook the transaction tests use to prove the rollback.
pub fn apply_with(plan: &Plan, fail_at: Option<usize>) -> Result<Applied> {
    let mut tx = Transaction {
        fail_at,
        ..Transaction::default()
    };
    let result = tx
        .prepare_all(plan)
        .and_then(|changed| tx.commit().map(|()| Applied::new(changed)));
    if result.is_err() {
        tx.rollback();
    }
    result
}

#[derive(Debug, Default)]
struct Transaction {
    prepared: Vec<Prepared>,
    /// How many prepared entries have been renamed into place.
    committed: usize,
    /// Directories this transaction created, outermost first.
    created_dirs: Vec<PathBuf>,
    fail_at: Option<usize>,
}

impl Transaction {
    /// Prepare every step; for each, whether it will change the disk.
    fn prepare_all(&mut self, plan: &Plan) -> Result<Vec<bool>> {
        let mut changed = Vec::with_capacity(plan.steps.len());
        for step in &plan.steps {
            changed.push(match step {
                Step::Write {
                    path,
                    content,
                    kind,
                } => self.prepare_write(path, content, *kind == FileKind::Managed)?,
                Step::Symlink { link, target } => self.prepare_symlink(link, target)?,
                Step::Migrate { .. } | Step::Notice(_) => false,
            });
        }
        Ok(changed)
    }

    /// `false` when the file already holds `content` (nothing to do).
    fn prepare_write(&mut self, path: &Path, content: &[u8], managed: bool) -> Result<bool> {
        // Write through a symlinked target (dotfile repos link these files),
        // so the link stays and its destination gets the new content.
        let dest = resolve_symlinked_file(path)?;
        let before = read_before(&dest)?;
        match &before {
            Before::Symlink(_) => {
                return Err(Error::target(
                    &dest,
                    "is a symlink that could not be resolved",
                ));
            }
            // Already up to date: rewriting it would only cost a sync. This is
            // the common case for a launch wrapper running before every start.
            Before::File {
                content: old, mode, ..
            } if old.as_slice() == content && (!managed || *mode == MANAGED_FILE_MODE) => {
                return Ok(false);
            }
            _ => {}
        }
        let dir = parent_dir(&dest);
        self.create_dirs(&dir, managed.then_some(MANAGED_DIR_MODE))?;
        let mode = match &before {
            _ if managed => MANAGED_FILE_MODE,
            Before::File { mode, .. } => *mode,
            _ => NEW_FILE_MODE,
        };
        let temp = temp_path(&dest);
        // Record the temp before creating it, so a failure removes it.
        self.prepared.push(Prepared {
            dest: dest.clone(),
            temp: temp.clone(),
            before,
        });
        write_synced(&temp, content, mode).map_err(|e| Error::io(&dest, e))?;
        Ok(true)
    }

    /// `false` when `link` already points at `target`.
    fn prepare_symlink(&mut self, link: &Path, target: &Path) -> Result<bool> {
        let before = read_before(link)?;
        if matches!(&before, Before::Symlink(old) if old == target) {
            return Ok(false);
        }
        let dir = parent_dir(link);
        self.create_dirs(&dir, None)?;
        let temp = temp_path(link);
        self.prepared.push(Prepared {
            dest: link.to_path_buf(),
            temp: temp.clone(),
            before,
        });
        std::os::unix::fs::symlink(target, &temp).map_err(|e| Error::io(link, e))?;
        Ok(true)
    }

    /// Create `dir` and its missing parents, each with `mode` when given
    /// (else as the umask makes it).
    fn create_dirs(&mut self, dir: &Path, mode: Option<u32>) -> Result<()> {
        let mut missing = Vec::new();
        let mut cur = Some(dir);
        while let Some(d) = cur {
            if d.as_os_str().is_empty() || d.exists() {
                break;
            }
            missing.push(d.to_path_buf());
            cur = d.parent();
        }
        for d in missing.into_iter().rev() {
            match fs::create_dir(&d) {
                Ok(()) => {
                    self.created_dirs.push(d.clone());
                    if let Some(mode) = mode {
                        fs::set_permissions(&d, fs::Permissions::from_mode(mode))
                            .map_err(|e| Error::io(&d, e))?;
                    }
                }
                // Another process (a second `generate -w`) created it in the
                // meantime: it is not ours to remove on rollback.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && d.is_dir() => {}
                Err(e) => return Err(Error::io(&d, e)),
            }
        }
        if !dir.as_os_str().is_empty() && !dir.is_dir() {
            return Err(Error::target(dir, "is not a directory"));
        }
        Ok(())
    }

    fn commit(&mut self) -> Result<()> {
        while self.committed < self.prepared.len() {
            let p = &self.prepared[self.committed];
            if self.fail_at == Some(self.committed) {
                return Err(Error::io(
                    &p.dest,
                    std::io::Error::other("injected fault: rename refused"),
                ));
            }
            fs::rename(&p.temp, &p.dest).map_err(|e| Error::io(&p.dest, e))?;
            self.committed += 1;
        }
        sync_dirs(&self.prepared);
        Ok(())
    }

    /// Undo committed entries in reverse order, remove the rest's temps and
    /// the directories created. Best effort: each step is tried even if an
    /// earlier one fails.
    fn rollback(&mut self) {
        for p in self.prepared[..self.committed].iter().rev() {
            restore(p);
        }
        for p in &self.prepared[self.committed..] {
            let _ = fs::remove_file(&p.temp);
        }
        for d in self.created_dirs.iter().rev() {
            let _ = fs::remove_dir(d);
        }
    }
}

fn restore(p: &Prepared) {
    match &p.before {
        Before::Nothing => {
            let _ = fs::remove_file(&p.dest);
        }
        Before::File { content, mode } => {
            let temp = temp_path(&p.dest);
            if write_synced(&temp, content, *mode).is_ok() {
                let _ = fs::rename(&temp, &p.dest);
            }
            let _ = fs::remove_file(&temp);
        }
        Before::Symlink(target) => {
            let temp = temp_path(&p.dest);
            if std::os::unix::fs::symlink(target, &temp).is_ok() {
                let _ = fs::rename(&temp, &p.dest);
            }
            let _ = fs::remove_file(&temp);
        }
    }
}

/// Follow a symlink at `path` to the file it names. A link that cannot be
/// resolved (dangling or looping) is an error rather than being replaced.
fn resolve_symlinked_file(path: &Path) -> Result<PathBuf> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => fs::canonicalize(path).map_err(|e| {
            Error::target(path, format!("is a symlink that cannot be followed ({e})"))
        }),
        _ => Ok(path.to_path_buf()),
    }
}

fn read_before(path: &Path) -> Result<Before> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Before::Nothing),
        Err(e) => return Err(path_error(path, e)),
    };
    if meta.file_type().is_symlink() {
        return fs::read_link(path)
            .map(Before::Symlink)
            .map_err(|e| Error::io(path, e));
    }
    check_regular(path, &meta)?;
    let Some(content) = read_existing(path)? else {
        return Ok(Before::Nothing);
    };
    Ok(Before::File {
        content,
        mode: meta.permissions().mode() & 0o7777,
    })
}

/// Whether `path` is a symlink, with the checks and errors of
/// [`read_before`] but without reading a file's content (a large target is
/// read only when it is written).
fn is_link_after_checks(path: &Path) -> Result<bool> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(path_error(path, e)),
    };
    if meta.file_type().is_symlink() {
        fs::read_link(path).map_err(|e| Error::io(path, e))?;
        return Ok(true);
    }
    check_regular(path, &meta)?;
    open_existing(path)?;
    Ok(false)
}

/// [`read_existing`] as text; `not_utf8` makes the error for a file that is
/// not UTF-8 from where its first bad byte sits.
pub fn read_existing_text(
    path: &Path,
    not_utf8: impl FnOnce(&Path, crate::text_position::NotUtf8) -> Error,
) -> Result<Option<String>> {
    let Some(bytes) = read_existing(path)? else {
        return Ok(None);
    };
    crate::text_position::utf8(bytes)
        .map(Some)
        .map_err(|at| not_utf8(path, at))
}

/// The content of an existing target that is about to be merged into, or
/// `None` when there is no file at `path`.
///
/// The file type is checked before the file is opened: opening a FIFO
/// would block until some other process writes to it, and a directory,
/// socket or device is never a settings file. The check follows symlinks
/// (dotfile repos link these files); a link that cannot be followed
/// (dangling or looping) is an error, not a missing file, because the write
/// that follows could neither replace nor follow it. Errors name the file
/// and never its content.
pub fn read_existing(path: &Path) -> Result<Option<Vec<u8>>> {
    let Some(mut file) = open_existing(path)? else {
        return Ok(None);
    };
    let mut content = Vec::new();
    file.read_to_end(&mut content)
        .map_err(|e| Error::io(path, e))?;
    Ok(Some(content))
}

/// The existing target at `path`, opened for reading after the checks of
/// [`read_existing`], or `None` when there is no file there.
pub fn open_existing(path: &Path) -> Result<Option<File>> {
    let meta = match fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) => {
            let is_link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
            return match e.kind() {
                _ if is_link => Err(unfollowable(path, &e)),
                std::io::ErrorKind::NotFound => Ok(None),
                _ => Err(path_error(path, e)),
            };
        }
    };
    check_regular(path, &meta)?;
    // A FIFO swapped in between the check and the open would still block
    // the open; only someone who can already rewrite the directory can do
    // that. What was opened is checked again before it is read.
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    check_regular(path, &file.metadata().map_err(|e| Error::io(path, e))?)?;
    Ok(Some(file))
}

/// An error looking up `path`. "Not a directory" names the regular file
/// that sits where one of `path`'s directories belongs.
fn path_error(path: &Path, e: std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::NotADirectory {
        let blocker = path
            .ancestors()
            .skip(1)
            .find(|a| fs::metadata(a).is_ok_and(|m| !m.is_dir()));
        if let Some(blocker) = blocker {
            return Error::target(
                blocker,
                format!(
                    "is not a directory, so {} cannot be read or written",
                    path.display()
                ),
            );
        }
    }
    Error::io(path, e)
}

fn unfollowable(path: &Path, e: &std::io::Error) -> Error {
    Error::target(path, format!("is a symlink that cannot be followed ({e})"))
}

/// Only regular files are read or replaced.
fn check_regular(path: &Path, meta: &fs::Metadata) -> Result<()> {
    use std::os::unix::fs::FileTypeExt;
    let ft = meta.file_type();
    let what = match () {
        () if ft.is_file() => return Ok(()),
        () if ft.is_dir() => return Err(Error::target(path, "is a directory, not a file")),
        () if ft.is_fifo() => "a FIFO",
        () if ft.is_socket() => "a socket",
        () if ft.is_block_device() || ft.is_char_device() => "a device",
        () => "a special file",
    };
    Err(Error::target(
        path,
        format!("is {what}, not a regular file; twsrt reads and replaces only regular files"),
    ))
}

fn parent_dir(path: &Path) -> PathBuf {
    path.parent().map(Path::to_path_buf).unwrap_or_default()
}

/// A temp name beside `dest`, unique per process and call.
fn temp_path(dest: &Path) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = dest
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    dest.with_file_name(format!(".{name}.twsrt-tmp-{}-{n}", std::process::id()))
}

fn write_synced(path: &Path, content: &[u8], mode: u32) -> std::io::Result<()> {
    let mut file: File = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .open(path)?;
    // `mode` at creation is filtered by the umask; set it exactly.
    file.set_permissions(fs::Permissions::from_mode(mode))?;
    file.write_all(content)?;
    file.sync_all()
}

/// Make the renames durable. Failure here is not an error: the data is in
/// place, only its durability across a power cut is less certain.
fn sync_dirs(prepared: &[Prepared]) {
    let mut dirs: Vec<PathBuf> = prepared.iter().map(|p| parent_dir(&p.dest)).collect();
    dirs.sort();
    dirs.dedup();
    for d in dirs {
        if let Ok(f) = File::open(if d.as_os_str().is_empty() {
            Path::new(".")
        } else {
            &d
        }) {
            let _ = f.sync_all();
        }
    }
}

/// Fault injection for the end-to-end transaction tests:
/// `TWSRT_FAULT_COMMIT=N` makes the rename of the N-th prepared entry fail as
/// if the disk had refused it. It is read by the real binary so the tests
/// exercise exactly what users run; unset, it does nothing.
mod fault {
    pub fn from_env() -> Option<usize> {
        std::env::var("TWSRT_FAULT_COMMIT").ok()?.parse().ok()
    }
}

#[cfg(test)]
mod tests;
