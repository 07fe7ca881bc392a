//! `twsrt test --agent NAME`: each rule of the policy put to the agent's
//! own decision, offline ([`crate::agent::prove`]; Codex's prover
//! is in its folder), judged PASS, FAIL or SKIP (with why), as a table or
//! one JSON object. An agent without a prover: every rule a SKIP saying so.

use std::path::Path;

use serde_json::{Value, json};

use crate::agent::prove::{Judged, Rule};
use crate::compile::Compiled;
use crate::config::Config;
use crate::rules::{Action, Scope};

/// One rule's judgement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The agent asked, `-` when none was.
    pub agent: String,
    pub rule: Rule,
    pub judged: Judged,
}

/// The rules an agent is asked about, in policy order, each with its
/// fragment line: bash deny and ask, denyRead, denyWrite (a path the
/// compile write-denies names its denyRead line), deniedDomains and
/// allowedDomains.
pub fn rules(compiled: &Compiled, config_path: &Path) -> Vec<Rule> {
    use crate::source::SourceKind::{Bash, Srt};
    let sources = crate::explain::source::Sources::load(compiled, config_path);
    compiled
        .rules()
        .iter()
        .filter_map(|r| {
            let (section, list) = match (r.scope, r.action) {
                (Scope::Execute, Action::Deny) => ("bash", "deny"),
                (Scope::Execute, Action::Ask) => ("bash", "ask"),
                (Scope::Read, Action::Deny) => ("filesystem", "denyRead"),
                (Scope::Write, Action::Deny) => ("filesystem", "denyWrite"),
                (Scope::Network, Action::Deny) => ("network", "deniedDomains"),
                (Scope::Network, Action::Allow) => ("network", "allowedDomains"),
                _ => return None,
            };
            let source = if section == "bash" {
                sources.find(Bash, list, r.pattern)
            } else {
                let dotted = format!("{section}.{list}");
                sources.find(Srt, &dotted, r.pattern).or_else(|| {
                    (list == "denyWrite")
                        .then(|| sources.find(Srt, "filesystem.denyRead", r.pattern))
                        .flatten()
                })
            };
            Some(Rule {
                section,
                list,
                rule: r.pattern.to_string(),
                source: source.unwrap_or_else(|| "-".into()),
            })
        })
        .collect()
}

/// Prove `agent` for the compiled policy; the outcomes in policy order.
pub fn prove(
    agent: &str,
    config: &Config,
    config_path: &Path,
    compiled: &Compiled,
) -> Vec<Outcome> {
    let rules = rules(compiled, config_path);
    let found = crate::agent::registry()
        .into_iter()
        .find(|a| a.name() == agent);
    let (asked, judged) = match found.as_ref().and_then(|a| a.prover()) {
        Some(prover) => (
            agent.to_string(),
            prover.prove(config, &rules, super::settings::find_program),
        ),
        None => {
            let why = match found {
                Some(_) => format!("twsrt test has no prover for {agent} yet"),
                None => format!("twsrt knows no agent named {agent}"),
            };
            (
                "-".to_string(),
                rules
                    .iter()
                    .map(|_| Judged::new("SKIP", why.clone()))
                    .collect(),
            )
        }
    };
    rules
        .into_iter()
        .zip(judged)
        .map(|(rule, judged)| Outcome {
            agent: asked.clone(),
            rule,
            judged,
        })
        .collect()
}

/// The outcomes as a table, or one JSON object; the exit code (1 on a FAIL).
pub fn report(outcomes: &[Outcome], as_json: bool) -> i32 {
    let count = |v: &str| outcomes.iter().filter(|o| o.judged.verdict == v).count();
    if as_json {
        let results: Vec<Value> = outcomes
            .iter()
            .map(|o| {
                json!({"agent": o.agent, "section": o.rule.section, "list": o.rule.list, "rule": o.rule.rule,
                       "source": o.rule.source, "result": o.judged.verdict,
                       "detail": o.judged.detail})
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
                "{:<5} {:<8} {}.{} {} ({}): {}\n",
                o.judged.verdict,
                o.agent,
                o.rule.section,
                o.rule.list,
                crate::source::quoted(&o.rule.rule),
                o.rule.source,
                o.judged.detail
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
