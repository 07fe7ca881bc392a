//! Reliability of `generate -w` against what is already on disk, end to end
//! through the real binary:
//!
//! - existing targets that are broken (not JSON/TOML, not UTF-8, a directory,
//!   a dangling or looping symlink, a FIFO, a socket, unreadable, under a
//!   regular file) are an error naming the file, exit 1, nothing written,
//!   and nothing blocks (a FIFO is never opened);
//! - a rename that fails at any point of a multi-file write (srt, bash,
//!   Claude + anchor, Copilot, Codex config + rules) leaves every file as it
//!   was and no temp file;
//! - modes: existing targets keep theirs, new files are 0600 whatever the
//!   umask, the anchor is repointed by a rename.
//!
//! These tests run twsrt through their own runner (not `Test::run`) because
//! a FIFO must not be read by the test either, and because a twsrt that
//! blocks must fail the test instead of hanging it.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::support::*;

const TARGETS: &str = r#"
[targets]
claude_settings = "~/.claude/settings.full.json"
codex_config = "~/.codex/config.toml"
codex_rules = "~/.codex/rules/twsrt.rules"
copilot_output = "~/flags/copilot.txt"
"#;

const CLAUDE_TARGET: &str = ".claude/settings.full.json";
const CLAUDE_YOLO: &str = ".claude/settings.yolo.json";
const ANCHOR: &str = ".claude/settings.json";
const CODEX_CONFIG: &str = ".codex/config.toml";
const CODEX_RULES: &str = ".codex/rules/twsrt.rules";
const COPILOT: &str = "flags/copilot.txt";
const COPILOT_YOLO: &str = "flags/copilot.yolo.txt";
const SRT_OUT: &str = ".srt-settings.json";
const BASH_OUT: &str = ".config/twsrt/bash-rules.json";

const CLAUDE_EXISTING: &str =
    "{\"env\": {\"ANTHROPIC_API_KEY\": \"sk-ant-key\"}, \"model\": \"opus\"}\n";
const CODEX_EXISTING: &str = "# mine\nmodel = \"o3\"\n\n[mcp_servers.x]\ncommand = \"x\"\n";

/// A HOME where every kind of prepared entry occurs: files that exist
/// (with modes other than 0600), files that are new (some in directories
/// that are new), and an anchor symlink that must be repointed.
fn home() -> Test {
    Test::with_policy()
        .config_append(TARGETS)
        .file(SRT_OUT, "{\"old\": true}\n")
        .mode(SRT_OUT, 0o644)
        .file(CLAUDE_TARGET, CLAUDE_EXISTING)
        .mode(CLAUDE_TARGET, 0o640)
        .file(CLAUDE_YOLO, "{}\n")
        .mode(CLAUDE_YOLO, 0o640)
        .symlink(ANCHOR, "settings.yolo.json")
        .file(CODEX_CONFIG, CODEX_EXISTING)
        .mode(CODEX_CONFIG, 0o604)
}

/// What twsrt printed, with the HOME path written as `{HOME}`.
struct Run {
    status: i32,
    stdout: String,
    stderr: String,
}

/// Run twsrt (through `wrapper`, a command that execs its arguments, when
/// given) with HOME and `env` set. A run that does not finish within a minute is
/// killed and fails the test: twsrt blocked, most likely reading a FIFO.
fn twsrt_via(home: &Path, wrapper: &[&str], env: &[(&str, &str)], args: &[&str]) -> Run {
    let bin = env!("CARGO_BIN_EXE_twsrt");
    let mut cmd = match wrapper.split_first() {
        Some((program, rest)) => {
            let mut cmd = Command::new(program);
            cmd.args(rest).arg(bin);
            cmd
        }
        None => Command::new(bin),
    };
    cmd.args(args)
        .current_dir(home)
        .env_clear()
        .env("HOME", home)
        .env("NO_COLOR", "1")
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = cmd.spawn().expect("run twsrt");
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(out) => out.expect("wait for twsrt"),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("twsrt {args:?} did not finish (blocked reading a FIFO?)");
        }
    };
    let home_text = home.display().to_string();
    let run = Run {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).replace(&home_text, "{HOME}"),
        stderr: String::from_utf8_lossy(&out.stderr).replace(&home_text, "{HOME}"),
    };
    assert!(!run.stderr.contains("panicked"), "{args:?}: {}", run.stderr);
    run
}

fn twsrt(home: &Path, args: &[&str]) -> Run {
    twsrt_via(home, &[], &[], args)
}

/// Every entry under `root` without opening anything but regular files and
/// directories (a FIFO is listed, never read).
fn snapshot(root: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let rel = path.strip_prefix(root).unwrap().to_path_buf();
            let meta = fs::symlink_metadata(&path).unwrap();
            let ft = meta.file_type();
            let mode = meta.permissions().mode() & 0o7777;
            let desc = if ft.is_symlink() {
                format!("-> {}", fs::read_link(&path).unwrap().display())
            } else if ft.is_dir() {
                stack.push(path);
                format!("dir {mode:o}")
            } else if ft.is_fifo() {
                format!("fifo {mode:o}")
            } else if ft.is_socket() {
                format!("socket {mode:o}")
            } else {
                let bytes = fs::read(&path).unwrap();
                format!("{mode:o} {}", String::from_utf8_lossy(&bytes))
            };
            out.insert(rel, desc);
        }
    }
    out
}

fn assert_no_temp(root: &Path) {
    for rel in snapshot(root).keys() {
        assert!(
            !rel.to_string_lossy().contains("twsrt-tmp"),
            "temp file left behind: {}",
            rel.display()
        );
    }
}

/// How an existing target is broken.
#[derive(Debug, Clone, Copy)]
enum Broken {
    Text(&'static str),
    NotUtf8,
    Directory,
    Dangling,
    Looping,
    Fifo,
    Socket,
    /// The target's directory is a regular file.
    ParentIsFile,
}

/// Replace whatever is at `rel` with the breakage; returns the path the
/// error must name.
fn break_target(home: &Path, rel: &str, how: Broken) -> String {
    let path = home.join(rel);
    let _ = fs::remove_file(&path);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    match how {
        Broken::Text(text) => fs::write(&path, text).unwrap(),
        Broken::NotUtf8 => fs::write(&path, b"{\"k\": \"\xff\"}\n").unwrap(),
        Broken::Directory => fs::create_dir(&path).unwrap(),
        Broken::Dangling => std::os::unix::fs::symlink("nowhere/at/all", &path).unwrap(),
        Broken::Looping => {
            let name = path.file_name().unwrap().to_owned();
            std::os::unix::fs::symlink(name, &path).unwrap()
        }
        Broken::Fifo => {
            let ok = Command::new("mkfifo").arg(&path).status().unwrap();
            assert!(ok.success(), "mkfifo");
        }
        Broken::Socket => {
            std::os::unix::net::UnixListener::bind(&path).unwrap();
        }
        Broken::ParentIsFile => {
            let parent = path.parent().unwrap();
            fs::remove_dir_all(parent).unwrap();
            fs::write(parent, "a file where a directory belongs\n").unwrap();
            // Creating the directory fails; reading the target below it
            // fails with "Not a directory". Either names the path.
            return parent.strip_prefix(home).unwrap().display().to_string();
        }
    }
    rel.to_string()
}

/// Every broken-target case: (target, breakage, what the error must say).
fn cases() -> Vec<(&'static str, Broken, &'static str)> {
    use Broken::*;
    let invalid_json: Broken = Text("{\"env\": {\"ANTHROPIC_API_KEY\": \"sk-ant-x\"},,}\n");
    let not_object: Broken = Text("[\"sk-ant-x\"]\n");
    let invalid_toml: Broken = Text("[mcp_servers.x]\nbearer_token = \"tok\n");
    let unfollowable = "is a symlink that cannot be followed";
    let not_regular = "not a regular file";
    vec![
        (
            CLAUDE_TARGET,
            invalid_json,
            "is not valid JSON (line 1, column",
        ),
        (CLAUDE_TARGET, not_object, "does not hold a JSON object"),
        (CLAUDE_TARGET, NotUtf8, "is not valid UTF-8"),
        (CLAUDE_TARGET, Directory, "is a directory, not a file"),
        (CLAUDE_TARGET, Dangling, unfollowable),
        (CLAUDE_TARGET, Looping, unfollowable),
        (CLAUDE_TARGET, Fifo, "is a FIFO, not a regular file"),
        (CLAUDE_TARGET, Socket, "is a socket, not a regular file"),
        (CLAUDE_TARGET, ParentIsFile, "is not a directory, so"),
        (ANCHOR, Directory, "is a directory, not a file"),
        (ANCHOR, Fifo, not_regular),
        (ANCHOR, Socket, not_regular),
        (CODEX_CONFIG, invalid_toml, "invalid TOML"),
        (CODEX_CONFIG, NotUtf8, "not valid UTF-8"),
        (CODEX_CONFIG, Directory, "is a directory, not a file"),
        (CODEX_CONFIG, Dangling, unfollowable),
        (CODEX_CONFIG, Looping, unfollowable),
        (CODEX_CONFIG, Fifo, "is a FIFO, not a regular file"),
        (CODEX_CONFIG, Socket, "is a socket, not a regular file"),
        (CODEX_CONFIG, ParentIsFile, "is not a directory, so"),
        (CODEX_RULES, Directory, "is a directory, not a file"),
        (CODEX_RULES, Dangling, unfollowable),
        (CODEX_RULES, Looping, unfollowable),
        (CODEX_RULES, Fifo, not_regular),
        (CODEX_RULES, ParentIsFile, "is not a directory"),
        (SRT_OUT, Directory, "is a directory, not a file"),
        (SRT_OUT, Dangling, unfollowable),
        (SRT_OUT, Looping, unfollowable),
        (SRT_OUT, Fifo, not_regular),
        (SRT_OUT, Socket, not_regular),
        (COPILOT, Directory, "is a directory, not a file"),
        (COPILOT, Dangling, unfollowable),
        (COPILOT, Fifo, not_regular),
        (COPILOT, ParentIsFile, "is not a directory"),
    ]
}

#[test]
fn broken_existing_targets_fail_naming_the_file_and_change_nothing() {
    for (rel, how, fact) in cases() {
        // A dry run makes every check a real run makes (apply::check), so it
        // fails on the same broken targets.
        let commands: &[&[&str]] = &[&["generate", "-w"], &["generate", "-w", "-n"]];
        for args in commands {
            let t = home();
            let named = break_target(t.home(), rel, how);
            let before = snapshot(t.home());
            let run = twsrt(t.home(), args);
            let context = format!("{rel} {how:?} {args:?}\n{}", run.stderr);
            assert_eq!(run.status, 1, "{context}");
            assert!(
                run.stderr.contains(&format!("Error: {{HOME}}/{named}")),
                "{context}"
            );
            assert!(run.stderr.contains(fact), "{context}");
            assert!(run.stdout.is_empty(), "{context}\n{}", run.stdout);
            assert_eq!(snapshot(t.home()), before, "{context}");
        }
    }
}

/// `diff` reads the Claude target and the Codex config too: it must not
/// block on a FIFO either, and names the file. A symlink that cannot be
/// followed reads as a missing target there (exit 2, as for 1.0.0).
#[test]
fn diff_on_a_broken_target_names_it_and_never_blocks() {
    for (rel, how, _) in cases() {
        let agent = match rel {
            CLAUDE_TARGET => "claude",
            CODEX_CONFIG => "codex",
            _ => continue,
        };
        let t = home().file(CODEX_RULES, "");
        let named = break_target(t.home(), rel, how);
        let before = snapshot(t.home());
        let run = twsrt(t.home(), &["diff", agent]);
        let context = format!("{rel} {how:?}\n{}", run.stderr);
        let expected = match how {
            Broken::Dangling | Broken::Looping | Broken::ParentIsFile => 2,
            _ => 1,
        };
        assert_eq!(run.status, expected, "{context}");
        assert!(
            run.stderr.contains(&format!("{{HOME}}/{named}")),
            "{context}"
        );
        assert_eq!(snapshot(t.home()), before, "{context}");
    }
}

/// Unreadable targets. `chmod 000` does not stop root, so as root the run
/// drops the capabilities that bypass file modes (`setpriv`, util-linux);
/// where neither works the case is reported as skipped, not passed.
#[test]
fn unreadable_targets_fail_naming_the_file_and_change_nothing() {
    for (rel, agent) in [(CLAUDE_TARGET, "claude"), (CODEX_CONFIG, "codex")] {
        let t = home().file(CODEX_RULES, "");
        let path = t.home().join(rel);
        fs::set_permissions(&path, fs::Permissions::from_mode(0o000)).unwrap();
        let Some(wrapper) = unprivileged_wrapper(&path) else {
            eprintln!("SKIP unreadable {rel}: running privileged and setpriv cannot drop it");
            return;
        };
        let before = snapshot(t.home());
        for args in [
            &["generate", "-w"][..],
            &["generate", "-w", "-n"],
            &["diff", agent],
        ] {
            let run = twsrt_via(t.home(), &wrapper, &[], args);
            let context = format!("{rel} {args:?}\n{}", run.stderr);
            assert_eq!(run.status, 1, "{context}");
            assert!(
                run.stderr.contains(&format!("Error: {{HOME}}/{rel}: "))
                    && run.stderr.contains("Permission denied"),
                "{context}"
            );
            assert_eq!(snapshot(t.home()), before, "{context}");
        }
    }
}

/// A wrapper under which `path` (mode 000) really cannot be read: none
/// when the test runs unprivileged, `setpriv` without the DAC capabilities
/// when it runs as root, `None` when neither works.
fn unprivileged_wrapper(path: &Path) -> Option<Vec<&'static str>> {
    if fs::read(path).is_err() {
        return Some(Vec::new());
    }
    let wrapper = vec![
        "setpriv",
        "--inh-caps=-dac_override,-dac_read_search",
        "--bounding-set=-dac_override,-dac_read_search",
        "--",
    ];
    let probe = Command::new(wrapper[0])
        .args(&wrapper[1..])
        .arg("cat")
        .arg(path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    match probe {
        Ok(status) if !status.success() => Some(wrapper),
        _ => None,
    }
}

/// The plan of `generate -w` for every agent, in commit order, with what
/// the error of a failed rename names.
const COMMIT_ORDER: [&str; 7] = [
    SRT_OUT,
    BASH_OUT,
    CLAUDE_TARGET,
    ANCHOR,
    COPILOT,
    CODEX_CONFIG,
    CODEX_RULES,
];

#[test]
fn a_rename_failing_at_any_point_of_a_multi_file_write_restores_everything() {
    for yolo in [false, true] {
        let mut args = vec!["generate", "-w"];
        let (target, other) = if yolo {
            args.push("--yolo");
            (CLAUDE_YOLO, "settings.full.json")
        } else {
            (CLAUDE_TARGET, "settings.yolo.json")
        };
        let copilot = if yolo { COPILOT_YOLO } else { COPILOT };
        let order: Vec<&str> = COMMIT_ORDER
            .iter()
            .map(|rel| match *rel {
                CLAUDE_TARGET => target,
                COPILOT => copilot,
                rel => rel,
            })
            .collect();
        for (n, failing) in order.iter().enumerate() {
            let t = home();
            fs::remove_file(t.home().join(ANCHOR)).unwrap();
            let t = t.symlink(ANCHOR, other);
            let before = snapshot(t.home());
            let fault = n.to_string();
            let run = twsrt_via(t.home(), &[], &[("TWSRT_FAULT_COMMIT", &fault)], &args);
            let context = format!("yolo {yolo} fault {n}\n{}", run.stderr);
            assert_eq!(run.status, 1, "{context}");
            assert!(
                run.stderr
                    .contains(&format!("Error: {{HOME}}/{failing}: injected fault")),
                "{context}"
            );
            assert!(run.stdout.is_empty(), "{context}\n{}", run.stdout);
            assert_eq!(snapshot(t.home()), before, "{context}");
        }

        // One past the last entry: no fault fires, everything is written.
        let t = home();
        fs::remove_file(t.home().join(ANCHOR)).unwrap();
        let t = t.symlink(ANCHOR, other);
        let past_the_end = order.len().to_string();
        let run = twsrt_via(
            t.home(),
            &[],
            &[("TWSRT_FAULT_COMMIT", &past_the_end)],
            &args,
        );
        assert_eq!(run.status, 0, "{}", run.stderr);
        assert_no_temp(t.home());
        let after = snapshot(t.home());
        let mode = |rel: &str| after[Path::new(rel)].split(' ').next().unwrap().to_string();
        // Existing files keep their mode, new ones are 0600.
        assert_eq!(mode(SRT_OUT), "644");
        assert_eq!(mode(target), "640");
        assert_eq!(mode(CODEX_CONFIG), "604");
        for new in [BASH_OUT, copilot, CODEX_RULES] {
            assert_eq!(mode(new), "600", "{new}");
        }
        let link = Path::new(target).file_name().unwrap().to_string_lossy();
        assert_eq!(after[Path::new(ANCHOR)], format!("-> {link}"));
        // What twsrt does not own survived.
        assert!(after[Path::new(CODEX_CONFIG)].contains("[mcp_servers.x]"));
        if !yolo {
            assert!(after[Path::new(CLAUDE_TARGET)].contains("sk-ant-key"));
        }
    }
}

/// Files twsrt creates are 0600 even under umask 000, and existing files
/// keep their mode even under umask 077; a target that is a symlink (a
/// dotfile repo) stays a symlink and its destination keeps its mode.
#[test]
fn modes_do_not_depend_on_the_umask() {
    let t = Test::with_policy().config_append(TARGETS);
    let run = twsrt_via(
        t.home(),
        &["sh", "-c", "umask 000 && exec \"$0\" \"$@\""],
        &[],
        &["generate", "-w"],
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let after = snapshot(t.home());
    for rel in [
        SRT_OUT,
        BASH_OUT,
        CLAUDE_TARGET,
        COPILOT,
        CODEX_CONFIG,
        CODEX_RULES,
    ] {
        assert!(after[Path::new(rel)].starts_with("600 "), "{rel}");
    }
    assert_eq!(after[Path::new(ANCHOR)], "-> settings.full.json");
    // Directories twsrt creates get the usual umask treatment.
    assert_no_temp(t.home());

    let t = home()
        .file("dotfiles/claude.json", CLAUDE_EXISTING)
        .mode("dotfiles/claude.json", 0o664);
    fs::remove_file(t.home().join(CLAUDE_TARGET)).unwrap();
    let t = t.symlink(CLAUDE_TARGET, "../dotfiles/claude.json");
    let run = twsrt_via(
        t.home(),
        &["sh", "-c", "umask 077 && exec \"$0\" \"$@\""],
        &[],
        &["generate", "-w"],
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    let after = snapshot(t.home());
    assert!(after[Path::new(SRT_OUT)].starts_with("644 "));
    assert!(after[Path::new(CODEX_CONFIG)].starts_with("604 "));
    assert_eq!(
        after[Path::new(CLAUDE_TARGET)],
        "-> ../dotfiles/claude.json"
    );
    let dotfile = &after[Path::new("dotfiles/claude.json")];
    assert!(dotfile.starts_with("664 {") && dotfile.contains("\"permissions\""));
    assert_no_temp(t.home());
}

/// An anchor that is a dangling or looping symlink is just repointed (it is
/// twsrt's own link); a regular file beside an existing target is refused.
#[test]
fn the_anchor_is_repointed_by_rename() {
    for how in [Broken::Dangling, Broken::Looping] {
        let t = home();
        break_target(t.home(), ANCHOR, how);
        let run = twsrt(t.home(), &["generate", "-w", "claude"]);
        assert_eq!(run.status, 0, "{how:?} {}", run.stderr);
        assert_eq!(
            snapshot(t.home())[Path::new(ANCHOR)],
            "-> settings.full.json"
        );
        assert_no_temp(t.home());
    }
    let t = home();
    fs::remove_file(t.home().join(ANCHOR)).unwrap();
    let t = t.file(ANCHOR, "{}\n");
    let before = snapshot(t.home());
    let run = twsrt(t.home(), &["generate", "-w"]);
    assert_eq!(run.status, 1);
    assert!(
        run.stderr
            .contains("Error: {HOME}/.claude/settings.json: is a regular file")
    );
    assert_eq!(snapshot(t.home()), before);
}
