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
pub fn srt() -> Option<String> {
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
    "denyWrite": ["~/work/locked.cfg", "**/.env"],
    "allowWrite": ["~/work"]
  },
  "network": {
    "allowedDomains": ["github.com", "*.example.org"],
    "deniedDomains": ["evil.com", "*.bad.org"]
  }
}"#;

/// A HOME with planted secrets (a key in a directory, a token file, a
/// credentials file behind a symlinked directory), a write-protected file in
/// a writable directory, and the compiled settings written by `generate -w`.
pub fn generated_home() -> Output {
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

/// A dead proxy for the control runs: a request to a real host fails on
/// every machine the same way (curl exit 7), online or not, and nothing
/// leaves this machine. srt points the sandboxed runs at its own proxy.
const DEAD_PROXY: &str = "http://127.0.0.1:9";

/// `twsrt <args>` in the HOME of `home`, with srt's location and a TMPDIR
/// that must be empty again afterwards.
pub fn twsrt_test(home: Output, srt: &str, args: &[&str]) -> Test {
    home.then()
        .args(args)
        .env("TWSRT_SRT", srt)
        .env("https_proxy", DEAD_PROXY)
        .env("HTTPS_PROXY", DEAD_PROXY)
        .clean_tmpdir()
}

pub fn results(run: &Output) -> Vec<Value> {
    let json: Value = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}\n--- stdout\n{}--- stderr\n{}", run.stdout, run.stderr));
    json["results"].as_array().unwrap().clone()
}

fn row(result: &Value) -> String {
    format!(
        "{} {} {} {}",
        result["status"].as_str().unwrap(),
        result["kind"].as_str().unwrap(),
        result["section"].as_str().unwrap(),
        result["rule"].as_str().unwrap(),
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

/// The table with its timings replaced by `MS`, each right-aligned where
/// the header puts `MS` (so the columns' alignment is checked too).
fn mask_ms(table: &str) -> String {
    let probe_at = table
        .lines()
        .find_map(|l| l.strip_suffix("PROBE").map(str::len))
        .unwrap_or_else(|| panic!("no header in\n{table}"));
    let ms = probe_at - 8..probe_at - 2;
    table
        .lines()
        .map(|line| {
            let row = ["PASS ", "FAIL ", "INVALID ", "ERROR ", "SKIP "]
                .iter()
                .any(|s| line.starts_with(s));
            if row && line.len() > probe_at && line[ms.clone()].trim().parse::<u64>().is_ok() {
                format!("{}    MS{}", &line[..ms.start], &line[ms.end..])
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_rule_is_probed_and_judged() {
    let Some(srt) = srt() else { return };
    // Probe files are removed (the HOME is unchanged, secrets and settings
    // untouched). The JSON report carries timings and srt's messages: its
    // rows are checked below.
    let run = twsrt_test(generated_home(), &srt, &["test", "--json"])
        .status(1)
        .any_stdout()
        .unchanged()
        .run();
    let results = results(&run);
    let rows: Vec<String> = results.iter().map(row).collect();
    assert_eq!(
        rows,
        // Lists are sorted; every denyRead path is write-denied too, and so
        // are the policy files (config.toml, the outputs, the fragments).
        vec![
            "PASS read-deny denyRead ~/.aws",
            "PASS read-deny denyRead ~/.aws (realpath)",
            "PASS read-deny denyRead ~/.ssh",
            "PASS read-deny denyRead ~/secrets/token.txt",
            // srt on Linux drops glob patterns from its write lists.
            "FAIL write-deny denyWrite **/.env",
            // srt hides a read-denied directory behind an empty tmpfs: the
            // write lands there, never on the host.
            "PASS write-deny denyWrite ~/.aws",
            "PASS write-deny denyWrite ~/.config/twsrt/bash-rules.json",
            "PASS write-deny denyWrite ~/.config/twsrt/bash/base.jsonc",
            "PASS write-deny denyWrite ~/.config/twsrt/config.toml",
            "PASS write-deny denyWrite ~/.config/twsrt/srt/base.jsonc",
            "PASS write-deny denyWrite ~/.srt-settings.json",
            "PASS write-deny denyWrite ~/.ssh",
            "PASS write-deny denyWrite ~/secrets/token.txt",
            "PASS write-deny denyWrite ~/work/locked.cfg",
            "PASS write-allow allowWrite ~/work",
            // srt's proxy answers offline too (measured: 502 when it lets
            // a request through to an upstream it cannot reach, 403 when
            // it refuses): every network rule gets a verdict.
            "PASS net-allow allowedDomains *.example.org",
            "PASS net-allow allowedDomains github.com",
            "PASS net-deny deniedDomains *.bad.org",
            "PASS net-deny deniedDomains evil.com",
            "PASS net-deny allowedDomains example.com (not allowlisted)",
        ],
        "--- stderr\n{}",
        run.stderr
    );
    let by_rule = |rule: &str| results.iter().find(|r| r["rule"] == rule).unwrap();
    let wildcard = by_rule("*.example.org");
    assert_eq!(wildcard["control_exit"], Value::Null);
    assert_eq!(wildcard["reason"], "proxy answered 502");
    assert_eq!(by_rule("*.bad.org")["reason"], "proxy answered 403");
    // A concrete host: no control run (it would prove nothing), the
    // proxy's answer decides.
    let allowed = by_rule("github.com");
    assert_eq!(allowed["control_exit"], Value::Null);
    assert_eq!(allowed["reason"], "proxy answered 502");
    assert_eq!(
        allowed["command"],
        "curl -sS -m 10 -o /dev/null -I -w '%{http_connect}' https://github.com/"
    );
    assert_eq!(by_rule("evil.com")["reason"], "proxy answered 403");
    assert_eq!(
        by_rule("example.com (not allowlisted)")["reason"],
        "proxy answered 403"
    );
    let glob = by_rule("**/.env");
    assert_eq!(glob["sandbox_exit"], 0);
    assert_eq!(
        glob["reason"],
        "not blocked: command succeeded inside the sandbox"
    );
    let read = by_rule("~/.ssh");
    assert_eq!(read["command"], "head -c 1 -- {HOME}/.ssh/id_ed25519");
    assert_eq!(read["expect"], "deny");
}

#[test]
fn the_table_reads_like_3_3_3() {
    let Some(srt) = srt() else { return };
    let run = twsrt_test(generated_home(), &srt, &["test", "--denyRead"])
        .any_stdout()
        .run();
    let version = run.stdout.split(',').next().unwrap_or_default();
    assert!(version.starts_with("srt 0.0."), "{}", run.stdout);
    assert_eq!(
        mask_ms(&run.stdout),
        format!(
            "{version}, settings {{HOME}}/.srt-settings.json, 4 probes\n\
             STATUS   KIND      RULE                CTL SBX     MS  PROBE\n\
             PASS     read-deny ~/.aws                0   1     MS  head -c 1 -- {{HOME}}/.aws/credentials\n\
             PASS     read-deny ~/.aws (realpath)     0   1     MS  head -c 1 -- {{HOME}}/vault/aws/credentials\n\
             PASS     read-deny ~/.ssh                0   1     MS  head -c 1 -- {{HOME}}/.ssh/id_ed25519\n\
             PASS     read-deny ~/secrets/token.txt   0   1     MS  head -c 1 -- {{HOME}}/secrets/token.txt\n\
             passed=4 failed=0 invalid=0 error=0 skipped=0"
        )
    );
}

#[test]
fn a_rule_the_file_lost_is_a_fail_naming_it() {
    let Some(srt) = srt() else { return };
    let out = generated_home();
    edit_settings(&out, |value| {
        let deny_read = value["filesystem"]["denyRead"].as_array_mut().unwrap();
        deny_read.retain(|v| v != "~/.aws");
    });
    // The probes come from the policy: `~/.aws` (and its realpath twin)
    // fail without a run, whatever the weakened file would let through;
    // the write deny on it still holds.
    let run = twsrt_test(out, &srt, &["test", "--json", "-k", ".aws"])
        .status(1)
        .any_stdout()
        .stderr(DIFFERS)
        .unchanged()
        .run();
    let results = results(&run);
    let rows: Vec<String> = results.iter().map(row).collect();
    assert_eq!(
        rows,
        vec![
            "FAIL read-deny denyRead ~/.aws",
            "FAIL read-deny denyRead ~/.aws (realpath)",
            "PASS write-deny denyWrite ~/.aws",
        ]
    );
    assert_eq!(
        results[0]["reason"],
        "missing from the settings file: srt does not enforce this rule of the policy"
    );
    assert_eq!(results[0]["sandbox_exit"], Value::Null);
}

#[test]
fn what_the_file_adds_that_widens_is_a_fail() {
    let Some(srt) = srt() else { return };
    let out = generated_home();
    edit_settings(&out, |value| {
        let allowed = value["network"]["allowedDomains"].as_array_mut().unwrap();
        allowed.push("pastebin.com".into());
        value["network"]["allowLocalBinding"] = true.into();
        value["filesystem"]["denyread"] = serde_json::json!(["~/.gnupg"]);
    });
    let run = twsrt_test(out, &srt, &["test"])
        .status(1)
        .any_stdout()
        .stderr(&format!(
            "{DIFFERS}Warning: {{HOME}}/.srt-settings.json: `filesystem.denyread` is not a \
             setting srt knows; srt ignores it silently\n"
        ))
        .run();
    let summary: Vec<String> = run
        .stdout
        .lines()
        .skip_while(|l| *l != "--- summary ---")
        .filter(|l| l.starts_with("FAIL"))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        summary,
        vec![
            "FAIL write-deny **/.env not blocked: command succeeded inside the sandbox",
            "FAIL net-allow pastebin.com in the settings file, not in the policy: it widens what \
             srt allows",
            "FAIL settings filesystem.denyread: ~/.gnupg in the settings file, not in the policy: \
             it widens",
            "FAIL settings network.allowLocalBinding: true in the settings file, not in the \
             policy: it widens",
        ],
        "{}",
        run.stdout
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

/// The probe file and witness directory names vary per run.
fn mask_names(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(".twsrt-") {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let end = tail
            .find(|c: char| c == '/' || c.is_whitespace())
            .unwrap_or(tail.len());
        let name = &tail[..end];
        out.push_str(if name.starts_with(".twsrt-test-") {
            ".twsrt-test-*"
        } else {
            ".twsrt-probe-PID"
        });
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn the_report_is_what_3_3_3_prints_for_the_same_policy() {
    let Some(srt) = srt() else { return };
    // tests/fixtures/test33/table.out is 3.3.3's table for this HOME with
    // srt 0.0.78 (scripts/record-test33.sh re-records it). The policy holds
    // no read-denied directory, where twsrt and 3.3.3 differ on purpose
    // (doc/compatibility.md, T1); the verdicts are the same with the newest
    // srt.
    let home = Test::with_policy()
        .file(SRT_FRAGMENT, include_str!("fixtures/test33/base.jsonc"))
        .file("secrets/token.txt", "ghp_planted\n")
        .symlink(".tok", "secrets/token.txt")
        .file("work/locked.cfg", "keep me\n")
        .dir("vault/aws")
        .args(&["generate", "-w"])
        .any_stderr()
        .run();
    let run = twsrt_test(home, &srt, &["test"])
        .status(1)
        .any_stdout()
        .run();
    let got = mask_names(&mask_ms(&run.stdout));
    let want = absent_paths_probed(include_str!("fixtures/test33/table.out"));
    let got = got.replacen(
        run.stdout.split(',').next().unwrap_or_default(),
        "srt 0.0.78",
        1,
    );
    // Network probes differ on purpose (doc/compatibility.md, T9): no
    // control run, the proxy's answer decides, so 3.3.3's INVALID rows
    // get a verdict. Everything else is 3.3.3's, byte for byte.
    assert_eq!(
        without_network(got.trim_end()),
        without_network(want.trim_end()),
        "--- stderr\n{}",
        run.stderr
    );
    let network: Vec<String> = got
        .lines()
        .skip_while(|l| *l != "--- summary ---")
        .filter(|l| l.contains(" net-"))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        network,
        vec![
            // `deniedDomains: ["*"]` refuses every host, allowed or not.
            "FAIL net-allow *.example.org blocked but should be allowed: proxy answered 403",
            "FAIL net-allow github.com blocked but should be allowed: proxy answered 403",
            "FAIL net-allow x.io:8443 blocked but should be allowed: proxy answered 403",
            "SKIP net-deny * wildcard domain: no concrete host",
        ]
    );
    assert!(
        got.ends_with("passed=17 failed=7 invalid=0 error=0 skipped=6"),
        "{got}"
    );
}

/// 3.3.3's table with its "path not present on host" SKIPs as twsrt
/// reports them on purpose (doc/compatibility.md, row "T12"):
/// the absent write-denied path is probed with a create probe, and the
/// absent allowWrite path's SKIP says why and what to do.
fn absent_paths_probed(want: &str) -> String {
    let nope = "{HOME}/nope does not exist, and srt ignores an allowWrite path that is absent \
                when the sandbox starts; create it to have the rule probed, or check the rule's \
                spelling";
    want.replace(
        "SKIP     write-deny  ~/missing.cfg                     -   -      -  path not present on host",
        "PASS     write-deny  ~/missing.cfg                     0   1     MS  : >> {HOME}/missing.cfg",
    )
    .replace(
        "SKIP     write-deny  ~/missing.cfg                    path not present on host\n",
        "",
    )
    .replace(
        "SKIP     write-allow ~/nope                            -   -      -  path not present on host",
        &format!("SKIP     write-allow ~/nope                            -   -      -  {nope}"),
    )
    .replace(
        "SKIP     write-allow ~/nope                           path not present on host",
        &format!("SKIP     write-allow ~/nope                           {nope}"),
    )
}

/// A report without its network rows, their details and the counts.
fn without_network(report: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let mut in_details = false;
    for line in report.lines() {
        if in_details && line.starts_with("  ") {
            continue;
        }
        in_details = false;
        if line.contains(" net-") || line.starts_with("passed=") {
            if line.starts_with(|c: char| c.is_ascii_uppercase()) && !line.contains("  ") {
                // A details header: its blank line before and lines after go.
                in_details = true;
                if out.last() == Some(&"") {
                    out.pop();
                }
            }
            continue;
        }
        out.push(line);
    }
    out.join("\n")
}

/// The node and the package directory of the srt `srt` names: the package
/// of a `node_modules/.bin/srt` link, or the `exec 'NODE' 'CLI'` of the
/// wrapper `scripts/install-srt.sh latest` writes.
fn srt_node_and_package(srt: &str) -> (String, PathBuf) {
    let text = std::fs::read_to_string(srt).unwrap();
    let (node, cli) = match text.lines().find_map(|l| l.strip_prefix("exec '")) {
        Some(rest) => {
            let words: Vec<&str> = rest.split('\'').collect();
            (words[0].to_string(), PathBuf::from(words[2]))
        }
        None => ("node".to_string(), std::fs::canonicalize(srt).unwrap()),
    };
    let package = cli.parent().and_then(|dist| dist.parent()).unwrap();
    (node, package.to_path_buf())
}

/// srt's own matcher (`isValidHost`, `canonicalizeHost`,
/// `matchesDomainPatternWithPort`, run with the node srt runs on) and
/// `twsrt::srt::domain` agree on every host, port and entry of a table of
/// names, ports, wildcards, IPv4 shorthand, IPv6 spellings and odd entries.
#[test]
fn the_domain_model_answers_as_srts_own_matcher() {
    let Some(srt) = srt() else { return };
    use twsrt::srt::domain::{Connection, canonical_host, decide, is_valid_host};
    let hosts = [
        "github.com",
        "GitHub.com.",
        "api.github.com",
        "a.b.github.com",
        "xgithub.com",
        "127.0.0.1",
        "127.1",
        "2130706433",
        "0x7f.0.0.1",
        "0177.0.0.1",
        "10.0.0.1",
        "::1",
        "[::1]",
        "0:0:0:0:0:0:0:1",
        "::ffff:10.0.0.1",
        "::ffff:a00:1",
        "2001:DB8::1",
        "fe80::1%eth0",
        "evil.com",
        "evil.com.",
        "a_b.example.org",
        "x.example.org",
        "example.org",
        "08.1",
        "1.2.3.256",
        "0x",
        "a..com",
        "",
        "a b.com",
        "*.github.com",
        "1.2.3.4",
        "localhost",
        "LOCALHOST",
        "::1.2.3.4",
        "1:2:3:4:5:6:7:8",
        // An IDN as srt sees it: its A-label (what a client sends), and
        // the Unicode spelling srt's proxy refuses.
        "xn--bcher-kva.example.com",
        "a.xn--bcher-kva.example.com",
        "bücher.example.com",
    ];
    let patterns = [
        "github.com",
        "*.github.com",
        "*",
        "*:443",
        "evil.com:443",
        "evil.com:80",
        "10.0.0.1",
        "127.0.0.1",
        "127.1",
        "[::1]",
        "[::1]:443",
        "::1",
        "0:0:0:0:0:0:0:1",
        "[0:0:0:0:0:0:0:1]:80",
        "[fe80::1%eth0]",
        "*.2.3.4",
        "*.0.0.1",
        "1.2.3.4:443",
        "Evil.COM",
        "x.io:0",
        "x.io:99999",
        "[::1]junk",
        "*.example.org:8443",
        "localhost",
        "2001:db8::1",
        "[2001:DB8:0::1]:443",
        "::ffff:10.0.0.1",
        "[::ffff:10.0.0.1]",
        "*.example.org",
        "evil.com.",
        // The A-label twsrt compiles an IDN entry to, and the Unicode entry
        // it no longer writes (which matches no connection srt takes).
        "xn--bcher-kva.example.com",
        "*.xn--bcher-kva.example.com",
        "bücher.example.com",
    ];
    let mut cases = Vec::new();
    for host in hosts {
        for pattern in patterns {
            for port in [443u16, 80, 8443] {
                cases.push((host, port, pattern));
            }
        }
    }
    let script = r#"
const pkg = process.argv[1];
const dp = await import(pkg + '/dist/sandbox/domain-pattern.js');
const pp = await import(pkg + '/dist/sandbox/parent-proxy.js');
let input = '';
for await (const chunk of process.stdin) input += chunk;
console.log(JSON.stringify(JSON.parse(input).map(([host, port, pattern]) => {
  const valid = pp.isValidHost(host);
  const canon = valid ? (pp.canonicalizeHost(host) ?? host) : null;
  return [canon, valid && dp.matchesDomainPatternWithPort(canon, port, pattern)];
})));
"#;
    let (node, package) = srt_node_and_package(&srt);
    let mut child = std::process::Command::new(&node)
        .args(["--input-type=module", "-e", script])
        .arg(&package)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let input = serde_json::to_string(&cases).unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{node} {}", package.display());
    let answers: Vec<(Option<String>, bool)> = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answers.len(), cases.len());
    let mut wrong = Vec::new();
    for ((host, port, pattern), (srt_canonical, srt_denies)) in cases.iter().zip(answers) {
        let canonical =
            is_valid_host(host).then(|| canonical_host(host).unwrap_or_else(|| host.to_string()));
        let denies = decide(&[pattern], &[], host, *port) == Connection::Denied(0);
        if canonical != srt_canonical || denies != srt_denies {
            wrong.push(format!(
                "{host:?}:{port} {pattern:?}: srt {srt_canonical:?} {srt_denies}, \
                 twsrt {canonical:?} {denies}"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {}:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}
