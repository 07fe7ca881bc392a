//! The policy file is written whole: a deny or ask_user rule in the
//! existing file that the write would remove and that no policy of the
//! record renders (in either mode) was written by someone else, and
//! removing it needs the user's consent ([`crate::agent::record`]). Any
//! other rule may go: removing it only narrows. A file that is not TOML
//! holds no rule Gemini loads, so it guards nothing.

use std::path::Path;

use serde_json::Value;

use super::{drift, mapping, render};
use crate::agent::{Ctx, record};
use crate::drift::canonical::shown;
use crate::error::Result;
use crate::plan::{Plan, Removal};
use crate::rules::SecurityRule;
use crate::tomltext::parse_document;

const KEEP: &str = "the rule's command or path to a bash or srt fragment";

/// Refuse (or, with `--drop-foreign`, record) the removal of every deny or
/// ask_user rule of `existing` that `rendered` drops and twsrt never wrote.
pub fn guard(
    ctx: &Ctx,
    plan: &mut Plan,
    path: &Path,
    existing: Option<&str>,
    rendered: &str,
    home: &Path,
) -> Result<()> {
    let Some(have) = existing.and_then(|text| rules_of(text, path)) else {
        return Ok(());
    };
    let rendered = rules_of(rendered, path).unwrap_or_default();
    let dropped: Vec<Value> = have
        .into_iter()
        .filter(|rule| drift::restricts(rule) && !rendered.contains(rule))
        .collect();
    // The everyday write over twsrt's own file drops nothing: the record
    // (every other profile compiled) is only built when something would go.
    if dropped.is_empty() {
        return Ok(());
    }
    let ours = record_rules(ctx, path, home);
    let removals = dropped
        .into_iter()
        .filter(|rule| !ours.contains(rule))
        .map(|rule| Removal {
            agent: "gemini",
            path: path.to_path_buf(),
            section: "rule".to_string(),
            entry: shown(&rule),
        })
        .collect();
    record::settle(ctx, plan, path, removals, KEEP)
}

fn rules_of(text: &str, path: &Path) -> Option<Vec<Value>> {
    parse_document(text, path)
        .ok()
        .map(|doc| drift::entries(&doc))
}

/// Every rule the current policy and the earlier ones of the record
/// render, in both modes.
fn record_rules(ctx: &Ctx, path: &Path, home: &Path) -> Vec<Value> {
    let mut ours = Vec::new();
    add_rendered(&mut ours, ctx.rules(), path, home);
    record::visit_earlier_rules(ctx, |rules| add_rendered(&mut ours, rules, path, home));
    ours
}

fn add_rendered(ours: &mut Vec<Value>, rules: &[SecurityRule], path: &Path, home: &Path) {
    for yolo in [false, true] {
        // A policy that does not render wrote no policy file.
        if let Ok(mapped) = mapping::translate(rules, yolo, home, &mut Vec::new()) {
            ours.extend(rules_of(&render::file(&mapped), path).unwrap_or_default());
        }
    }
}
