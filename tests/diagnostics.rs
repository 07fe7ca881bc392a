//! Streams, colour and verbosity of diagnostics.

use crate::support::*;

#[test]
fn no_ansi_codes_off_a_terminal_even_without_no_color() {
    let out = Test::with_policy()
        .without_no_color()
        .args(&["generate", "copilot"])
        .run();
    assert!(!out.stdout.contains('\x1b') && !out.stderr.contains('\x1b'));
    let out = Test::with_policy()
        .without_no_color()
        .args(&["generate", "-p", "nope"])
        .status(1)
        .run();
    assert!(out.stderr.starts_with("Error: "), "{}", out.stderr);
    assert!(!out.stderr.contains('\x1b'));
}

#[test]
fn warnings_go_to_stderr_and_data_to_stdout() {
    let out = Test::with_policy().args(&["generate", "copilot"]).run();
    assert!(out.stderr.starts_with("Warning: "), "{}", out.stderr);
    assert!(out.stderr.contains("'git push'"));
    assert!(!out.stdout.contains("Warning"));
    assert!(out.stdout.starts_with("--allow-tool 'shell' \\\n"));
}

#[test]
fn verbose_names_lifecycle_facts_but_no_policy_entry() {
    let out = Test::with_policy()
        .args(&["-v", "generate", "-w", "copilot"])
        .run();
    assert!(out.stderr.contains("Debug: "), "{}", out.stderr);
    assert!(out.stderr.contains("profile: default"));
    for secret in ["~/.ssh", "github.com", "evil.com", "git push", "Bash(rm"] {
        let debug: Vec<&str> = out
            .stderr
            .lines()
            .filter(|l| l.starts_with("Debug:"))
            .collect();
        assert!(
            debug.iter().all(|l| !l.contains(secret)),
            "debug output names {secret}: {debug:?}"
        );
    }
}

#[test]
fn completions_are_printed_for_each_shell() {
    for shell in ["bash", "zsh", "fish"] {
        let out = Test::new().args(&["completions", shell]).run();
        assert!(out.stdout.contains("generate"), "{shell}");
    }
}

/// On a terminal (a pty made by `script`), errors are bold red; `NO_COLOR`
/// set to an empty value still turns colour off.
#[test]
fn colour_on_a_terminal_unless_no_color_is_set() {
    let t = Test::with_policy();
    let home = t.home().to_path_buf();
    let run = |no_color: Option<&str>| {
        let mut cmd = std::process::Command::new("script");
        cmd.args([
            "-qec",
            &format!("{} generate -p nope", env!("CARGO_BIN_EXE_twsrt")),
            "/dev/null",
        ])
        .env_clear()
        .env("HOME", &home)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("TERM", "xterm");
        if let Some(v) = no_color {
            cmd.env("NO_COLOR", v);
        }
        String::from_utf8_lossy(&cmd.output().expect("script(1) from util-linux").stdout)
            .into_owned()
    };
    let coloured = run(None);
    assert!(coloured.contains("\x1b[1;31mError: "), "{coloured:?}");
    let plain = run(Some(""));
    assert!(
        plain.contains("Error: ") && !plain.contains('\x1b'),
        "{plain:?}"
    );
}
