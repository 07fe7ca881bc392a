//! Copilot CLI: its policy is its argv. A launch without every generated
//! `--deny-tool`/`--deny-url` runs without those rules; the `--allow-all*`
//! flags and `--yolo` widen it (deny flags still win over them).

use std::collections::HashSet;

use super::finding::{Finding, Severity, typed};
use super::grammar::{self, Parsed};
use super::{Inputs, unreadable};
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

pub fn check(parsed: &Parsed, inputs: &Inputs) -> Result<Vec<Finding>> {
    let mut out = Vec::new();
    let generated = generated(inputs)?;
    for occ in &parsed.options {
        // In yolo mode the generated flags hold --yolo: that is the policy.
        let generated_yolo = inputs.yolo && occ.name == "--yolo";
        if WIDE.contains(&occ.name) && !generated_yolo {
            out.push(Finding::new(
                Severity::Warning,
                typed(occ),
                "allows everything the deny flags do not name (deny flags still win)",
            ));
        }
    }
    for occ in &parsed.options {
        let why = match occ.name {
            "--additional-mcp-config" => "loads MCP servers the policy never saw",
            "--plugin-dir" => {
                "loads a plugin (its tools, agents and MCP servers) the policy never saw"
            }
            "--autopilot" => AUTOPILOT,
            "--mode" if occ.value() == Some("autopilot") => AUTOPILOT,
            _ => continue,
        };
        out.push(Finding::new(Severity::Warning, typed(occ), why));
    }
    for occ in parsed.all("--add-dir") {
        out.push(Finding::new(
            Severity::Warning,
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
            out.push(Finding::new(
                Severity::Error,
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
            out.push(Finding::new(
                Severity::Warning,
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
    let parsed = grammar::parse(&grammar::COPILOT, &inputs.copilot_flags)
        .map_err(|e| unreadable(format!("the generated Copilot flags: {e}")))?;
    Ok(parsed
        .options
        .iter()
        .flat_map(|o| o.values.iter().map(|v| (o.name.to_string(), v.clone())))
        .collect())
}
