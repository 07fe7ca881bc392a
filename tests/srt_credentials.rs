//! `twsrt test` proves srt's declared credentials and strict allowlist with
//! the real Sandbox Runtime (issue 33): a denied variable is unset inside
//! the sandbox, a masked one holds a stand-in, a denied credential file is
//! unreadable, a masked one shows other bytes, and with
//! `network.strictAllowlist` an unlisted host is refused by srt's proxy
//! (offline: the proxy answers 403 itself, and srt's CLI has no one to ask).

use crate::srt_real::{results, srt, twsrt_test};
use crate::support::*;

const POLICY: &str = r#"{
  "filesystem": {"denyRead": [], "denyWrite": [], "allowWrite": ["~/work"]},
  "network": {"allowedDomains": ["github.com"], "deniedDomains": [], "strictAllowlist": true},
  "credentials": {
    "files": [{"path": "~/secrets/token.txt", "mode": "deny"},
              {"path": "~/.netrc", "mode": "mask"}],
    "envVars": [{"name": "TWSRT_PROBE_DENIED", "mode": "deny"},
                {"name": "TWSRT_PROBE_MASKED", "mode": "mask"}],
    "allowPlaintextInject": true
  }
}"#;

fn home() -> Output {
    Test::with_policy()
        .file(SRT_FRAGMENT, POLICY)
        .file("secrets/token.txt", "ghp_planted\n")
        .file(".netrc", "machine github.com password ghp_masked\n")
        .file("work/.keep", "")
        .args(&["generate", "-w"])
        .stderr(&format!(
            "{NO_AGENTS}\
             Wrote canonical: {{HOME}}/.srt-settings.json\n\
             Wrote canonical: {{HOME}}/.config/twsrt/bash-rules.json\n"
        ))
        .run()
}

fn row(result: &serde_json::Value) -> String {
    let text = |key: &str| result[key].as_str().unwrap_or_default().to_string();
    format!("{} {} {}", text("status"), text("kind"), text("rule"))
}

#[test]
fn srt_hides_declared_credentials_and_refuses_unlisted_hosts() {
    let Some(srt) = srt() else { return };
    let run = twsrt_test(home(), &srt, &["test", "--json"])
        .env("TWSRT_PROBE_DENIED", "denied-value")
        .env("TWSRT_PROBE_MASKED", "masked-value")
        .any_stdout()
        .unchanged()
        .run();
    let results = results(&run);
    let rows: Vec<String> = results.iter().map(row).collect();
    let wanted = [
        "PASS credential ~/secrets/token.txt (deny)",
        "PASS credential ~/.netrc (mask)",
        "PASS credential $TWSRT_PROBE_DENIED (deny)",
        "PASS credential $TWSRT_PROBE_MASKED (mask)",
        "PASS net-deny example.com (not allowlisted, strictAllowlist)",
    ];
    for want in wanted {
        assert!(
            rows.iter().any(|r| r == want),
            "{want} not in\n{}\n--- stderr\n{}",
            rows.join("\n"),
            run.stderr
        );
    }
    let by_rule = |rule: &str| results.iter().find(|r| r["rule"] == rule).unwrap();
    assert_eq!(
        by_rule("~/.netrc (mask)")["reason"],
        "the sandbox sees a stand-in value, not the real one"
    );
    assert_eq!(
        by_rule("$TWSRT_PROBE_DENIED (deny)")["command"],
        "printenv TWSRT_PROBE_DENIED"
    );
    assert_eq!(
        by_rule("example.com (not allowlisted, strictAllowlist)")["reason"],
        "proxy answered 403"
    );
}

/// The mutant: without the credentials section in the file srt reads, the
/// same probes fail (the policy's entries are missing from the file).
#[test]
fn srt_credentials_lost_from_the_settings_file_fail() {
    let Some(srt) = srt() else { return };
    let home = home();
    let mut value: serde_json::Value = serde_json::from_str(&home.read(SRT_OUT)).unwrap();
    value.as_object_mut().unwrap().remove("credentials");
    std::fs::write(
        home.path(SRT_OUT),
        serde_json::to_string_pretty(&value).unwrap(),
    )
    .unwrap();
    let run = twsrt_test(home, &srt, &["test", "--json"])
        .env("TWSRT_PROBE_DENIED", "denied-value")
        .env("TWSRT_PROBE_MASKED", "masked-value")
        .status(1)
        .any_stdout()
        .stderr_contains("differs from what profile 'default' compiles to")
        .run();
    let rows: Vec<String> = results(&run).iter().map(row).collect();
    let credentials: Vec<&String> = rows.iter().filter(|r| r.contains(" credential ")).collect();
    assert_eq!(credentials.len(), 4, "{}", rows.join("\n"));
    assert!(
        credentials.iter().all(|r| r.starts_with("FAIL")),
        "{}",
        rows.join("\n")
    );
}
