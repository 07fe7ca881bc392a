//! Two `generate -w` processes racing on the same HOME, 50 times: neither
//! fails, no file is ever torn or unparsable (checked while they run, not
//! only afterwards), no temp file is left, and the `settings.json` anchor
//! always points at a complete settings file.
//!
//! The two processes differ in mode and profile (so they write different
//! content to the shared files and fight over the anchor) and swap profiles
//! every round. Every other round the directories twsrt creates are removed
//! first, so both processes also race to create them.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use crate::support::*;

const ROUNDS: usize = 50;

const CLAUDE_EXISTING: &str =
    "{\"env\": {\"ANTHROPIC_API_KEY\": \"sk-ant-keep\"}, \"model\": \"opus\"}\n";
const CODEX_EXISTING: &str =
    "# mine\nmodel = \"o3\"\n\n[mcp_servers.x]\ncommand = \"x\"\nenv = { TOKEN = \"keep\" }\n";

/// The directories twsrt creates (removed before every other round).
const CREATED_DIRS: [&str; 2] = [".codex/rules", "flags"];

fn policy() -> Test {
    Test::with_policy()
        .work_profile()
        .targets()
        .file(CLAUDE_TARGET, CLAUDE_EXISTING)
        .file(CODEX_CONFIG, CODEX_EXISTING)
}

/// The builder runs one process to its end; the race needs two at once, so
/// these runs are spawned by hand.
fn command(home: &Path, yolo: bool, profile: &str) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_twsrt"));
    cmd.args(["generate", "-w", "-p", profile])
        .current_dir(home)
        .env_clear()
        .env("HOME", home)
        .env("NO_COLOR", "1")
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if yolo {
        cmd.arg("--yolo");
    }
    cmd
}

fn run_alone(home: &Path, yolo: bool, profile: &str) {
    let out = command(home, yolo, profile).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every regular file and symlink under `root` (relative path -> content
/// or link), skipping the policy sources.
fn files(root: &Path) -> BTreeMap<PathBuf, String> {
    snapshot(root)
        .into_iter()
        .filter(|(rel, entry)| {
            !entry.starts_with("dir ")
                && !rel.starts_with(".config/twsrt/srt")
                && !rel.starts_with(".config/twsrt/bash")
                && !rel.ends_with(".config/twsrt/written.json")
        })
        .collect()
}

/// Every complete version of every file: what each of the four commands
/// writes, alone, after each of the others.
fn complete_versions() -> BTreeMap<PathBuf, BTreeSet<String>> {
    let t = policy();
    let variants = [
        (false, "default"),
        (true, "work"),
        (false, "work"),
        (true, "default"),
    ];
    let mut versions: BTreeMap<PathBuf, BTreeSet<String>> = BTreeMap::new();
    for first in variants {
        for second in variants {
            for (yolo, profile) in [first, second] {
                run_alone(t.home(), yolo, profile);
                for (rel, entry) in files(t.home()) {
                    versions.entry(rel).or_default().insert(entry);
                }
            }
        }
    }
    versions
}

/// A file as one process may see it while the other writes: complete, or
/// absent when it is not `required` (before its first write).
fn check_complete(
    home: &Path,
    versions: &BTreeMap<PathBuf, BTreeSet<String>>,
    rel: &Path,
    required: bool,
    context: &str,
) {
    let Some(known) = versions.get(rel) else {
        panic!("{context}: unexpected file {}", rel.display());
    };
    let path = home.join(rel);
    let meta = match fs::symlink_metadata(&path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !required => return,
        Err(e) => panic!("{context}: {}: {e}", rel.display()),
    };
    if meta.file_type().is_symlink() {
        // The anchor: it points at a settings file that is complete.
        let link = fs::read_link(&path).unwrap();
        let entry = format!("-> {}", link.display());
        assert!(known.contains(&entry), "{context}: anchor {entry}");
        let target = rel.parent().unwrap().join(&link);
        let content = fs::read_to_string(home.join(&target))
            .unwrap_or_else(|e| panic!("{context}: anchor points at {}: {e}", target.display()));
        let value: serde_json::Value = serde_json::from_str(&content)
            .unwrap_or_else(|e| panic!("{context}: anchor's file is torn: {e}\n{content}"));
        assert!(value.get("permissions").is_some(), "{context}: {content}");
        return;
    }
    let content = fs::read_to_string(&path).unwrap();
    let name = rel.to_string_lossy();
    if name.ends_with(".json") {
        serde_json::from_str::<serde_json::Value>(&content)
            .unwrap_or_else(|e| panic!("{context}: {name} is torn: {e}\n{content}"));
    }
    if name.ends_with(".toml") {
        content
            .parse::<toml_edit::DocumentMut>()
            .unwrap_or_else(|e| panic!("{context}: {name} is torn: {e}\n{content}"));
    }
    let mode = {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o777
    };
    let entry = format!("{mode:o} {content}");
    assert!(
        known.contains(&entry),
        "{context}: {name} is no complete version:\n{entry}"
    );
}

fn wait(child: Child, context: &str) {
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{context}: a racing generate -w failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn racing_writers_never_tear_a_file_or_leave_a_temp() {
    let versions = complete_versions();
    let t = policy();
    run_alone(t.home(), false, "default");
    // Every file that exists now must exist at every moment from here on
    // (a rename replaces, it never removes), the anchor included; the
    // files in the directories removed between rounds may be absent.
    let present: BTreeSet<PathBuf> = files(t.home())
        .into_keys()
        .filter(|rel| !CREATED_DIRS.iter().any(|d| rel.starts_with(d)))
        .collect();
    assert!(present.contains(Path::new(ANCHOR)));
    let watched: Vec<(PathBuf, bool)> = versions
        .keys()
        .map(|rel| (rel.clone(), present.contains(rel)))
        .collect();
    for round in 0..ROUNDS {
        if round % 2 == 0 {
            for dir in CREATED_DIRS {
                fs::remove_dir_all(t.home().join(dir)).unwrap();
            }
        }
        let (full, yolo) = if round % 2 == 0 {
            ("default", "work")
        } else {
            ("work", "default")
        };
        let context = format!("round {round}");
        let mut a = command(t.home(), false, full).spawn().unwrap();
        let mut b = command(t.home(), true, yolo).spawn().unwrap();
        // Watch every file while both run: the check is the reading itself,
        // so there is nothing to wait for and no timing to assume.
        loop {
            let done = a.try_wait().unwrap().is_some() && b.try_wait().unwrap().is_some();
            for (rel, required) in &watched {
                check_complete(t.home(), &versions, rel, *required, &context);
            }
            if done {
                break;
            }
        }
        wait(a, &context);
        wait(b, &context);
        assert_no_temp(t.home());
        for rel in files(t.home()).keys() {
            check_complete(t.home(), &versions, rel, true, &context);
        }
    }
    // Nothing twsrt does not own was lost along the way.
    let claude = fs::read_to_string(t.home().join(CLAUDE_TARGET)).unwrap();
    assert!(claude.contains("sk-ant-keep"));
    let codex = fs::read_to_string(t.home().join(CODEX_CONFIG)).unwrap();
    assert!(codex.contains("TOKEN = \"keep\""));
}
