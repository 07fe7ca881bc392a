//! Profile inheritance: which fragments, in which order, one invocation uses.
//!
//! Contract: the `Config` comes from `config::load`/`config::parse`, which
//! has already rejected unknown parents and `extends` cycles. Resolution
//! only orders what is there; it still visits each profile once, so even a
//! hand-built cyclic `Config` terminates.

pub mod listing;

use std::collections::HashSet;

use crate::config::{Config, Fragment};
use crate::error::{Error, Result};
use crate::source::SourceKind;

#[derive(Debug, Clone)]
pub struct ResolvedProfile {
    pub name: String,
    /// Ordered, de-duplicated fragments per source kind, in registry order.
    pub fragments: Vec<(SourceKind, Vec<Fragment>)>,
}

impl ResolvedProfile {
    pub fn fragments(&self, kind: SourceKind) -> &[Fragment] {
        self.fragments
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, f)| f.as_slice())
            .unwrap_or(&[])
    }
}

/// Resolve `name` (or the default profile) into its ordered fragment lists.
pub fn resolve(config: &Config, name: Option<&str>) -> Result<ResolvedProfile> {
    let name = name.unwrap_or(&config.default_profile);
    if config.profile(name).is_none() {
        return Err(Error::Policy(format!(
            "profile '{name}' is not defined in {}; defined profiles: {}",
            config.path.display(),
            config.profile_names().join(", ")
        )));
    }
    // Parents first, depth first in `extends` order, each profile once.
    let mut order: Vec<&str> = Vec::new();
    let mut visited: HashSet<&str> = HashSet::new();
    visit(config, name, &mut visited, &mut order);

    let mut fragments = Vec::new();
    for source in &config.sources {
        let mut seen: HashSet<&str> = HashSet::new();
        let mut list = Vec::new();
        for profile in &order {
            let selected = config
                .profile(profile)
                .and_then(|p| p.selections.get(&source.kind));
            for frag in selected.into_iter().flatten() {
                if seen.insert(frag)
                    && let Some(f) = source.fragment(frag)
                {
                    list.push(f.clone());
                }
            }
        }
        if list.is_empty() {
            return Err(Error::Policy(format!(
                "profile '{name}' selects no {kind} fragment (after inheritance); \
                 add one to profiles.{name}.{kind} or a parent profile",
                kind = source.kind.name()
            )));
        }
        fragments.push((source.kind, list));
    }
    Ok(ResolvedProfile {
        name: name.to_string(),
        fragments,
    })
}

fn visit<'a>(
    config: &'a Config,
    name: &'a str,
    visited: &mut HashSet<&'a str>,
    order: &mut Vec<&'a str>,
) {
    if !visited.insert(name) {
        return;
    }
    if let Some(def) = config.profile(name) {
        for parent in &def.extends {
            visit(config, parent, visited, order);
        }
    }
    order.push(name);
}

#[cfg(test)]
mod tests;
