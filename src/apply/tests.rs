use super::*;
use crate::plan::FileKind;
use std::os::unix::fs::PermissionsExt;

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// Every entry under `dir`, with file contents, for before/after comparisons.
fn snapshot(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let meta = fs::symlink_metadata(&p).unwrap();
            let desc = if meta.file_type().is_symlink() {
                format!("-> {}", fs::read_link(&p).unwrap().display())
            } else if meta.is_dir() {
                stack.push(p.clone());
                "dir".to_string()
            } else {
                format!("{:o} {}", mode(&p), fs::read_to_string(&p).unwrap())
            };
            out.push((p, desc));
        }
    }
    out.sort();
    out
}

#[test]
fn new_files_are_0600_and_existing_files_keep_their_mode() {
    let tmp = tempfile::tempdir().unwrap();
    let old = tmp.path().join("old.json");
    fs::write(&old, "old").unwrap();
    fs::set_permissions(&old, fs::Permissions::from_mode(0o640)).unwrap();
    let new = tmp.path().join("deep/er/new.json");
    let mut plan = Plan::default();
    plan.write(old.clone(), "new content", FileKind::Canonical);
    plan.write(new.clone(), "fresh", FileKind::AgentTarget);
    apply(&plan).unwrap();
    assert_eq!(fs::read_to_string(&old).unwrap(), "new content");
    assert_eq!(mode(&old), 0o640);
    assert_eq!(fs::read_to_string(&new).unwrap(), "fresh");
    assert_eq!(mode(&new), 0o600);
}

#[test]
fn a_failed_rename_midway_restores_every_file_and_leaves_no_temp() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a.json");
    let link = tmp.path().join("settings.json");
    fs::write(&a, "A").unwrap();
    fs::write(&link, "regular settings").unwrap();
    let before = snapshot(tmp.path());
    let mut plan = Plan::default();
    plan.write(a.clone(), "A2", FileKind::Canonical);
    plan.write(tmp.path().join("new/b.json"), "B", FileKind::AgentTarget);
    plan.symlink(link.clone(), PathBuf::from("a.json"));
    plan.write(tmp.path().join("c.json"), "C", FileKind::AgentTarget);
    for fail_at in 0..4 {
        let err = apply_with(&plan, Some(fail_at)).unwrap_err();
        assert!(err.to_string().contains("injected fault"), "{err}");
        assert_eq!(snapshot(tmp.path()), before, "fault at {fail_at}");
    }
    apply_with(&plan, None).unwrap();
    assert_eq!(fs::read_link(&link).unwrap(), PathBuf::from("a.json"));
}

#[test]
fn a_symlinked_target_is_written_through() {
    let tmp = tempfile::tempdir().unwrap();
    let real = tmp.path().join("dotfiles/srt.json");
    fs::create_dir_all(real.parent().unwrap()).unwrap();
    fs::write(&real, "old").unwrap();
    let link = tmp.path().join("srt.json");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let mut plan = Plan::default();
    plan.write(link.clone(), "new", FileKind::Canonical);
    apply(&plan).unwrap();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read_to_string(&real).unwrap(), "new");
}

#[test]
fn directories_and_dangling_links_in_the_way_are_errors_with_nothing_written() {
    let tmp = tempfile::tempdir().unwrap();
    let dir_target = tmp.path().join("target.json");
    fs::create_dir(&dir_target).unwrap();
    let dangling = tmp.path().join("dangling.json");
    std::os::unix::fs::symlink(tmp.path().join("nowhere"), &dangling).unwrap();
    let blocked = tmp.path().join("file-not-dir");
    fs::write(&blocked, "x").unwrap();
    for bad in [
        dir_target.clone(),
        dangling.clone(),
        blocked.join("child.json"),
    ] {
        let before = snapshot(tmp.path());
        let mut plan = Plan::default();
        plan.write(tmp.path().join("first.json"), "1", FileKind::Canonical);
        plan.write(bad.clone(), "2", FileKind::AgentTarget);
        let err = apply(&plan).unwrap_err();
        assert_eq!(err.exit_code(), 1);
        assert_eq!(snapshot(tmp.path()), before, "{}", bad.display());
    }
}

#[test]
fn unchanged_files_and_links_are_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("same.json");
    fs::write(&file, "same").unwrap();
    let link = tmp.path().join("settings.json");
    std::os::unix::fs::symlink("same.json", &link).unwrap();
    let inode = |p: &Path| std::os::unix::fs::MetadataExt::ino(&fs::symlink_metadata(p).unwrap());
    let (file_ino, link_ino) = (inode(&file), inode(&link));
    let mut plan = Plan::default();
    plan.write(file.clone(), "same", FileKind::Canonical);
    plan.symlink(link.clone(), PathBuf::from("same.json"));
    apply(&plan).unwrap();
    // Not replaced: the same inodes are still in place.
    assert_eq!((inode(&file), inode(&link)), (file_ino, link_ino));
}
