//! Bash deny rules the agents match as prefixes: every agent compiles a
//! bash deny rule into a prefix of the command's words, so the same
//! command spelt differently (`rm -fr` for `rm -rf`, long options) passes
//! every agent's rule. Only the guard hook matches such rules by meaning;
//! each deny rule with such spellings is named, with examples.

use super::input::{Frag, Input};
use super::words::quoted;
use crate::diag::{Code, Diagnostic, Severity};
use crate::source::SourceKind;

/// Each bash fragment in registry order (unused ones included), one
/// finding per deny rule that has spellings its prefix misses.
pub fn check(input: &Input, out: &mut Vec<Diagnostic>) {
    for frag in input.loaded().filter(|f| f.kind == SourceKind::Bash) {
        rules(frag, out);
    }
}

fn rules(frag: &Frag, out: &mut Vec<Diagnostic>) {
    for rule in frag.list("/deny") {
        if frag.ignores(rule) {
            continue;
        }
        let missed = crate::hook::missed_spellings(rule);
        if missed.is_empty() {
            continue;
        }
        let message = format!(
            "deny: {} is matched as a prefix by every agent, so the same command spelt \
             differently runs (only the guard hook matches it by meaning)",
            quoted(rule)
        );
        let notes = missed.iter().map(|s| quoted(s)).collect();
        out.push(
            Diagnostic::new(Severity::Info, Code::PrefixSpellings, &frag.shown, message)
                .with_notes(notes),
        );
    }
}
