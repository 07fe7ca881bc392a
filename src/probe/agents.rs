//! `twsrt test --agent NAME`: each compiled rule put to the agent's own
//! decision, offline, judged PASS, FAIL or SKIP (with why).
//!
//! Codex: every bash deny rule is checked with `codex execpolicy check
//! --rules FILE -- WORDS twsrt-probe` against the rules file twsrt wrote
//! (`[targets] codex_rules`; a rule joining commands as the `bash -lc RULE`
//! a shell tool runs): PASS when Codex answers `forbidden`, FAIL
//! otherwise (naming the rule, its fragment:line and what Codex decided).
//! An ask rule is a SKIP: twsrt writes no Codex rule for it (Codex asks
//! before every command outside its sandbox, `explain`'s row). The client
//! absent, Codex not configured or no rules file configured: every rule a
//! SKIP saying so. Other agents have no prover yet: a SKIP saying so.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::compile::Compiled;
use crate::config::Config;
use crate::rules::{Action, Scope};

/// One rule's judgement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub agent: &'static str,
    /// `deny` or `ask` (the bash list).
    pub list: &'static str,
    pub rule: String,
    /// `fragment:line`, `-` when unknown.
    pub source: String,
    pub verdict: &'static str,
    pub detail: String,
}

/// The token appended to every rule's words: the probe is a longer command
/// than the rule, as a real one is.
const PROBE_ARG: &str = "twsrt-probe";

/// Prove `agent` for the compiled policy; the outcomes in policy order.
pub fn prove(
    agent: &str,
    config: &Config,
    config_path: &Path,
    compiled: &Compiled,
) -> Vec<Outcome> {
    let sources = crate::explain::source::Sources::load(compiled, config_path);
    let rules: Vec<(&'static str, String, String)> = compiled
        .rules()
        .iter()
        .filter(|r| r.scope == Scope::Execute && r.action != Action::Allow)
        .map(|r| {
            let list = if r.action == Action::Deny {
                "deny"
            } else {
                "ask"
            };
            let source = sources
                .find(crate::source::SourceKind::Bash, list, r.pattern)
                .unwrap_or_else(|| "-".into());
            (list, r.pattern.to_string(), source)
        })
        .collect();
    let skip_all = |why: &str| {
        rules
            .iter()
            .map(|(list, rule, source)| outcome("-", list, rule, source, "SKIP", why))
            .collect::<Vec<_>>()
    };
    if agent != "codex" {
        return skip_all(&format!("twsrt test has no prover for {agent} yet"));
    }
    if config.targets.path("codex_config").is_none() {
        return skip_all("codex is not configured in [targets] (codex_config)");
    }
    let Some(rules_file) = config.targets.path("codex_rules") else {
        return skip_all("[targets] codex_rules is not set: twsrt writes no Codex rules");
    };
    let Some(codex) = super::settings::find_program("codex") else {
        return skip_all(
            "the codex client is not on PATH (npm install -g @openai/codex, or \
             scripts/install-clients.sh)",
        );
    };
    rules
        .iter()
        .map(|(list, rule, source)| {
            if *list == "ask" {
                return outcome(
                    "codex",
                    list,
                    rule,
                    source,
                    "SKIP",
                    "twsrt writes no Codex rule for an ask rule: Codex asks before every \
                     command outside its sandbox",
                );
            }
            let (verdict, detail) = check(&codex, rules_file, rule);
            outcome("codex", list, rule, source, verdict, &detail)
        })
        .collect()
}

fn outcome(
    agent: &str,
    list: &'static str,
    rule: &str,
    source: &str,
    v: &'static str,
    d: &str,
) -> Outcome {
    Outcome {
        agent: if agent == "codex" { "codex" } else { "-" },
        list,
        rule: rule.to_string(),
        source: source.to_string(),
        verdict: v,
        detail: d.to_string(),
    }
}

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
/// spells), the `bash -lc` command a shell tool runs for it.
fn probe_words(rule: &str) -> Option<Vec<String>> {
    if rule.contains(['|', ';', '&', '`', '\n']) || rule.contains("$(") {
        return Some(vec!["bash".into(), "-lc".into(), rule.to_string()]);
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

/// The outcomes as a table, or one JSON object; the exit code (1 on a FAIL).
pub fn report(outcomes: &[Outcome], as_json: bool) -> i32 {
    let count = |v: &str| outcomes.iter().filter(|o| o.verdict == v).count();
    if as_json {
        let results: Vec<Value> = outcomes
            .iter()
            .map(|o| {
                json!({"agent": o.agent, "list": o.list, "rule": o.rule, "source": o.source,
                       "result": o.verdict, "detail": o.detail})
            })
            .collect();
        let doc = json!({
            "summary": {"pass": count("PASS"), "fail": count("FAIL"), "skip": count("SKIP")},
            "results": results,
        });
        crate::ui::data(&crate::pyjson::to_pretty(&doc));
    } else {
        let mut text = String::new();
        for o in outcomes {
            text.push_str(&format!(
                "{:<5} {:<6} bash.{} {} ({}): {}\n",
                o.verdict,
                o.agent,
                o.list,
                crate::source::quoted(&o.rule),
                o.source,
                o.detail
            ));
        }
        text.push_str(&format!(
            "{} passed, {} failed, {} skipped",
            count("PASS"),
            count("FAIL"),
            count("SKIP")
        ));
        crate::ui::data(&text);
    }
    i32::from(count("FAIL") > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_joined_rule_is_asked_as_the_shell_command_that_runs_it() {
        assert_eq!(
            probe_words("curl | sh").unwrap(),
            vec!["bash", "-lc", "curl | sh"]
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
