//! The profile graph: profiles that cannot be used alone, that do not
//! compile, that extend a profile another parent already brings, or select
//! a fragment an ancestor already selects; fragments no profile selects.

use super::input::Input;
use crate::diag::{Code, Diagnostic, Severity};

pub fn check(input: &Input, out: &mut Vec<Diagnostic>) {
    for name in input.profile_names() {
        let at = format!("profile '{name}'");
        if let Some(kind) = input
            .config
            .sources
            .iter()
            .find(|s| input.resolved(name, s.kind).is_empty())
        {
            out.push(Diagnostic::new(
                Severity::Warning,
                Code::ProfileIncomplete,
                &at,
                format!(
                    "cannot be used on its own: Profile '{name}' selects no fragments for source kind '{}'",
                    kind.kind.name()
                ),
            ));
        } else {
            compiles(input, name, &at, out);
        }
    }
    // Whether profiles can be used comes first for all of them, then the
    // graph checks profile by profile: the report's group order follows.
    for name in input.profile_names() {
        let at = format!("profile '{name}'");
        redundant_extends(input, name, &at, out);
        inherited_fragments(input, name, &at, out);
    }
    unused(input, out);
}

/// A profile whose fragments all parse but that does not compile. (A
/// broken fragment is reported once, as fragment-load.)
fn compiles(input: &Input, name: &str, at: &str, out: &mut Vec<Diagnostic>) {
    let broken = input
        .config
        .sources
        .iter()
        .flat_map(|s| input.resolved(name, s.kind))
        .any(|f| f.located.is_none());
    if broken {
        return;
    }
    if let Err(e) = crate::compile::compile(input.config, Some(name)) {
        out.push(Diagnostic::new(
            Severity::Error,
            Code::ProfileCompile,
            at,
            e.to_string(),
        ));
    }
}

fn redundant_extends(input: &Input, name: &str, at: &str, out: &mut Vec<Diagnostic>) {
    let Some(def) = input.config.profile(name) else {
        return;
    };
    for parent in &def.extends {
        let via = def
            .extends
            .iter()
            .filter(|other| *other != parent)
            .find(|other| input.lineage(other).iter().any(|p| p == parent));
        if let Some(via) = via {
            out.push(Diagnostic::new(
                Severity::Warning,
                Code::RedundantExtends,
                at,
                format!("extends '{parent}' is already inherited via '{via}'"),
            ));
        }
    }
}

/// A selection an ancestor already makes; of several such ancestors the
/// one named is the first by name, as 3.3.3 names it.
fn inherited_fragments(input: &Input, name: &str, at: &str, out: &mut Vec<Diagnostic>) {
    let Some(def) = input.config.profile(name) else {
        return;
    };
    let lineage = input.lineage(name);
    let ancestors = &lineage[..lineage.len().saturating_sub(1)];
    for source in &input.config.sources {
        let kind = source.kind;
        for frag in def.selections.get(&kind).into_iter().flatten() {
            let from = ancestors
                .iter()
                .filter(|a| {
                    input
                        .config
                        .profile(a)
                        .and_then(|d| d.selections.get(&kind))
                        .is_some_and(|s| s.contains(frag))
                })
                .min();
            if let Some(from) = from {
                out.push(Diagnostic::new(
                    Severity::Warning,
                    Code::InheritedFragment,
                    at,
                    format!(
                        "{} fragment '{frag}' is already inherited from '{from}'",
                        kind.name()
                    ),
                ));
            }
        }
    }
}

fn unused(input: &Input, out: &mut Vec<Diagnostic>) {
    for frag in &input.frags {
        let used = input.config.profiles.iter().any(|(_, def)| {
            def.selections
                .get(&frag.kind)
                .is_some_and(|s| s.contains(&frag.name))
        });
        if !used {
            out.push(Diagnostic::new(
                Severity::Warning,
                Code::UnusedFragment,
                &frag.shown,
                format!(
                    "{} fragment '{}' is selected by no profile",
                    frag.kind.name(),
                    frag.name
                ),
            ));
        }
    }
}
