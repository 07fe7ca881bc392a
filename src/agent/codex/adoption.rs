//! The `.rules` file is written whole: a `forbidden` or `prompt` rule in
//! the existing file (any rule that is not plainly an allow) that the write
//! would remove and that no policy of the record renders was written by
//! someone else, and removing it needs the user's consent
//! ([`crate::agent::record`]). An allow rule may go: removing it only
//! narrows what Codex lets through.

use std::collections::HashSet;
use std::path::Path;

use super::directions::{self, Rule};
use super::render;
use crate::agent::{Ctx, record};
use crate::error::Result;
use crate::plan::{Plan, Removal};
use crate::rules::{Action, Scope};

/// How to put such a rule into the policy.
const KEEP: &str = "the command to a bash fragment's deny list";

/// Refuse (or, with `--drop-foreign`, record) the removal of every
/// restricting rule of `existing` that `rendered` drops and twsrt never
/// wrote.
pub fn guard(
    ctx: &Ctx,
    plan: &mut Plan,
    path: &Path,
    existing: Option<&str>,
    rendered: &str,
) -> Result<()> {
    let Some(existing) = existing else {
        return Ok(());
    };
    let kept = directions::rules(rendered);
    let kept_words = word_rules(rendered);
    let dropped: Vec<Rule> = directions::rules(existing)
        .into_iter()
        .filter(|rule| !plainly_allows(rule) && !kept.contains(rule))
        .filter(|rule| !held_word_by_word(rule, &kept_words))
        .collect();
    // The everyday write over twsrt's own file drops nothing: the record
    // (every other profile compiled) is only built when something would go.
    if dropped.is_empty() {
        return Ok(());
    }
    let ours = record_rules(ctx);
    let removals = dropped
        .into_iter()
        .filter(|rule| !ours.contains(&rule.text))
        .map(|rule| Removal {
            agent: "codex",
            path: path.to_path_buf(),
            section: "rules".to_string(),
            entry: rule.name,
        })
        .collect();
    record::settle(ctx, plan, path, removals, KEEP)
}

/// Each (decision, words) a rules file's `prefix_rule`s stand for, one per
/// alternative of their patterns.
fn word_rules(text: &str) -> HashSet<(String, Vec<String>)> {
    super::import_rules::read(text)
        .rules
        .iter()
        .flat_map(|rule| {
            super::import::expand(rule)
                .into_iter()
                .map(|words| (rule.decision.clone(), words))
        })
        .collect()
}

/// Whether `rule` is one `prefix_rule` whose every alternative (a pattern
/// such as `[["rm", "/bin/rm"], "-rf"]` is two rules) the written file
/// holds with the same decision: the rules `import codex` made of it and
/// twsrt writes one by one say the same, so it is not foreign.
fn held_word_by_word(rule: &Rule, kept: &HashSet<(String, Vec<String>)>) -> bool {
    let read = super::import_rules::read(&rule.text);
    let [one] = read.rules.as_slice() else {
        return false;
    };
    read.unread.is_empty()
        && super::import::expand(one)
            .into_iter()
            .all(|words| kept.contains(&(one.decision.clone(), words)))
}

/// A rule that says `decision = "allow"` and names no other decision, in
/// any layout or quoting Codex reads; anything else (`forbidden`, `prompt`,
/// a one-line rule, text that is not a rule) is guarded: fail closed.
fn plainly_allows(rule: &Rule) -> bool {
    let compact: String = rule.text.chars().filter(|c| !c.is_whitespace()).collect();
    let compact = compact.replace('\'', "\"");
    compact.starts_with("prefix_rule(")
        && compact.contains("decision=\"allow\"")
        && !compact.contains("\"forbidden\"")
        && !compact.contains("\"prompt\"")
}

/// The text of every rule an earlier policy of the record renders.
fn record_rules(ctx: &Ctx) -> HashSet<String> {
    let mut ours = HashSet::new();
    record::visit_earlier_rules(ctx, |rules| {
        let deny = rules
            .iter()
            .filter(|r| r.is(Scope::Execute, Action::Deny))
            .map(|r| r.pattern);
        // A policy that does not render wrote no rules file.
        if let Ok(text) = render::rules_file(deny) {
            ours.extend(directions::rules(&text).into_iter().map(|r: Rule| r.text));
        }
    });
    ours
}
