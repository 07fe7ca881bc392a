//! Profile inheritance: which fragments, in which order, one invocation uses.

use std::collections::HashSet;

use crate::config::{Config, Fragment, ProfileDef};
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

/// Find an `extends` cycle. On failure returns the chain, starting and ending
/// at the profile that closes the loop (`a -> b -> a`).
pub fn check_cycles(profiles: &[(String, ProfileDef)]) -> Result<(), Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnStack,
        Done,
    }
    let index = |name: &str| profiles.iter().position(|(n, _)| n == name);
    let mut marks = vec![Mark::New; profiles.len()];
    for start in 0..profiles.len() {
        if marks[start] != Mark::New {
            continue;
        }
        // Iterative depth-first search: (profile, next parent to visit).
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        marks[start] = Mark::OnStack;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            let parents = &profiles[node].1.extends;
            if *next >= parents.len() {
                marks[node] = Mark::Done;
                stack.pop();
                continue;
            }
            let parent = &parents[*next];
            *next += 1;
            let Some(p) = index(parent) else { continue };
            match marks[p] {
                Mark::Done => {}
                Mark::New => {
                    marks[p] = Mark::OnStack;
                    stack.push((p, 0));
                }
                Mark::OnStack => {
                    let from = stack.iter().position(|(n, _)| *n == p).unwrap_or(0);
                    let mut chain: Vec<String> = stack[from..]
                        .iter()
                        .map(|(n, _)| profiles[*n].0.clone())
                        .collect();
                    chain.push(profiles[p].0.clone());
                    return Err(chain);
                }
            }
        }
    }
    Ok(())
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
