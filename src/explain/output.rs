//! The report's two renderings: the table (the default) and one JSON
//! object (`--json`). Both list the rows in the order given.

use serde_json::{Value, json};

use super::Row;

pub(super) fn to_json(query: &str, rows: &[Row]) -> Value {
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
pub(super) fn table(query: &str, rows: &[Row]) -> String {
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
