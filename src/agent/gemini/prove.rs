//! The Gemini CLI prover of `twsrt test --agent gemini`
//! ([`crate::agent::prove`]).
//!
//! Gemini CLI's own policy engine, imported from the installed bundle with
//! node (`prove.mjs`, the user's policies loaded as Gemini loads them in
//! its default approval mode), decides one tool call per rule and path:
//! a bash deny rule `run_shell_command` of [`probe_command`] (the rule
//! with an argument), an ask rule the same (PASS only when a rule above Gemini's
//! built-in defaults asks, or denies), denyRead `read_file` and denyWrite
//! `write_file` of the paths the rule covers ([`sample_paths`]),
//! deniedDomains `web_fetch` of a URL for the host. PASS when the engine
//! denies (asks, for an ask rule), FAIL otherwise with what it decided.
//! allowedDomains have no Gemini rule: a SKIP saying so. The client or node
//! absent, or Gemini not configured: every rule a SKIP saying so.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::agent::prove::{Judged, PROBE_ARG, Prover, Rule, probe_command, sample_paths};
use crate::config::Config;

pub struct GeminiProver;

const SCRIPT: &str = include_str!("prove.mjs");
/// Rules of Gemini's built-in policies sit below this priority (its user
/// tier is 4.x, admin 5.x): an ask from one is the engine's default.
const ABOVE_DEFAULTS: f64 = 2.0;

/// One tool call asked for a rule, and what the rule wants of it.
struct Call {
    rule: usize,
    tool: &'static str,
    args: Value,
    ask: bool,
}

impl Prover for GeminiProver {
    fn prove(
        &self,
        config: &Config,
        rules: &[Rule],
        find: fn(&str) -> Option<PathBuf>,
    ) -> Vec<Judged> {
        let all = |why: &str| rules.iter().map(|_| Judged::new("SKIP", why)).collect();
        if config.targets.path("gemini_policy").is_none() {
            return all("gemini is not configured in [targets] (gemini_policy)");
        }
        let Some(gemini) = find("gemini") else {
            return all(
                "the gemini client is not on PATH (npm install -g @google/gemini-cli, or \
                 scripts/install-clients.sh)",
            );
        };
        let Some(node) = find("node") else {
            return all("node is not on PATH: Gemini CLI's policy engine runs in it");
        };
        let Some(bundle) = bundle_of(&gemini) else {
            return all(&format!(
                "{} is not Gemini CLI's bundle (no gemini.js beside it)",
                gemini.display()
            ));
        };
        let home = crate::paths::home_dir();
        let Ok(cwd) = std::env::current_dir() else {
            return all("the current directory is unknown");
        };
        let calls = calls(rules, &home, &cwd);
        let answer = match ask(&node, &bundle, &calls) {
            Ok(answer) => answer,
            Err(why) => {
                return rules
                    .iter()
                    .map(|r| match skipped(r) {
                        Some(why) => Judged::new("SKIP", why),
                        None => Judged::new("FAIL", why.clone()),
                    })
                    .collect();
            }
        };
        rules
            .iter()
            .enumerate()
            .map(|(i, r)| match skipped(r) {
                Some(why) => Judged::new("SKIP", why),
                None => judge(&calls, &answer, i),
            })
            .collect()
    }
}

/// Why a rule is not asked about: Gemini has no rule for it.
fn skipped(rule: &Rule) -> Option<&'static str> {
    (rule.list == "allowedDomains").then_some(
        "Gemini CLI has no rule for allowedDomains: its rules cannot limit web_fetch or the \
         shell to a list of hosts (twsrt run --srt -- gemini confines the shell)",
    )
}

/// The bundle directory of the `gemini` program (its `gemini.js`, through
/// the npm link).
fn bundle_of(gemini: &Path) -> Option<PathBuf> {
    let real = std::fs::canonicalize(gemini).ok()?;
    let dir = real.parent()?;
    dir.join("gemini.js").is_file().then(|| dir.to_path_buf())
}

/// The tool calls for `rules`, in order.
fn calls(rules: &[Rule], home: &Path, cwd: &Path) -> Vec<Call> {
    let mut out = Vec::new();
    for (i, r) in rules.iter().enumerate() {
        let call = |tool, args| Call {
            rule: i,
            tool,
            args,
            ask: r.list == "ask",
        };
        match r.list {
            "deny" | "ask" => out.push(call(
                "run_shell_command",
                json!({"command": probe_command(&r.rule)}),
            )),
            "denyRead" | "denyWrite" => {
                for path in sample_paths(&r.rule, home, cwd) {
                    let path = path.to_string_lossy().into_owned();
                    out.push(if r.list == "denyRead" {
                        call("read_file", json!({"file_path": path}))
                    } else {
                        call("write_file", json!({"content": "", "file_path": path}))
                    });
                }
            }
            "deniedDomains" => {
                let host = match r.rule.strip_prefix("*.") {
                    Some(rest) => format!("{PROBE_ARG}.{rest}"),
                    None => r.rule.clone(),
                };
                let url = format!("https://{}/", host.replace('*', PROBE_ARG));
                out.push(call("web_fetch", json!({"prompt": url})));
            }
            _ => {}
        }
    }
    out
}

/// The engine's answer: one `{decision, priority}` per call, and what its
/// loader said.
struct Answer {
    decisions: Vec<Value>,
    feedback: Vec<String>,
}

fn ask(node: &Path, bundle: &Path, calls: &[Call]) -> Result<Answer, String> {
    let input: Vec<Value> = calls
        .iter()
        .map(|c| json!({"tool": c.tool, "args": c.args}))
        .collect();
    let mut child = Command::new(node)
        .args(["--input-type=module", "-e", SCRIPT])
        .arg(bundle)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", node.display()))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(Value::Array(input).to_string().as_bytes())
            .map_err(|e| format!("cannot hand the tool calls to node: {e}"))?;
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("node did not finish: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let doc: Value = serde_json::from_slice(&out.stdout).map_err(|_| {
        let last = stderr.lines().rev().find(|l| !l.trim().is_empty());
        format!(
            "Gemini's policy engine could not be asked (node exited {}): {}",
            out.status.code().unwrap_or(-1),
            last.unwrap_or("no output").trim()
        )
    })?;
    let decisions = doc["decisions"].as_array().cloned().unwrap_or_default();
    if decisions.len() != calls.len() {
        return Err(format!(
            "Gemini's policy engine answered {} of {} tool calls",
            decisions.len(),
            calls.len()
        ));
    }
    let feedback = doc["feedback"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    Ok(Answer {
        decisions,
        feedback,
    })
}

/// The verdict for rule `index`: every call of it met (a deny; for an ask
/// rule an ask or deny by a rule above the built-in defaults).
fn judge(calls: &[Call], answer: &Answer, index: usize) -> Judged {
    let mut met = Vec::new();
    for (call, decided) in calls.iter().zip(&answer.decisions) {
        if call.rule != index {
            continue;
        }
        let decision = decided["decision"].as_str().unwrap_or("?");
        let priority = decided["priority"].as_f64();
        let by = priority.map_or("the engine's default".to_string(), |p| {
            format!("priority {p}")
        });
        let what = format!("{} {}: {decision} ({by})", call.tool, call.args);
        let ok = decision == "deny"
            || (call.ask
                && decision == "ask_user"
                && priority.is_some_and(|p| p >= ABOVE_DEFAULTS));
        if !ok {
            let mut detail = format!("Gemini: {what}");
            if let Some(said) = answer.feedback.first() {
                detail.push_str(&format!("; its policy loader said: {said}"));
            }
            return Judged::new("FAIL", detail);
        }
        met.push(what);
    }
    match met.as_slice() {
        [] => Judged::new("FAIL", "no tool call could be built for the rule"),
        [one] => Judged::new("PASS", format!("Gemini: {one}")),
        [first, rest @ ..] => Judged::new(
            "PASS",
            format!("Gemini: {first} (and {} more call(s))", rest.len()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(list: &'static str, text: &str) -> Rule {
        Rule {
            section: "bash",
            list,
            rule: text.into(),
            source: "-".into(),
        }
    }

    fn answer(decisions: &[(&str, Option<f64>)]) -> Answer {
        Answer {
            decisions: decisions
                .iter()
                .map(|(d, p)| json!({"decision": d, "priority": p}))
                .collect(),
            feedback: vec![],
        }
    }

    #[test]
    fn a_deny_passes_and_an_ask_needs_a_rule_above_the_defaults() {
        let rules = [rule("deny", "sudo"), rule("ask", "git push")];
        let calls = calls(&rules, Path::new("/h"), Path::new("/p"));
        assert_eq!(calls[0].args["command"], "sudo twsrt-probe");
        let ok = answer(&[("deny", Some(4.999)), ("ask_user", Some(4.998))]);
        assert_eq!(judge(&calls, &ok, 0).verdict, "PASS");
        assert_eq!(judge(&calls, &ok, 1).verdict, "PASS");
        let default = answer(&[("ask_user", Some(1.01)), ("ask_user", Some(1.01))]);
        assert_eq!(judge(&calls, &default, 0).verdict, "FAIL");
        assert_eq!(judge(&calls, &default, 1).verdict, "FAIL");
        let none = answer(&[("allow", None), ("ask_user", None)]);
        assert!(
            judge(&calls, &none, 0)
                .detail
                .contains("allow (the engine's default)")
        );
    }

    #[test]
    fn every_path_of_a_rule_must_be_denied() {
        let mut read = rule("denyRead", "~/.ssh");
        read.section = "filesystem";
        let calls = calls(&[read], Path::new("/h"), Path::new("/p"));
        assert_eq!(calls.len(), 2);
        assert_eq!(calls[1].args["file_path"], "/h/.ssh/twsrt-probe");
        let half = answer(&[("deny", Some(4.9)), ("allow", Some(1.05))]);
        let judged = judge(&calls, &half, 0);
        assert_eq!(judged.verdict, "FAIL");
        assert!(
            judged.detail.contains("/h/.ssh/twsrt-probe"),
            "{}",
            judged.detail
        );
    }

    #[test]
    fn a_denied_domain_is_fetched_and_an_allowed_one_is_skipped() {
        let mut denied = rule("deniedDomains", "*.paste.example");
        denied.section = "network";
        let mut allowed = rule("allowedDomains", "github.com");
        allowed.section = "network";
        let calls = calls(&[denied, allowed.clone()], Path::new("/h"), Path::new("/p"));
        assert_eq!(calls.len(), 1);
        assert_eq!(
            calls[0].args["prompt"],
            "https://twsrt-probe.paste.example/"
        );
        assert!(skipped(&allowed).is_some());
    }
}
