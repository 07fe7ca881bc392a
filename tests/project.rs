//! `generate claude --project`: the per-project files in `.twsrt`, written
//! all together or not at all, and never anything outside that directory.

use crate::support::*;

const CLAUDE_ONLY: &str = "\n[targets]\nclaude_settings = \"~/.claude/settings.full.json\"\n";
const GLOBAL: &str = "{\"model\": \"opus\", \"hooks\": {\"Stop\": []}}\n";
const D_SRT: &str = ".twsrt/srt-settings.json";
const D_BASH: &str = ".twsrt/bash-rules.json";
const D_CLAUDE: &str = ".twsrt/claude-settings.json";
const D_IGNORE: &str = ".twsrt/.gitignore";

fn project() -> Test {
    Test::with_policy()
        .config_append(CLAUDE_ONLY)
        .file(CLAUDE_TARGET, GLOBAL)
}

const WROTE: &str = "Wrote canonical: {HOME}/.twsrt/srt-settings.json\n\
     Wrote canonical: {HOME}/.twsrt/bash-rules.json\n\
     Wrote: {HOME}/.twsrt/claude-settings.json\n";

#[test]
fn write_puts_four_files_in_the_project_dir_and_only_the_dir_on_stdout() {
    let before = project().snapshot();
    let out = project()
        .args(&["generate", "claude", "--project", "-w"])
        .stdout("{HOME}/.twsrt\n")
        .stderr(WROTE)
        .run();
    assert_eq!(out.read(D_IGNORE), "*\n");
    let srt = out.read(D_SRT);
    let home = out.home().display().to_string();
    assert!(srt.contains(&format!("\"{home}/.twsrt\"")), "{srt}");
    // The global outputs stay write-denied in the project's policy.
    assert!(srt.contains("\"~/.srt-settings.json\""), "{srt}");
    let claude = out.read(D_CLAUDE);
    assert!(
        claude.starts_with("{\n  \"model\": \"opus\",\n  \"hooks\""),
        "{claude}"
    );
    assert!(
        claude.contains(&format!("\"Edit(/{home}/.twsrt)\"")),
        "{claude}"
    );
    assert!(out.read(D_BASH).contains("\"rm\""));
    // Nothing outside .twsrt changed: no canonical output, no anchor.
    let mut after = out.snapshot();
    after.retain(|path, _| !path.starts_with(".twsrt"));
    assert_eq!(after, before);
}

#[test]
fn the_preview_lists_the_project_files_and_writes_nothing() {
    project()
        .args(&["generate", "--project", "claude"])
        .any_stdout()
        .stderr(&format!(
            "Would write canonical: {{HOME}}/.twsrt/srt-settings.json\n\
             Would write canonical: {{HOME}}/.twsrt/bash-rules.json\n\
             Would write agent target: {{HOME}}/.twsrt/claude-settings.json\n{PREVIEW_END}"
        ))
        .unchanged()
        .run();
}

#[test]
fn a_rename_failing_midway_leaves_no_project_file_and_no_dir() {
    for fail_at in 0..4 {
        project()
            .args(&["generate", "claude", "--project", "-w"])
            .env("TWSRT_FAULT_COMMIT", &fail_at.to_string())
            .status(1)
            .stderr_contains("injected fault: rename refused")
            .unchanged()
            .run();
    }
}

/// 3.3.3 crashes on `-w` (and its preview passes); both are this error here.
#[test]
fn a_file_where_the_dir_belongs_fails_before_anything_is_written() {
    for args in [
        &["generate", "claude", "--project", "-w"][..],
        &["generate", "--project"][..],
    ] {
        project()
            .file(".twsrt", "not a dir")
            .args(args)
            .status(1)
            .stderr_contains("Error: {HOME}/.twsrt: is not a directory")
            .unchanged()
            .run();
    }
}

#[test]
fn the_dir_is_in_the_real_path_of_the_working_directory() {
    let out = project()
        .dir("real/proj")
        .symlink("link", "real/proj")
        .wrapper(&["sh", "-c", "cd \"$HOME/link\" && exec \"$0\" \"$@\""])
        .args(&["generate", "claude", "--project", "-w"])
        .stdout("{HOME}/real/proj/.twsrt\n")
        .any_stderr()
        .run();
    assert_eq!(out.read("real/proj/.twsrt/.gitignore"), "*\n");
}

#[test]
fn every_refusal_writes_nothing() {
    for (args, fact) in [
        (
            &["generate", "codex", "--project", "-w"][..],
            "agent 'codex' is not supported",
        ),
        (
            &["generate", "copilot", "--project", "-w"][..],
            "agent 'copilot' is not supported",
        ),
        (
            &["generate", "gemini", "--project", "-w"][..],
            "agent 'gemini' is not supported",
        ),
        (
            &["generate", "nosuchagent", "--project", "-w"][..],
            "unknown agent 'nosuchagent'",
        ),
        (
            &["generate", "--yolo", "--project", "-w"][..],
            "{HOME}/.claude/settings.yolo.json: not found",
        ),
    ] {
        project()
            .args(args)
            .status(1)
            .stderr_contains(fact)
            .unchanged()
            .run();
    }
}

/// 3.3.3 crashes with a traceback on such a global file; the port refuses it.
#[test]
fn a_global_target_the_merge_cannot_use_is_an_error_naming_it() {
    project()
        .file(CLAUDE_TARGET, "{\"permissions\": []}\n")
        .args(&["generate", "claude", "--project", "-w"])
        .status(1)
        .stderr(
            "Error: {HOME}/.claude/settings.full.json: `permissions` is not an object, so \
             twsrt cannot merge into it; fix it first\n",
        )
        .unchanged()
        .run();
}

#[test]
fn help_names_the_flag() {
    Test::new()
        .args(&["generate", "--help"])
        .stdout_contains("--project")
        .run();
}

#[test]
fn a_working_directory_that_is_not_utf8_is_refused() {
    let out = project()
        .wrapper(&[
            "sh",
            "-c",
            "d=\"$HOME/$(printf 'p\\377')\" && mkdir \"$d\" && cd \"$d\" && exec \"$0\" \"$@\"",
        ])
        .args(&["generate", "claude", "--project", "-w"])
        .status(1)
        .stderr_contains("/.twsrt: is not valid UTF-8, so no deny rule can name it")
        .run();
    let entries: Vec<_> = std::fs::read_dir(out.home()).unwrap().flatten().collect();
    assert!(entries.iter().all(|e| e.file_name() != ".twsrt"));
    let odd = entries.iter().find(|e| e.file_name().to_str().is_none());
    let odd = odd.expect("the test's own directory").path();
    assert_eq!(
        std::fs::read_dir(odd).unwrap().count(),
        0,
        "nothing written"
    );
}
