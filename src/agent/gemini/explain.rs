//! Gemini CLI's row in `twsrt explain`, decided on the policy file
//! `generate` renders for the mode: each access becomes the tool call
//! Gemini would make for it and runs through the file's rules as Gemini's
//! engine runs them ([`super::engine`]). So a rule the renderer skips (a
//! `~user` path, a domain with a port) decides nothing, and a rule it
//! widens (a bracket class) decides what it really matches. One layer,
//! `policy`, rank 41. Shown only when `[targets] gemini_policy` compiles a
//! policy file. Above it, rank 40, the `managed` row of an installed admin
//! policy folder ([`super::explain_admin`]), shown whenever one is
//! installed.

use std::path::Path;

use serde_json::{Value, json};

use super::engine::{Outcome, Policy};
use super::explain_admin::{ADMIN, Admin};
use super::{Origin, rendered_policy};
use crate::agent::Ctx;
use crate::drift::access::{Decision, Verdict};
use crate::explain::{ExplainLayers, Layer, Subject};

static POLICY: Layer = Layer {
    rank: 41,
    layer: "policy",
    agent: "gemini",
};

/// Stands for "any subdomain" when the query is `*.domain`: Gemini only
/// ever sees a concrete host.
const ANY_LABEL: &str = "twsrt-any";

/// The loaded file, or why it could not be rendered (`None` when
/// `[targets] gemini_policy` compiles no file); the installed admin
/// policy, when there is one.
pub struct Layers {
    rendered: Option<std::result::Result<(Policy, Vec<Origin>), String>>,
    yolo: bool,
    admin: Option<Admin>,
}

impl Layers {
    /// Render and load the file for `ctx`'s mode when `configured`, `~`
    /// being `home`, and read the installed admin policy: `None` when
    /// there is neither. A file that does not render or load is no error
    /// here: the row says why.
    pub fn of(ctx: &Ctx, home: &Path, configured: bool) -> Option<Self> {
        let admin = Admin::installed(ctx, home);
        if !configured && admin.is_none() {
            return None;
        }
        Some(Layers {
            rendered: configured.then(|| rendered_policy(ctx, home).map_err(|e| e.to_string())),
            yolo: ctx.yolo,
            admin,
        })
    }
}

impl ExplainLayers for Layers {
    fn decide(&self, subject: &Subject) -> Vec<(&'static Layer, Decision)> {
        let mut rows = Vec::new();
        if let Some(admin) = &self.admin {
            rows.push((&ADMIN, admin.decide(subject)));
        }
        if let Some(rendered) = &self.rendered {
            rows.push((&POLICY, decide(rendered, self.yolo, subject)));
        }
        rows
    }
}

/// The tool call Gemini's model makes for the access (a read or a write of
/// the absolute path, a fetch of the domain's root URL, a shell command),
/// and a note on how it stands for the access.
pub(super) fn call(subject: &Subject) -> (&'static str, Value, Option<String>) {
    match subject {
        Subject::Read(p) => ("read_file", json!({"file_path": p.to_string_lossy()}), None),
        Subject::Write(p) => (
            "write_file",
            json!({"content": "", "file_path": p.to_string_lossy()}),
            None,
        ),
        Subject::Domain(d) => match d.strip_prefix("*.") {
            Some(rest) => {
                let host = format!("{ANY_LABEL}.{rest}");
                let note = format!("decided for one subdomain, {host}");
                (
                    "web_fetch",
                    json!({"prompt": format!("https://{host}/")}),
                    Some(note),
                )
            }
            None => (
                "web_fetch",
                json!({"prompt": format!("https://{d}/")}),
                None,
            ),
        },
        Subject::Command(c) => ("run_shell_command", json!({"command": c}), None),
    }
}

/// What a rule's outcome is in the table.
pub(super) fn verdict(outcome: Outcome) -> Verdict {
    match outcome {
        Outcome::Deny => Verdict::Deny,
        Outcome::AskUser => Verdict::Ask,
        Outcome::Allow => Verdict::Allow,
    }
}

/// The access's tool call run through the file's rules.
fn decide(
    rendered: &std::result::Result<(Policy, Vec<Origin>), String>,
    yolo: bool,
    subject: &Subject,
) -> Decision {
    let (policy, origins) = match rendered {
        Ok(rendered) => rendered,
        Err(why) => return Decision::without_rule(Verdict::NotCovered, Some(why)),
    };
    let (tool, args, mut note) = call(subject);
    let Some(found) = policy.check(tool, &args) else {
        let (verdict, default) = if yolo {
            (Verdict::Allow, "no twsrt rule matches: yolo runs it")
        } else {
            (
                Verdict::NotCovered,
                "no twsrt rule matches: Gemini's own defaults decide",
            )
        };
        let note = join(note, default);
        return Decision::without_rule(verdict, Some(&note));
    };
    let verdict = verdict(found.outcome);
    let rule_note = format!("{} rule on {tool}", verdict.name());
    note = Some(join(note, &rule_note));
    match origins.get(found.index) {
        Some(origin) => Decision::rule(
            verdict,
            (origin.list.to_string(), origin.rule.clone()),
            note.as_deref(),
        ),
        None => Decision::without_rule(verdict, note.as_deref()),
    }
}

pub(super) fn join(first: Option<String>, then: &str) -> String {
    match first {
        Some(first) => format!("{first}; {then}"),
        None => then.to_string(),
    }
}
