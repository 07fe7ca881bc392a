//! `twsrt audit` and `twsrt run` with Gemini CLI: the exit codes, a stand-in
//! `gemini` on PATH that prints the argv it was started with.

use crate::support::*;

const STAND_IN: &str = "#!/bin/sh\necho \"ran $(basename \"$0\")\"\nfor a in \"$@\"; do printf '[%s]\\n' \"$a\"; done\n";
const SRT_STAND_IN: &str = "#!/bin/sh\necho \"srt $1 $2 $3\"\nexec sh -c \"$4\"\n";

/// The base policy, no [targets] entry for Gemini, and the stand-ins.
fn launch() -> Test {
    let test = Test::with_policy();
    let path = format!("{}/bin:/usr/bin:/bin", test.home().display());
    test.file("bin/gemini", STAND_IN)
        .mode("bin/gemini", 0o755)
        .file("bin/srt", SRT_STAND_IN)
        .mode("bin/srt", 0o755)
        .env("PATH", &path)
}

#[test]
fn audit_exit_codes() {
    let yolo = "Warning: --yolo: runs every tool call no rule matches without asking";
    launch()
        .args(&["audit", "--", "gemini", "--yolo"])
        .stdout_contains(yolo)
        .run();
    launch()
        .args(&["audit", "--strict", "--", "gemini", "--approvalMode=yolo"])
        .status(1)
        .stdout_contains("Warning: --approvalMode=yolo: ")
        .run();
    launch()
        .args(&["audit", "--", "gemini", "--policy", "/SECRET"])
        .status(1)
        .stdout_contains("Error: --policy <value>: replaces Gemini's user policy directory")
        .lacks("SECRET")
        .run();
    launch()
        .args(&["audit", "--", "gemini", "-p", "hi"])
        .stdout("gemini: no findings\n")
        .run();
    for (argv, said) in [
        (
            &["gemini", "--bogus"][..],
            "Error: gemini: unknown option --bogus",
        ),
        (
            &["gemini", "-p", "--yolo"],
            "Error: gemini: option -p needs a value",
        ),
    ] {
        let mut args = vec!["audit", "--"];
        args.extend_from_slice(argv);
        launch().args(&args).status(2).stderr_contains(said).run();
    }
    // Managing MCP servers starts no session: nothing to audit.
    launch()
        .args(&["audit", "--", "gemini", "mcp", "list"])
        .stdout(
            "gemini mcp: starts no agent session, nothing to audit (twsrt run passes it through)\n",
        )
        .run();
}

#[test]
fn audit_reads_the_sandbox_from_the_environment() {
    launch()
        .env("GEMINI_SANDBOX", "docker")
        .args(&["audit", "--", "gemini", "--no-sandbox"])
        .status(1)
        .stdout_contains("Error: GEMINI_SANDBOX: starts Gemini in a docker container")
        .run();
}

#[test]
fn the_gemini_grammar_is_dumped() {
    let out = Test::new()
        .args(&["audit", "--dump-grammar", "gemini"])
        .any_stdout()
        .run();
    for line in [
        "gemini\t--yolo,-y\tflag\n",
        "gemini\t--policy\tmany\n",
        "gemini\t--resume,-r\toptional\n",
        "gemini\t--isCommand\tflag\thidden\n",
        "gemini\tcommand\textensions,extension\tpass\n",
    ] {
        assert!(out.stdout.contains(line), "{line:?} in {}", out.stdout);
    }
}

#[test]
fn run_starts_gemini_and_says_it_has_no_target() {
    launch()
        .args(&["run", "--", "gemini", "-p", "hi"])
        .stdout("ran gemini\n[-p]\n[hi]\n")
        .stderr_contains("Warning: gemini is not configured in [targets] of config.toml")
        .run();
}

#[test]
fn run_refuses_what_defeats_the_policy() {
    // The container sandbox leaves twsrt's policy file behind.
    let container: &[&str] = &["run", "--", "gemini", "-s"];
    if !cfg!(target_os = "macos") {
        launch()
            .args(container)
            .status(1)
            .stdout("")
            .stderr_contains("Error: -s: starts Gemini in a docker or podman container")
            .stderr_contains("gemini was not started")
            .run();
    }
    launch()
        .args(&["run", "--strict", "--", "gemini", "-y"])
        .status(1)
        .stdout("")
        .stderr_contains("Warning: -y: ")
        .run();
    launch()
        .args(&["run", "--", "gemini", "--nope"])
        .status(2)
        .stdout("")
        .stderr_contains("Error: gemini: unknown option --nope")
        .run();
}

#[test]
fn run_srt_wraps_gemini() {
    launch()
        .args(&["run", "--srt", "--", "gemini", "-p", "it's"])
        .stdout("srt -s {HOME}/.srt-settings.json -c\nran gemini\n[-p]\n[it's]\n")
        .any_stderr()
        .run();
}

/// `[targets]` configuring Gemini alone.
const GEMINI_ONLY: &str = "\n[targets]\ngemini_policy = \"~/.gemini/policies/twsrt.toml\"\n";

#[test]
fn run_writes_the_gemini_policy_file_first() {
    // The stand-in shows the policy file exists when gemini starts.
    let reader = "#!/bin/sh\ngrep -c 'decision = \"deny\"' \"$HOME/.gemini/policies/twsrt.toml\" >/dev/null && echo loaded\n";
    let out = launch()
        .config_append(GEMINI_ONLY)
        .file("bin/gemini", reader)
        .mode("bin/gemini", 0o755)
        .args(&["run", "--", "gemini", "-p", "hi"])
        .stdout("loaded\n")
        .stderr_contains("wrote 3 file(s) for gemini")
        .lacks("not configured")
        .run();
    // An allow rule another file puts in twsrt's tier, at twsrt's priority.
    out.then()
        .file(
            ".gemini/policies/mine.toml",
            "[[rule]]\ntoolName = \"run_shell_command\"\ndecision = \"allow\"\npriority = 999\n",
        )
        .args(&["audit", "--", "gemini"])
        .stdout("Warning: {HOME}/.gemini/policies/mine.toml: 1 allow rule(s) of priority 998 or more sit in twsrt's tier, where they can win over its deny or ask_user rules\n")
        .run();
}

#[test]
fn a_generated_setup_has_no_findings_in_either_mode() {
    // The full and the yolo file sit in ~/.gemini/policies, where Gemini
    // loads them; neither is a foreign file to the audit.
    let written = launch()
        .config_append(GEMINI_ONLY)
        .args(&["generate", "gemini", "-w"])
        .any_stdout()
        .any_stderr()
        .run();
    let yolo = written
        .then()
        .args(&["generate", "gemini", "-w", "--yolo"])
        .any_stdout()
        .any_stderr()
        .run();
    yolo.then()
        .args(&["audit", "--", "gemini"])
        .stdout("gemini: no findings\n")
        .run()
        .then()
        .args(&["audit", "--yolo", "--", "gemini"])
        .stdout("gemini: no findings\n")
        .run();
}
