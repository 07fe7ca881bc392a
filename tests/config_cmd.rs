//! `twsrt config` and `config --init`.

use crate::support::*;

#[test]
fn init_writes_a_starter_that_compiles_and_opens_the_editor() {
    let out = Test::new()
        .env("EDITOR", "true")
        .args(&["config", "--init"])
        .run();
    for rel in [
        CONFIG,
        ".config/twsrt/srt/base.jsonc",
        ".config/twsrt/bash/base.jsonc",
    ] {
        assert!(out.path(rel).is_file(), "{rel} missing");
    }
    let config = out.read(CONFIG);
    for key in [
        "schema_version = 1",
        "default_profile = \"default\"",
        "output = \"~/.srt-settings.json\"",
        "output = \"bash-rules.json\"",
        "claude_settings = \"~/.claude/settings.full.json\"",
        "codex_config = \"~/.codex/config.toml\"",
        "codex_rules = \"~/.codex/rules/twsrt.rules\"",
        "# copilot_output",
        "# claude_settings_yolo",
        "# copilot_output_yolo",
        "[sandbox_overrides.yolo]",
        "[sandbox_overrides.full]",
    ] {
        assert!(config.contains(key), "starter lacks {key}");
    }
    // The starter is a working policy. What it compiles to is the
    // starter's business (src/commands/config.rs), not this test's: only
    // that it compiles, without a word on stderr.
    out.then().args(&["generate", "copilot"]).any_stdout().run();
}

#[test]
fn init_never_overwrites_existing_files() {
    let out = Test::new()
        .file(CONFIG, "# mine\n")
        .file(".config/twsrt/bash/base.jsonc", "{\"deny\": [\"mine\"]}")
        .env("EDITOR", "true")
        .args(&["config", "--init"])
        .run();
    assert_eq!(out.read(CONFIG), "# mine\n");
    assert_eq!(
        out.read(".config/twsrt/bash/base.jsonc"),
        "{\"deny\": [\"mine\"]}"
    );
    assert!(out.path(".config/twsrt/srt/base.jsonc").is_file());
}

#[test]
fn config_exits_with_the_editor_status() {
    Test::with_policy()
        .env("EDITOR", "false")
        .args(&["config"])
        .status(1)
        .stderr("")
        .run();
    Test::with_policy()
        .env("EDITOR", "true")
        .args(&["config"])
        .run();
    // The editor receives the config path as its last argument, and an
    // EDITOR with arguments (`code -w`) works.
    editor_exits_7_when_called_with("ed.sh", "-w", "{} -w");
}

/// Runs `twsrt config` with EDITOR set to `editor` (`{}` standing for the
/// path of a script at `script` in HOME), a script that exits 7 when its
/// first argument is `first` and its second the config file.
#[track_caller]
fn editor_exits_7_when_called_with(script: &str, first: &str, editor: &str) {
    let t = Test::with_policy().file(
        script,
        format!("#!/bin/sh\n[ \"$1\" = \"{first}\" ] && test -f \"$2\" && exit 7\n"),
    );
    let path = t.home().join(script);
    t.mode(script, 0o755)
        .env("EDITOR", &editor.replace("{}", &path.display().to_string()))
        .args(&["config"])
        .status(7)
        .run();
}

/// `$EDITOR` is split as a shell splits it: quotes hold a path with a
/// space together, and a quote that is never closed is an error.
#[test]
fn the_editor_command_line_is_split_like_a_shell() {
    editor_exits_7_when_called_with("my editors/ed.sh", "a b", "'{}' \"a b\"");
    Test::with_policy()
        .env("EDITOR", "'vi")
        .args(&["config"])
        .status(1)
        .stderr("Error: $EDITOR cannot be split into words: a quote is opened but never closed\n")
        .unchanged()
        .run();
    Test::with_policy()
        .env("EDITOR", "''")
        .args(&["config"])
        .status(1)
        .stderr("Error: could not start the editor '': No such file or directory (os error 2)\n")
        .unchanged()
        .run();
}

#[test]
fn a_missing_config_exits_2_with_a_hint() {
    Test::new()
        .env("EDITOR", "true")
        .args(&["config"])
        .status(2)
        .stderr(
            "Error: config file not found: {HOME}/.config/twsrt/config.toml; \
             run `twsrt config --init` to create a starter\n",
        )
        .unchanged()
        .run();
}

#[test]
fn an_editor_that_cannot_start_exits_1() {
    Test::with_policy()
        .env("EDITOR", "/nonexistent/editor")
        .args(&["config"])
        .status(1)
        .stderr(
            "Error: could not start the editor '/nonexistent/editor': \
             No such file or directory (os error 2)\n",
        )
        .unchanged()
        .run();
}
