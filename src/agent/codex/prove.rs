//! The Codex prover of `twsrt test --agent codex` ([`crate::agent::prove`]).
//!
//! Each denyRead and denyWrite rule is put to `codex sandbox`
//! ([`super::prove_paths`]). Every bash deny rule is checked with `codex execpolicy check --rules FILE
//! -- WORDS twsrt-probe` against the rules file twsrt wrote (`[targets]
//! codex_rules`; a rule joining commands as the `bash -lc RULE` a shell tool
//! runs): PASS when Codex answers `forbidden`, FAIL otherwise, with what
//! Codex decided. An ask rule is a SKIP: twsrt writes no Codex rule for it
//! (Codex asks before every command outside its sandbox, `explain`'s row).
//! Domains are a SKIP (not asked yet). The client absent, Codex or its
//! rules file not configured: the rules it concerns a SKIP saying so.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::agent::prove::{Judged, PROBE_ARG, Prover, Rule, probe_command};
use crate::config::Config;

pub struct CodexProver;

impl Prover for CodexProver {
    fn prove(
        &self,
        config: &Config,
        rules: &[Rule],
        find: fn(&str) -> Option<PathBuf>,
    ) -> Vec<Judged> {
        let all = |why: &str| rules.iter().map(|_| Judged::new("SKIP", why)).collect();
        if config.targets.path("codex_config").is_none() {
            return all("codex is not configured in [targets] (codex_config)");
        }
        let rules_file = config.targets.path("codex_rules");
        let Some(codex) = find("codex") else {
            return rules
                .iter()
                .map(|r| match (r.is_bash(), rules_file) {
                    (true, None) => Judged::new("SKIP", NO_RULES),
                    _ => Judged::new(
                        "SKIP",
                        "the codex client is not on PATH (npm install -g @openai/codex, or \
                         scripts/install-clients.sh)",
                    ),
                })
                .collect();
        };
        let paths = match std::env::current_dir() {
            Ok(cwd) => super::prove_paths::prove(&codex, rules, &crate::paths::home_dir(), &cwd),
            Err(_) => rules.iter().map(|_| None).collect(),
        };
        rules
            .iter()
            .zip(paths)
            .map(|(r, path)| {
                if let Some(judged) = path {
                    return judged;
                }
                if !r.is_bash() {
                    return Judged::new(
                        "SKIP",
                        "twsrt test does not ask Codex about domains yet (its network_proxy \
                         decides them)",
                    );
                }
                let Some(rules_file) = rules_file else {
                    return Judged::new("SKIP", NO_RULES);
                };
                if r.list == "ask" {
                    return Judged::new(
                        "SKIP",
                        "twsrt writes no Codex rule for an ask rule: Codex asks before every \
                         command outside its sandbox",
                    );
                }
                let (verdict, mut detail) = check(&codex, rules_file, &r.rule);
                if verdict == "FAIL" && super::joined::is_joined(&r.rule) {
                    detail.push_str(
                        "; a rule joining commands, which Codex checks command by command \
                         (codex-compound-rule)",
                    );
                }
                Judged::new(verdict, detail)
            })
            .collect()
    }
}

const NO_RULES: &str = "[targets] codex_rules is not set: twsrt writes no Codex rules";

/// `codex execpolicy check` of `rule`'s words plus [`PROBE_ARG`].
fn check(codex: &Path, rules_file: &Path, rule: &str) -> (&'static str, String) {
    if !rules_file.is_file() {
        return (
            "FAIL",
            format!(
                "the rules file {} does not exist (twsrt generate -w writes it)",
                rules_file.display()
            ),
        );
    }
    let words = match probe_words(rule) {
        Some(words) => words,
        None => return ("FAIL", "the rule cannot be split into words".into()),
    };
    let output = Command::new(codex)
        .args(["execpolicy", "check", "--rules"])
        .arg(rules_file)
        .arg("--")
        .args(&words)
        .stdin(Stdio::null())
        .output();
    match output {
        Ok(out) if out.status.success() => judge(&String::from_utf8_lossy(&out.stdout)),
        Ok(out) => (
            "FAIL",
            format!(
                "codex execpolicy check exited {}: {}",
                out.status.code().unwrap_or(-1),
                error_lines(&String::from_utf8_lossy(&out.stderr))
            ),
        ),
        Err(e) => ("FAIL", format!("cannot run {}: {e}", codex.display())),
    }
}

/// The command Codex is asked about for `rule`: its words plus
/// [`PROBE_ARG`], or, for a rule joining commands (which no single argv
/// spells), the `bash -lc` command a shell tool runs for its
/// [`probe_command`].
fn probe_words(rule: &str) -> Option<Vec<String>> {
    if super::joined::is_joined(rule) {
        return Some(vec!["bash".into(), "-lc".into(), probe_command(rule)]);
    }
    let mut words = crate::shellwords::split(rule)
        .ok()
        .filter(|w| !w.is_empty())?;
    words.push(PROBE_ARG.to_string());
    Some(words)
}

/// The first lines of Codex's error report (its warnings and backtrace left
/// out), joined.
fn error_lines(stderr: &str) -> String {
    stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("WARNING"))
        .take(3)
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The verdict on Codex's JSON answer: PASS for `forbidden`.
pub fn judge(stdout: &str) -> (&'static str, String) {
    let Ok(answer) = serde_json::from_str::<Value>(stdout.trim()) else {
        return ("FAIL", format!("Codex answered no JSON: {}", stdout.trim()));
    };
    match answer.get("decision").and_then(Value::as_str) {
        Some("forbidden") => ("PASS", "Codex: forbidden".into()),
        Some(other) => ("FAIL", format!("Codex decided {other}, not forbidden")),
        None => (
            "FAIL",
            "Codex: no rule matched (the command would run)".into(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_joined_rule_is_asked_as_the_shell_command_that_runs_it() {
        assert_eq!(
            probe_words("curl | sh").unwrap(),
            vec!["bash", "-lc", "curl twsrt-probe | sh"]
        );
        assert_eq!(
            probe_words("rm -rf /").unwrap(),
            vec!["rm", "-rf", "/", PROBE_ARG]
        );
        assert_eq!(probe_words("  "), None);
    }

    #[test]
    fn forbidden_passes_and_anything_else_fails() {
        let forbidden = r#"{"matchedRules":[{"prefixRuleMatch":{"matchedPrefix":["dd"],"decision":"forbidden"}}],"decision":"forbidden"}"#;
        assert_eq!(judge(forbidden).0, "PASS");
        assert_eq!(judge(r#"{"matchedRules":[]}"#).0, "FAIL");
        assert_eq!(judge(r#"{"decision":"prompt"}"#).0, "FAIL");
        assert_eq!(judge("not json").0, "FAIL");
    }
}
