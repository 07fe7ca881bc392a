//! Streams, colour and verbosity of diagnostics.

use crate::support::*;

/// What `generate copilot` prints for the base policy.
const COPILOT_FLAGS: &str = "\
--allow-tool 'shell' \\
--allow-tool 'read' \\
--allow-tool 'edit' \\
--allow-tool 'write' \\
--allow-url 'github.com' \\
--deny-url 'evil.com' \\
--deny-url 'http://evil.com' \\
--deny-tool 'shell(git push:*)' \\
--deny-tool 'shell(rm:*)' \\
";

/// What the preview of `generate copilot` prints on stderr.
fn copilot_preview_stderr() -> String {
    format!(
        "{NO_ASK_TIER}{WOULD_WRITE_CANONICAL}\
         Would write agent target: {{HOME}}/flags/copilot.txt\n{PREVIEW_END}"
    )
}

/// The exact texts hold no escape code, so matching them proves there is none.
#[test]
fn no_ansi_codes_off_a_terminal_even_without_no_color() {
    Test::with_policy()
        .config_append(COPILOT_ONLY)
        .without_no_color()
        .args(&["generate", "copilot"])
        .stdout(COPILOT_FLAGS)
        .stderr(&copilot_preview_stderr())
        .run();
    Test::with_policy()
        .without_no_color()
        .args(&["generate", "-p", "nope"])
        .status(1)
        .stderr(
            "Error: profile 'nope' is not defined in {HOME}/.config/twsrt/config.toml; \
             defined profiles: default\n",
        )
        .run();
    // The styled pieces of a drift report, too.
    Test::with_policy()
        .config_append(COPILOT_ONLY)
        .file(COPILOT, "--deny-url 'x' \\\n")
        .without_no_color()
        .args(&["diff", "copilot"])
        .status(1)
        .any_stdout()
        .lacks("\x1b")
        .stderr(&format!(
            "Info: srt canonical: {{HOME}}/.srt-settings.json is missing, which widens\n\
             Info: bash canonical: {{HOME}}/.config/twsrt/bash-rules.json is missing, which \
             widens\n\
             Info: copilot: 4 of 10 differences widen\n{NO_ASK_TIER}"
        ))
        .run();
}

/// stdout holds only the result (the renderings); what would be written,
/// the warnings and the notes go to stderr.
/// An escape sequence in what the user typed (here a profile name) is taken
/// out of an unstyled stderr line, so it cannot drive the terminal.
#[test]
fn an_escape_in_a_name_never_reaches_stderr() {
    for no_color in [true, false] {
        let test = Test::with_policy();
        let test = if no_color {
            test
        } else {
            test.without_no_color()
        };
        test.args(&["generate", "-p", "a\x1b]0;pwned\x07b"])
            .status(1)
            .stderr_contains("Error: profile 'a")
            .lacks("\x1b")
            .lacks("\x07")
            .run();
    }
}

#[test]
fn warnings_go_to_stderr_and_data_to_stdout() {
    Test::with_policy()
        .config_append(COPILOT_ONLY)
        .args(&["generate", "copilot"])
        .stdout(COPILOT_FLAGS)
        .stderr(&copilot_preview_stderr())
        .unchanged()
        .run();
}

/// With -w, stdout stays empty: every status line is on stderr.
#[test]
fn verbose_names_lifecycle_facts_but_no_policy_entry() {
    let out = Test::with_policy()
        .config_append(COPILOT_ONLY)
        .args(&["-v", "generate", "-w", "copilot"])
        .stderr(&format!(
            "Debug: config: {{HOME}}/.config/twsrt/config.toml\n\
             Debug: profile: default; mode: full; agents: copilot; rules: 14\n\
             Debug: planned steps: 3\n\
             {NO_ASK_TIER}\
             Wrote canonical: {{HOME}}/.srt-settings.json\n\
             Wrote canonical: {{HOME}}/.config/twsrt/bash-rules.json\n\
             Wrote: {{HOME}}/flags/copilot.txt\n"
        ))
        .run();
    // Redundant with the exact text today; it keeps a future edit of that
    // text from blessing a debug line that names a policy entry.
    let debug: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.starts_with("Debug:"))
        .collect();
    for secret in ["~/.ssh", "github.com", "evil.com", "git push", "Bash(rm"] {
        assert!(
            debug.iter().all(|l| !l.contains(secret)),
            "debug output names {secret}: {debug:?}"
        );
    }
}

/// The scripts are clap_complete's; that each is one for twsrt (it knows
/// the subcommands) is what twsrt owns.
#[test]
fn completions_are_printed_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        Test::new()
            .args(&["completions", shell])
            .stdout_contains("generate")
            .stdout_contains("twsrt")
            .run();
    }
}

/// The script offers the agents of the registry, the source kinds and the
/// profiles config.toml has; without a config.toml it is still made.
#[test]
fn completions_offer_agent_kind_and_profile_names() {
    Test::with_policy()
        .config_append("\n[profiles.strict]\nsrt = [\"base\"]\n")
        .args(&["completions", "bash"])
        .stdout_contains("claude copilot codex gemini opencode all")
        .stdout_contains("srt bash all")
        .stdout_contains("default strict")
        .run();
    Test::new()
        .args(&["completions", "bash"])
        .stdout_contains("claude copilot codex gemini opencode all")
        .run();
}

/// On a terminal (a pty made by `script`), errors are bold red; `NO_COLOR`
/// set to an empty value still turns colour off. `script` is the runner
/// here, not the builder: only a pty makes twsrt colour its output.
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
            .replace(&home.display().to_string(), "{HOME}")
    };
    let message = "profile 'nope' is not defined in {HOME}/.config/twsrt/config.toml; \
                   defined profiles: default";
    // The pty turns the line end into CRLF.
    assert_eq!(run(None), format!("\x1b[1;31mError: {message}\x1b[0m\r\n"));
    assert_eq!(run(Some("")), format!("Error: {message}\r\n"));
}
