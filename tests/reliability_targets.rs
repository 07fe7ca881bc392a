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
//! The builder's snapshot never opens a FIFO, and its runner fails a twsrt
//! that blocks instead of hanging the test.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::support::*;

const CLAUDE_EXISTING: &str =
    "{\"env\": {\"ANTHROPIC_API_KEY\": \"sk-ant-key\"}, \"model\": \"opus\"}\n";
const CODEX_EXISTING: &str = "# mine\nmodel = \"o3\"\n\n[mcp_servers.x]\ncommand = \"x\"\n";

/// What `diff <agent>` prints before it reads the agent's target, when the
/// canonical outputs were never written.
const CANONICAL_DRIFT: &str = "srt canonical: drift\nbash canonical: drift\n";

/// What `generate -w` warns about Codex for the base policy (and so in
/// every mode). The agent limits (the missing directories, the
/// `network_proxy` feature) are printed only with `-v`.
/// The note of a write that turns on Codex's network_proxy feature.
const CODEX_FEATURE: &str = "Info: codex: turns on Codex's network_proxy feature ([features] \
network_proxy = true in {HOME}/.codex/config.toml): Codex (measured with 0.171) enforces the \
profile's allowed and denied domains only with it, and without it a sandboxed command reaches \
any host\n";

const CODEX_WARNINGS: &str = "\
Warning: 1 bash ask rule(s) skipped: Codex already asks before running anything outside the \
sandbox, so they need no output
Warning: Codex execution rules are consulted only for requests to run outside the sandbox; \
commands inside the sandbox never see them.
Warning: A legacy sandbox_mode setting (or the --sandbox flag) in any other Codex config layer \
silently switches the twsrt permission profile off; twsrt checks only the managed config.toml, \
so run `codex doctor` after changing other layers.
";

/// What `generate -w` for every agent warns in the full mode: Copilot's
/// missing ask tier, then Codex's.
fn all_agents_warnings() -> String {
    format!(
        "{NEW_AGENTS_SKIPPED}{}{CODEX_FEATURE}{NO_ASK_TIER}{CODEX_WARNINGS}",
        keeps_its_own(false)
    )
}

/// The fixture's mode files each keep an env and a model of their own: the
/// one written says so, and nothing is copied over.
fn keeps_its_own(yolo: bool) -> String {
    let (this, other) = match yolo {
        true => ("settings.yolo.json", "settings.full.json"),
        false => ("settings.full.json", "settings.yolo.json"),
    };
    format!(
        "Info: {this} keeps its own env, model (different in {other}); twsrt carries them \
         from one mode to the other only with [claude_sync] in config.toml\n"
    )
}

/// The status lines of `generate -w` for every agent (on stderr, after the
/// warnings), with the Claude and Copilot targets of the mode.
fn wrote_all(claude: &str, copilot: &str) -> String {
    format!(
        "Wrote canonical: {{HOME}}/.srt-settings.json\n\
         Wrote canonical: {{HOME}}/.config/twsrt/bash-rules.json\n\
         Wrote: {{HOME}}/{claude}\n\
         Wrote: {{HOME}}/{copilot}\n\
         Wrote: {{HOME}}/.codex/config.toml\n\
         Wrote: {{HOME}}/.codex/rules/twsrt.rules\n\
         Info: Restart Codex to load the updated permission profile and rules.\n"
    )
}

/// The line `-w` adds when the anchor pointed at the other mode's file.
fn repointed(to: &str, from: &str) -> String {
    format!(
        "Info: repointed the symlink {{HOME}}/{ANCHOR} to {to} (it pointed to {from}): the \
         agent now loads {to}\n"
    )
}

/// A HOME where every kind of prepared entry occurs: files that exist
/// (with modes other than 0600), files that are new (some in directories
/// that are new), and an anchor symlink that must be repointed.
fn home() -> Test {
    Test::with_policy()
        .targets()
        .file_by_twsrt(SRT_OUT, "{\"old\": true}\n")
        .mode(SRT_OUT, 0o644)
        .file(CLAUDE_TARGET, CLAUDE_EXISTING)
        .mode(CLAUDE_TARGET, 0o640)
        .file(CLAUDE_YOLO, "{}\n")
        .mode(CLAUDE_YOLO, 0o640)
        .symlink(ANCHOR, "settings.yolo.json")
        .file(CODEX_CONFIG, CODEX_EXISTING)
        .mode(CODEX_CONFIG, 0o604)
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

/// Replace whatever is at `rel` with the breakage.
fn break_target(home: &Path, rel: &str, how: Broken) {
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
        }
    }
}

/// The error of `generate -w` for `rel` broken `how`, when the breakage
/// is not in the file's content (that error is the file format's).
fn error(rel: &str, how: Broken) -> String {
    // The OS error's text is the C library's (glibc and musl word ELOOP
    // differently); the test binary links the same one as twsrt.
    let unfollowable = |errno: i32| {
        let os = std::io::Error::from_raw_os_error(errno);
        format!("is a symlink that cannot be followed ({os})")
    };
    let (dangling, looping) = (unfollowable(2), unfollowable(40));
    let what = match how {
        Broken::Directory => "is a directory, not a file",
        Broken::Dangling => &dangling,
        Broken::Looping => &looping,
        Broken::Fifo => {
            "is a FIFO, not a regular file; twsrt reads and replaces only regular files"
        }
        Broken::Socket => {
            "is a socket, not a regular file; twsrt reads and replaces only regular files"
        }
        // Creating the directory fails; reading the target below it fails
        // with "Not a directory". Either names the directory.
        Broken::ParentIsFile => {
            let parent = Path::new(rel).parent().unwrap().display();
            return format!(
                "Error: {{HOME}}/{parent}: is not a directory, so {{HOME}}/{rel} cannot be read or written\n"
            );
        }
        Broken::Text(_) | Broken::NotUtf8 => unreachable!("{rel} {how:?}: a format error"),
    };
    format!("Error: {{HOME}}/{rel}: {what}\n")
}

/// Every broken-target case: (target, breakage, the error exactly).
fn cases() -> Vec<(&'static str, Broken, String)> {
    use Broken::*;
    let invalid_json: Broken = Text("{\"env\": {\"ANTHROPIC_API_KEY\": \"sk-ant-x\"},,}\n");
    let not_object: Broken = Text("[\"sk-ant-x\"]\n");
    let invalid_toml: Broken = Text("[mcp_servers.x]\nbearer_token = \"tok\n");
    let claude = |what: &str| format!("Error: {{HOME}}/{CLAUDE_TARGET}: {what}\n");
    let codex = |at: &str| format!("Error: {{HOME}}/{CODEX_CONFIG}:{at}\n");
    let mut cases = vec![
        (
            CLAUDE_TARGET,
            invalid_json,
            claude("is not valid JSON (line 1, column 43, character 42); fix or remove it first"),
        ),
        (
            CLAUDE_TARGET,
            not_object,
            claude("does not hold a JSON object at the top level; fix or remove it first"),
        ),
        (
            CLAUDE_TARGET,
            NotUtf8,
            claude("is not valid UTF-8, so it cannot be read as JSON"),
        ),
        (
            CODEX_CONFIG,
            invalid_toml,
            codex("2:20: invalid TOML: invalid basic string, expected `\"`"),
        ),
        (
            CODEX_CONFIG,
            NotUtf8,
            codex("1:8: invalid TOML: the file is not valid UTF-8"),
        ),
    ];
    let generic: &[(&str, &[Broken])] = &[
        (
            CLAUDE_TARGET,
            &[Directory, Dangling, Looping, Fifo, Socket, ParentIsFile],
        ),
        (ANCHOR, &[Directory, Fifo, Socket]),
        (
            CODEX_CONFIG,
            &[Directory, Dangling, Looping, Fifo, Socket, ParentIsFile],
        ),
        (
            CODEX_RULES,
            &[Directory, Dangling, Looping, Fifo, ParentIsFile],
        ),
        (SRT_OUT, &[Directory, Dangling, Looping, Fifo, Socket]),
        (COPILOT, &[Directory, Dangling, Fifo, ParentIsFile]),
    ];
    for (rel, hows) in generic {
        for how in *hows {
            cases.push((rel, *how, error(rel, *how)));
        }
    }
    cases
}

#[test]
fn broken_existing_targets_fail_naming_the_file_and_change_nothing() {
    for (rel, how, stderr) in cases() {
        // The preview (and -n, kept from 1.0.0) makes every check a real
        // run makes (apply::check), so it fails on the same broken targets.
        let commands: &[&[&str]] = &[
            &["generate", "-w"],
            &["generate"],
            &["generate", "-w", "-n"],
        ];
        for args in commands {
            let t = home();
            break_target(t.home(), rel, how);
            t.args(args)
                .status(1)
                .stderr(&format!("{NEW_AGENTS_SKIPPED}{stderr}"))
                .unchanged()
                .run();
        }
    }
}

/// `diff` reads the Claude target and the Codex config too: it must not
/// block on a FIFO either, and names the file. A symlink that cannot be
/// followed reads as a missing target there (exit 2, as for 1.0.0).
#[test]
fn diff_on_a_broken_target_names_it_and_never_blocks() {
    for (rel, how, stderr) in cases() {
        let agent = match rel {
            CLAUDE_TARGET => "claude",
            CODEX_CONFIG => "codex",
            _ => continue,
        };
        let t = home().file(CODEX_RULES, "");
        break_target(t.home(), rel, how);
        let (status, stderr) = match how {
            Broken::Dangling | Broken::Looping | Broken::ParentIsFile => (
                2,
                format!(
                    "Error: {agent} target file not found: {{HOME}}/{rel}; run `twsrt generate -w {agent}` to write it\n"
                ),
            ),
            _ => (1, stderr),
        };
        t.args(&["diff", agent])
            .status(status)
            .stdout(CANONICAL_DRIFT)
            .stderr(&stderr)
            .unchanged()
            .run();
    }
}

/// Unreadable targets. `chmod 000` does not stop root, so as root the run
/// drops the capabilities that bypass file modes (`setpriv`, util-linux);
/// where neither works the case is reported as skipped, not passed.
#[test]
fn unreadable_targets_fail_naming_the_file_and_change_nothing() {
    for (rel, agent) in [(CLAUDE_TARGET, "claude"), (CODEX_CONFIG, "codex")] {
        for args in [
            &["generate", "-w"][..],
            &["generate", "-w", "-n"],
            &["diff", agent],
        ] {
            let t = home().file(CODEX_RULES, "").mode(rel, 0o000);
            let Some(wrapper) = unprivileged_wrapper(&t.home().join(rel)) else {
                eprintln!("SKIP unreadable {rel}: running privileged and setpriv cannot drop it");
                return;
            };
            let (stdout, skipped) = if args[0] == "diff" {
                (CANONICAL_DRIFT, "")
            } else {
                ("", NEW_AGENTS_SKIPPED)
            };
            t.wrapper(&wrapper)
                .args(args)
                .status(1)
                .stdout(stdout)
                .stderr(&format!(
                    "{skipped}Error: {{HOME}}/{rel}: Permission denied (os error 13)\n"
                ))
                .unchanged()
                .run();
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
        let warnings = if yolo {
            format!(
                "{NEW_AGENTS_SKIPPED}{}{CODEX_FEATURE}{CODEX_WARNINGS}",
                keeps_its_own(true)
            )
        } else {
            all_agents_warnings()
        };
        for (n, failing) in order.iter().enumerate() {
            // The warnings precede the writes; a rolled-back write gets no
            // status line.
            home()
                .symlink(ANCHOR, other)
                .env("TWSRT_FAULT_COMMIT", &n.to_string())
                .args(&args)
                .status(1)
                .stderr(&format!(
                    "{warnings}Error: {{HOME}}/{failing}: injected fault: rename refused\n"
                ))
                .unchanged()
                .run();
        }

        // One past the last entry: no fault fires, everything is written.
        let out = home()
            .symlink(ANCHOR, other)
            .env("TWSRT_FAULT_COMMIT", &order.len().to_string())
            .args(&args)
            .stderr(&format!(
                "{warnings}{}{}",
                wrote_all(target, copilot),
                repointed(
                    std::path::Path::new(target)
                        .file_name()
                        .and_then(|n| n.to_str())
                        .unwrap_or_default(),
                    other
                )
            ))
            .run();
        assert_no_temp(out.home());
        let after = out.snapshot();
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
    let out = Test::with_policy()
        .targets()
        .wrapper(&["sh", "-c", "umask 000 && exec \"$0\" \"$@\""])
        .args(&["generate", "-w"])
        .stderr(&format!(
            "{NEW_AGENTS_SKIPPED}{CODEX_FEATURE}{NO_ASK_TIER}{CODEX_WARNINGS}{}",
            wrote_all(CLAUDE_TARGET, COPILOT)
        ))
        .run();
    let after = out.snapshot();
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
    assert_no_temp(out.home());

    let out = home()
        .file("dotfiles/claude.json", CLAUDE_EXISTING)
        .mode("dotfiles/claude.json", 0o664)
        .symlink(CLAUDE_TARGET, "../dotfiles/claude.json")
        .wrapper(&["sh", "-c", "umask 077 && exec \"$0\" \"$@\""])
        .args(&["generate", "-w"])
        .stderr(&format!(
            "{}{}{}",
            all_agents_warnings(),
            wrote_all(CLAUDE_TARGET, COPILOT),
            repointed("settings.full.json", "settings.yolo.json")
        ))
        .run();
    let after = out.snapshot();
    assert!(after[Path::new(SRT_OUT)].starts_with("644 "));
    assert!(after[Path::new(CODEX_CONFIG)].starts_with("604 "));
    assert_eq!(
        after[Path::new(CLAUDE_TARGET)],
        "-> ../dotfiles/claude.json"
    );
    let dotfile = &after[Path::new("dotfiles/claude.json")];
    assert!(dotfile.starts_with("664 {") && dotfile.contains("\"permissions\""));
    assert_no_temp(out.home());
}

/// An anchor that is a dangling or looping symlink is just repointed (it is
/// twsrt's own link); a regular file beside an existing target is refused.
#[test]
fn the_anchor_is_repointed_by_rename() {
    for how in [Broken::Dangling, Broken::Looping] {
        let t = home();
        break_target(t.home(), ANCHOR, how);
        let out = t
            .args(&["generate", "-w", "claude"])
            .stderr(
                "Wrote canonical: {HOME}/.srt-settings.json\n\
                 Wrote canonical: {HOME}/.config/twsrt/bash-rules.json\n\
                 Wrote: {HOME}/.claude/settings.full.json\n",
            )
            .run();
        assert_eq!(out.snapshot()[Path::new(ANCHOR)], "-> settings.full.json");
        assert_no_temp(out.home());
    }
    let t = home();
    fs::remove_file(t.home().join(ANCHOR)).unwrap();
    t.file(ANCHOR, "{}\n")
        .args(&["generate", "-w"])
        .status(1)
        .stderr(&format!(
            "{NEW_AGENTS_SKIPPED}Error: {{HOME}}/.claude/settings.json: is a regular file and \
             {{HOME}}/.claude/settings.full.json exists as well; twsrt will not choose \
             between them, so remove one and run generate -w again\n",
        ))
        .unchanged()
        .run();
}
