//! twsrt's record of what it wrote into an agent's file, for the merges
//! that replace a deny list whole: an entry the write would remove that no
//! policy of the record compiles to was written by someone else, and
//! removing it needs the user's consent (`generate --drop-foreign`).
//!
//! The record is the policies twsrt generates from, never an entry's look:
//! the current one (the caller has it), every other profile of config.toml
//! (a file last written under another profile) and the canonical outputs
//! on disk (the policy of the last `generate -w`, before the fragments were
//! edited), each only while it holds the bytes twsrt recorded writing there
//! ([`crate::apply::written`]): a hand-written srt file is no record.

use std::path::Path;

use serde_json::Value;

use crate::agent::Ctx;
use crate::compile::{Canonical, compile};
use crate::error::Error;
use crate::plan::Removal;

/// The canonical documents of every earlier policy in the record (other
/// profiles first, then the outputs on disk). A profile that does not
/// compile, or an output that is missing or not JSON, records nothing.
pub fn earlier_policies(ctx: &Ctx) -> Vec<Vec<Canonical>> {
    let current = &ctx.compiled.profile.name;
    let mut policies: Vec<Vec<Canonical>> = ctx
        .config
        .profile_names()
        .into_iter()
        .filter(|name| *name != current)
        .filter_map(|name| compile(ctx.config, Some(name)).ok())
        .map(|compiled| compiled.canonical)
        .collect();
    let on_disk = ctx
        .compiled
        .canonical
        .iter()
        .filter_map(|doc| {
            let value = read_recorded(&ctx.config.path, &doc.output)?;
            Some(Canonical::new(doc.kind, doc.output.clone(), value))
        })
        .collect();
    policies.push(on_disk);
    policies
}

/// `visit` the security rules of each earlier policy in the record, for
/// the agents whose files are rendered from rules (Codex `.rules`, Gemini).
/// The rules borrow from the policy's documents, so they are lent, not
/// returned.
pub fn visit_earlier_rules(ctx: &Ctx, mut visit: impl FnMut(&[crate::rules::SecurityRule])) {
    for docs in earlier_policies(ctx) {
        let rules: Vec<crate::rules::SecurityRule> = crate::source::SourceKind::ALL
            .into_iter()
            .flat_map(|kind| docs.iter().filter(move |d| d.kind == kind))
            .flat_map(|d| d.kind.rules(d.value()))
            .collect();
        visit(&rules);
    }
}

/// A canonical output as twsrt last wrote it; `None` when its bytes are
/// not the ones twsrt recorded writing there.
fn read_recorded(config: &Path, path: &Path) -> Option<Value> {
    let bytes = crate::apply::read_existing(path).ok()??;
    if !crate::apply::written::is_recorded(config, path, &bytes) {
        return None;
    }
    serde_json::from_slice(&bytes).ok()
}

/// Accept `removals` (with `--drop-foreign`: recorded for the `Warning:`
/// lines) or refuse the write to `target` with the list; `keep` says how
/// to put such an entry into the policy.
pub fn settle(
    ctx: &Ctx,
    plan: &mut crate::plan::Plan,
    target: &Path,
    removals: Vec<Removal>,
    keep: &str,
) -> crate::error::Result<()> {
    if removals.is_empty() {
        return Ok(());
    }
    if !ctx.drop_foreign {
        return Err(refusal(target, &removals, keep));
    }
    for removal in removals {
        plan.removal(removal);
    }
    Ok(())
}

/// The refusal: every entry (with the file holding it when that is not the
/// target) and the two ways on.
fn refusal(target: &Path, removals: &[Removal], keep: &str) -> Error {
    let count = match removals.len() {
        1 => "1 entry".to_string(),
        n => format!("{n} entries"),
    };
    let mut message = format!("writing it would remove {count} that twsrt did not write:");
    for r in removals {
        message.push_str(&format!("\n  {}: {}", r.section, r.entry));
        if r.path != target {
            message.push_str(&format!(" (in {})", r.path.display()));
        }
    }
    message.push_str(&format!(
        "\nTo keep them, add them to the policy ({keep}) so twsrt writes them; to remove \
         them, run generate -w --drop-foreign."
    ));
    Error::target(target, message)
}
