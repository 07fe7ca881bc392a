//! srt's `credentials`, `network.strictAllowlist` and
//! `network.deniedDomainReasons` as policy (issue 33): checked in each
//! fragment, composed across fragments, compiled into every agent that has
//! an equivalent, and named once where an agent has none.

use serde_json::Value;

use crate::support::*;

const CREDENTIALS: &str = r#"{
  "filesystem": {"denyRead": ["~/.ssh"], "allowWrite": ["."]},
  "network": {"allowedDomains": ["github.com"], "deniedDomains": ["evil.com"],
    "strictAllowlist": true, "deniedDomainReasons": {"evil.com": "exfiltration host"}},
  "credentials": {
    "files": [{"path": "~/.netrc", "mode": "mask"}, {"path": "/etc/k.pem", "mode": "deny"}],
    "envVars": [{"name": "GITHUB_TOKEN", "mode": "mask"}],
    "allowPlaintextInject": true
  }
}"#;

fn policy(srt: &str) -> Test {
    Test::with_policy().file(SRT_FRAGMENT, srt)
}

#[test]
fn claude_gets_the_credentials_the_strict_allowlist_and_read_denies_for_the_files() {
    let out = policy(CREDENTIALS)
        .targets()
        .args(&["generate", "claude"])
        .any_stdout()
        .stderr_contains(
            "Warning: srt network.deniedDomainReasons not compiled: Claude Code's sandbox \
             settings have no such key (a denied host gets its generic reason)\n",
        )
        .stderr_contains(
            "Warning: masked credential files are denied outright in Claude Code (their Read \
             deny rule is a sandbox read deny too, which shadows the mask): ~/.netrc\n",
        )
        .any_stderr()
        .run();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let deny: Vec<&str> = doc["permissions"]["deny"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for rule in [
        "Read(~/.netrc)",
        "Edit(~/.netrc)",
        "Read(//etc/k.pem)",
        "Edit(//etc/k.pem)",
    ] {
        assert!(deny.contains(&rule), "{rule} not in {deny:?}");
    }
    assert_eq!(doc["sandbox"]["network"]["strictAllowlist"], true);
    assert_eq!(
        doc["sandbox"]["credentials"]["envVars"][0]["name"],
        "GITHUB_TOKEN"
    );
    assert_eq!(
        doc["sandbox"]["credentials"]["files"][1]["path"],
        "/etc/k.pem"
    );
    assert!(
        doc["sandbox"]["network"]
            .get("deniedDomainReasons")
            .is_none()
    );
}

#[test]
fn a_policy_without_the_new_keys_renders_no_trace_of_them() {
    let out = Test::with_policy()
        .targets()
        .args(&["generate", "claude"])
        .any_stdout()
        .lacks("srt-key")
        .lacks("not compiled")
        .any_stderr()
        .run();
    assert!(!out.stdout.contains("credentials"));
    assert!(!out.stdout.contains("strictAllowlist"));
}

#[test]
fn every_other_agent_says_once_what_it_cannot_hold() {
    let out = policy(CREDENTIALS)
        .targets()
        .config_append("gemini_policy = \"~/.gemini/policies/twsrt.toml\"\n")
        .config_append("opencode_config = \"~/.config/opencode/opencode.json\"\n")
        .args(&["generate", "all"])
        .any_stdout()
        .any_stderr()
        .run();
    for says in [
        "Warning: srt credentials.envVars, network.strictAllowlist, network.deniedDomainReasons \
         not compiled: Codex 0.171's own credential masking",
        "Warning: srt credentials.envVars, network.strictAllowlist, network.deniedDomainReasons \
         not compiled: Gemini CLI starts no sandbox",
        "Warning: srt credentials.envVars, network.strictAllowlist, network.deniedDomainReasons \
         not compiled: OpenCode starts no sandbox",
        "Warning: srt credentials.files, credentials.envVars, network.strictAllowlist, \
         network.deniedDomainReasons not compiled: Copilot CLI's flags and settings",
    ] {
        assert_eq!(
            out.stderr.matches(says).count(),
            1,
            "{says}\n{}",
            out.stderr
        );
    }
    // The credential files are read denies of Codex's and Gemini's rules.
    assert!(
        out.stdout.contains("\"/etc/k.pem\" = \"deny\""),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("denyMessage = \"twsrt policy: denyRead '~/.netrc'\""),
        "{}",
        out.stdout
    );
}

#[test]
fn doctor_lists_what_an_agent_cannot_hold() {
    policy(CREDENTIALS)
        .config_append(COPILOT_ONLY)
        .args(&["doctor"])
        .any_status()
        .stdout_contains("srt-key-skipped")
        .any_stdout()
        .any_stderr()
        .run();
}

#[test]
fn credentials_from_two_fragments_are_one_list_and_a_strict_allowlist_cannot_be_both() {
    let two = |work: &str| {
        Test::with_policy()
            .file(
                SRT_FRAGMENT,
                r#"{"filesystem": {"allowWrite": ["."]}, "network": {"strictAllowlist": true},
                    "credentials": {"files": [{"path": "~/.netrc", "mode": "deny"}]}}"#,
            )
            .config_append(WORK_CONFIG)
            .file(".config/twsrt/srt/work.jsonc", work)
            .args(&["show", "-p", "work", "srt"])
    };
    let out = two(
        r#"{"credentials": {"files": [{"path": "~/.pgpass", "mode": "deny"},
        {"path": "~/.netrc", "mode": "deny"}]}}"#,
    )
    .any_stdout()
    .run();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let paths: Vec<&str> = doc["credentials"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["path"].as_str())
        .collect();
    assert_eq!(paths, ["~/.netrc", "~/.pgpass"]);
    two(r#"{"network": {"strictAllowlist": false}}"#)
        .status(1)
        .stderr_contains("set different values at /network/strictAllowlist")
        .run();
}

#[test]
fn what_srt_would_refuse_or_never_apply_is_refused() {
    for (srt, says) in [
        (
            r#"{"credentials": {"files": [{"path": ".env", "mode": "deny"}]}}"#,
            "`credentials.files` entry 0: `path` \".env\" must be absolute or start with `~`",
        ),
        (
            r#"{"credentials": {"envVars": [{"name": "T", "mode": "mask"}]}}"#,
            "a credential with mode \"mask\" needs network.tlsTerminate",
        ),
        (
            r#"{"network": {"deniedDomains": ["evil.com:22"], "deniedDomainReasons": {"evil.com": "x"}}}"#,
            "network.deniedDomainReasons has \"evil.com\", which is no network.deniedDomains entry",
        ),
        (
            r#"{"network": {"strictAllowlist": "yes"}}"#,
            "`network.strictAllowlist` must be true or false",
        ),
    ] {
        policy(srt)
            .args(&["show", "srt"])
            .status(1)
            .stderr_contains(says)
            .run();
    }
}

/// The guard hook reads the same rules: a masked credential file is denied
/// to Claude's Read tool and to a shell command naming it.
#[test]
fn the_guard_hook_denies_a_masked_credential_file() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    for (rel, text) in [
        (CONFIG, BASE_CONFIG),
        (SRT_FRAGMENT, CREDENTIALS),
        (BASH_FRAGMENT, BASE_BASH),
        (".netrc", "machine x password p"),
    ] {
        let path = h.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let netrc = h.join(".netrc").to_string_lossy().into_owned();
    for (tool, input) in [
        ("Read", serde_json::json!({"file_path": netrc})),
        (
            "Bash",
            serde_json::json!({"command": "cat ~/.netrc", "description": "x"}),
        ),
    ] {
        let event = serde_json::json!({
            "session_id": "s", "transcript_path": h.join("t.jsonl"), "cwd": h,
            "permission_mode": "default", "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_input": input, "tool_use_id": "t"});
        let mut child = Command::new(env!("CARGO_BIN_EXE_twsrt"))
            .args(["-c", &h.join(CONFIG).to_string_lossy(), "hook", "claude"])
            .current_dir(h)
            .env_clear()
            .env("HOME", h)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(event.to_string().as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            answer["hookSpecificOutput"]["permissionDecision"], "deny",
            "{tool}: {answer}"
        );
    }
}

#[test]
fn with_its_command_sandbox_copilot_holds_the_credential_files() {
    let out = policy(CREDENTIALS)
        .config_append(
            "\n[targets]\ncopilot_output = \"~/flags/copilot.txt\"\n\
             copilot_settings = \"~/.copilot/settings.json\"\ncopilot_sandbox = true\n",
        )
        .args(&["generate", "copilot"])
        .stderr_contains(
            "Warning: srt credentials.envVars, network.strictAllowlist, \
             network.deniedDomainReasons not compiled: Copilot CLI's",
        )
        .lacks("credentials.files")
        .any_stderr()
        .any_stdout()
        .run();
    assert!(out.stdout.contains("\"/etc/k.pem\""), "{}", out.stdout);
}

#[test]
fn claude_diff_compares_the_new_keys_only_when_the_policy_has_them() {
    // A hand-written sandbox.credentials the policy does not have: kept by
    // the merge, and no drift.
    let written = Test::with_policy()
        .targets()
        .args(&["generate", "claude", "-w"])
        .any_stderr()
        .any_stdout()
        .run();
    let path = written.path(CLAUDE_TARGET);
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    doc["sandbox"]["credentials"] = serde_json::json!({"envVars": [{"name": "T", "mode": "deny"}]});
    doc["sandbox"]["network"]["strictAllowlist"] = serde_json::json!(true);
    std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    written
        .then()
        .args(&["diff", "claude"])
        .any_stdout()
        .any_stderr()
        .run();
    // The policy's credentials changed on disk: widening drift.
    let written = policy(CREDENTIALS)
        .targets()
        .args(&["generate", "claude", "-w"])
        .any_stderr()
        .any_stdout()
        .run();
    let path = written.path(CLAUDE_TARGET);
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    doc["sandbox"]["credentials"]["envVars"] = serde_json::json!([]);
    doc["sandbox"]["network"]["strictAllowlist"] = serde_json::json!(false);
    std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let out = written
        .then()
        .args(&["diff", "claude", "--json"])
        .status(1)
        .any_stdout()
        .any_stderr()
        .run();
    let report: Value = serde_json::from_str(&out.stdout).unwrap();
    let text = report.to_string();
    assert!(text.contains("sandbox.credentials"), "{text}");
    assert!(text.contains("sandbox.network.strictAllowlist"), "{text}");
    assert!(!text.contains("\"narrowing\""), "{text}");
}
