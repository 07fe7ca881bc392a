//! `twsrt explain`: for one path, domain or command, what every layer the
//! policy compiles to decides (deny, ask, allow, not covered), the rule
//! that decides it and the fragment line it came from. Claude's and
//! Copilot's rows are decided on the documents `generate` renders for the
//! mode ([`rendered`]); the others on [`crate::drift::access`], the model
//! the diff directions read.

mod layers;
mod rendered;
mod rendered_codex;
mod rendered_gemini;
mod source;

use std::path::PathBuf;

use clap::Args;
use serde_json::{Value, json};

use crate::commands::Global;
use crate::compile::compile;
use crate::drift::access::{Decision, Places, absolute};
use crate::error::{Error, Result};
use crate::source::SourceKind;
use crate::ui;
use layers::{Layer, Model, Subject};
use source::Sources;

pub const EXIT_NOT_A_QUERY: i32 = 2;

/// Explain how each layer decides one access: a path (read and write), a
/// domain, or a shell command (`--command`).
///
/// One row per layer and agent: the srt sandbox on this platform, Claude
/// permissions, the Claude sandbox, the Claude guard hook (when installed),
/// the Codex profile, the Codex rules, the Copilot flags. Each gives the
/// decision (deny, ask, allow, not covered), the deciding rule, its fragment
/// `file:line` and what the layer cannot decide. Exit codes: 0 explained, 1 an error in the policy, 2 the
/// query is not a path, domain or command.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A path (it has a `/` or starts with `~` or `.`) or a domain
    /// (`api.github.com`, `*.github.com`).
    #[arg(value_name = "PATH|DOMAIN", required_unless_present = "command")]
    pub query: Option<String>,

    /// A shell command to explain instead, as one argument.
    #[arg(long, value_name = "CMD", conflicts_with = "query")]
    pub command: Option<String>,

    /// The profile to compile instead of default_profile.
    #[arg(short, long, value_name = "NAME")]
    pub profile: Option<String>,

    /// Explain the yolo mode (its sandbox overrides, Copilot's --yolo).
    #[arg(long)]
    pub yolo: bool,

    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// What the query is.
enum Query {
    Path(PathBuf),
    Domain(String),
    Command(String),
}

pub fn run(global: &Global, args: &ExplainArgs) -> Result<i32> {
    let config = crate::commands::load_config(&global.config_path)?;
    let compiled = compile(&config, args.profile.as_deref())?;
    let home = crate::paths::home_dir();
    let cwd = std::env::current_dir().map_err(|e| Error::io(std::path::Path::new("."), e))?;
    let places = Places {
        home: &home,
        cwd: &cwd,
    };
    let (shown, query) = classify(args, &places)?;
    let srt = compiled.srt();
    let ctx = crate::agent::Ctx::new(&config, &compiled, args.yolo);
    let rendered = rendered::Rendered::of(&ctx)?;
    let codex = rendered_codex::Codex::of(&ctx);
    let gemini_on = config.targets.contains("gemini_policy");
    let gemini = rendered_gemini::Gemini::of(&ctx, &home, gemini_on);
    let hook_policy = crate::hook::install(&config.targets)
        .map(|_| crate::hook::Policy::new(&compiled, &home, &cwd));
    let model = Model {
        srt,
        bash: compiled.document(SourceKind::Bash),
        places,
        rendered: &rendered,
        codex: &codex,
        yolo: args.yolo,
        hook: hook_policy.as_ref(),
        gemini: gemini_on,
        gemini_policy: &gemini,
    };
    let subjects = match &query {
        Query::Path(p) => vec![Subject::Read(p), Subject::Write(p)],
        Query::Domain(d) => vec![Subject::Domain(d)],
        Query::Command(c) => vec![Subject::Command(c)],
    };
    let sources = Sources::load(&compiled, &global.config_path);
    let mut rows = Vec::new();
    for subject in &subjects {
        for (layer, decision) in layers::decide(&model, subject) {
            let from = source_of(&sources, &decision);
            rows.push(Row {
                layer,
                access: subject.access().name(),
                decision,
                source: from,
            });
        }
    }
    if args.json {
        ui::data(&crate::pyjson::to_pretty(&to_json(&shown, &rows)));
    } else {
        ui::data(&table(&shown, &rows));
    }
    Ok(0)
}

/// The query and how it reads; an error (exit 2) when it is none of the three.
fn classify(args: &ExplainArgs, places: &Places) -> Result<(String, Query)> {
    let not_a_query = |message: String| Error::WithCode {
        message,
        code: EXIT_NOT_A_QUERY,
    };
    if let Some(command) = &args.command {
        if command.trim().is_empty() {
            return Err(not_a_query("--command needs a command to explain".into()));
        }
        return Ok((command.clone(), Query::Command(command.clone())));
    }
    let text = args.query.clone().unwrap_or_default();
    if text.starts_with(['/', '~', '.']) || text.contains('/') {
        let path = absolute(&text, places);
        return Ok((text, Query::Path(path)));
    }
    if is_domain(&text) {
        return Ok((text.clone(), Query::Domain(text)));
    }
    Err(not_a_query(format!(
        "{} is not a path, a domain or a command: a path has a `/` (./{text} for a file \
         here), a domain a dot; use --command \"CMD\" for a command",
        crate::source::quoted(&text)
    )))
}

/// `name.tld`, optionally `*.`-prefixed: labels of letters, digits and `-`.
fn is_domain(text: &str) -> bool {
    let rest = text.strip_prefix("*.").unwrap_or(text);
    let labels: Vec<&str> = rest.split('.').collect();
    labels.len() >= 2
        && labels
            .iter()
            .all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
}

struct Row {
    layer: &'static Layer,
    access: &'static str,
    decision: Decision,
    source: Option<String>,
}

/// The fragment line of the deciding rule: srt lists are `filesystem.*`
/// and `network.*`, the bash ones `deny`, `ask`, `allow`.
fn source_of(sources: &Sources, decision: &Decision) -> Option<String> {
    let (list, rule) = (decision.list.as_deref()?, decision.rule.as_deref()?);
    let kind = if list.contains('.') {
        SourceKind::Srt
    } else {
        SourceKind::Bash
    };
    sources.find(kind, list, rule).or_else(|| {
        // The compile write-denies every denyRead path.
        (list == "filesystem.denyWrite")
            .then(|| sources.find(kind, "filesystem.denyRead", rule))
            .flatten()
            .map(|at| format!("{at} (denyRead)"))
    })
}

fn to_json(query: &str, rows: &[Row]) -> Value {
    let rows: Vec<Value> = rows
        .iter()
        .map(|r| {
            let mut row = json!({
                "layer": r.layer.layer,
                "agent": r.layer.agent,
                "access": r.access,
                "decision": r.decision.verdict.name(),
                "rule": r.decision.rule,
                "source": r.source,
            });
            if let (Some(note), Some(object)) = (&r.decision.note, row.as_object_mut()) {
                object.insert("note".into(), json!(note));
            }
            row
        })
        .collect();
    json!({ "query": query, "rows": rows })
}

/// The table: a header, one line per row, columns padded to their widest
/// cell; a rule the compile added has no source (`-`).
fn table(query: &str, rows: &[Row]) -> String {
    let cells: Vec<[String; 7]> = rows
        .iter()
        .map(|r| {
            [
                r.layer.layer.to_string(),
                r.layer.agent.to_string(),
                r.access.to_string(),
                r.decision.verdict.name().to_string(),
                r.decision.rule.clone().unwrap_or_else(|| "-".into()),
                r.source.clone().unwrap_or_else(|| "-".into()),
                r.decision.note.clone().unwrap_or_default(),
            ]
        })
        .collect();
    let header = [
        "LAYER", "AGENT", "ACCESS", "DECISION", "RULE", "SOURCE", "NOTE",
    ]
    .map(String::from);
    let all: Vec<&[String; 7]> = std::iter::once(&header).chain(&cells).collect();
    let widths: Vec<usize> = (0..7)
        .map(|i| all.iter().map(|c| c[i].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = format!("explain {query}\n");
    for line in all {
        let padded: Vec<String> = (0..7)
            .map(|i| format!("{:<w$}", line[i], w = widths[i]))
            .collect();
        out.push_str(padded.join("  ").trim_end());
        out.push('\n');
    }
    out.pop();
    out
}
