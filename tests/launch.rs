//! `twsrt run` and `twsrt audit` end to end, with stand-in agents on PATH
//! that print the argv they were started with (one `[word]` per line).

use crate::support::*;

/// A stand-in agent: names itself, then each argument in brackets.
const STAND_IN: &str = "#!/bin/sh\necho \"ran $(basename \"$0\")\"\nfor a in \"$@\"; do printf '[%s]\\n' \"$a\"; done\n";

/// A stand-in srt: shows its settings file, then runs the command string
/// through a shell as the real srt does.
const SRT_STAND_IN: &str = "#!/bin/sh\necho \"srt $1 $2 $3\"\nexec sh -c \"$4\"\n";

/// A HOME with the base policy, every target, and the stand-ins in ~/bin
/// (first on PATH).
fn launch() -> Test {
    let mut test = Test::with_policy().targets();
    for agent in ["codex", "claude", "copilot"] {
        let rel = format!("bin/{agent}");
        test = test.file(&rel, STAND_IN).mode(&rel, 0o755);
    }
    let path = format!("{}/bin:/usr/bin:/bin", test.home().display());
    test.file("bin/srt", SRT_STAND_IN)
        .mode("bin/srt", 0o755)
        .env("PATH", &path)
}

#[test]
fn a_stale_target_is_written_before_the_agent_starts() {
    // The stand-in reads the Codex target: it exists once the agent runs.
    let reader =
        "#!/bin/sh\ngrep -c 'default_permissions = \"twsrt\"' \"$HOME/.codex/config.toml\"\n";
    let out = launch()
        .file("bin/codex", reader)
        .mode("bin/codex", 0o755)
        .args(&["run", "--", "codex", "exec", "hi"])
        .stdout("1\n")
        .stderr_contains("wrote 4 file(s) for codex")
        .run();
    // The files generate -w writes: diff finds no drift in them.
    let path = format!("{}/bin:/usr/bin:/bin", out.home().display());
    let checked = out
        .then()
        .args(&["diff", "codex"])
        .stdout_contains("codex: no drift")
        .any_stderr()
        .run();
    // Nothing is stale now: a second launch writes nothing and says so in
    // no line but the warnings count.
    checked
        .then()
        .file("bin/codex", STAND_IN)
        .mode("bin/codex", 0o755)
        .env("PATH", &path)
        .args(&["run", "--", "codex", "exec", "hi"])
        .stdout("ran codex\n[exec]\n[hi]\n")
        .stderr("Info: 4 generation warning(s); `twsrt generate codex -v` lists them\n")
        .unchanged()
        .run();
}

#[test]
fn generation_warnings_are_one_line() {
    // The base policy's allowWrite and ask rule make Copilot warn; run
    // counts them.
    launch()
        .args(&["run", "--", "copilot", "-p", "x"])
        .any_stdout()
        .stderr_contains(
            "Info: the policy changed since the last generate: wrote 3 file(s) for copilot",
        )
        .stderr_contains("Info: 2 generation warning(s); `twsrt generate copilot -v` lists them")
        .lacks("Warning: Copilot has no ask tier")
        .run();
}

#[test]
fn copilot_gets_the_generated_flags() {
    launch()
        .args(&["run", "--", "copilot", "-p", "it's a test"])
        .stdout(
            "ran copilot\n[-p]\n[it's a test]\n[--allow-tool]\n[shell]\n[--allow-tool]\n[read]\n\
             [--allow-tool]\n[edit]\n[--allow-tool]\n[write]\n[--allow-url]\n[github.com]\n\
             [--deny-url]\n[evil.com]\n[--deny-url]\n[http://evil.com]\n[--deny-tool]\n[shell(git push:*)]\n[--deny-tool]\n[shell(rm:*)]\n",
        )
        .any_stderr()
        .run();
}

#[test]
fn a_risky_launch_is_refused_and_the_agent_never_runs() {
    let cases: [(&[&str], i32, &str); 5] = [
        (&["codex", "--yolo"], 1, "Error: --yolo: "),
        (
            &["codex", "exec", "-s", "danger-full-access"],
            1,
            "Error: -s danger-full-access: ",
        ),
        (
            &["claude", "--setting-sources", "project"],
            1,
            "Error: --setting-sources project: ",
        ),
        (
            &["codex", "--full-auto"],
            2,
            "Error: codex: unknown option --full-auto",
        ),
        (&["aider"], 2, "Error: unknown agent binary 'aider'"),
    ];
    for (argv, status, said) in cases {
        let mut args = vec!["run", "--"];
        args.extend_from_slice(argv);
        launch()
            .args(&args)
            .status(status)
            .stdout("")
            .stderr_contains(said)
            .unchanged()
            .run();
    }
}

#[test]
fn strict_refuses_a_warning_too() {
    launch()
        .args(&[
            "run",
            "--strict",
            "--",
            "claude",
            "--dangerously-skip-permissions",
        ])
        .status(1)
        .stdout("")
        .stderr_contains("Warning: --dangerously-skip-permissions: ")
        .unchanged()
        .run();
    launch()
        .args(&["run", "--", "claude", "--dangerously-skip-permissions"])
        .stdout("ran claude\n[--dangerously-skip-permissions]\n")
        .stderr_contains("Warning: --dangerously-skip-permissions: ")
        .run();
}

#[test]
fn no_generate_refuses_a_stale_setup() {
    launch()
        .args(&["run", "--no-generate", "--", "claude", "-p", "x"])
        .status(1)
        .stdout("")
        .stderr_contains("differ from the policy (--no-generate)")
        .unchanged()
        .run();
}

#[test]
fn srt_wraps_a_command_whose_words_hold_spaces_and_quotes() {
    launch()
        .args(&["run", "--srt", "--", "claude", "-p", "it's \"quoted\" and spaced", "$HOME"])
        .stdout(
            "srt -s {HOME}/.srt-settings.json -c\nran claude\n[-p]\n[it's \"quoted\" and spaced]\n[$HOME]\n",
        )
        .any_stderr()
        .run();
}

#[test]
fn the_agent_replaces_twsrt() {
    // Its exit code is the launch's; an agent that is not there is 127.
    launch()
        .file("bin/codex", "#!/bin/sh\nexit 7\n")
        .mode("bin/codex", 0o755)
        .args(&["run", "--", "codex"])
        .status(7)
        .any_stderr()
        .run();
    Test::with_policy()
        .targets()
        .env("PATH", "/nonexistent")
        .args(&["run", "--", "codex"])
        .status(127)
        .stderr_contains("cannot start codex")
        .run();
}

#[test]
fn audit_reports_on_stdout_with_its_exit_codes() {
    launch()
        .args(&["audit", "--", "codex", "-c", "approval_policy=never"])
        .stdout(
            "Warning: -c approval_policy=never: changes when Codex asks before running a command\n",
        )
        .run();
    launch()
        .args(&[
            "audit",
            "--strict",
            "--",
            "codex",
            "-c",
            "approval_policy=never",
        ])
        .status(1)
        .any_stdout()
        .run();
    // Before generate -w, Claude Code loads none of the generated settings.
    launch()
        .args(&["audit", "--", "claude", "-p", "hi"])
        .status(1)
        .stdout(
            "Error: {HOME}/.claude/settings.json: does not exist: Claude Code does not load \
             the settings twsrt generates; run twsrt generate claude -w\n",
        )
        .run();
    launch()
        .file(CLAUDE_TARGET, "{}\n")
        .symlink(ANCHOR, "settings.full.json")
        .args(&["audit", "--", "claude", "-p", "hi"])
        .stdout("claude: no findings\n")
        .run();
    let out = launch()
        .args(&[
            "audit",
            "--json",
            "--",
            "copilot",
            "--yolo",
            "-p",
            "SECRET-PROMPT",
        ])
        .status(1)
        .any_stdout()
        .lacks("SECRET")
        .run();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["agent"], "copilot");
    let severities: Vec<_> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap(),
                f["severity"].as_str().unwrap(),
                f["flag"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        severities,
        [
            ("allow-all", "warning", "--yolo"),
            ("missing-deny-flags", "error", "--deny-tool"),
            ("missing-deny-flags", "error", "--deny-url")
        ]
    );
    launch()
        .args(&["audit", "--", "codex", "-m"])
        .status(2)
        .stderr("Error: codex: option -m needs a value\n")
        .run();
}

#[test]
fn dump_grammar_lists_every_table() {
    let out = Test::new()
        .args(&["audit", "--dump-grammar", "codex"])
        .any_stdout()
        .run();
    assert!(
        out.stdout.contains("codex\t--sandbox,-s\tvalue\n"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("codex exec\t--yolo\tflag\thidden\n"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("codex\tcommand\texec,e\ttable\n")
            && out.stdout.contains("codex\tcommand\tmcp\tpass\n")
            && out.stdout.contains("codex\tcommand\tapp-server\trefuse\n")
            && out
                .stdout
                .contains("codex exec resume\t--ignore-rules\tflag\n"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_fresh_setup_starts_with_no_generate_in_both_modes() {
    for agent in ["codex", "claude", "copilot"] {
        for mode in [&[][..], &["--yolo"]] {
            let mut generate = vec!["generate", "-w"];
            generate.extend_from_slice(mode);
            let written = launch().args(&generate).any_stdout().any_stderr().run();
            let path = format!("{}/bin:/usr/bin:/bin", written.home().display());
            let mut run = vec!["run", "--no-generate"];
            run.extend_from_slice(mode);
            run.extend_from_slice(&["--", agent, "-h"]);
            let out = written
                .then()
                .env("PATH", &path)
                .args(&run)
                .stdout_contains(&format!("ran {agent}\n[-h]\n"))
                .any_stderr()
                .lacks("Error")
                .unchanged()
                .run();
            assert!(
                !out.stderr.contains("Warning"),
                "{agent} {mode:?}: {}",
                out.stderr
            );
        }
    }
}

#[test]
fn an_unconfigured_agent_starts_with_a_warning() {
    let test = Test::with_policy();
    let bin = format!("{}/bin", test.home().display());
    test.file("bin/claude", STAND_IN)
        .mode("bin/claude", 0o755)
        .env("PATH", &format!("{bin}:/usr/bin:/bin"))
        .args(&["run", "--yolo", "-p", "default", "--", "claude"])
        .stdout("ran claude\n")
        .stderr_contains("Warning: claude is not configured in [targets] of config.toml")
        .stderr_contains("wrote 2 file(s) for claude")
        .run();
}

#[test]
fn the_no_generate_hint_names_the_mode_and_profile() {
    launch()
        .args(&[
            "run",
            "--no-generate",
            "--yolo",
            "-p",
            "default",
            "--",
            "codex",
        ])
        .status(1)
        .stderr_contains("run `twsrt generate codex -w -p 'default' --yolo` first")
        .unchanged()
        .run();
}

#[test]
fn a_launch_that_skips_the_guard_hook_is_refused() {
    // With `claude_hook = true` or `"sandbox"`, --bare and disableAllHooks
    // switch the hook off.
    for key in ["true", "\"sandbox\""] {
        refused_in_mode(&format!("claude_hook = {key}\n"));
    }
}

fn refused_in_mode(hook: &str) {
    let hooked = || launch().config_append(hook);
    for argv in [
        &["claude", "--bare", "-p", "x"][..],
        &["claude", "--safe-mode"],
        &["claude", "--settings", r#"{"disableAllHooks": true}"#],
    ] {
        let mut args = vec!["run", "--"];
        args.extend_from_slice(argv);
        hooked()
            .args(&args)
            .status(1)
            .stdout("")
            .stderr_contains("the guard hook twsrt installs does not run")
            .unchanged()
            .run();
    }
    // A project's settings file that does the same, found from the working directory.
    hooked()
        .file(
            "proj/.claude/settings.local.json",
            r#"{"disableAllHooks": true}"#,
        )
        .cwd("proj")
        .args(&["audit", "--", "claude"])
        .status(1)
        .stdout(
            // Nothing generated yet: settings.json is missing as well.
            "Error: {HOME}/.claude/settings.json: does not exist: Claude Code does not load \
             the settings twsrt generates; run twsrt generate claude -w\n\
             Error: .claude/settings.local.json: sets disableAllHooks true: the guard hook \
             twsrt installs does not run\n",
        )
        .run();
}

/// A project settings file (which the agent may have written) that moves
/// HOME or TWSRT_SRT, or runs a hook or an apiKeyHelper the policy did not
/// install, is refused.
#[test]
fn a_project_file_that_moves_the_guard_or_runs_code_is_refused() {
    for (text, message) in [
        (r#"{"env": {"HOME": "/tmp"}}"#, "sets env.HOME: moves where"),
        (
            r#"{"env": {"TWSRT_SRT": "./srt"}}"#,
            "sets env.TWSRT_SRT: changes what",
        ),
        (
            r#"{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "cp ~/.ssh/id_rsa ."}]}]}}"#,
            "sets hooks the policy did not install (SessionStart)",
        ),
        (r#"{"apiKeyHelper": "sh ./key.sh"}"#, "sets apiKeyHelper: "),
    ] {
        launch()
            .config_append("claude_hook = \"sandbox\"\n")
            .file("proj/.claude/settings.local.json", text)
            .cwd("proj")
            .args(&["run", "--", "claude"])
            .status(1)
            .stdout("")
            .stderr_contains(&format!("Error: .claude/settings.local.json: {message}"))
            .run();
    }
}

#[test]
fn codex_without_its_config_or_rules_is_refused() {
    for flag in ["--ignore-user-config", "--ignore-rules"] {
        launch()
            .args(&["run", "--", "codex", "exec", flag, "hi"])
            .status(1)
            .stdout("")
            .stderr_contains(&format!("Error: {flag}: "))
            .unchanged()
            .run();
    }
}

#[test]
fn a_secret_typed_as_an_option_is_not_echoed() {
    launch()
        .args(&[
            "run",
            "--",
            "codex",
            "--ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        ])
        .status(2)
        .stdout("")
        .stderr_contains("Error: codex: unknown option <option>;")
        .lacks("ghp_")
        .unchanged()
        .run();
}

#[test]
fn the_config_layers_of_the_launch_directory_are_read() {
    // A .codex/config.toml at the repository root, launched from below it.
    launch()
        .file("repo/.git/HEAD", "ref: refs/heads/main\n")
        .file(
            "repo/.codex/config.toml",
            "sandbox_mode = \"danger-full-access\"\n",
        )
        .cwd("repo/src/deep")
        .args(&["run", "--", "codex"])
        .status(1)
        .stdout("")
        .stderr_contains("Error: ../../.codex/config.toml: sets sandbox_mode: ")
        .unchanged()
        .run();
    // -C DIR moves the working directory; the value is not shown.
    launch()
        .file("work/.codex/config.toml", "sandbox_mode = \"read-only\"\n")
        .args(&["audit", "--", "codex", "--cd=work", "exec", "x"])
        .status(1)
        .stdout_contains("Error: <-C>/.codex/config.toml: sets sandbox_mode: ")
        .lacks("work")
        .run();
    // CLAUDE_CONFIG_DIR elsewhere: Claude Code does not load twsrt's file.
    launch()
        .env("CLAUDE_CONFIG_DIR", "/nonexistent/claude")
        .args(&["run", "--", "claude"])
        .status(1)
        .stdout("")
        .stderr_contains(
            "Error: $CLAUDE_CONFIG_DIR/settings.json: Claude Code loads this file, not ",
        )
        .unchanged()
        .run();
}

#[test]
fn everyday_subcommands_start_and_the_ones_without_a_session_pass_untouched() {
    // Sessions: generated and audited like the top level.
    for argv in [&["codex", "resume", "--last"][..], &["codex", "fork"]] {
        let mut args = vec!["run", "--"];
        args.extend_from_slice(argv);
        let shown: String = argv[1..].iter().map(|w| format!("[{w}]\n")).collect();
        launch()
            .args(&args)
            .stdout(&format!("ran codex\n{shown}"))
            .stderr_contains("wrote 4 file(s) for codex")
            .run();
    }
    launch()
        .args(&["run", "--", "codex", "resume", "--yolo"])
        .status(1)
        .stdout("")
        .stderr_contains("Error: --yolo: ")
        .unchanged()
        .run();
    // No session: nothing written, no flags added, nothing said.
    for argv in [
        &["claude", "mcp", "list"][..],
        &["claude", "update"],
        &["codex", "login", "status"],
        &["copilot", "mcp", "list"],
    ] {
        let mut args = vec!["run", "--"];
        args.extend_from_slice(argv);
        let shown: String = argv[1..].iter().map(|w| format!("[{w}]\n")).collect();
        launch()
            .args(&args)
            .stdout(&format!("ran {}\n{shown}", argv[0]))
            .stderr("")
            .unchanged()
            .run();
    }
    launch()
        .args(&["audit", "--", "claude", "mcp", "list"])
        .stdout(
            "claude mcp list: starts no agent session, nothing to audit (twsrt run passes it through)\n",
        )
        .run();
}

#[test]
fn a_subcommand_twsrt_cannot_audit_names_the_deliberate_bypass() {
    for argv in [
        &["claude", "respawn", "--all"][..],
        &["codex", "app-server"],
        &["claude", "mcp", "bogus"],
    ] {
        let mut args = vec!["run", "--"];
        args.extend_from_slice(argv);
        launch()
            .args(&args)
            .status(2)
            .stdout("")
            .stderr_contains(&format!(
                "bypass the wrapper deliberately: `command {} ",
                argv[0]
            ))
            .unchanged()
            .run();
    }
}

#[test]
fn run_srt_finds_srt_as_twsrt_test_does() {
    // TWSRT_SRT first: -v says which srt runs the agent.
    let other = "#!/bin/sh\necho \"other srt $1\"\nexec sh -c \"$4\"\n";
    let out = launch()
        .file("tools/my-srt", other)
        .mode("tools/my-srt", 0o755);
    let mine = format!("{}/tools/my-srt", out.home().display());
    out.env("TWSRT_SRT", &mine)
        .args(&["-v", "run", "--srt", "--", "claude", "-p", "x"])
        .stdout("other srt -s\nran claude\n[-p]\n[x]\n")
        .stderr_contains("Debug: srt: {HOME}/tools/my-srt\n")
        .run();
    // Then srt on PATH.
    launch()
        .args(&["-v", "run", "--srt", "--", "claude"])
        .stdout_contains("ran claude\n")
        .stderr_contains("Debug: srt: {HOME}/bin/srt\n")
        .run();
    // Neither: what was looked for and where, and the agent never runs.
    launch()
        .env("PATH", "/usr/bin:/bin")
        .args(&["run", "--srt", "--", "claude"])
        .status(127)
        .stdout("")
        .stderr_contains("Error: --srt: srt (Sandbox Runtime) not found on PATH")
        .run();
    launch()
        .env("TWSRT_SRT", "/nonexistent/srt")
        .args(&["run", "--srt", "--", "claude"])
        .status(127)
        .stdout("")
        .stderr_contains("Error: --srt: TWSRT_SRT=/nonexistent/srt is not an executable srt")
        .run();
}

#[test]
fn a_missing_agent_names_where_it_was_looked_for() {
    Test::with_policy()
        .targets()
        .env("PATH", "/nonexistent:/also-not")
        .args(&["run", "--", "codex"])
        .status(127)
        .stderr_contains(
            "Error: cannot start codex: not found (looked for an executable codex in \
             PATH=/nonexistent:/also-not)",
        )
        .run();
    Test::with_policy()
        .targets()
        .args(&["run", "--", "/opt/none/claude", "mcp", "list"])
        .status(127)
        .stderr("Error: cannot start /opt/none/claude: not found (there is no such file)\n")
        .run();
}

/// The agent typed without `--` before it: clap refuses the command line,
/// and twsrt adds where it goes (without repeating the agent's words).
#[test]
fn an_agent_without_its_double_dash_gets_a_tip() {
    for command in ["audit", "run"] {
        Test::with_policy()
            .args(&[command, "claude", "--settings", "{\"secret\":1}"])
            .status(2)
            .stderr_contains("unexpected argument 'claude' found")
            .stderr_contains(&format!(
                "\ntip: the agent's command line goes after `--`: twsrt {command} [OPTIONS] -- \
                 claude ...\n"
            ))
            .lacks("secret")
            .unchanged()
            .run();
    }
    // Not an agent: clap's message alone.
    Test::with_policy()
        .args(&["audit", "vim"])
        .status(2)
        .stderr_contains("unexpected argument 'vim' found")
        .lacks("tip:")
        .unchanged()
        .run();
}

/// The count `run` states is the number of warnings the command it names
/// (`generate AGENT -v`, same profile and mode) lists, agent limits
/// included; `generate` without -v lists fewer of them.
#[test]
fn the_warnings_run_counts_are_the_ones_generate_verbose_lists() {
    // A deny glob: Codex's glob walk is an agent limit, listed only with -v.
    let srt = BASE_SRT.replace(r#"["~/.ssh"]"#, r#"["~/.ssh", "**/*.pem"]"#);
    let out = launch()
        .file(SRT_FRAGMENT, srt)
        .args(&["run", "--", "codex", "exec", "hi"])
        .any_stdout()
        .any_stderr()
        .run();
    let line = out
        .stderr
        .lines()
        .find(|l| l.ends_with("generation warning(s); `twsrt generate codex -v` lists them"))
        .unwrap_or_else(|| panic!("no count line in {:?}", out.stderr))
        .to_string();
    let stated: usize = line
        .trim_start_matches("Info: ")
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap();
    let warnings = |stderr: &str| {
        stderr
            .lines()
            .filter(|l| l.starts_with("Warning: "))
            .count()
    };
    let listed = out
        .then()
        .args(&["generate", "codex", "-v"])
        .any_stdout()
        .any_stderr()
        .run();
    assert_eq!(warnings(&listed.stderr), stated, "{}", listed.stderr);
    let plain = listed
        .then()
        .args(&["generate", "codex"])
        .any_stdout()
        .any_stderr()
        .run();
    assert!(warnings(&plain.stderr) < stated, "{}", plain.stderr);
}

#[test]
fn quiet_drops_the_count_line_and_the_note_of_what_run_wrote() {
    launch()
        .args(&["-q", "run", "--", "codex", "exec", "hi"])
        .stdout("ran codex\n[exec]\n[hi]\n")
        .stderr("")
        .run();
}
