//! `twsrt hook claude` as Claude Code runs it (one event on stdin, the
//! answer on stdout) and the PreToolUse entry `generate claude` installs
//! with `[targets] claude_hook = true`.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::support::*;

/// Run the hook on `event` in the base policy's HOME; (status, stdout, stderr).
fn hook(home: &Path, args: &[&str], event: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_twsrt"))
        .args(["-c", &home.join(CONFIG).to_string_lossy(), "hook", "claude"])
        .args(args)
        .current_dir(home)
        .env_clear()
        .env("HOME", home)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("twsrt runs");
    let mut stdin = child.stdin.take().expect("a stdin pipe");
    stdin
        .write_all(event.as_bytes())
        .expect("the event is written");
    drop(stdin);
    let out = child.wait_with_output().expect("twsrt ends");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// The event Claude Code 2.1.332 writes for one tool call (the fields of
/// its PreToolUse hook input).
fn event(home: &Path, tool: &str, input: Value) -> String {
    json!({
        "session_id": "7f1c2d3e-0000-4000-8000-000000000001",
        "transcript_path": home.join(".claude/projects/p/7f1c.jsonl"),
        "cwd": home,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": input,
        "tool_use_id": "toolu_01ABCDEF",
    })
    .to_string()
}

fn decision(stdout: &str) -> Value {
    let answer: Value = serde_json::from_str(stdout).expect("the answer is JSON");
    let out = &answer["hookSpecificOutput"];
    assert_eq!(out["hookEventName"], "PreToolUse", "{stdout}");
    assert!(
        out["permissionDecisionReason"]
            .as_str()
            .is_some_and(|r| !r.is_empty())
    );
    out["permissionDecision"].clone()
}

/// A HOME with the base policy (denyRead `~/.ssh`) and a key in `~/.ssh`.
fn policy_home() -> tempfile::TempDir {
    planted_home(&[
        (CONFIG, BASE_CONFIG),
        (SRT_FRAGMENT, BASE_SRT),
        (BASH_FRAGMENT, BASE_BASH),
        (".ssh/id_rsa", "k"),
        ("notes.txt", "n"),
    ])
}

#[test]
fn each_tool_round_trips() {
    let home = policy_home();
    let h = home.path();
    let p = |rel: &str| h.join(rel).to_string_lossy().into_owned();
    let cases = [
        (
            "Bash",
            json!({"command": "cat ~/.ssh/id_rsa", "description": "Show the key", "timeout": 120000}),
            Some("deny"),
        ),
        (
            "Bash",
            json!({"command": "grep -r key ~", "description": "Search"}),
            Some("ask"),
        ),
        (
            "Bash",
            json!({"command": "ls -la", "description": "List"}),
            None,
        ),
        ("Read", json!({"file_path": p(".ssh/id_rsa")}), Some("deny")),
        (
            "Read",
            json!({"file_path": p("notes.txt"), "offset": 1, "limit": 20}),
            None,
        ),
        (
            "Grep",
            json!({"pattern": "BEGIN", "path": p(".ssh"), "output_mode": "content", "-n": true}),
            Some("deny"),
        ),
        (
            "Glob",
            json!({"pattern": "**/*", "path": p(".ssh")}),
            Some("deny"),
        ),
        ("Glob", json!({"pattern": "*.txt"}), Some("ask")),
        (
            "Edit",
            json!({"file_path": p(".ssh/config"), "old_string": "a", "new_string": "b", "replace_all": false}),
            Some("deny"),
        ),
        (
            "Write",
            json!({"file_path": p("new.txt"), "content": "x"}),
            None,
        ),
        (
            "Write",
            json!({"file_path": p(".config/twsrt/config.toml"), "content": "x"}),
            Some("deny"),
        ),
        (
            "NotebookEdit",
            json!({"notebook_path": p(".ssh/n.ipynb"), "new_source": "x", "cell_type": "code", "edit_mode": "replace"}),
            Some("deny"),
        ),
        ("WebSearch", json!({"query": "x"}), None),
    ];
    for (tool, input, want) in cases {
        let (status, stdout, stderr) = hook(h, &[], &event(h, tool, input.clone()));
        assert_eq!((status, stderr.as_str()), (0, ""), "{tool} {input}");
        match want {
            None => assert_eq!(stdout, "", "{tool} {input}"),
            Some(want) => assert_eq!(decision(&stdout), want, "{tool} {input}: {stdout}"),
        }
    }
}

#[test]
fn yolo_denies_what_full_mode_asks() {
    let home = policy_home();
    let e = event(home.path(), "Bash", json!({"command": "cat $F"}));
    assert_eq!(decision(&hook(home.path(), &[], &e).1), "ask");
    assert_eq!(decision(&hook(home.path(), &["--yolo"], &e).1), "deny");
}

#[test]
fn a_malformed_event_is_denied() {
    let home = policy_home();
    for text in [
        "",
        "not json",
        "{}",
        r#"{"tool_name":"Bash","tool_input":{},"cwd":"/"}"#,
    ] {
        let (status, stdout, _) = hook(home.path(), &[], text);
        assert_eq!(status, 0, "{text}");
        assert_eq!(decision(&stdout), "deny", "{text}: {stdout}");
    }
}

#[test]
fn a_policy_that_does_not_compile_is_denied_with_the_reason() {
    let home = policy_home();
    std::fs::write(home.path().join(SRT_FRAGMENT), "{ broken").unwrap();
    let e = event(home.path(), "Bash", json!({"command": "ls"}));
    let (status, stdout, _) = hook(home.path(), &[], &e);
    assert_eq!(status, 0);
    assert_eq!(decision(&stdout), "deny");
    assert!(stdout.contains("base.jsonc"), "{stdout}");
}

#[test]
fn the_policy_is_compiled_not_read_from_an_output() {
    let home = policy_home();
    // An agent emptying the canonical output changes nothing.
    std::fs::write(home.path().join(".srt-settings.json"), "{}").unwrap();
    let e = event(home.path(), "Bash", json!({"command": "cat ~/.ssh/id_rsa"}));
    assert_eq!(decision(&hook(home.path(), &[], &e).1), "deny");
}

/// The process itself answers inputs whose analysis once overflowed its
/// stack (Claude Code runs a call whose hook dies) or would not fit in it.
#[test]
fn pathological_commands_are_answered_by_the_process() {
    let home = policy_home();
    for command in [
        format!("[[ {}-n x ]] && cat ~/.ssh/id_rsa", "! ".repeat(10_000)),
        format!(
            "{}cat ~/.ssh/id_rsa{}",
            "( ".repeat(50_000),
            " )".repeat(50_000)
        ),
        format!("{}cat ~/.ssh/id_rsa", "time ".repeat(10_000)),
        format!("cat {}", "x ".repeat(100_000)),
    ] {
        let e = event(home.path(), "Bash", json!({ "command": command }));
        let (status, stdout, _) = hook(home.path(), &[], &e);
        assert_eq!(
            (status, decision(&stdout)),
            (0, json!("ask")),
            "{}",
            &command[..40]
        );
        let (status, stdout, _) = hook(home.path(), &["--yolo"], &e);
        assert_eq!(
            (status, decision(&stdout)),
            (0, json!("deny")),
            "{}",
            &command[..40]
        );
    }
}

#[test]
fn help_names_the_exit_codes() {
    let out = Test::new().args(&["hook", "--help"]).any_stdout().run();
    assert!(out.stdout.contains("Exit codes: 0"), "{}", out.stdout);
    Test::new()
        .args(&["hook", "codex"])
        .status(2)
        .any_stderr()
        .run();
}

const HOOKED: &str = "claude_hook = true\n";

fn our_entry(settings: &Value) -> &Value {
    let list = settings["hooks"]["PreToolUse"]
        .as_array()
        .expect("a PreToolUse list");
    let ours: Vec<&Value> = list
        .iter()
        .filter(|e| {
            e["hooks"][0]["command"]
                .as_str()
                .is_some_and(|c| c.contains("hook claude"))
        })
        .collect();
    assert_eq!(ours.len(), 1, "{settings}");
    ours[0]
}

#[test]
fn generate_installs_the_entry_in_both_modes() {
    let out = Test::with_policy()
        .targets()
        .config_append(HOOKED)
        .args(&["generate", "claude", "-w"])
        .any_stderr()
        .run();
    let bin = std::fs::canonicalize(env!("CARGO_BIN_EXE_twsrt")).unwrap();
    let config = format!("{}/{CONFIG}", out.home().display());
    let full: Value = serde_json::from_str(&out.read(CLAUDE_TARGET)).unwrap();
    let entry = our_entry(&full);
    assert_eq!(
        entry["matcher"],
        "Bash|Read|Grep|Glob|Edit|Write|MultiEdit|NotebookEdit|LS|mcp__.*"
    );
    assert_eq!(entry["hooks"][0]["type"], "command");
    assert_eq!(entry["hooks"][0]["onFailure"], "block");
    let command = entry["hooks"][0]["command"].as_str().unwrap();
    assert_eq!(
        command,
        format!("{} -c {config} hook claude", bin.display())
    );
    let out = out
        .then()
        .args(&["generate", "claude", "-w", "--yolo"])
        .any_stderr()
        .run();
    let yolo: Value = serde_json::from_str(&out.read(CLAUDE_YOLO)).unwrap();
    assert!(
        our_entry(&yolo)["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .ends_with("hook claude --yolo")
    );
}

#[test]
fn other_hooks_stay_and_ours_is_found_again() {
    let theirs = json!({"matcher": "Bash", "hooks": [{"type": "command", "command": "lint.sh"}]});
    let stale = json!({"matcher": "Bash", "hooks": [{"type": "command", "command": "/old/twsrt -c /old.toml hook claude"}]});
    let existing = json!({"hooks": {"PreToolUse": [theirs, stale], "Stop": [theirs]}});
    let out = Test::with_policy()
        .targets()
        .config_append(HOOKED)
        .file(CLAUDE_TARGET, existing.to_string())
        .args(&["generate", "claude", "-w"])
        .any_stderr()
        .run();
    let first = out.read(CLAUDE_TARGET);
    let doc: Value = serde_json::from_str(&first).unwrap();
    let list = doc["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(list.len(), 2, "{doc}");
    assert_eq!(list[0], theirs);
    assert_ne!(list[1], stale);
    assert_eq!(doc["hooks"]["Stop"], json!([theirs]));
    // A second run changes nothing.
    let out = out
        .then()
        .args(&["generate", "claude", "-w"])
        .any_stderr()
        .run();
    assert_eq!(out.read(CLAUDE_TARGET), first);
}

#[test]
fn diff_reports_the_entry_missing_or_changed() {
    let out = Test::with_policy()
        .targets()
        .config_append(HOOKED)
        .args(&["generate", "claude", "-w"])
        .any_stderr()
        .run();
    let out = out
        .then()
        .args(&["diff", "claude"])
        .any_stdout()
        .any_stderr()
        .run();
    assert!(!out.stdout.contains("hook:"), "{}", out.stdout);
    let path = out.home().join(CLAUDE_TARGET);
    let mut doc: Value = serde_json::from_str(&out.read(CLAUDE_TARGET)).unwrap();
    let command = doc["hooks"]["PreToolUse"][0]["hooks"][0]["command"].clone();
    doc["hooks"]["PreToolUse"][0]["hooks"][0]["command"] = json!("/elsewhere/twsrt hook claude");
    std::fs::write(&path, doc.to_string()).unwrap();
    let changed = out
        .then()
        .args(&["diff", "claude"])
        .any_status()
        .any_stdout()
        .any_stderr()
        .run();
    assert!(
        changed.stdout.contains("hook:PreToolUse"),
        "{}",
        changed.stdout
    );
    assert!(
        changed.stdout.contains("/elsewhere/twsrt hook claude"),
        "{}",
        changed.stdout
    );
    let mut doc: Value = serde_json::from_str(&changed.read(CLAUDE_TARGET)).unwrap();
    doc["hooks"]["PreToolUse"][0]["hooks"][0]["command"] = json!(command);
    doc["hooks"]["PreToolUse"][0]["hooks"][0]
        .as_object_mut()
        .unwrap()
        .remove("onFailure");
    std::fs::write(changed.home().join(CLAUDE_TARGET), doc.to_string()).unwrap();
    let unblocked = changed
        .then()
        .args(&["diff", "claude"])
        .any_status()
        .any_stdout()
        .any_stderr()
        .run();
    assert!(
        unblocked.stdout.contains("(onFailure not block)"),
        "{}",
        unblocked.stdout
    );
    assert_ne!(unblocked.status, 0);
    let mut doc: Value = serde_json::from_str(&unblocked.read(CLAUDE_TARGET)).unwrap();
    doc["hooks"] = json!({});
    std::fs::write(unblocked.home().join(CLAUDE_TARGET), doc.to_string()).unwrap();
    let missing = unblocked
        .then()
        .args(&["diff", "claude"])
        .any_status()
        .any_stdout()
        .any_stderr()
        .run();
    assert!(
        missing.stdout.contains("hook:PreToolUse"),
        "{}",
        missing.stdout
    );
    assert_ne!(missing.status, 0);
}

#[test]
fn without_the_key_hooks_are_not_touched() {
    let stale = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "twsrt hook claude"}]}]}});
    let out = Test::with_policy()
        .targets()
        .file(CLAUDE_TARGET, stale.to_string())
        .args(&["generate", "claude", "-w"])
        .any_stderr()
        .run();
    let doc: Value = serde_json::from_str(&out.read(CLAUDE_TARGET)).unwrap();
    assert_eq!(doc["hooks"], stale["hooks"]);
    let preview = out
        .then()
        .args(&["generate", "claude"])
        .any_stdout()
        .any_stderr()
        .run();
    assert!(!preview.stdout.contains("\"hooks\""), "{}", preview.stdout);
}

#[test]
fn the_key_is_checked() {
    Test::with_policy()
        .config_append("[targets]\nclaude_hook = true\n")
        .args(&["generate", "claude"])
        .status(1)
        .stderr_contains("targets.claude_hook requires claude_settings")
        .run();
    Test::with_policy()
        .targets()
        .config_append("claude_hook = \"yes\"\n")
        .args(&["generate", "claude"])
        .status(1)
        .stderr_contains(
            "targets.claude_hook must be true, false or \"sandbox\", \"analysis\", found \"yes\"",
        )
        .run();
}

// --------------------------------------------------------------------------
// The sandbox mode (`claude_hook = "sandbox"`, `hook claude --sandbox`)

/// `policy_home` with the srt output written as the policy compiles it.
fn sandbox_home() -> tempfile::TempDir {
    let home = policy_home();
    let status = Command::new(env!("CARGO_BIN_EXE_twsrt"))
        .args(["-c", &home.path().join(CONFIG).to_string_lossy()])
        .args(["generate", "all", "-w"])
        .env("HOME", home.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("twsrt runs");
    assert!(status.success());
    home
}

/// A stand-in srt: an executable file (never run by these tests).
fn fake_srt(home: &Path) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = home.join("bin/srt");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, "#!/bin/sh\nexit 99\n").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_string_lossy().into_owned()
}

/// The hook with `--sandbox` (and `extra`), srt named by `srt` (TWSRT_SRT)
/// and PATH set to `path`.
fn sandboxed(home: &Path, extra: &[&str], srt: Option<&str>, path: &str, event: &str) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_twsrt"));
    cmd.args([
        "-c",
        &home.join(CONFIG).to_string_lossy(),
        "hook",
        "claude",
        "--sandbox",
    ])
    .args(extra)
    .current_dir(home)
    .env_clear()
    .env("HOME", home)
    .env("PATH", path)
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    if let Some(srt) = srt {
        cmd.env("TWSRT_SRT", srt);
    }
    let mut child = cmd.spawn().expect("twsrt runs");
    let mut stdin = child.stdin.take().expect("a stdin pipe");
    stdin
        .write_all(event.as_bytes())
        .expect("the event is written");
    drop(stdin);
    let out = child.wait_with_output().expect("twsrt ends");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn sh_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

#[test]
fn sandbox_mode_wraps_what_it_cannot_see_through_and_nothing_else() {
    let home = sandbox_home();
    let h = home.path();
    let srt = fake_srt(h);
    let settings = h.join(".srt-settings.json").to_string_lossy().into_owned();
    let opaque = json!({"command": "grep -r key ~", "description": "Search", "timeout": 5000});
    for mode in [&[][..], &["--yolo"][..]] {
        let out = sandboxed(
            h,
            mode,
            Some(&srt),
            "/usr/bin:/bin",
            &event(h, "Bash", opaque.clone()),
        );
        assert_eq!(decision(&out), "allow", "{mode:?}: {out}");
        let answer: Value = serde_json::from_str(&out).unwrap();
        let input = &answer["hookSpecificOutput"]["updatedInput"];
        let wrapped = format!(
            "{} -s {} -c 'grep -r key ~'",
            sh_quote(&srt),
            sh_quote(&settings)
        );
        assert_eq!(input["command"], wrapped.as_str(), "{out}");
        assert_eq!(input["description"], "Search");
        assert_eq!(input["timeout"], 5000);
        assert!(out.contains("runs inside srt"), "{out}");
    }
    // Named protected paths are still denied, understood commands untouched,
    // and the file tools are not wrapped.
    let denied = event(h, "Bash", json!({"command": "cat ~/.ssh/id_rsa"}));
    assert_eq!(
        decision(&sandboxed(h, &[], Some(&srt), "/bin", &denied)),
        "deny"
    );
    let plain = event(h, "Bash", json!({"command": "ls -la"}));
    assert_eq!(sandboxed(h, &["--yolo"], Some(&srt), "/bin", &plain), "");
    let grep = event(h, "Grep", json!({"pattern": "key", "path": h}));
    assert_eq!(
        decision(&sandboxed(h, &[], Some(&srt), "/bin", &grep)),
        "ask"
    );
    assert_eq!(
        decision(&sandboxed(h, &["--yolo"], Some(&srt), "/bin", &grep)),
        "deny"
    );
}

/// Claude Code hands a settings file's `env` to the hook: srt (and PATH,
/// where srt is looked up) that a project settings file names are never
/// taken, and a moved HOME denies every call.
#[test]
fn the_hook_trusts_no_environment_a_settings_file_sets() {
    let home = sandbox_home();
    let h = home.path();
    let srt = fake_srt(h);
    let local = h.join(".claude/settings.local.json");
    std::fs::create_dir_all(h.join(".claude")).unwrap();
    let opaque = event(h, "Bash", json!({"command": "grep -r key ~"}));
    let plain = event(h, "Bash", json!({"command": "ls -la"}));
    assert_eq!(
        decision(&sandboxed(h, &[], Some(&srt), "/bin", &opaque)),
        "allow"
    );
    for key in ["TWSRT_SRT", "PATH"] {
        std::fs::write(&local, json!({"env": {key: srt}}).to_string()).unwrap();
        let out = sandboxed(h, &[], Some(&srt), "/bin", &opaque);
        assert_eq!(decision(&out), "ask", "{key}: {out}");
        assert!(!out.contains("updatedInput"), "{key}: {out}");
        assert_eq!(sandboxed(h, &[], Some(&srt), "/bin", &plain), "", "{key}");
    }
    std::fs::write(&local, json!({"env": {"HOME": "/tmp"}}).to_string()).unwrap();
    let out = sandboxed(h, &[], Some(&srt), "/bin", &plain);
    assert_eq!(decision(&out), "deny", "{out}");
    assert!(out.contains("settings.local.json sets env.HOME"), "{out}");
}

#[test]
fn sandbox_mode_finds_srt_on_path() {
    let home = sandbox_home();
    let h = home.path();
    let srt = fake_srt(h);
    let path = format!("/nonexistent:{}:/usr/bin", h.join("bin").display());
    let e = event(h, "Bash", json!({"command": "cat $F"}));
    let out = sandboxed(h, &[], None, &path, &e);
    assert_eq!(decision(&out), "allow", "{out}");
    assert!(out.contains(&format!("\"command\":\"'{srt}' -s ")), "{out}");
}

/// Without srt, or with settings that are not the compiled ones, the mode
/// answers as the hook without it: ask, deny in yolo mode; with the reason.
#[test]
fn sandbox_mode_fails_closed_without_srt_or_its_settings() {
    let home = sandbox_home();
    let h = home.path();
    let srt = fake_srt(h);
    let e = event(h, "Bash", json!({"command": "cat $F"}));
    let cases: [(Option<&str>, &str); 3] = [
        (None, "srt is not on PATH"),
        (
            Some("relative/srt"),
            "is not an absolute path to an executable",
        ),
        (
            Some("/nonexistent/srt"),
            "is not an absolute path to an executable",
        ),
    ];
    for (named, why) in cases {
        let out = sandboxed(h, &[], named, "/nonexistent", &e);
        assert_eq!(decision(&out), "ask", "{out}");
        assert!(out.contains(why), "{out}");
        let out = sandboxed(h, &["--yolo"], named, "/nonexistent", &e);
        assert_eq!(decision(&out), "deny", "{out}");
    }
    let settings = h.join(".srt-settings.json");
    std::fs::write(&settings, "{}\n").unwrap();
    let out = sandboxed(h, &["--yolo"], Some(&srt), "/bin", &e);
    assert_eq!(decision(&out), "deny", "{out}");
    assert!(out.contains("is not what the policy compiles to"), "{out}");
    std::fs::remove_file(&settings).unwrap();
    let out = sandboxed(h, &[], Some(&srt), "/bin", &e);
    assert_eq!(decision(&out), "ask", "{out}");
    assert!(out.contains("cannot read"), "{out}");
}

#[test]
fn sandbox_key_installs_the_entry_with_sandbox() {
    let out = Test::with_policy()
        .targets()
        .config_append("claude_hook = \"sandbox\"\n")
        .args(&["generate", "claude", "-w"])
        .any_stderr()
        .run();
    let full: Value = serde_json::from_str(&out.read(CLAUDE_TARGET)).unwrap();
    let command = our_entry(&full)["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(command.ends_with(" hook claude --sandbox"), "{command}");
    let out = out
        .then()
        .args(&["generate", "claude", "-w", "--yolo"])
        .any_stderr()
        .run();
    let yolo: Value = serde_json::from_str(&out.read(CLAUDE_YOLO)).unwrap();
    let command = our_entry(&yolo)["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        command.ends_with(" hook claude --sandbox --yolo"),
        "{command}"
    );
}

/// The commands the hook wraps, run by bash as Claude Code's Bash tool
/// runs them (`eval '<command>'`), under the real srt: each re-splits into exactly the original
/// (same output, same status as the original run without srt), a wrapped
/// opaque read of a denied file fails and the same read in the project
/// succeeds.
#[test]
fn wrapped_commands_round_trip_through_the_real_srt() {
    let Some(real_srt) = crate::srt_real::srt() else {
        return;
    };
    let home = sandbox_home();
    let h = home.path();
    let wrap = |command: &str| -> String {
        let e = event(h, "Bash", json!({"command": command}));
        let path = std::env::var("PATH").unwrap_or_default();
        let out = sandboxed(h, &["--yolo"], Some(&real_srt), &path, &e);
        let answer: Value =
            serde_json::from_str(&out).unwrap_or_else(|_| panic!("{command}: {out}"));
        let o = &answer["hookSpecificOutput"];
        assert_eq!(o["permissionDecision"], "allow", "{command}: {out}");
        o["updatedInput"]["command"].as_str().unwrap().to_string()
    };
    // Claude Code's Bash tool runs a command as `eval '<command>'`.
    let run = |line: &str| {
        let out = Command::new("bash")
            .args(["-c", &format!("eval {}", sh_quote(line))])
            .current_dir(h)
            .env("HOME", h)
            .output()
            .expect("bash runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    // Each ends in a read the analysis cannot name (`cat $F`), so it is
    // wrapped whole.
    let tricky = [
        r#"printf '[%s]' "$F" 'it'"'"'s' "a  b" $'t\tb' \$x"#,
        r#"printf '[%s]' $(echo a b) "$(printf '%s' "'q'")""#,
        "cat <<'EOF' $F\n$HOME 'x' \"y\" \\\nEOF",
        "printf '%s\\n' $F \\\n  continued; exit 3",
        "echo \"$F\" `echo back` ; echo é ü '\\' \"\\\\\"",
        "-x $F; exit 0",
        "+x $F; exit 0",
        "for i in 1 2; do printf '<%s>' \"$i$F\"; done",
        "echo $F'",
        r#"printf %s $F "'" "''" "'''""#,
    ];
    for command in tricky.map(|c| format!("{c}\ncat $F </dev/null")) {
        let command = command.as_str();
        let wrapped = wrap(command);
        assert!(
            wrapped.contains(" -s ") && wrapped.starts_with("'/"),
            "{wrapped}"
        );
        assert_eq!(run(&wrapped), run(command), "{command}\nwrapped: {wrapped}");
    }
    let secret = wrap("cat $(echo ~/.ssh/id_rsa)");
    let (status, stdout) = run(&secret);
    assert_ne!(status, Some(0), "{secret}: {stdout}");
    assert!(!stdout.contains('k'), "{stdout}");
    assert_eq!(
        run(&wrap("cat $(echo notes.txt)")),
        (Some(0), "n".to_string())
    );
}

/// In sandbox mode srt, its node_modules tree and node are write-denied
/// (an agent that replaced them would run every wrapped command outside
/// the sandbox); an srt that is a Node script runs under the node the hook
/// finds, named absolutely, or is not used.
#[test]
fn sandbox_mode_protects_srt_and_runs_node_by_its_path() {
    use std::os::unix::fs::PermissionsExt;
    let home = sandbox_home();
    let h = home.path();
    let tree = h.join("tools/node_modules/srt");
    std::fs::create_dir_all(&tree).unwrap();
    let js = tree.join("cli.js");
    std::fs::write(&js, "#!/usr/bin/env node\n").unwrap();
    let node = h.join("bin/node");
    std::fs::create_dir_all(h.join("bin")).unwrap();
    std::fs::write(&node, "#!/bin/sh\n").unwrap();
    for f in [&js, &node] {
        std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let js = js.to_string_lossy().into_owned();
    let path = format!("{}:/usr/bin:/bin", h.join("bin").display());
    let run = |input: Value, tool: &str| {
        sandboxed(h, &["--yolo"], Some(&js), &path, &event(h, tool, input))
    };
    let out = run(json!({"command": "cat $F"}), "Bash");
    let answer: Value = serde_json::from_str(&out).unwrap();
    let command = answer["hookSpecificOutput"]["updatedInput"]["command"]
        .as_str()
        .unwrap();
    assert!(
        command.starts_with(&format!(
            "{} {} -s ",
            sh_quote(&node.to_string_lossy()),
            sh_quote(&js)
        )),
        "{command}"
    );
    for (tool, input) in [
        ("Write", json!({"file_path": js, "content": "x"})),
        (
            "Write",
            json!({"file_path": h.join("tools/node_modules/commander/index.js"), "content": "x"}),
        ),
        (
            "Edit",
            json!({"file_path": node, "old_string": "a", "new_string": "b"}),
        ),
        ("Bash", json!({"command": format!("cp /tmp/evil {js}")})),
        (
            "Bash",
            json!({"command": "echo x > tools/node_modules/srt/cli.js"}),
        ),
    ] {
        let out = run(input.clone(), tool);
        assert_eq!(decision(&out), "deny", "{tool} {input}: {out}");
    }
    let out = sandboxed(
        h,
        &[],
        Some(&js),
        "/nonexistent",
        &event(h, "Bash", json!({"command": "cat $F"})),
    );
    assert_eq!(decision(&out), "ask", "{out}");
    assert!(out.contains("node is not on PATH"), "{out}");
}

/// Where Claude Code's own sandbox is on for the mode, srt cannot start
/// inside it (measured: srt inside srt fails with `listen EPERM`), so the
/// mode does not wrap there and answers as without it.
#[test]
fn sandbox_mode_does_not_wrap_inside_claude_codes_own_sandbox() {
    let home = sandbox_home();
    let h = home.path();
    let srt = fake_srt(h);
    let config = h.join(CONFIG);
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str("\n[sandbox_overrides.yolo]\nenabled = true\n");
    std::fs::write(&config, text).unwrap();
    let e = event(h, "Bash", json!({"command": "cat $F"}));
    let out = sandboxed(h, &["--yolo"], Some(&srt), "/bin", &e);
    assert_eq!(decision(&out), "deny", "{out}");
    assert!(out.contains("Claude Code's own sandbox is on"), "{out}");
    let out = sandboxed(h, &[], Some(&srt), "/bin", &e);
    assert_eq!(decision(&out), "allow", "{out}");
}

/// A hard link made before the session to a protected file is that file,
/// for Bash and the file tools, through the binary as Claude Code runs it.
#[test]
fn a_hard_link_to_a_protected_file_is_denied() {
    let home = policy_home();
    let h = home.path();
    std::fs::hard_link(h.join(".ssh/id_rsa"), h.join("k")).unwrap();
    let k = h.join("k").to_string_lossy().into_owned();
    for (tool, input) in [
        ("Bash", json!({"command": "cat k"})),
        ("Read", json!({"file_path": k})),
        ("Grep", json!({"pattern": "x", "path": k})),
        ("Write", json!({"file_path": k, "content": ""})),
    ] {
        let (_, stdout, _) = hook(h, &[], &event(h, tool, input.clone()));
        assert_eq!(decision(&stdout), "deny", "{tool} {input}: {stdout}");
        assert!(stdout.contains("hard link"), "{stdout}");
    }
    let (_, stdout, _) = hook(
        h,
        &[],
        &event(h, "Bash", json!({"command": "cat notes.txt"})),
    );
    assert_eq!(stdout, "");
}

/// A HOME whose bash rules are `bash` (a fragment's JSON).
fn rules_home(bash: &str) -> tempfile::TempDir {
    let home = policy_home();
    std::fs::write(home.path().join(BASH_FRAGMENT), bash).expect("the fragment");
    home
}

const MEANING_RULES: &str = r#"{"deny": ["rm -rf", "git push --force"], "ask": ["git push"]}"#;

fn reason(stdout: &str) -> String {
    let answer: Value = serde_json::from_str(stdout).expect("the answer is JSON");
    answer["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn bash_deny_rules_are_matched_by_meaning() {
    let home = rules_home(MEANING_RULES);
    let h = home.path();
    for command in [
        "rm -fr x",
        "rm -r -f x",
        "rm --recursive --force x",
        "rm -Rf x",
        "sudo rm -rf x",
        "bash -c 'rm -fr x'",
        "git push --force origin main",
        "git push origin main -f",
        "git push origin +main",
    ] {
        let e = event(h, "Bash", json!({ "command": command }));
        let (status, stdout, stderr) = hook(h, &[], &e);
        assert_eq!((status, stderr.as_str()), (0, ""), "{command}");
        assert_eq!(decision(&stdout), "deny", "{command}: {stdout}");
    }
    let e = event(h, "Bash", json!({"command": "rm -fr x"}));
    assert_eq!(
        reason(&hook(h, &[], &e).1),
        "twsrt: `rm -fr x` falls under the policy's bash deny rule 'rm -rf' (options and operands matched by meaning)"
    );
}

#[test]
fn what_is_not_the_rule_is_not_denied_by_it() {
    let home = rules_home(MEANING_RULES);
    let h = home.path();
    for command in ["rm -r x", "rmdir -rf x", "rm -- -rf"] {
        let e = event(h, "Bash", json!({ "command": command }));
        assert_eq!(hook(h, &[], &e).1, "", "{command}");
    }
    // `--force-with-lease` is its own option (git push -h), under the ask rule.
    let e = event(
        h,
        "Bash",
        json!({"command": "git push --force-with-lease origin main"}),
    );
    let out = hook(h, &[], &e).1;
    assert_eq!(decision(&out), "ask", "{out}");
    assert_eq!(
        reason(&out),
        "twsrt: `git push --force-with-lease origin main` falls under the policy's bash ask rule 'git push' (options and operands matched by meaning)"
    );
    assert_eq!(decision(&hook(h, &["--yolo"], &e).1), "deny");
}

#[test]
fn an_undetermined_word_that_may_complete_a_deny_rule_is_asked_about() {
    let home = rules_home(MEANING_RULES);
    let h = home.path();
    let e = event(h, "Bash", json!({"command": "rm -f $F x"}));
    let out = hook(h, &[], &e).1;
    assert_eq!(decision(&out), "ask", "{out}");
    assert_eq!(
        reason(&out),
        "twsrt: cannot tell whether `rm -f $F x` falls under the policy's bash deny rule 'rm -rf': `$F` is not known before it runs"
    );
    assert_eq!(decision(&hook(h, &["--yolo"], &e).1), "deny");
}

#[test]
fn sandbox_mode_does_not_wrap_what_a_bash_rule_asks_about() {
    let home = rules_home(MEANING_RULES);
    let h = home.path();
    let status = Command::new(env!("CARGO_BIN_EXE_twsrt"))
        .args(["-c", &h.join(CONFIG).to_string_lossy()])
        .args(["generate", "all", "-w"])
        .env("HOME", h)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("twsrt runs");
    assert!(status.success());
    let srt = fake_srt(h);
    // The words of `rm -rf` are not in it, so only the meaning match holds it.
    let e = event(h, "Bash", json!({"command": "rm -f $F x"}));
    let out = sandboxed(h, &[], Some(&srt), "/bin", &e);
    assert_eq!(decision(&out), "ask", "{out}");
    assert!(!out.contains("updatedInput"), "{out}");
    let out = sandboxed(h, &["--yolo"], Some(&srt), "/bin", &e);
    assert_eq!(decision(&out), "deny", "{out}");
}
