//! `twsrt config` and `config --init`.

use crate::support::*;

const NEXT: &str = "Info: next: name your agents under [targets] in \
     {HOME}/.config/twsrt/config.toml, then run `twsrt generate` to preview and \
     `twsrt generate -w` to write\n";

/// `config --init` in an empty HOME: it lists each file it created and the
/// command to run next.
fn init() -> Output {
    Test::new()
        .env("EDITOR", "true")
        .args(&["config", "--init"])
        .stderr(&format!(
            "Created: {{HOME}}/.config/twsrt/config.toml\n\
             Created: {{HOME}}/.config/twsrt/srt/base.jsonc\n\
             Created: {{HOME}}/.config/twsrt/bash/base.jsonc\n{NEXT}"
        ))
        .run()
}

/// The starter of twsrt 3.3.3: only the required keys and the yolo
/// overrides are active (the exact value: `src/commands/config.rs`); bash,
/// the outputs, every target, `[claude_sync]` and the full-mode overrides
/// are examples in comments. The bash fragment is written all the same.
#[test]
fn init_writes_a_starter_with_the_agents_commented_out_and_opens_the_editor() {
    let out = init();
    for rel in [
        CONFIG,
        ".config/twsrt/srt/base.jsonc",
        ".config/twsrt/bash/base.jsonc",
    ] {
        assert!(out.path(rel).is_file(), "{rel} missing");
    }
    let config = out.read(CONFIG);
    for active in [
        "schema_version = 1",
        "default_profile = \"default\"",
        "[sources.srt]",
        "[targets]",
        "[sandbox_overrides.yolo]",
    ] {
        assert!(
            config.lines().any(|l| l == active),
            "starter lacks {active}"
        );
    }
    for commented in [
        "# output = \"~/.srt-settings.json\"",
        "# [sources.bash]",
        "# bash = [\"base\"]",
        "# claude_settings = \"~/.claude/settings.full.json\"",
        "# claude_hook = true",
        "# copilot_output = \"copilot-flags.txt\"",
        "# codex_config = \"~/.codex/config.toml\"",
        "# codex_rules = \"~/.codex/rules/twsrt.rules\"",
        "# claude_settings_yolo = \"~/.claude/settings.yolo.json\"",
        "# copilot_output_yolo = \"copilot-flags.yolo.txt\"",
        "# [claude_sync]",
        "# [sandbox_overrides.full]",
    ] {
        assert!(
            config.lines().any(|l| l == commented),
            "starter lacks {commented}"
        );
    }
}

/// The starter is a working policy: with no agent configured, `generate`
/// handles the srt output alone (at its default path beside config.toml).
#[test]
fn the_starter_compiles_without_any_agent() {
    init()
        .then()
        .args(&["generate"])
        .stderr(&format!(
            "{NO_AGENTS}Would write canonical: {{HOME}}/.config/twsrt/srt-settings.json\n\
             {PREVIEW_END}"
        ))
        .unchanged()
        .run();
}

#[test]
fn init_never_overwrites_existing_files() {
    let out = Test::new()
        .file(CONFIG, "# mine\n")
        .file(".config/twsrt/bash/base.jsonc", "{\"deny\": [\"mine\"]}")
        .env("EDITOR", "true")
        .args(&["config", "--init"])
        // The editor then leaves a config.toml that is not a policy.
        .status(1)
        .stderr(
            "Info: {HOME}/.config/twsrt/config.toml exists; nothing was created\n\
             Error: {HOME}/.config/twsrt/config.toml: schema_version is missing; this version \
             of twsrt reads 1\n",
        )
        .run();
    assert_eq!(out.read(CONFIG), "# mine\n");
    assert_eq!(
        out.read(".config/twsrt/bash/base.jsonc"),
        "{\"deny\": [\"mine\"]}"
    );
    // With a config.toml in place nothing is added, not even a missing
    // starter fragment.
    assert!(!out.path(".config/twsrt/srt/base.jsonc").exists());
}

const MINE: &str = "{\"filesystem\": {\"denyRead\": [\"~/.mine\"]}}";

#[test]
fn init_without_config_keeps_an_existing_fragment_and_adds_the_rest() {
    let out = Test::new()
        .file(".config/twsrt/srt/base.jsonc", MINE)
        .env("EDITOR", "true")
        .args(&["config", "--init"])
        .stderr(&format!(
            "Created: {{HOME}}/.config/twsrt/config.toml\n\
             Created: {{HOME}}/.config/twsrt/bash/base.jsonc\n{NEXT}"
        ))
        .run();
    assert_eq!(out.read(".config/twsrt/srt/base.jsonc"), MINE);
    assert!(out.path(CONFIG).is_file());
    assert!(out.path(".config/twsrt/bash/base.jsonc").is_file());
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

#[test]
fn init_at_another_path_names_it_in_the_next_command() {
    Test::new()
        .env("EDITOR", "true")
        .args(&["-c", "~/p/twsrt.toml", "config", "--init"])
        .stderr(
            "Created: {HOME}/p/twsrt.toml\n\
             Created: {HOME}/p/srt/base.jsonc\n\
             Created: {HOME}/p/bash/base.jsonc\n\
             Info: next: name your agents under [targets] in {HOME}/p/twsrt.toml, then run \
             `twsrt -c '{HOME}/p/twsrt.toml' generate` to preview and \
             `twsrt -c '{HOME}/p/twsrt.toml' generate -w` to write\n",
        )
        .run();
}

/// After the editor exits, config.toml is checked: a file that no longer
/// parses is an error naming its line, and so is a policy that no longer
/// compiles; an editor that failed is not second-guessed.
#[test]
fn config_checks_what_the_editor_left() {
    let t = Test::with_policy().file("ed.sh", "#!/bin/sh\necho 'bogus = = 1' >> \"$1\"\n");
    let editor = t.home().join("ed.sh").display().to_string();
    t.mode("ed.sh", 0o755)
        .env("EDITOR", &editor)
        .args(&["config"])
        .status(1)
        .stderr(
            "Error: {HOME}/.config/twsrt/config.toml:19:9: invalid TOML: extra `=`, \
             expected nothing\n",
        )
        .run();
    let t = Test::with_policy().file(
        "ed.sh",
        "#!/bin/sh\nsed -i 's/^default_profile = .*/default_profile = \"nope\"/' \"$1\"\n",
    );
    let editor = t.home().join("ed.sh").display().to_string();
    t.mode("ed.sh", 0o755)
        .env("EDITOR", &editor)
        .args(&["config"])
        .status(1)
        .stderr_contains("nope")
        .run();
}
