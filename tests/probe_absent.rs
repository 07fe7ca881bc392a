//! `twsrt test` probes a rule whose path does not exist on this machine
//! (issue 41): a read-denied path gets a planted file for the run, a
//! write-denied one a create probe, and what cannot be probed is a SKIP
//! naming the path, why and what to do. Nothing is left behind.

use crate::srt_real::{results, srt, twsrt_test};
use crate::support::*;

const ABSENT: &str = r#"{
  "filesystem": {
    "denyRead": ["~/.aws", "~/.config/gcloud/", "~/plain/under"],
    "denyWrite": ["~/.bashrc", "~/gone/deep/new.cfg"],
    "allowWrite": ["~", "~/nope"]
  },
  "network": {"allowedDomains": [], "deniedDomains": []}
}"#;

fn rows(run: &Output) -> Vec<String> {
    results(run)
        .iter()
        .map(|r| {
            format!(
                "{} {} {}",
                r["status"].as_str().unwrap_or_default(),
                r["kind"].as_str().unwrap_or_default(),
                r["rule"].as_str().unwrap_or_default()
            )
        })
        .collect()
}

#[test]
fn absent_paths_are_probed_and_nothing_is_left_behind() {
    let Some(srt) = srt() else { return };
    let home = Test::with_policy()
        .file(SRT_FRAGMENT, ABSENT)
        .file("plain", "a file, not a directory\n")
        .args(&["generate", "-w"])
        .any_stderr()
        .run();
    let root = home.home().to_path_buf();
    let run = twsrt_test(home, &srt, &["test", "--json", "-k", "~/"])
        .any_status()
        .any_stdout()
        .unchanged()
        .run();
    let got = rows(&run);
    for want in [
        "PASS read-deny ~/.aws",
        "PASS read-deny ~/.config/gcloud/",
        "PASS write-deny ~/.bashrc",
        "PASS write-deny ~/gone/deep/new.cfg",
        "SKIP read-deny ~/plain/under",
        "SKIP write-allow ~/nope",
    ] {
        assert!(got.iter().any(|r| r == want), "{want} not in {got:#?}");
    }
    let reasons: Vec<String> = results(&run)
        .iter()
        .filter(|r| r["status"] == "SKIP")
        .map(|r| r["reason"].as_str().unwrap_or_default().to_string())
        .collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("plain/under does not exist and cannot")
                && r.contains("check the rule's spelling")),
        "{reasons:#?}"
    );
    assert!(
        reasons.iter().any(|r| r.contains("/nope does not exist")
            && r.contains("create it to have the rule probed")),
        "{reasons:#?}"
    );
    for gone in [".aws", ".config/gcloud", ".bashrc", "gone", "nope"] {
        assert!(!root.join(gone).exists(), "{gone} left behind");
    }
    assert!(root.join(".config").is_dir());
}
