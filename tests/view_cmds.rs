//! `show`, `profiles` and `edit`: what the parity scenarios (`view_*`)
//! cannot hold (a terminal, inputs on which 3.3.3 crashes) and the
//! promises the README makes to scripts.

use std::process::Command;

use crate::support::*;

/// `show` prints exactly the bytes `generate -w` writes, for each kind.
#[test]
fn show_prints_what_generate_writes() {
    let written = Test::with_policy()
        .args(&["generate", "-w"])
        .any_stderr()
        .run();
    for (kind, output) in [("srt", SRT_OUT), ("bash", BASH_OUT)] {
        let file = written.read(output);
        let shown = Test::with_policy()
            .args(&["show", kind])
            .any_stdout()
            .unchanged()
            .run();
        assert_eq!(shown.stdout, file, "{kind}");
    }
}

/// `profiles` on a terminal (run under `script`, which gives twsrt a pty),
/// with these extra environment variables.
fn on_a_terminal(test: Test, env: &[(&str, &str)]) -> String {
    on_a_terminal_after(test, env, "")
}

/// The same, after `setup` (a shell command) ran on that terminal.
fn on_a_terminal_after(test: Test, env: &[(&str, &str)], setup: &str) -> String {
    let bin = env!("CARGO_BIN_EXE_twsrt");
    let config = test.home().join(CONFIG);
    let line = format!("{setup}'{bin}' -c '{}' profiles", config.display());
    let out = Command::new("script")
        .args(["-q", "-e", "-c", &line, "/dev/null"])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", test.home())
        .env("TERM", "xterm-256color")
        .envs(env.iter().copied())
        .output()
        .expect("script(1) from util-linux runs twsrt on a pty");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).replace('\r', "")
}

#[test]
fn profiles_draws_a_box_on_a_terminal() {
    let shown = on_a_terminal(Test::with_policy().work_profile(), &[]);
    assert!(shown.starts_with("┏━"), "{shown}");
    assert!(shown.contains("\x1b[1;32mdefault *\x1b[0m"), "{shown}");
    assert!(shown.contains("\x1b[2;3m* default profile"), "{shown}");
}

/// The terminal's width (COLUMNS, else the terminal's own size): the
/// table wraps as 3.3.3's does there.
#[test]
fn profiles_fits_the_terminal_width() {
    let scenario = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/parity/scenarios/view_profiles_inheritance/home/.config/twsrt/config.toml"
    );
    let config = std::fs::read_to_string(scenario).expect("the scenario's config.toml");
    let recorded = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/profiles/inheritance_40_columns.tty"
    ))
    .expect("the 3.3.3 recording");
    let home = || Test::new().file(CONFIG, &config);
    let by_env = on_a_terminal(home(), &[("COLUMNS", "40")]);
    assert_eq!(by_env, recorded);
    let by_size = on_a_terminal_after(home(), &[], "stty cols 40 rows 24; ");
    assert_eq!(by_size, recorded);
    // COLUMNS wins over the terminal's size, as in 3.3.3.
    let both = on_a_terminal_after(home(), &[("COLUMNS", "40")], "stty cols 90 rows 24; ");
    assert_eq!(both, recorded);
}

#[test]
fn profiles_is_plain_text_on_a_terminal_with_no_color() {
    let shown = on_a_terminal(Test::with_policy().work_profile(), &[("NO_COLOR", "")]);
    assert_eq!(
        shown,
        "Profile    Extends  srt         bash\n\
         default *           base        base\n\
         work       default  base, work  base\n\
         * default profile\n"
    );
}

/// In a pipe (NO_COLOR or not) the same plain columns.
#[test]
fn profiles_is_plain_text_in_a_pipe() {
    Test::with_policy()
        .work_profile()
        .without_no_color()
        .args(&["profiles"])
        .stdout(
            "Profile    Extends  srt         bash\n\
             default *           base        base\n\
             work       default  base, work  base\n\
             * default profile\n",
        )
        .unchanged()
        .run();
}

/// A directory where a canonical output belongs: 3.3.3 crashes after the
/// editor; the port reports it (as `diff` does) and exits 1.
#[test]
fn edit_reports_a_directory_in_an_output_place() {
    Test::with_policy()
        .dir(SRT_OUT)
        .env("EDITOR", "true")
        .args(&["edit"])
        .status(1)
        .stderr_contains("Error: {HOME}/.srt-settings.json: is a directory")
        .unchanged()
        .run();
}

/// 3.3.3 crashes on an `$EDITOR` shlex cannot split; the port says so.
#[test]
fn edit_refuses_an_editor_that_is_not_words() {
    Test::with_policy()
        .env("EDITOR", "'vim")
        .args(&["edit"])
        .status(1)
        .stderr_contains("Error: $EDITOR cannot be split into words")
        .unchanged()
        .run();
}

/// `-v` names the command line the editor runs with, tabs included.
#[test]
fn edit_verbose_names_the_editor_call() {
    let test = Test::with_policy()
        .file("bin/vim", "#!/bin/sh\n")
        .mode("bin/vim", 0o755);
    let vim = test.home().join("bin/vim").display().to_string();
    // Named before it starts; vim runs in a terminal, which this run's
    // stdin is not, so it is then refused (first_hour.rs).
    test.env("EDITOR", &vim)
        .args(&["-v", "edit", "srt"])
        .status(1)
        .any_stdout()
        .stderr_contains(
            "Debug: opening 1 fragment: {HOME}/bin/vim -p {HOME}/.config/twsrt/srt/base.jsonc",
        )
        .stderr_contains("Error: stdin is not a terminal, and the editor '{HOME}/bin/vim'")
        .unchanged()
        .run();
}
