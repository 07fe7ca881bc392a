//! A UTF-8 byte order mark at the start of a JSON or JSONC file twsrt reads
//! (issue 41): editors on Windows write one and the agents load such a file
//! (measured: Claude Code 2.1.337, OpenCode 1.18.33 `debug config`), so
//! twsrt reads it as the same document and keeps the mark when it rewrites
//! a file it merges into.

use crate::support::*;

const BOM: char = '\u{feff}';

#[test]
fn fragments_that_start_with_a_byte_order_mark_compile_as_without_it() {
    let plain = Test::with_policy()
        .args(&["generate", "-w"])
        .any_stderr()
        .run();
    let marked = Test::with_policy()
        .file(SRT_FRAGMENT, format!("{BOM}{BASE_SRT}"))
        .file(BASH_FRAGMENT, format!("{BOM}{BASE_BASH}"))
        .args(&["generate", "-w"])
        .any_stderr()
        .run();
    for out in [SRT_OUT, BASH_OUT] {
        assert_eq!(marked.read(out), plain.read(out), "{out}");
    }
}

#[test]
fn an_error_in_a_marked_fragment_is_at_the_column_an_editor_shows() {
    Test::with_policy()
        .file(BASH_FRAGMENT, format!("{BOM}{{\"deny\": [\"rm\",]}}"))
        .args(&["generate", "-w"])
        .status(1)
        .stderr_contains("bash/base.jsonc:1:16:")
        .unchanged()
        .run();
}

#[test]
fn an_opencode_config_with_a_byte_order_mark_is_merged_and_keeps_it() {
    let config = format!("{BOM}{{\"model\": \"x\"}}\n");
    let out = Test::with_policy()
        .config_append("\n[targets]\nopencode_config = \"~/.config/opencode/opencode.json\"\n")
        .file(".config/opencode/opencode.json", config)
        .args(&["generate", "-w", "opencode"])
        .any_stdout()
        .any_stderr()
        .run();
    assert!(!out.stderr.contains("comments"), "{}", out.stderr);
    let written = out.read(".config/opencode/opencode.json");
    assert!(written.starts_with(BOM), "{written}");
    assert!(written.contains("\"model\": \"x\""), "{written}");
    assert!(written.contains("\"rm *\": \"deny\""), "{written}");
    assert_eq!(written.matches(BOM).count(), 1, "{written}");
}

const COPILOT_TARGETS: &str = "\n[targets]\ncopilot_output = \"~/flags/copilot.txt\"\n\
                               copilot_settings = \"~/.copilot/settings.json\"\n";
const COPILOT_SETTINGS: &str = ".copilot/settings.json";

#[test]
fn a_copilot_settings_file_with_a_byte_order_mark_is_merged_and_keeps_it() {
    let settings = format!("{BOM}// mine\n{{\n  \"theme\": \"dim\",\n}}\n");
    let out = Test::with_policy()
        .config_append(COPILOT_TARGETS)
        .file(COPILOT_SETTINGS, settings)
        .args(&["generate", "-w", "copilot"])
        .any_stderr()
        .run();
    let written = out.read(COPILOT_SETTINGS);
    assert!(written.starts_with(BOM), "{written}");
    assert_eq!(written.matches(BOM).count(), 1, "{written}");
    assert!(
        written.starts_with(&format!("{BOM}// mine\n{{\n  \"theme\": \"dim\"")),
        "{written}"
    );
    assert!(written.contains("\"http://evil.com\""), "{written}");
    // The file as written is the file diff compares: no drift.
    out.then()
        .args(&["diff", "copilot"])
        .any_stdout()
        .any_stderr()
        .status(0)
        .run();
}

#[test]
fn an_error_in_a_marked_copilot_settings_file_is_at_the_column_an_editor_shows() {
    Test::with_policy()
        .config_append(COPILOT_TARGETS)
        .file(COPILOT_SETTINGS, format!("{BOM}{{\"a\": ]}}"))
        .args(&["generate", "-w", "copilot"])
        .status(1)
        .stderr_contains(".copilot/settings.json:1:7:")
        .unchanged()
        .run();
}

#[test]
fn a_copilot_settings_file_with_a_byte_order_mark_imports() {
    let out = Test::with_policy()
        .file(
            COPILOT_SETTINGS,
            format!("{BOM}{{\"deniedUrls\": [\"leak.example\"],}}\n"),
        )
        .args(&["import", "copilot"])
        .any_stdout()
        .any_stderr()
        .unchanged()
        .run();
    assert!(out.stdout.contains("\"leak.example\""), "{}", out.stdout);
}
