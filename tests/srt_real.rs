//! `twsrt test` against the real Sandbox Runtime (npm
//! @anthropic-ai/sandbox-runtime, with bubblewrap, socat and ripgrep).
//!
//! srt is found through `TWSRT_SRT` or the cache `scripts/install-srt.sh`
//! fills (`$TWSRT_SRT_CACHE`, default `~/.cache/twsrt-srt`). Without it these
//! tests fail when `CI` is set and are skipped, loudly, otherwise.

use crate::support::*;

use std::path::PathBuf;

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
        .file(SRT_FRAGMENT, POLICY)
        .file(".ssh/id_ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----\n")
        .file("secrets/token.txt", "ghp_planted\n")
        .file(
            "vault/aws/credentials",
            "[default]\naws_secret_access_key = x\n",
        )
        .symlink(".aws", "vault/aws")
        .file("work/locked.cfg", "keep me\n")
        .args(&["generate", "-w"])
        .stderr(&format!(
            "{NO_AGENTS}\
             Wrote canonical: {{HOME}}/.srt-settings.json\n\
             Wrote canonical: {{HOME}}/.config/twsrt/bash-rules.json\n"
        ))
        .run()
}

/// `twsrt <args>` in the HOME of `home`, with srt's location and a TMPDIR
/// that must be empty again afterwards.
fn twsrt_test(home: Output, srt: &str, args: &[&str]) -> Test {
    home.then().args(args).env("TWSRT_SRT", srt).clean_tmpdir()
}

fn results(run: &Output) -> Vec<Value> {
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

/// Edit the settings file on disk, as a person would by hand.
fn edit_settings(out: &Output, edit: impl FnOnce(&mut Value)) {
    let mut value: Value = serde_json::from_str(&out.read(SRT_OUT)).unwrap();
    edit(&mut value);
    std::fs::write(
        out.path(SRT_OUT),
        serde_json::to_string_pretty(&value).unwrap(),
    )
    .unwrap();
}

#[test]
fn a_policy_with_planted_secrets_passes() {
    let Some(srt) = srt() else { return };
    // The JSON report carries timings and sandbox output: its rows are
    // checked below. Probe files are removed (the HOME is unchanged, secrets
    // and settings untouched) and nothing differs on stderr.
    let run = twsrt_test(generated_home(), &srt, &["test", "--json"])
        .any_stdout()
        .unchanged()
        .run();
    let rows: Vec<String> = results(&run).iter().map(row).collect();
    assert_eq!(
        rows,
        // Lists are sorted; every denyRead path is write-denied too, and so
        // are the policy files (config.toml, the outputs, the fragments).
        vec![
            "PASS denyRead ~/.aws -",
            "PASS denyRead ~/.aws real path",
            "PASS denyRead ~/.ssh -",
            "PASS denyRead ~/secrets/token.txt -",
            "PASS denyWrite ~/.aws -",
            "PASS denyWrite ~/.aws real path",
            "PASS denyWrite ~/.config/twsrt/bash-rules.json -",
            "PASS denyWrite ~/.config/twsrt/bash/base.jsonc -",
            "PASS denyWrite ~/.config/twsrt/config.toml -",
            "PASS denyWrite ~/.config/twsrt/srt/base.jsonc -",
            "PASS denyWrite ~/.srt-settings.json -",
            "PASS denyWrite ~/.ssh -",
            "PASS denyWrite ~/secrets/token.txt -",
            "PASS denyWrite ~/work/locked.cfg -",
            "PASS allowWrite ~/work -",
            "PASS allowedDomains *.example.org -",
            "PASS allowedDomains github.com -",
            "PASS allowedDomains (canary) -",
            "PASS deniedDomains evil.com -",
        ],
        "--- stderr\n{}",
        run.stderr
    );
}

#[test]
fn a_denyread_removed_by_hand_fails_for_exactly_that_rule() {
    let Some(srt) = srt() else { return };
    let out = generated_home();
    edit_settings(&out, |value| {
        let deny_read = value["filesystem"]["denyRead"].as_array_mut().unwrap();
        deny_read.retain(|v| v != "~/.ssh");
    });

    let run = twsrt_test(out, &srt, &["test", "--json"])
        .status(1)
        .any_stdout()
        .stderr(DIFFERS)
        .run();
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

    // The table says the same for a person (-k keeps the run short). Its
    // timing column varies: the row is checked cell by cell.
    let run = twsrt_test(run, &srt, &["test", "-k", ".ssh"])
        .status(1)
        .stdout_contains("\nFAIL denyRead ~/.ssh [missing from the file]\n")
        .stdout_contains("2 probes: 1 PASS, 1 FAIL, 0 INVALID, 0 ERROR, 0 SKIP")
        .stderr(DIFFERS)
        .run();
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
}

#[test]
fn a_file_srt_would_refuse_is_caught_by_the_preflight() {
    let Some(srt) = srt() else { return };
    let out = generated_home();
    edit_settings(&out, |value| {
        value["network"]
            .as_object_mut()
            .unwrap()
            .remove("deniedDomains");
    });
    // The third line quotes srt's own message (and srt's path), which is
    // srt's to word: the facts twsrt words are checked.
    twsrt_test(out, &srt, &["test"])
        .status(2)
        .stderr_contains(&format!(
            "{DIFFERS}Error: preflight failed for {{HOME}}/.srt-settings.json: \
             srt refuses this settings file:\n  \
             - `network.deniedDomains` is missing (srt requires the list, even empty)\n"
        ))
        .stderr_contains(
            " -s {HOME}/.srt-settings.json -c true` failed (exit 1: Error: \
             {HOME}/.srt-settings.json does not hold a valid config",
        )
        .stderr_contains(
            "\nThe file differs from the policy: `twsrt generate -w` rewrites it from the policy.\n",
        )
        .run();
}
