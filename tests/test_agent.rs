//! `twsrt test --agent NAME`: a rule the agent's own decision cannot be
//! asked about is a SKIP that says why (the client absent, the target not
//! configured, no prover), never a PASS; the real Codex judgements are in
//! tests/clients/agent_test.py.

use serde_json::Value;

use crate::support::*;

fn results(out: &Output) -> Vec<Value> {
    let doc: Value =
        serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout));
    doc["results"].as_array().cloned().unwrap_or_default()
}

#[test]
fn without_the_codex_client_every_rule_is_a_skip_saying_so() {
    let out = Test::with_policy()
        .targets()
        .env("PATH", "/nonexistent")
        .args(&["test", "--agent", "codex", "--json"])
        .any_stdout()
        .any_stderr()
        .run();
    let rows = results(&out);
    assert!(!rows.is_empty(), "{}", out.stdout);
    for row in &rows {
        assert_eq!(row["result"], "SKIP", "{row}");
        assert!(
            row["detail"].as_str().unwrap().contains("not on PATH"),
            "{row}"
        );
        if row["section"] == "bash" {
            assert!(
                row["source"].as_str().unwrap().contains("base.jsonc:"),
                "{row}"
            );
        }
    }
    // Paths and domains are asked about too, each with its list.
    for list in ["denyRead", "denyWrite", "deniedDomains"] {
        assert!(rows.iter().any(|r| r["list"] == list), "{list}: {rows:?}");
    }
}

#[test]
fn gemini_without_its_client_or_its_target_is_a_skip_saying_so() {
    let gemini = "\n[targets]\ngemini_policy = \"~/.gemini/policies/twsrt.toml\"\n";
    for (append, path, said) in [
        (gemini, "/nonexistent", "the gemini client is not on PATH"),
        ("", "/usr/bin:/bin", "gemini_policy"),
    ] {
        let out = Test::with_policy()
            .config_append(append)
            .env("PATH", path)
            .args(&["test", "--agent", "gemini", "--json"])
            .any_stdout()
            .any_stderr()
            .run();
        let rows = results(&out);
        assert!(rows.iter().any(|r| r["section"] == "bash"), "{rows:?}");
        for row in &rows {
            assert_eq!(row["agent"], "gemini", "{row}");
            assert_eq!(row["result"], "SKIP", "{row}");
            assert!(row["detail"].as_str().unwrap().contains(said), "{row}");
        }
    }
}

#[test]
fn without_codex_rules_or_a_prover_it_says_why() {
    let out = Test::with_policy()
        .config_append("\n[targets]\ncodex_config = \"~/.codex/config.toml\"\n")
        .args(&["test", "--agent", "codex", "--json"])
        .any_stdout()
        .any_stderr()
        .run();
    let rows = results(&out);
    assert!(rows.iter().any(|r| r["section"] == "bash"), "{rows:?}");
    for row in rows.iter().filter(|r| r["section"] == "bash") {
        assert!(
            row["detail"]
                .as_str()
                .unwrap()
                .contains("codex_rules is not set"),
            "{row}"
        );
    }
    let out = Test::with_policy()
        .targets()
        .args(&["test", "--agent", "claude"])
        .any_stdout()
        .any_stderr()
        .run();
    assert!(
        out.stdout.contains("no prover for claude yet"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains(" failed, "), "{}", out.stdout);
}
