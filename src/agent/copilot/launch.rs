//! Copilot CLI: its policy is its argv. A launch without every generated
//! `--deny-tool`/`--deny-url` runs without those rules; the `--allow-all*`
//! flags and `--yolo` widen it (deny flags still win over them).

use std::collections::HashSet;

use crate::agent::Ctx;
use crate::agent::launch::redact::typed;
use crate::agent::launch::{Audit, Launch, Setting, unreadable};
use crate::argv::{Grammar, Parsed};
use crate::diag::{Code, Diagnostic, Severity};
use crate::error::Result;

const DENY: [&str; 2] = ["--deny-tool", "--deny-url"];
const ALLOW: [&str; 2] = ["--allow-tool", "--allow-url"];
const WIDE: [&str; 5] = [
    "--allow-all-tools",
    "--allow-all-paths",
    "--allow-all-urls",
    "--allow-all",
    "--yolo",
];

const AUTOPILOT: &str = "starts in autopilot mode: the agent carries on without waiting for you; \
                         deny flags still apply";

/// Copilot CLI's launch part ([`crate::agent::Agent::launch`]).
pub struct CopilotLaunch;

impl Launch for CopilotLaunch {
    fn binary(&self) -> &'static str {
        "copilot"
    }

    fn grammar(&self) -> &'static Grammar {
        &super::grammar::COPILOT
    }

    fn listed_at(&self) -> u8 {
        2
    }

    fn vocabulary(&self) -> &'static [&'static str] {
        // Agent modes ("plan" is Claude Code's word too).
        &["interactive", "autopilot", "plan"]
    }

    fn policy_in_argv(&self) -> bool {
        true
    }

    /// The generated flags as argv words. Their warnings are not counted
    /// here: staging the Copilot target raises the same ones.
    fn launch_args(&self, ctx: &Ctx) -> Result<Vec<String>> {
        super::Copilot::launch_args(ctx, &mut Vec::new())
    }

    fn inputs(&self, setting: &Setting) -> Result<Box<dyn Audit>> {
        Ok(Box::new(Inputs {
            flags: setting.launch_args.clone(),
            yolo: setting.yolo,
        }))
    }
}

/// What the Copilot audit reads besides the argv.
#[derive(Debug, Default)]
pub struct Inputs {
    /// The Copilot flags the policy generates, as argv words.
    pub flags: Vec<String>,
    /// The yolo variant is in force (`--yolo` is then the policy).
    pub yolo: bool,
}

impl Audit for Inputs {
    fn check(&self, parsed: &Parsed) -> Result<Vec<Diagnostic>> {
        check(parsed, self)
    }
}

fn check(parsed: &Parsed, inputs: &Inputs) -> Result<Vec<Diagnostic>> {
    let mut out = Vec::new();
    let generated = generated(inputs)?;
    for occ in &parsed.options {
        // In yolo mode the generated flags hold --yolo: that is the policy.
        let generated_yolo = inputs.yolo && occ.name == "--yolo";
        if WIDE.contains(&occ.name) && !generated_yolo {
            out.push(Diagnostic::new(
                Severity::Warning,
                Code::AllowAll,
                typed(occ),
                "allows everything the deny flags do not name (deny flags still win)",
            ));
        }
    }
    for occ in &parsed.options {
        let (code, why) = match occ.name {
            "--additional-mcp-config" => {
                (Code::ForeignCode, "loads MCP servers the policy never saw")
            }
            "--plugin-dir" => (
                Code::ForeignCode,
                "loads a plugin (its tools, agents and MCP servers) the policy never saw",
            ),
            "--autopilot" => (Code::ApprovalMode, AUTOPILOT),
            "--mode" if occ.value() == Some("autopilot") => (Code::ApprovalMode, AUTOPILOT),
            _ => continue,
        };
        out.push(Diagnostic::new(Severity::Warning, code, typed(occ), why));
    }
    for occ in parsed.all("--add-dir") {
        out.push(Diagnostic::new(
            Severity::Warning,
            Code::ExtraDirectory,
            typed(occ),
            "allows file access to a directory the policy does not name, and trusts its \
             .github configuration",
        ));
    }
    for name in DENY {
        let given = values(parsed, name);
        let want: Vec<&(String, String)> = generated.iter().filter(|(f, _)| f == name).collect();
        let missing = want
            .iter()
            .filter(|(_, v)| !given.contains(v.as_str()))
            .count();
        if missing > 0 {
            out.push(Diagnostic::new(
                Severity::Error,
                Code::MissingDenyFlags,
                name,
                format!(
                    "{missing} of the {} generated {name} flags are missing: Copilot runs \
                     without those rules (twsrt run adds them)",
                    want.len()
                ),
            ));
        }
    }
    for name in ALLOW {
        let want: HashSet<&str> = generated
            .iter()
            .filter(|(f, _)| f == name)
            .map(|(_, v)| v.as_str())
            .collect();
        let extra = values(parsed, name)
            .iter()
            .filter(|v| !want.contains(*v))
            .count();
        if extra > 0 {
            out.push(Diagnostic::new(
                Severity::Warning,
                Code::AllowRules,
                name,
                format!("{extra} {name} value(s) the policy does not generate"),
            ));
        }
    }
    Ok(out)
}

/// Every value given to the option `name`.
fn values<'p>(parsed: &'p Parsed, name: &'p str) -> HashSet<&'p str> {
    parsed
        .all(name)
        .flat_map(|o| o.values.iter().map(String::as_str))
        .collect()
}

/// The generated flags as (flag, value) pairs, read with Copilot's grammar.
/// Flags it cannot read fail the audit: an empty list would pass any argv.
fn generated(inputs: &Inputs) -> Result<Vec<(String, String)>> {
    let parsed = crate::argv::parse(&super::grammar::COPILOT, &inputs.flags)
        .map_err(|e| unreadable(format!("the generated Copilot flags: {e}")))?;
    Ok(parsed
        .options
        .iter()
        .flat_map(|o| o.values.iter().map(|v| (o.name.to_string(), v.clone())))
        .collect())
}
