//! `explain` against the real Sandbox Runtime: for every rule `twsrt test`
//! probes, the srt row of `explain` must say what the sandbox did on this
//! machine (a PASS of a deny probe is a deny, a FAIL of one is an allow;
//! a PASS of an allow probe is an allow). srt is found as in `srt_real`.

use serde_json::Value;

use crate::srt_real::{generated_home, results, srt, twsrt_test};

/// The path or domain `explain` is asked for the rule a probe checked,
/// and the access whose srt row must agree.
fn query(result: &Value) -> Option<(String, &'static str)> {
    let rule = result["rule"].as_str()?;
    if rule.ends_with("(realpath)") || rule.contains("not allowlisted") {
        return None;
    }
    let kind = result["kind"].as_str()?;
    let glob_to_file = |r: &str| match r.strip_prefix("**/") {
        Some(name) => format!("~/work/{name}"),
        None => r.to_string(),
    };
    match kind {
        "read-deny" => Some((glob_to_file(rule), "read")),
        "write-deny" | "write-allow" => Some((glob_to_file(rule), "write")),
        "net-allow" | "net-deny" => Some((rule.replace("*.", "probe."), "network")),
        _ => None,
    }
}

/// What the sandbox did: deny or allow, when the probe was conclusive.
fn real_verdict(result: &Value) -> Option<&'static str> {
    let expect = result["expect"].as_str()?;
    match (result["status"].as_str()?, expect) {
        ("PASS", "deny") => Some("deny"),
        ("FAIL", "deny") => Some("allow"),
        ("PASS", "allow") => Some("allow"),
        ("FAIL", "allow") => Some("deny"),
        _ => None,
    }
}

#[test]
fn the_srt_row_of_explain_agrees_with_the_real_sandbox() {
    let Some(srt) = srt() else { return };
    let run = twsrt_test(generated_home(), &srt, &["test", "--json"])
        .status(1)
        .any_stdout()
        .unchanged()
        .run();
    let mut out = run;
    let mut checked = Vec::new();
    for result in results(&out) {
        let (Some((asked, access)), Some(verdict)) = (query(&result), real_verdict(&result)) else {
            continue;
        };
        out = out
            .then()
            .args(&["explain", "--json", &asked])
            .any_stdout()
            .any_stderr()
            .unchanged()
            .run();
        let doc: Value = serde_json::from_str(&out.stdout).unwrap();
        let row = doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["layer"] == "srt" && r["access"] == access)
            .unwrap()
            .clone();
        assert_eq!(
            row["decision"], verdict,
            "explain {asked} ({access}) against the probe {result}"
        );
        checked.push(format!("{verdict} {access} {asked}"));
    }
    // The glob the sandbox does not enforce here is among them.
    assert!(checked.len() >= 10, "{checked:?}");
    if cfg!(target_os = "linux") {
        assert!(
            checked.contains(&"allow write ~/work/.env".to_string()),
            "{checked:?}"
        );
    }
}

/// A network policy whose answers depend on srt's own matching: a deny
/// for one port of an allowed domain, an IP entry under a `*.` deny that
/// never covers an IP literal.
const PORTS_AND_IPS: &str = r#"{
  "filesystem": {"denyRead": [], "denyWrite": [], "allowWrite": ["~/work"]},
  "network": {
    "allowedDomains": ["evil.com", "192.0.2.1"],
    "deniedDomains": ["evil.com:443", "*.0.2.1"]
  }
}"#;

#[test]
fn explain_follows_srt_on_ports_and_ip_entries() {
    let Some(srt) = srt() else { return };
    use crate::support::*;
    let home = Test::with_policy()
        .file(SRT_FRAGMENT, PORTS_AND_IPS)
        .dir("work")
        .args(&["generate", "-w"])
        .any_stderr()
        .run();
    let mut out = twsrt_test(home, &srt, &["test", "--json", "--allowed-domains"])
        .status(1)
        .any_stdout()
        .unchanged()
        .run();
    let mut seen = Vec::new();
    for result in results(&out) {
        let rule = result["rule"].as_str().unwrap().to_string();
        let Some(verdict) = real_verdict(&result).filter(|_| !rule.contains(' ')) else {
            continue;
        };
        out = out
            .then()
            .args(&["explain", "--json", &rule])
            .any_stdout()
            .any_stderr()
            .unchanged()
            .run();
        let doc: Value = serde_json::from_str(&out.stdout).unwrap();
        let row = &doc["rows"][0];
        assert_eq!(row["layer"], "srt");
        assert_eq!(row["decision"], verdict, "explain {rule}: {row}");
        seen.push(format!("{verdict} {rule}"));
    }
    // srt refuses evil.com on 443 (its https probe) and lets 192.0.2.1
    // through although `*.0.2.1` is denied; explain said allow and deny.
    assert_eq!(seen, ["allow 192.0.2.1", "deny evil.com"]);
}

/// A write-list entry ending in `/**` is the directory srt enforces on
/// Linux too (it drops only what is still a glob once the `/**` is gone).
const DIRECTORY_SUFFIX: &str = r#"{
  "filesystem": {"denyRead": [], "denyWrite": ["~/work/locked/**", "~/work/*.key"],
                 "allowWrite": ["~/work"]},
  "network": {"allowedDomains": [], "deniedDomains": []}
}"#;

#[test]
fn explain_of_a_write_agrees_with_srt_on_a_directory_suffix() {
    let Some(srt) = srt() else { return };
    use crate::support::*;
    let mut out = Test::with_policy()
        .file(SRT_FRAGMENT, DIRECTORY_SUFFIX)
        .dir("work/locked")
        .args(&["generate", "-w"])
        .any_stderr()
        .run();
    let mut seen = Vec::new();
    for (asked, file) in [
        ("~/work/locked/f", "work/locked/f"),
        ("~/work/new.key", "work/new.key"),
        ("~/work/plain", "work/plain"),
    ] {
        let wrote = std::process::Command::new(&srt)
            .arg("-s")
            .arg(out.path(SRT_OUT))
            .arg("-c")
            .arg(format!(": >> '{}'", out.path(file).display()))
            .current_dir(out.home())
            .env("HOME", out.home())
            .output()
            .unwrap();
        let srt_says = if out.path(file).exists() {
            "allow"
        } else {
            "deny"
        };
        assert!(
            wrote.status.success() == (srt_says == "allow"),
            "{asked}: {wrote:?}"
        );
        out = out
            .then()
            .args(&["explain", "--json", asked])
            .any_stdout()
            .any_stderr()
            .unchanged()
            .run();
        let doc: Value = serde_json::from_str(&out.stdout).unwrap();
        let row = doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["layer"] == "srt" && r["access"] == "write")
            .unwrap()
            .clone();
        assert_eq!(row["decision"], srt_says, "explain {asked}: {row}");
        seen.push(format!("{srt_says} {asked}"));
    }
    let key = if cfg!(target_os = "linux") {
        "allow"
    } else {
        "deny"
    };
    assert_eq!(
        seen,
        [
            "deny ~/work/locked/f".to_string(),
            format!("{key} ~/work/new.key"),
            "allow ~/work/plain".to_string()
        ]
    );
}
