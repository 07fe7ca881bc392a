//! Where Claude Code's own sandbox confines every Bash command (on, with
//! `allowUnsandboxedCommands = false`, `failIfUnavailable = true` and no
//! `excludedCommands`), the hook defers to it: what it cannot see through
//! passes; the bash rules, named denied paths and the file tools still
//! decide (issue 43 item 1).

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::support::*;

const HELD: &str = "\n[sandbox_overrides.yolo]\nenabled = true\nallowUnsandboxedCommands = false\n";

fn home(overrides: &str) -> tempfile::TempDir {
    let config = format!("{BASE_CONFIG}{overrides}");
    planted_home(&[
        (CONFIG, config.as_str()),
        (SRT_FRAGMENT, BASE_SRT),
        (BASH_FRAGMENT, BASE_BASH),
        (".ssh/id_rsa", "k"),
        (".venv/bin/activate", "export V=1"),
    ])
}

/// The hook's decision (`None`: it passes) on one call, in yolo mode or not.
fn decide(home: &Path, yolo: bool, tool: &str, input: Value) -> Option<String> {
    decide_in(home, home, yolo, tool, input)
}

/// [`decide`] with the working directory `cwd`.
fn decide_in(home: &Path, cwd: &Path, yolo: bool, tool: &str, input: Value) -> Option<String> {
    let args: &[&str] = if yolo { &["--yolo"] } else { &[] };
    hook_decision(home, cwd, args, &[], tool, input)
}

const OPAQUE: [&str; 6] = [
    "source .venv/bin/activate && pytest",
    ". ./env.sh",
    "sh ./configure --prefix=/usr",
    "bash scripts/test.sh",
    "for f in *.c; do wc -l \"$f\"; done",
    "eval \"$X\"",
];

#[test]
fn where_the_kernel_holds_bash_the_hook_answers_only_from_the_rules() {
    let held = home(&format!("{HELD}failIfUnavailable = true\n"));
    let h = held.path();
    let bash = |c: &str| json!({"command": c});
    for command in OPAQUE {
        assert_eq!(decide(h, true, "Bash", bash(command)), None, "{command}");
    }
    let deny = |tool: &str, input: Value| {
        assert_eq!(
            decide(h, true, tool, input.clone()).as_deref(),
            Some("deny"),
            "{tool} {input}"
        );
    };
    deny("Bash", bash("cat ~/.ssh/id_rsa"));
    deny("Bash", bash("rm notes.txt"));
    deny("Bash", bash("git push"));
    deny(
        "Bash",
        json!({"command": "eval \"$X\"", "dangerouslyDisableSandbox": true}),
    );
    deny("Read", json!({"file_path": h.join(".ssh/id_rsa")}));
    deny("Grep", json!({"pattern": "k", "path": h}));
    // Full mode has no sandbox here: it still asks.
    assert_eq!(
        decide(h, false, "Bash", bash("eval \"$X\"")).as_deref(),
        Some("ask")
    );
}

#[test]
fn a_sandbox_a_command_can_leave_is_not_deferred_to() {
    for overrides in [
        HELD.to_string(),
        format!("{HELD}failIfUnavailable = false\n"),
        format!("{HELD}failIfUnavailable = true\nexcludedCommands = [\"make\"]\n"),
        "\n[sandbox_overrides.yolo]\nenabled = true\nfailIfUnavailable = true\n".into(),
    ] {
        let home = home(&overrides);
        let got = decide(home.path(), true, "Bash", json!({"command": "eval \"$X\""}));
        assert_eq!(got.as_deref(), Some("deny"), "{overrides}");
    } // Claude Code merges the sandbox keys of every settings file: a
    // project file that lets a command out is not deferred to either.
    for loosened in [
        json!({"sandbox": {"excludedCommands": ["eval *"]}}),
        json!({"sandbox": {"allowUnsandboxedCommands": true}}),
        json!({"sandbox": {"enabled": false}}),
    ] {
        let home = home(&format!("{HELD}failIfUnavailable = true\n"));
        let h = home.path();
        std::fs::create_dir_all(h.join("p/.claude")).expect("dirs");
        std::fs::write(
            h.join("p/.claude/settings.local.json"),
            loosened.to_string(),
        )
        .expect("file");
        let event = json!({"command": "eval \"$X\""});
        assert_eq!(decide(h, true, "Bash", event.clone()), None);
        assert_eq!(
            decide_in(h, &h.join("p"), true, "Bash", event).as_deref(),
            Some("deny"),
            "{loosened}"
        );
    }
}

/// What the hook now lets through is what the kernel holds: measured with
/// the real srt (the runtime Claude Code's sandbox is built on) and the
/// compiled settings, an opaque read of the key reads it in plain bash and
/// not inside srt.
#[test]
fn an_opaque_read_the_hook_passes_is_held_by_the_sandbox() {
    let Some(srt) = crate::srt_real::srt() else {
        return;
    };
    let held = home(&format!("{HELD}failIfUnavailable = true\n"));
    let h = held.path();
    let out = Command::new(env!("CARGO_BIN_EXE_twsrt"))
        .args([
            "-c",
            &h.join(CONFIG).to_string_lossy(),
            "generate",
            "all",
            "-w",
        ])
        .env("HOME", h)
        .output()
        .expect("twsrt runs");
    assert!(out.status.success(), "{out:?}");
    let command = "X='cat ~/.ssh/id_rsa'; eval \"$X\"";
    assert_eq!(decide(h, true, "Bash", json!({"command": command})), None);
    let plain = Command::new("bash")
        .args(["-c", command])
        .env("HOME", h)
        .output()
        .expect("bash runs");
    assert_eq!(String::from_utf8_lossy(&plain.stdout), "k");
    let settings = h.join(".srt-settings.json");
    let boxed = Command::new(&srt)
        .args(["-s", &settings.to_string_lossy(), "-c", command])
        .current_dir(h)
        .env("HOME", h)
        .output()
        .expect("srt runs");
    assert!(
        !String::from_utf8_lossy(&boxed.stdout).contains('k'),
        "{boxed:?}"
    );
}

/// The starter's yolo block (`twsrt config --init`) is one where the kernel
/// holds Bash: the hook in yolo mode does not deny what it cannot see
/// through, and still denies a named denied read.
#[test]
fn the_starter_yolo_block_defers_bash_to_the_kernel() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let init = Command::new(env!("CARGO_BIN_EXE_twsrt"))
        .args(["config", "--init"])
        .env_clear()
        .env("HOME", h)
        .env("EDITOR", "true")
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .output()
        .unwrap();
    assert!(init.status.success(), "{init:?}");
    let fragment = h.join(SRT_FRAGMENT);
    let srt = std::fs::read_to_string(&fragment).unwrap();
    let srt = srt.replace("\"denyRead\": []", "\"denyRead\": [\"~/.ssh\"]");
    std::fs::write(&fragment, srt).unwrap();
    std::fs::create_dir_all(h.join(".ssh")).unwrap();
    std::fs::write(h.join(".ssh/id_rsa"), "k").unwrap();
    let bash = |c: &str| json!({"command": c});
    for command in OPAQUE {
        assert_eq!(decide(h, true, "Bash", bash(command)), None, "{command}");
    }
    assert_eq!(
        decide(h, true, "Bash", bash("cat ~/.ssh/id_rsa")).as_deref(),
        Some("deny")
    );
}
