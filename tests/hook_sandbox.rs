//! The hook's sandbox mode with the real srt: where a wrapped command runs
//! and what it can reach (issue 43).

use std::ffi::OsStr;
use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::support::*;

const SANDBOX_TARGETS: &str =
    "\n[targets]\nclaude_settings = \"~/.claude/settings.full.json\"\nclaude_hook = \"sandbox\"\n";

/// The policy: the project `~/work` writable, `~/.ssh` unreadable, one
/// domain allowed and one denied.
pub const WORK_POLICY: &str = r#"{
  "filesystem": {"denyRead": ["~/.ssh"], "allowWrite": ["~/work"]},
  "network": {"allowedDomains": ["github.com"], "deniedDomains": ["evil.com"]}
}"#;

/// A HOME with a project `work` (settings in `work/.claude`, a subfolder
/// `work/sub`) and the outputs written by `generate -w`.
pub fn sandbox_home() -> tempfile::TempDir {
    let config = format!("{BASE_CONFIG}{SANDBOX_TARGETS}");
    let home = planted_home(&[
        (CONFIG, config.as_str()),
        (SRT_FRAGMENT, WORK_POLICY),
        (BASH_FRAGMENT, BASE_BASH),
        (".ssh/id_rsa", "k"),
        ("work/.claude/settings.json", "{}"),
        ("work/sub/notes.txt", "n"),
    ]);
    let out = Command::new(env!("CARGO_BIN_EXE_twsrt"))
        .args(["-c", &home.path().join(CONFIG).to_string_lossy()])
        .args(["generate", "all", "-w"])
        .env("HOME", home.path())
        .output()
        .expect("twsrt runs");
    assert!(out.status.success(), "{out:?}");
    home
}

/// The hook's answer (stdout) to a Bash `command` run in `cwd`, in sandbox
/// mode with the real `srt`, `env` added.
pub fn answer(home: &Path, cwd: &Path, srt: &str, env: &[(&str, &Path)], command: &str) -> String {
    answer_with(home, cwd, &["--sandbox"], Some(srt), env, command)
}

/// [`answer`] with the hook's `flags` and srt (`TWSRT_SRT`) if any.
pub fn answer_with(
    home: &Path,
    cwd: &Path,
    flags: &[&str],
    srt: Option<&str>,
    env: &[(&str, &Path)],
    command: &str,
) -> String {
    let mut vars: Vec<(&str, &OsStr)> = env.iter().map(|(k, v)| (*k, v.as_os_str())).collect();
    vars.extend(srt.map(|s| ("TWSRT_SRT", OsStr::new(s))));
    hook_answer(home, cwd, flags, &vars, "Bash", json!({"command": command}))
}

/// The command the hook runs instead of `command` (its answer must be a
/// wrap).
pub fn wrapped(home: &Path, cwd: &Path, srt: &str, env: &[(&str, &Path)], command: &str) -> String {
    let out = answer(home, cwd, srt, env, command);
    let answer: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{command}: {out}"));
    let o = &answer["hookSpecificOutput"];
    assert_eq!(o["permissionDecision"], "allow", "{command}: {out}");
    o["updatedInput"]["command"]
        .as_str()
        .expect("a command")
        .to_string()
}

/// `line` run as Claude Code's Bash tool runs it (`eval '<line>'`) in `cwd`:
/// (status, stdout, the directory the shell ends in).
pub fn run_as_claude(home: &Path, cwd: &Path, line: &str) -> (Option<i32>, String, String) {
    let quoted = format!("'{}'", line.replace('\'', "'\\''"));
    let out = Command::new("bash")
        .args(["-c", &format!("eval {quoted}; printf '\\n%s' \"$PWD\"")])
        .current_dir(cwd)
        .env("HOME", home)
        .output()
        .expect("bash runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let (stdout, pwd) = text.rsplit_once('\n').unwrap_or((&text, ""));
    (out.status.code(), stdout.to_string(), pwd.to_string())
}

/// From a subfolder of the project, a wrapped command cannot write the
/// project's `.claude/settings*.json`: srt starts in the project root
/// (`$CLAUDE_PROJECT_DIR`), where it anchors those relative entries, and
/// the command still runs in the subfolder, which the agent's shell does
/// not leave. Started in the subfolder (no project directory known), srt
/// lets the same write through: what the root start is for.
#[test]
fn a_wrapped_command_in_a_subfolder_cannot_write_the_project_settings() {
    let Some(srt) = crate::srt_real::srt() else {
        return;
    };
    let home = sandbox_home();
    let h = home.path();
    let (work, sub) = (h.join("work"), h.join("work/sub"));
    let settings = work.join(".claude/settings.json");
    let local = work.join(".claude/settings.local.json");
    let attack = "D=..; echo '{\"disableAllHooks\":true}' > $D/.claude/settings.local.json; \
                  echo '{\"env\":{\"HOME\":\"/tmp\"}}' > $D/.claude/settings.json; \
                  pwd > here.txt; cat notes.txt";
    let line = wrapped(h, &sub, &srt, &[("CLAUDE_PROJECT_DIR", &work)], attack);
    let (_, stdout, pwd) = run_as_claude(h, &sub, &line);
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), "{}", "{line}");
    assert!(!local.exists(), "{line}");
    assert_eq!(stdout, "n", "{line}");
    assert_eq!(pwd, sub.to_string_lossy());
    let here = std::fs::read_to_string(sub.join("here.txt")).expect("written in the subfolder");
    assert_eq!(here.trim_end(), sub.to_string_lossy());

    let unanchored = wrapped(h, &sub, &srt, &[], attack);
    run_as_claude(h, &sub, &unanchored);
    assert!(local.exists(), "srt anchors at its start: {unanchored}");
}

/// The decision in a hook answer, `pass` for none.
pub fn decision(out: &str) -> String {
    decision_in(out).unwrap_or_else(|| "pass".into())
}

fn wrapped_default(
    home: &Path,
    cwd: &Path,
    srt: &str,
    env: &[(&str, &Path)],
    command: &str,
) -> String {
    let out = answer_with(home, cwd, &[], Some(srt), env, command);
    let answer: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{command}: {out}"));
    answer["hookSpecificOutput"]["updatedInput"]["command"]
        .as_str()
        .unwrap_or_else(|| panic!("{command}: {out}"))
        .to_string()
}

/// Without `--sandbox` or `--analysis` (`claude_hook = true`) the hook runs
/// in the sandbox mode wherever srt is usable: every Bash command the
/// analysis passes runs inside srt but the inert ones, which run as
/// written; a denied one stays denied. `--analysis` keeps the analysis
/// alone, and without a usable srt the default answers as it does.
#[test]
fn the_default_runs_every_command_but_the_inert_ones_inside_srt() {
    let Some(srt) = crate::srt_real::srt() else {
        return;
    };
    let home = sandbox_home();
    let h = home.path();
    let work = h.join("work");
    let env = [("CLAUDE_PROJECT_DIR", work.as_path())];
    let default = |command: &str| answer_with(h, &work, &[], Some(&srt), &env, command);
    for command in [
        "cat sub/notes.txt",
        "grep -r n sub",
        "python3 -c 'print(1)'",
    ] {
        let out = default(command);
        assert_eq!(decision(&out), "allow", "{command}: {out}");
        assert!(out.contains("runs inside srt"), "{command}: {out}");
    }
    for command in [
        "cd sub",
        "pwd",
        "ls -la sub",
        "echo hi && wc -l sub/notes.txt",
    ] {
        assert_eq!(default(command), "", "{command}");
    }
    assert_eq!(decision(&default("cat ~/.ssh/id_rsa")), "deny");
    // The wrapped read runs, inside srt, with the same output.
    let line = wrapped_default(h, &work, &srt, &env, "cat sub/notes.txt");
    assert_eq!(run_as_claude(h, &work, &line).1, "n");
    let secret = wrapped_default(h, &work, &srt, &env, "cat $(echo ~/.ssh/id_rsa)");
    let (_, stdout, _) = run_as_claude(h, &work, &secret);
    assert!(!stdout.contains('k'), "{secret}: {stdout}");

    let analysis =
        |command: &str| answer_with(h, &work, &["--analysis"], Some(&srt), &env, command);
    assert_eq!(analysis("cat sub/notes.txt"), "");
    assert_eq!(decision(&analysis("cat $(echo x)")), "ask");
    let missing = Some("/nonexistent/srt");
    let without = answer_with(h, &work, &[], missing, &env, "cat $(echo x)");
    assert_eq!(decision(&without), "ask", "{without}");
    assert!(!without.contains("sandbox mode"), "{without}");
    assert_eq!(
        answer_with(h, &work, &[], missing, &env, "cat sub/notes.txt"),
        ""
    );
}

/// Ordinary work in the project (issue 43, What to build 6): activating a
/// virtualenv, sourcing a project env file, the project's own scripts and
/// configure/make are not asked about in full mode with the sandbox mode:
/// they run inside srt, and work there.
#[test]
fn ordinary_work_runs_inside_srt_without_a_question() {
    let Some(srt) = crate::srt_real::srt() else {
        return;
    };
    let home = sandbox_home();
    let h = home.path();
    let work = h.join("work");
    for (rel, text) in [
        (".venv/bin/activate", "export VENV=on\n"),
        ("env.sh", "export PROJECT=p\n"),
        ("scripts/test.sh", "echo tests ran > sub/result.txt\n"),
        ("configure", "printf 'all:\\n\\t@echo made\\n' > Makefile\n"),
        ("a.c", "int x;\n"),
    ] {
        std::fs::create_dir_all(work.join(rel).parent().unwrap()).unwrap();
        std::fs::write(work.join(rel), text).unwrap();
    }
    let env = [("CLAUDE_PROJECT_DIR", work.as_path())];
    for (command, want) in [
        ("source .venv/bin/activate && echo $VENV", "on\n"),
        (". ./env.sh && echo $PROJECT", "p\n"),
        ("bash scripts/test.sh && cat sub/result.txt", "tests ran\n"),
        ("sh ./configure --prefix=/usr && make -s", "made\n"),
        ("for f in *.c; do wc -l \"$f\"; done", "1 a.c\n"),
    ] {
        let line = wrapped_default(h, &work, &srt, &env, command);
        let (status, stdout, _) = run_as_claude(h, &work, &line);
        assert_eq!(
            (status, stdout.as_str()),
            (Some(0), want),
            "{command}\n{line}"
        );
    }
}

/// `claude_hook = "analysis"` installs the entry with `--analysis`, in both
/// mode files.
#[test]
fn the_analysis_key_installs_the_entry_with_analysis() {
    let config = format!(
        "{BASE_CONFIG}\n[targets]\nclaude_settings = \"~/.claude/settings.full.json\"\nclaude_hook = \"analysis\"\n"
    );
    let home = planted_home(&[
        (CONFIG, config.as_str()),
        (SRT_FRAGMENT, WORK_POLICY),
        (BASH_FRAGMENT, BASE_BASH),
    ]);
    let h = home.path();
    for (args, file, tail) in [
        (
            &["generate", "-w", "claude"][..],
            CLAUDE_TARGET,
            " hook claude --analysis",
        ),
        (
            &["generate", "-w", "--yolo", "claude"][..],
            CLAUDE_YOLO,
            " hook claude --analysis --yolo",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_twsrt"))
            .args(["-c", &h.join(CONFIG).to_string_lossy()])
            .args(args)
            .env("HOME", h)
            .output()
            .expect("twsrt runs");
        assert!(out.status.success(), "{out:?}");
        let doc: Value =
            serde_json::from_str(&std::fs::read_to_string(h.join(file)).unwrap()).unwrap();
        let command = doc["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap();
        assert!(command.ends_with(tail), "{command}");
    }
}
