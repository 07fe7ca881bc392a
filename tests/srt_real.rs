//! `twsrt test` against the real Sandbox Runtime (npm
//! @anthropic-ai/sandbox-runtime, with bubblewrap, socat and ripgrep).
//!
//! srt is found through `TWSRT_SRT` or the cache `scripts/install-srt.sh`
//! fills (`$TWSRT_SRT_CACHE`, default `~/.cache/twsrt-srt`). Without it these
//! tests fail when `CI` is set and are skipped, loudly, otherwise.

use crate::support::*;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn find_srt() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("TWSRT_SRT").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    let cache = match std::env::var_os("TWSRT_SRT_CACHE").filter(|p| !p.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var_os("HOME")?).join(".cache/twsrt-srt"),
    };
    let bin = cache.join("node_modules/.bin/srt");
    bin.exists().then_some(bin)
}

/// The srt binary, or None (after a loud message) when it is missing and
/// this is not CI.
fn srt() -> Option<String> {
    match find_srt() {
        Some(path) => Some(path.display().to_string()),
        None if std::env::var_os("CI").is_some() => panic!(
            "srt (Sandbox Runtime) not found: CI must run scripts/install-srt.sh first \
             (or set TWSRT_SRT)"
        ),
        None => {
            eprintln!(
                "\n!!! SKIPPED: srt (Sandbox Runtime) not found. Run scripts/install-srt.sh \
                 (or set TWSRT_SRT) to run the tests against the real srt. !!!\n"
            );
            None
        }
    }
}

const POLICY: &str = r#"{
  "filesystem": {
    "denyRead": ["~/.ssh", "~/secrets/token.txt", "~/.aws"],
    "denyWrite": ["~/work/locked.cfg"],
    "allowWrite": ["~/work"]
  },
  "network": {
    "allowedDomains": ["github.com", "*.example.org"],
    "deniedDomains": ["evil.com"]
  }
}"#;

/// A HOME with planted secrets (a key in a directory, a token file, a
/// credentials file behind a symlinked directory), a write-protected file in
/// a writable directory, and the compiled settings written by `generate -w`.
fn generated_home() -> Output {
    Test::with_policy()
        .file(".config/twsrt/srt/base.jsonc", POLICY)
        .file(".ssh/id_ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----\n")
        .file("secrets/token.txt", "ghp_planted\n")
        .file(
            "vault/aws/credentials",
            "[default]\naws_secret_access_key = x\n",
        )
        .symlink(".aws", "vault/aws")
        .file("work/locked.cfg", "keep me\n")
        .args(&["generate", "-w"])
        .run()
}

struct Run {
    status: i32,
    stdout: String,
    stderr: String,
}

/// Run twsrt in an existing HOME (like the scenario builder), with srt's
/// location and a TMPDIR that must be empty again afterwards.
fn twsrt(home: &Path, srt: &str, args: &[&str]) -> Run {
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_twsrt"))
        .args(args)
        .current_dir(home)
        .env_clear()
        .env("HOME", home)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("NO_COLOR", "1")
        .env("TMPDIR", tmp.path())
        .env("TWSRT_SRT", srt)
        .output()
        .expect("run twsrt");
    let home_text = home.display().to_string();
    let run = Run {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).replace(&home_text, "{HOME}"),
        stderr: String::from_utf8_lossy(&out.stderr).replace(&home_text, "{HOME}"),
    };
    let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().flatten().collect();
    assert!(left.is_empty(), "twsrt test left {left:?} in TMPDIR");
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    run
}

fn results(run: &Run) -> Vec<Value> {
    let json: Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}\n--- stdout\n{}--- stderr\n{}", run.stdout, run.stderr));
    json["results"].as_array().unwrap().clone()
}

fn row(result: &Value) -> String {
    format!(
        "{} {} {} {}",
        result["status"].as_str().unwrap(),
        result["kind"].as_str().unwrap(),
        result["rule"].as_str().unwrap(),
        result["note"].as_str().unwrap_or("-"),
    )
}

#[test]
fn a_policy_with_planted_secrets_passes() {
    let Some(srt) = srt() else { return };
    let out = generated_home();
    let before = tree(out.home.path());
    let run = twsrt(out.home.path(), &srt, &["test", "--json"]);
    let rows: Vec<String> = results(&run).iter().map(row).collect();
    assert_eq!(
        rows,
        vec![
            "PASS denyRead ~/.ssh -",
            "PASS denyRead ~/secrets/token.txt -",
            "PASS denyRead ~/.aws -",
            "PASS denyRead ~/.aws real path",
            "PASS denyWrite ~/work/locked.cfg -",
            "PASS allowWrite ~/work -",
            "PASS allowedDomains github.com -",
            "PASS allowedDomains *.example.org -",
            "PASS allowedDomains (canary) -",
            "PASS deniedDomains evil.com -",
        ],
        "--- stderr\n{}",
        run.stderr
    );
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(!run.stderr.contains("differs"), "{}", run.stderr);
    // Probe files were removed, secrets and settings untouched.
    assert_eq!(tree(out.home.path()), before);
}

#[test]
fn a_denyread_removed_by_hand_fails_for_exactly_that_rule() {
    let Some(srt) = srt() else { return };
    let out = generated_home();
    let settings = out.path(".srt-settings.json");
    let mut value: Value = serde_json::from_str(&out.read(".srt-settings.json")).unwrap();
    let deny_read = value["filesystem"]["denyRead"].as_array_mut().unwrap();
    deny_read.retain(|v| v != "~/.ssh");
    std::fs::write(&settings, serde_json::to_string_pretty(&value).unwrap()).unwrap();

    let run = twsrt(out.home.path(), &srt, &["test", "--json"]);
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("Warning: {HOME}/.srt-settings.json differs from what profile 'default'"),
        "{}",
        run.stderr
    );
    let results = results(&run);
    let bad: Vec<String> = results
        .iter()
        .filter(|r| r["status"] != "PASS")
        .map(row)
        .collect();
    assert_eq!(bad, vec!["FAIL denyRead ~/.ssh -"]);
    let fail = results.iter().find(|r| r["status"] == "FAIL").unwrap();
    assert_eq!(fail["origin"], "policy only");
    assert_eq!(fail["expectation"], "blocked");
    assert_eq!(fail["command"], "head -c1 -- {HOME}/.ssh/id_ed25519");
    assert_eq!(fail["sandbox"]["exit"], 0);
    assert!(
        fail["reason"]
            .as_str()
            .unwrap()
            .contains("succeeded in the sandbox")
    );

    // The table says the same for a person (-k keeps the run short).
    let run = twsrt(out.home.path(), &srt, &["test", "-k", ".ssh"]);
    assert_eq!(run.status, 1, "{}", run.stderr);
    let fail_row = run
        .stdout
        .lines()
        .find(|l| l.starts_with("FAIL "))
        .unwrap_or_else(|| panic!("{}", run.stdout));
    let cells: Vec<&str> = fail_row.split_whitespace().collect();
    assert_eq!(
        cells[..8],
        [
            "FAIL", "denyRead", "~/.ssh", "[missing", "from", "the", "file]", "0/0"
        ],
        "{fail_row}"
    );
    assert!(
        run.stdout
            .contains("\nFAIL denyRead ~/.ssh [missing from the file]\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("1 probe: 0 PASS, 1 FAIL, 0 INVALID, 0 ERROR, 0 SKIP"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_file_srt_would_refuse_is_caught_by_the_preflight() {
    let Some(srt) = srt() else { return };
    let out = generated_home();
    let mut value: Value = serde_json::from_str(&out.read(".srt-settings.json")).unwrap();
    value["network"]
        .as_object_mut()
        .unwrap()
        .remove("deniedDomains");
    std::fs::write(
        out.path(".srt-settings.json"),
        serde_json::to_string_pretty(&value).unwrap(),
    )
    .unwrap();
    let run = twsrt(out.home.path(), &srt, &["test"]);
    assert_eq!(run.status, 2, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(run.stdout, "");
    for fact in [
        "Error: preflight failed for {HOME}/.srt-settings.json: srt refuses this settings file:",
        "  - `network.deniedDomains` is missing (srt requires the list, even empty)",
        "-c true` failed (exit 1: Error: {HOME}/.srt-settings.json does not hold a valid config",
    ] {
        assert!(run.stderr.contains(fact), "{fact}\n{}", run.stderr);
    }
}
