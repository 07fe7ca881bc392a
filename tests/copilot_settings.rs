//! `[targets] copilot_settings`: the URL lists in Copilot CLI's own
//! settings.json, next to the flags file. Preview, `-w` (selective merge,
//! mode kept, all or nothing), `diff` (clean, drift with directions,
//! missing) and yolo.

use std::os::unix::fs::PermissionsExt;

use crate::support::*;

const SETTINGS: &str = ".copilot/settings.json";
const SETTINGS_YOLO: &str = ".copilot/settings.yolo.json";

const TARGETS: &str = "\n[targets]\ncopilot_output = \"~/flags/copilot.txt\"\n\
                       copilot_settings = \"~/.copilot/settings.json\"\n";

/// The managed keys for the base policy (github.com allowed, evil.com denied).
const MANAGED: &str = "{\n  \"allowedUrls\": [\n    \"github.com\"\n  ],\n  \"deniedUrls\": [\n    \
                       \"evil.com\",\n    \"http://evil.com\"\n  ]\n}";

/// A settings file of the user's own: a comment, a trailing comma, a token.
const MINE: &str = "// mine\n{\n  \"theme\": \"dim\", // keep\n  \
                    \"allowedUrls\": [\"old.example\"],\n  \
                    \"proxyUrl\": \"http://me:TOKEN123@proxy:3128\",\n}\n";

fn policy() -> Test {
    Test::with_policy().config_append(TARGETS)
}

/// The base policy with both Copilot files written by `generate -w`.
fn written() -> Test {
    policy()
        .args(&["generate", "copilot", "-w"])
        .any_stderr()
        .run()
        .then()
}

fn edit(t: &Test, rel: &str, from: &str, to: &str) {
    let path = t.home().join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{from:?} not in {text}");
    std::fs::write(path, text.replace(from, to)).unwrap();
}

#[test]
fn the_preview_shows_the_flags_and_the_managed_keys_under_their_files() {
    let flags = "--allow-tool 'shell' \\\n--allow-tool 'read' \\\n--allow-tool 'edit' \\\n\
                 --allow-tool 'write' \\\n--allow-url 'github.com' \\\n--deny-url 'evil.com' \\\n\
                 --deny-url 'http://evil.com' \\\n\
                 --deny-tool 'shell(git push:*)' \\\n--deny-tool 'shell(rm:*)' \\";
    policy()
        .file(SETTINGS, MINE)
        .args(&["generate", "copilot"])
        .stdout(&format!(
            "--- flags: {{HOME}}/flags/copilot.txt ---\n{flags}\n\
             --- settings: {{HOME}}/.copilot/settings.json (managed keys) ---\n{MANAGED}\n"
        ))
        .stderr(&format!(
            "{NO_ASK_TIER}{WOULD_WRITE_CANONICAL}Would write agent target: {{HOME}}/flags/copilot.txt\n\
             Would write agent target: {{HOME}}/.copilot/settings.json\n{PREVIEW_END}"
        ))
        .lacks("TOKEN123")
        .unchanged()
        .run();
}

#[test]
fn write_merges_the_lists_and_keeps_every_other_byte_and_the_mode() {
    let out = policy()
        .file(SETTINGS, MINE)
        .mode(SETTINGS, 0o640)
        .args(&["generate", "copilot", "-w"])
        .stdout_contains("Wrote: {HOME}/.copilot/settings.json")
        .any_stdout()
        .any_stderr()
        .lacks("TOKEN123")
        .run();
    assert_eq!(
        out.read(SETTINGS),
        "// mine\n{\n  \"theme\": \"dim\", // keep\n  \"allowedUrls\": [\n    \"github.com\"\n  ],\n  \
         \"proxyUrl\": \"http://me:TOKEN123@proxy:3128\",\n  \"deniedUrls\": [\n    \"evil.com\",\n    \
         \"http://evil.com\"\n  ],\n}\n"
    );
    let mode = std::fs::metadata(out.path(SETTINGS))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o640);
    out.then()
        .args(&["diff", "copilot"])
        .stdout_contains("copilot: no drift")
        .any_stdout()
        .any_stderr()
        .unchanged()
        .run();
}

#[test]
fn a_new_settings_file_is_the_managed_keys_alone() {
    let out = written();
    assert_eq!(
        std::fs::read_to_string(out.home().join(SETTINGS)).unwrap(),
        format!("{MANAGED}\n")
    );
}

#[test]
fn a_malformed_settings_file_fails_the_whole_write_and_names_its_position() {
    policy()
        .file(
            SETTINGS,
            "{\n  \"proxyUrl\": \"http://me:TOKEN123@p\",\n  \"deniedUrls\": [\n",
        )
        .args(&["generate", "copilot", "-w"])
        .status(1)
        .stderr_contains("Error: {HOME}/.copilot/settings.json:3:")
        .stderr_contains("Unterminated array; fix or remove the Copilot settings file first")
        .any_stderr()
        .lacks("TOKEN123")
        // Not even the flags file, nor the canonical outputs: all or nothing.
        .unchanged()
        .run();
}

#[test]
fn diff_reports_each_settings_entry_with_its_direction() {
    let t = written();
    edit(
        &t,
        SETTINGS,
        "\"github.com\"",
        "\"github.com\", \"wide.example\"",
    );
    edit(
        &t,
        SETTINGS,
        "\"http://evil.com\"",
        "\"http://evil.com\", \"more.example\"",
    );
    t.args(&["diff", "copilot"])
        .status(1)
        .stdout(
            "srt canonical: no drift\nbash canonical: no drift\n\
             copilot: 0 missing, 2 extra  {HOME}/flags/copilot.txt\n  \
             - allowedUrls:wide.example\n  - deniedUrls:more.example\n\n\
             + missing from target   - in target, not in sources\n",
        )
        .stderr_contains("copilot: 1 of 2 differences widen")
        .any_stderr()
        .unchanged()
        .run();
}

#[test]
fn a_deny_taken_out_of_the_settings_widens() {
    let t = written();
    edit(&t, SETTINGS, ",\n    \"http://evil.com\"", "");
    t.args(&["diff", "copilot", "--fail-on", "widening"])
        .status(1)
        .stdout_contains("  + deniedUrls:http://evil.com\n")
        .any_stdout()
        .stderr_contains("copilot: 1 of 1 differences widen")
        .any_stderr()
        .unchanged()
        .run();
}

#[test]
fn diff_leaves_foreign_keys_alone() {
    let t = written();
    edit(
        &t,
        SETTINGS,
        "{\n",
        "{\n  \"theme\": \"dim\",\n  \"trustedFolders\": [\"/\"],\n",
    );
    t.args(&["diff", "copilot"])
        .stdout_contains("copilot: no drift")
        .any_stdout()
        .any_stderr()
        .unchanged()
        .run();
}

#[test]
fn a_missing_settings_file_exits_2() {
    let t = written();
    std::fs::remove_file(t.home().join(SETTINGS)).unwrap();
    t.args(&["diff", "copilot"])
        .status(2)
        .stderr_contains("Error: copilot settings file not found: {HOME}/.copilot/settings.json")
        .any_stdout()
        .any_stderr()
        .unchanged()
        .run();
}

#[test]
fn a_malformed_settings_file_is_an_error_for_diff_too() {
    let t = written();
    std::fs::write(t.home().join(SETTINGS), "{\"deniedUrls\": [] x}").unwrap();
    t.args(&["diff", "copilot"])
        .status(1)
        .stderr_contains("{HOME}/.copilot/settings.json:1:")
        .any_stdout()
        .any_stderr()
        .unchanged()
        .run();
}

#[test]
fn yolo_writes_its_own_settings_file_with_no_allowed_urls() {
    let out = written()
        .args(&["generate", "copilot", "--yolo", "-w"])
        .stdout_contains("Wrote: {HOME}/.copilot/settings.yolo.json")
        .any_stdout()
        .any_stderr()
        .run();
    assert_eq!(
        out.read(SETTINGS_YOLO),
        "{\n  \"allowedUrls\": [],\n  \"deniedUrls\": [\n    \"evil.com\",\n    \
         \"http://evil.com\"\n  ]\n}\n"
    );
    // The full mode's file is not touched by a yolo run.
    assert_eq!(out.read(SETTINGS), format!("{MANAGED}\n"));
    let t = out.then();
    t.args(&["diff", "copilot", "--yolo"])
        .stdout_contains("copilot: no drift")
        .any_stdout()
        .any_stderr()
        .unchanged()
        .run()
        .then()
        .args(&["diff", "copilot"])
        .stdout_contains("copilot: no drift")
        .any_stdout()
        .any_stderr()
        .unchanged()
        .run();
}

#[test]
fn copilot_settings_yolo_names_the_yolo_file() {
    let out = Test::with_policy()
        .config_append(TARGETS)
        .config_append("copilot_settings_yolo = \"~/.copilot-yolo/settings.json\"\n")
        .args(&["generate", "copilot", "--yolo", "-w"])
        .stdout_contains("Wrote: {HOME}/.copilot-yolo/settings.json")
        .any_stdout()
        .any_stderr()
        .run();
    assert!(
        out.read(".copilot-yolo/settings.json")
            .contains("\"allowedUrls\": []")
    );
}

#[test]
fn copilot_settings_needs_copilot_output() {
    Test::with_policy()
        .config_append("\n[targets]\ncopilot_settings = \"~/.copilot/settings.json\"\n")
        .args(&["generate", "copilot"])
        .status(1)
        .stderr_contains("targets.copilot_settings requires copilot_output")
        .any_stderr()
        .unchanged()
        .run();
}

#[test]
fn copilot_settings_yolo_needs_copilot_settings() {
    Test::with_policy()
        .config_append(COPILOT_ONLY)
        .config_append("copilot_settings_yolo = \"~/.copilot-yolo/settings.json\"\n")
        .args(&["generate", "copilot", "--yolo"])
        .status(1)
        .stderr_contains("targets.copilot_settings_yolo requires copilot_settings")
        .any_stderr()
        .unchanged()
        .run();
}
