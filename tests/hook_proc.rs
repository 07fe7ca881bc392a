//! `/proc` spellings are the paths they name (issue 43 item 2): each
//! attack is first run by real bash in a planted HOME without the guard
//! (the key comes out), then put to the hook, which must ask or deny in
//! full mode and deny in yolo; the ordinary `/proc` reads pass. The
//! helpers serve the glob, walk and file-tool tests too.

use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

use crate::support::*;

/// The key's content: seen in a command's output, the key came out.
pub const SECRET: &str = "SECRET-KEY-43";

/// A HOME with the base policy (denyRead `~/.ssh`), the key, a `.bashrc`
/// and the project `proj` (the working directory) with `sub/a.txt`.
pub fn attack_home() -> tempfile::TempDir {
    planted_home(&[
        (CONFIG, BASE_CONFIG),
        (SRT_FRAGMENT, BASE_SRT),
        (BASH_FRAGMENT, BASE_BASH),
        (".ssh/id_rsa", SECRET),
        (".bashrc", "rc\n"),
        ("proj/notes.txt", "n\n"),
        ("proj/sub/a.txt", "a\n"),
    ])
}

/// `command` as real bash runs it in `home/proj` with HOME set and no
/// guard: its standard output (errors dropped).
pub fn real_bash(home: &Path, command: &str) -> String {
    let out = Command::new("bash")
        .args(["-c", command])
        .current_dir(home.join("proj"))
        .env_clear()
        .env("HOME", home)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .expect("bash runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The hook's decisions (`pass` for none) on one call in `home/proj`, in
/// full mode and in yolo mode.
pub fn decisions(home: &Path, tool: &str, input: &Value) -> (String, String) {
    let cwd = home.join("proj");
    let one = |args: &[&str]| {
        hook_decision(home, &cwd, args, &[], tool, input.clone()).unwrap_or("pass".into())
    };
    (one(&[]), one(&["--yolo"]))
}

/// `command` leaks the key under real bash, and the hook stops it: ask or
/// deny in full mode (as `full` says), deny in yolo.
#[track_caller]
pub fn leak_is_stopped(home: &Path, command: &str, full: &str) {
    let command = command.replace("@H", &home.to_string_lossy());
    assert!(
        real_bash(home, &command).contains(SECRET),
        "real bash does not leak the key: {command}"
    );
    let (f, y) = decisions(home, "Bash", &json!({ "command": command }));
    assert_eq!((f.as_str(), y.as_str()), (full, "deny"), "{command}");
}

/// Each of `commands` passes the hook in both modes.
#[track_caller]
pub fn all_pass(home: &Path, commands: &[&str]) {
    for command in commands {
        let command = command.replace("@H", &home.to_string_lossy());
        let got = decisions(home, "Bash", &json!({ "command": command }));
        assert_eq!(got, ("pass".into(), "pass".into()), "{command}");
    }
}

/// A process of the test's own, in `home/.ssh`, holding the key open on
/// descriptor 3, for the `cwd` and `fd` spellings. Killed when dropped.
struct Holder(Child);

impl Holder {
    fn start(home: &Path) -> Holder {
        let child = Command::new("bash")
            .args(["-c", "exec 3<id_rsa; exec sleep 30"])
            .current_dir(home.join(".ssh"))
            .spawn()
            .expect("a holder process");
        std::thread::sleep(std::time::Duration::from_millis(300));
        Holder(child)
    }
}

impl Drop for Holder {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn proc_root_spellings_are_the_paths_they_name() {
    let home = attack_home();
    let h = home.path();
    for command in [
        "cat /proc/self/root@H/.ssh/id_rsa",
        "cat /proc/*/root@H/.ssh/id_rsa",
        "cat /proc/[s]elf/root@H/.ssh/id_rsa",
        "cat /proc/self/task/*/root@H/.ssh/id_rsa",
        "cat /proc/thread-self/root@H/.ssh/id_rsa",
        "cat /pro?/self/root@H/.ssh/*",
        "cat /proc/self/root/proc/self/root@H/.ssh/id_rsa",
        "cat /proc/self/root/../..@H/.ssh/id_rsa",
    ] {
        leak_is_stopped(h, command, "deny");
    }
}

#[test]
fn another_process_cwd_and_descriptors_are_asked_about() {
    let home = attack_home();
    let h = home.path();
    let holder = Holder::start(h);
    let pid = holder.0.id();
    for command in [
        format!("cat /proc/{pid}/cwd/id_rsa"),
        "cat /proc/*/cwd/id_rsa".to_string(),
        format!("cat /proc/{pid}/fd/3"),
        format!("cat /proc/{pid}/task/*/fd/3"),
    ] {
        leak_is_stopped(h, &command, "ask");
    }
    // Every process's descriptors (not run: another process's pipe would
    // block the reader).
    let glob = json!({ "command": "cat /proc/*/fd/3" });
    assert_eq!(decisions(h, "Bash", &glob), ("ask".into(), "deny".into()));
    // The file tools: the same spellings.
    for (path, want) in [
        (format!("/proc/{pid}/fd/3"), "ask"),
        (format!("/proc/{pid}/cwd/id_rsa"), "ask"),
        (
            format!("/proc/{pid}/root{}/.ssh/id_rsa", h.display()),
            "deny",
        ),
        (
            format!("/proc/self/root{}/.ssh/id_rsa", h.display()),
            "deny",
        ),
    ] {
        let (full, yolo) = decisions(h, "Read", &json!({ "file_path": path }));
        assert_eq!(
            (full.as_str(), yolo.as_str()),
            (want, "deny"),
            "Read {path}"
        );
    }
    drop(holder);
}

#[test]
fn ordinary_proc_reads_pass() {
    let home = attack_home();
    all_pass(
        home.path(),
        &[
            "cat /proc/cpuinfo",
            "cat /proc/self/status",
            "ls /proc/self/fd",
            "cat /proc/meminfo | head -n 3",
            "diff <(echo a) <(echo b)",
            "cat /dev/fd/0 < notes.txt",
            "cat /proc/self/root@H/proj/notes.txt",
        ],
    );
}
