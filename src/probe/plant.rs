//! A rule that names a path absent from this machine is still probed, so a
//! misspelt or misplaced rule cannot hide behind "not present":
//!
//! - a read-denied path gets a planted file: twsrt creates it (and the
//!   directories above it that are missing) before the first run, and
//!   removes exactly what it created after the last one. srt masks the
//!   path only when it exists as the sandbox starts, which is why the file
//!   is planted on the host at the rule's own path (a scratch copy would
//!   not show how srt resolves this spelling on this machine). Nothing of
//!   the user's is touched: the file is created exclusively (never through
//!   an existing name or a dangling symlink), holds a marker, is mode 0600,
//!   and is removed only while it is still the file twsrt created;
//!   directories are removed only when empty. Until the run ends, another
//!   program looking for that path sees the marker file.
//! - a write-denied path is a create probe (the write probes' own kind):
//!   the command tries to create it, and twsrt removes it when it arrived.
//! - an allowWrite path srt ignores while it is absent (it is not writable
//!   at all then), so it stays a SKIP that says so.
//!
//! Where a file cannot be planted (a file above the path, a directory
//! twsrt may not write), the probe is a SKIP naming the path, the reason
//! and what to do.

use std::fs;
use std::io::Write;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use super::model::{Action, Probe, Section};

/// What a planted file holds (a reader of the path during the run sees
/// whose it is).
const MARKER: &[u8] = b"twsrt test probe file; removed when the run ends\n";

/// A file to plant for a read-denied path that does not exist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plant {
    /// The rule's path.
    pub path: PathBuf,
    /// The file the probe reads: the path, or a file inside it when the
    /// rule names a directory (a trailing `/`).
    pub file: PathBuf,
    /// The missing directories to create first, outermost first.
    pub dirs: Vec<PathBuf>,
}

/// The probe of a literal `rule` of `section` whose `path` does not exist;
/// a read-denied one adds its file to `plants`.
pub fn absent(
    section: Section,
    rule: &str,
    path: &Path,
    plants: &mut Vec<Plant>,
) -> Result<Action, String> {
    match section {
        Section::DenyRead => {
            let name = format!(".twsrt-probe-{}", std::process::id());
            let plant = plan(path, rule.ends_with('/'), &name)?;
            let action = Action::Read(plant.file.clone());
            if !plants.contains(&plant) {
                plants.push(plant);
            }
            Ok(action)
        }
        Section::DenyWrite => Ok(Action::Create {
            file: path.to_path_buf(),
            dirs: missing_dirs(path)?,
        }),
        _ => Err(format!(
            "{} does not exist, and srt ignores an allowWrite path that is absent when the \
             sandbox starts; create it to have the rule probed, or check the rule's spelling",
            path.display()
        )),
    }
}

/// The missing components above `path` (outermost first), or why nothing
/// can be created there.
pub fn missing_dirs(path: &Path) -> Result<Vec<PathBuf>, String> {
    if fs::symlink_metadata(path).is_ok() {
        return Err(format!(
            "{} is a symlink to nothing: a probe file is not planted through it; point it at \
             the file or fix the rule",
            path.display()
        ));
    }
    let mut dirs = Vec::new();
    let mut at = path.parent();
    while let Some(dir) = at {
        if fs::symlink_metadata(dir).is_ok() {
            if !dir.is_dir() {
                return Err(format!(
                    "{} does not exist and cannot: {} is not a directory; check the rule's \
                     spelling",
                    path.display(),
                    dir.display()
                ));
            }
            break;
        }
        dirs.push(dir.to_path_buf());
        at = dir.parent();
    }
    dirs.reverse();
    Ok(dirs)
}

/// The plant for a read-denied `path` that does not exist (`dir_form`: the
/// rule ends with `/`), named with `probe_name`.
pub fn plan(path: &Path, dir_form: bool, probe_name: &str) -> Result<Plant, String> {
    let mut dirs = missing_dirs(path)?;
    let file = if dir_form {
        dirs.push(path.to_path_buf());
        path.join(probe_name)
    } else {
        path.to_path_buf()
    };
    Ok(Plant {
        path: path.to_path_buf(),
        file,
        dirs,
    })
}

/// The files planted for a run, removed on drop.
pub struct Planted(Vec<Made>);

struct Made {
    file: Option<(PathBuf, u64, u64)>,
    dirs: Vec<PathBuf>,
}

impl Planted {
    /// Plant every file a probe that runs reads; a plant that fails turns
    /// its probes into SKIPs saying why.
    pub fn create(plants: &[Plant], probes: &mut [Probe]) -> Planted {
        let mut made = Vec::new();
        for plant in plants {
            let reads = |p: &Probe| p.runs() && p.action == Ok(Action::Read(plant.file.clone()));
            if !probes.iter().any(reads) {
                continue;
            }
            let mut this = Made {
                file: None,
                dirs: Vec::new(),
            };
            let result = plant_one(plant, &mut this);
            made.push(this);
            if let Err(e) = result {
                let reason = format!(
                    "{} does not exist, and a probe file cannot be planted there ({e}); create \
                     it to have the rule probed, or check the rule's spelling",
                    plant.path.display()
                );
                for probe in probes.iter_mut().filter(|p| reads(p)) {
                    probe.action = Err(reason.clone());
                }
            }
        }
        Planted(made)
    }
}

fn plant_one(plant: &Plant, made: &mut Made) -> std::io::Result<()> {
    for dir in &plant.dirs {
        fs::create_dir(dir)?;
        made.dirs.push(dir.clone());
    }
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&plant.file)?;
    let meta = file.metadata()?;
    made.file = Some((plant.file.clone(), meta.dev(), meta.ino()));
    file.write_all(MARKER)?;
    file.sync_all()
}

impl Drop for Planted {
    fn drop(&mut self) {
        for made in &self.0 {
            if let Some((file, dev, ino)) = &made.file
                && fs::symlink_metadata(file)
                    .is_ok_and(|m| m.is_file() && m.dev() == *dev && m.ino() == *ino)
            {
                let _ = fs::remove_file(file);
            }
            for dir in made.dirs.iter().rev() {
                // Only an empty directory goes: anything put there meanwhile
                // is not twsrt's.
                let _ = fs::remove_dir(dir);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::model::{Expect, Section};

    fn read_probe(file: &Path) -> Probe {
        Probe {
            section: Section::DenyRead,
            rule: "r".into(),
            expect: Expect::Deny,
            action: Ok(Action::Read(file.to_path_buf())),
            drift: None,
        }
    }

    #[test]
    fn a_plant_creates_what_is_missing_and_removes_only_that() {
        let dir = tempfile::tempdir().unwrap();
        let r = dir.path();
        let deep = plan(&r.join("a/b/c"), false, ".p").unwrap();
        assert_eq!(deep.dirs, vec![r.join("a"), r.join("a/b")]);
        let listed = plan(&r.join("d"), true, ".p").unwrap();
        assert_eq!(
            (listed.file.clone(), listed.dirs.clone()),
            (r.join("d/.p"), vec![r.join("d")])
        );
        let mut probes = vec![read_probe(&deep.file), read_probe(&listed.file)];
        let planted = Planted::create(&[deep.clone(), listed], &mut probes);
        assert_eq!(fs::read(r.join("a/b/c")).unwrap(), MARKER);
        assert!(r.join("d/.p").is_file());
        assert!(probes.iter().all(|p| p.action.is_ok()));
        // Something of someone else's beside the planted file stays, and so
        // does the directory holding it.
        fs::write(r.join("a/mine"), "x").unwrap();
        drop(planted);
        assert!(!r.join("a/b").exists());
        assert!(!r.join("d").exists());
        assert!(r.join("a/mine").is_file());
    }

    #[test]
    fn a_file_replaced_during_the_run_is_not_removed() {
        let dir = tempfile::tempdir().unwrap();
        let plant = plan(&dir.path().join("x"), false, ".p").unwrap();
        let mut probes = vec![read_probe(&plant.file)];
        let planted = Planted::create(std::slice::from_ref(&plant), &mut probes);
        // A new file (a new inode: made while the planted one exists)
        // renamed over it, as an editor saves.
        let other = dir.path().join("x.new");
        fs::write(&other, "the user's").unwrap();
        fs::rename(&other, &plant.file).unwrap();
        drop(planted);
        assert_eq!(fs::read_to_string(&plant.file).unwrap(), "the user's");
    }

    #[test]
    fn what_cannot_be_planted_is_a_skip_that_says_why() {
        let dir = tempfile::tempdir().unwrap();
        let r = dir.path();
        fs::write(r.join("f"), "").unwrap();
        let err = plan(&r.join("f/x"), false, ".p").unwrap_err();
        assert!(err.contains("is not a directory"), "{err}");
        std::os::unix::fs::symlink(r.join("nowhere"), r.join("dangling")).unwrap();
        let err = plan(&r.join("dangling"), false, ".p").unwrap_err();
        assert!(err.contains("symlink to nothing"), "{err}");
        // Planned, then refused by the file system (the file appeared).
        let plant = plan(&r.join("late"), false, ".p").unwrap();
        fs::write(r.join("late"), "the user's").unwrap();
        let mut probes = vec![read_probe(&plant.file)];
        drop(Planted::create(std::slice::from_ref(&plant), &mut probes));
        let reason = probes[0].action.clone().unwrap_err();
        assert!(reason.contains("cannot be planted there"), "{reason}");
        assert!(reason.contains("check the rule's spelling"), "{reason}");
        assert_eq!(fs::read_to_string(r.join("late")).unwrap(), "the user's");
    }
}
