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
