//! Nothing the agent can write switches the guard off (issue 43): the hook
//! denies every write, by a file tool or by Bash, to a file that can switch
//! it off or change what the next Claude Code launch loads, and nothing
//! else around them.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::support::*;

/// A HOME with the base policy and a project `proj` (the working directory).
fn world() -> tempfile::TempDir {
    planted_home(&[
        (CONFIG, BASE_CONFIG),
        (SRT_FRAGMENT, BASE_SRT),
        (BASH_FRAGMENT, BASE_BASH),
        ("proj/notes.txt", "n"),
        ("proj/.claude/settings.json", "{}"),
    ])
}

/// The hook's decision on one tool call in `home/proj` (`None`: it passes).
fn decide(home: &Path, env: &[(&str, &str)], tool: &str, input: Value) -> Option<String> {
    hook_decision(home, &home.join("proj"), &[], env, tool, input)
}

#[test]
fn a_write_that_could_switch_the_guard_off_is_denied() {
    let home = world();
    let h = home.path();
    let p = |rel: &str| h.join(rel).to_string_lossy().into_owned();
    let off = json!({"disableAllHooks": true}).to_string();
    let exe = env!("CARGO_BIN_EXE_twsrt");
    let write = |path: String| ("Write", json!({"file_path": path, "content": off}));
    let bash = |command: &str| ("Bash", json!({"command": command}));
    let denied = [
        write(p("proj/.claude/settings.local.json")),
        write(p("proj/.claude/settings.json")),
        write(p("proj/sub/.claude/settings.local.json")),
        write(p(".claude/settings.json")),
        write(p(".claude/settings.local.json")),
        write(p(".claude/agents/a.md")),
        write(p("proj/.claude/hooks/h.sh")),
        write(p("proj/.claude/commands/c.md")),
        write(p("proj/.claude/skills/s/SKILL.md")),
        write(p(".claude.json")),
        write(p("proj/.mcp.json")),
        write("/etc/claude-code/managed-settings.json".into()),
        write("/etc/claude-code/managed-settings.d/99-off.json".into()),
        write(exe.into()),
        write(p(".config/twsrt/srt/new.jsonc")),
        (
            "Edit",
            json!({"file_path": p("proj/.claude/settings.json"), "old_string": "{}", "new_string": off}),
        ),
        (
            "MultiEdit",
            json!({"file_path": p("proj/.claude/settings.json"), "edits": []}),
        ),
        bash(&format!("echo '{off}' > .claude/settings.local.json")),
        bash("cp /tmp/x .claude/settings.local.json"),
        bash("mkdir w && ln -s /tmp/elsewhere w/.claude"),
        bash("mv .claude .claude.old"),
        bash(&format!("printf x > {exe}")),
        bash("echo '{}' >> ~/.claude.json"),
    ];
    for (tool, input) in denied {
        assert_eq!(
            decide(h, &[], tool, input.clone()).as_deref(),
            Some("deny"),
            "{tool} {input}"
        );
    }
    let passed = [
        write(p("proj/notes2.txt")),
        write(p(".claude/plans/plan.md")),
        write(p("proj/.claude/notes.md")),
        (
            "Read",
            json!({"file_path": p("proj/.claude/settings.json")}),
        ),
        bash("cat .claude/settings.json"),
        bash("echo x > notes.txt"),
    ];
    for (tool, input) in passed {
        assert_eq!(decide(h, &[], tool, input.clone()), None, "{tool} {input}");
    }
}

#[test]
fn claude_config_dir_is_guarded_where_the_hook_sees_it() {
    let home = world();
    let h = home.path();
    let dir = h.join("cc");
    let file = dir.join("settings.json").to_string_lossy().into_owned();
    let input = json!({"file_path": file, "content": "{}"});
    assert_eq!(decide(h, &[], "Write", input.clone()), None);
    let env = [("CLAUDE_CONFIG_DIR", dir.to_str().expect("utf-8"))];
    assert_eq!(decide(h, &env, "Write", input).as_deref(), Some("deny"));
}

/// srt's compiled denyWrite with `[targets]` ending in `hook`.
fn srt_deny_write(hook: &str) -> Vec<String> {
    let out = Test::with_policy()
        .config_append(&format!(
            "[targets]\nclaude_settings = \"~/.claude/settings.full.json\"\n{hook}"
        ))
        .args(&["show", "srt"])
        .any_stdout()
        .run();
    let srt: Value = serde_json::from_str(&out.stdout).expect("srt JSON");
    srt["filesystem"]["denyWrite"]
        .as_array()
        .expect("a denyWrite list")
        .iter()
        .filter_map(|v| v.as_str().map(String::from))
        .collect()
}

#[test]
fn with_the_hook_srt_write_denies_the_project_settings_and_the_hook_program() {
    let exe = std::fs::canonicalize(env!("CARGO_BIN_EXE_twsrt")).expect("the binary");
    let exe = exe.to_string_lossy().into_owned();
    for hook in ["claude_hook = true\n", "claude_hook = \"sandbox\"\n"] {
        let got = srt_deny_write(hook);
        for rule in [".claude/settings.json", ".claude/settings.local.json", &exe] {
            assert!(
                got.iter().any(|g| g == rule),
                "{hook}: {rule} not in {got:?}"
            );
        }
    }
    let got = srt_deny_write("");
    assert!(
        !got.iter().any(|g| g.starts_with(".claude/") || *g == exe),
        "{got:?}"
    );
}

/// Measured with the real srt: a sandboxed command writes the project's
/// settings without the compiled implied rules, and cannot with them.
#[test]
fn a_sandboxed_command_cannot_write_the_project_settings() {
    let Some(srt) = crate::srt_real::srt() else {
        return;
    };
    let work = tempfile::tempdir().expect("a project");
    let claude = work.path().join(".claude");
    std::fs::create_dir_all(&claude).expect(".claude");
    std::fs::write(claude.join("settings.json"), "{}").expect("settings");
    let write = "echo '{\"disableAllHooks\":true}' > .claude/settings.local.json; \
                 echo '{\"env\":{\"HOME\":\"/tmp\"}}' > .claude/settings.json";
    let compiled: Vec<String> = srt_deny_write("claude_hook = true\n")
        .into_iter()
        .filter(|rule| rule.starts_with(".claude/"))
        .collect();
    let run = |deny: &[String]| {
        let settings = json!({
            "network": {"allowedDomains": [], "deniedDomains": []},
            "filesystem": {"denyRead": [], "allowWrite": ["."], "denyWrite": deny},
        });
        let file = work.path().join("srt.json");
        std::fs::write(&file, settings.to_string()).expect("srt settings");
        let _ = Command::new(&srt)
            .args(["-s", &file.to_string_lossy(), "-c", write])
            .current_dir(work.path())
            .output()
            .expect("srt runs");
        let local = std::fs::read_to_string(claude.join("settings.local.json")).ok();
        let project = std::fs::read_to_string(claude.join("settings.json")).expect("settings");
        (local, project)
    };
    let (local, project) = run(&compiled);
    assert_eq!((local, project.as_str()), (None, "{}"));
    let (local, project) = run(&[]);
    assert!(local.is_some_and(|l| l.contains("disableAllHooks")));
    assert!(project.contains("HOME"), "{project}");
}
