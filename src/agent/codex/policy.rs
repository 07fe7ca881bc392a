//! The canonical policy translated into the parts of a Codex permission
//! profile, with a warning for everything Codex cannot express.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use serde_json::{Map, Value};

use super::pathshape::{
    climbs_out, is_anchored, is_glob, is_rooted_tilde, socket_path, workspace_relative,
    workspace_root,
};
use crate::agent::Warnings;
use crate::error::{Error, Result};
use crate::rules::{Action, Scope, SecurityRule};

/// Filesystem access in a Codex profile, least restrictive first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Access {
    Write,
    Read,
    Deny,
}

impl Access {
    pub fn as_str(self) -> &'static str {
        match self {
            Access::Write => "write",
            Access::Read => "read",
            Access::Deny => "deny",
        }
    }
}

/// Keys in first-insertion order, each looked up in constant time.
#[derive(Debug, Clone)]
pub struct OrderedMap<V> {
    index: HashMap<String, usize>,
    entries: Vec<(String, V)>,
}

impl<V> Default for OrderedMap<V> {
    fn default() -> Self {
        Self {
            index: HashMap::new(),
            entries: Vec::new(),
        }
    }
}

impl<V> OrderedMap<V> {
    /// Insert, or replace the value in place (the key keeps its position).
    pub fn set(&mut self, key: &str, value: V) {
        match self.index.get(key) {
            Some(&i) => self.entries[i].1 = value,
            None => {
                self.index.insert(key.to_string(), self.entries.len());
                self.entries.push((key.to_string(), value));
            }
        }
    }

    pub fn get(&self, key: &str) -> Option<&V> {
        self.index.get(key).map(|&i| &self.entries[i].1)
    }

    pub fn contains(&self, key: &str) -> bool {
        self.index.contains_key(key)
    }

    pub fn entries(&self) -> &[(String, V)] {
        &self.entries
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl OrderedMap<Access> {
    /// The most restrictive access wins; a path keeps its first position.
    fn restrict(&mut self, key: &str, access: Access) {
        if self.get(key).is_none_or(|&old| access > old) {
            self.set(key, access);
        }
    }
}

/// Everything `[permissions.twsrt]` holds beyond its fixed keys.
#[derive(Debug, Clone, Default)]
pub struct Profile {
    pub workspace_roots: OrderedMap<()>,
    /// Absolute and home paths.
    pub filesystem: OrderedMap<Access>,
    /// Paths relative to every workspace root.
    pub workspace_rules: OrderedMap<Access>,
    /// `allow` or `deny` per domain.
    pub domains: OrderedMap<&'static str>,
    pub unix_sockets: OrderedMap<()>,
    pub allow_all_unix_sockets: bool,
}

/// Canonical top-level srt keys Codex has nothing for.
const UNMAPPED_SRT_KEYS: [&str; 3] = [
    "enableWeakerNestedSandbox",
    "enableWeakerNetworkIsolation",
    "ignoreViolations",
];

/// Translate the canonical policy. `srt` is the composed srt document and
/// `overrides` the sandbox overrides of the current mode (they cannot change
/// the Codex profile; each one is reported as unmapped).
pub fn translate(
    rules: &[SecurityRule],
    srt: &Value,
    overrides: &Map<String, Value>,
    home: &Path,
    warnings: &mut Warnings,
) -> Result<Profile> {
    if srt.get("enabled") == Some(&Value::Bool(false)) {
        return Err(Error::Policy(
            "the canonical SRT sandbox is disabled (enabled = false); the Codex equivalent \
             would be full access, so no Codex profile is generated"
                .into(),
        ));
    }
    let mut profile = Profile::default();
    let mut root_candidates = Vec::new();
    let mut deny_write_globs = 0usize;
    for rule in rules {
        let writes = rule.scope == Scope::Write;
        match (rule.scope, rule.action) {
            (Scope::Read, Action::Deny)
            | (Scope::Write, Action::Deny)
            | (Scope::Write, Action::Allow) => {}
            _ => continue,
        }
        let pattern = rule.pattern.as_str();
        check_path(pattern)?;
        let access = match rule.action {
            Action::Allow => Access::Write,
            _ if !writes => Access::Deny,
            _ if is_glob(pattern) => {
                deny_write_globs += 1;
                Access::Deny
            }
            _ => Access::Read,
        };
        if is_anchored(pattern) {
            if access == Access::Write {
                root_candidates.push(pattern);
            } else {
                profile.filesystem.restrict(pattern, access);
            }
            continue;
        }
        let relative = workspace_relative(pattern);
        if access == Access::Write && relative == "." {
            // The runtime workspace is writable already.
            continue;
        }
        profile.workspace_rules.restrict(relative, access);
    }

    let mut unsupported_roots = BTreeSet::new();
    let mut denied_roots = BTreeSet::new();
    for pattern in root_candidates {
        match workspace_root(pattern) {
            None => {
                unsupported_roots.insert(pattern.to_string());
            }
            Some(root) if profile.filesystem.contains(&root) => {
                denied_roots.insert(root);
            }
            Some(root) => profile.workspace_roots.set(&root, ()),
        }
    }

    for rule in rules.iter().filter(|r| r.scope == Scope::Network) {
        match rule.action {
            Action::Allow => profile.domains.set(&rule.pattern, "allow"),
            _ => profile.domains.set(&rule.pattern, "deny"),
        }
    }

    let network = srt.get("network").and_then(Value::as_object);
    let network_get = |key: &str| network.and_then(|n| n.get(key));
    if let Some(Value::Array(entries)) = network_get("allowUnixSockets") {
        for entry in entries {
            match entry.as_str().and_then(|e| socket_path(e, home)) {
                Some(path) => profile.unix_sockets.set(&path, ()),
                None => warnings.push(format!(
                    "allowUnixSockets entry {} skipped: Codex accepts only the exact absolute path \
                     of a socket, not a directory or a relative path",
                    entry
                        .as_str()
                        .map(str::to_string)
                        .unwrap_or_else(|| entry.to_string())
                )),
            }
        }
    }
    profile.allow_all_unix_sockets = network_get("allowAllUnixSockets") == Some(&Value::Bool(true));
    if network_get("allowLocalBinding") == Some(&Value::Bool(true)) {
        warnings.push(
            "allowLocalBinding skipped: SRT only lets commands bind local ports, while the Codex \
             switch would also lift its wider local/private-network guard"
                .into(),
        );
    }
    for port in ["httpProxyPort", "socksProxyPort"] {
        if network_get(port).is_some() {
            warnings.push(format!(
                "{port} skipped: Codex has no setting for an integer proxy port"
            ));
        }
    }

    let mut unmapped: BTreeSet<&str> = UNMAPPED_SRT_KEYS
        .into_iter()
        .filter(|k| srt.get(*k).is_some())
        .collect();
    unmapped.extend(
        overrides
            .keys()
            .map(String::as_str)
            .filter(|k| *k != "enabled"),
    );
    if !unmapped.is_empty() {
        warnings.push(format!(
            "SRT sandbox fields with no Codex counterpart were skipped: {}",
            unmapped.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    if deny_write_globs > 0 {
        warnings.push(format!(
            "{deny_write_globs} denyWrite globs cannot be made read-only in Codex; they were \
             compiled as deny, which blocks reading as well as writing"
        ));
    }
    if !unsupported_roots.is_empty() {
        warnings.push(format!(
            "{} allowWrite pattern(s) skipped: a Codex workspace root must be one concrete \
             directory: {}",
            unsupported_roots.len(),
            join(&unsupported_roots)
        ));
    }
    if !denied_roots.is_empty() {
        warnings.push(format!(
            "{} allowWrite path(s) are also named by SRT deny rules; the deny stays and the \
             workspace root(s) were skipped: {}",
            denied_roots.len(),
            join(&denied_roots)
        ));
    }
    bash_warnings(rules, warnings);
    Ok(profile)
}

fn join(set: &BTreeSet<String>) -> String {
    set.iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Patterns no agent could read sensibly are errors, not warnings.
fn check_path(pattern: &str) -> Result<()> {
    if is_rooted_tilde(pattern) {
        return Err(Error::Policy(format!(
            "path '{pattern}' starts with /~/, a directory literally named ~ under the root; \
             write ~/ for the home directory"
        )));
    }
    if !is_anchored(pattern) && climbs_out(workspace_relative(pattern)) {
        return Err(Error::Policy(format!(
            "workspace-relative path '{pattern}' uses '..'; it must stay inside the workspace"
        )));
    }
    Ok(())
}

/// Bash allow and ask rules have no Codex output; say so, with the facts.
fn bash_warnings(rules: &[SecurityRule], warnings: &mut Warnings) {
    let mut allowed: Vec<&str> = rules
        .iter()
        .filter(|r| r.is(Scope::Execute, Action::Allow))
        .map(|r| r.pattern.as_str())
        .collect();
    allowed.sort_unstable();
    if !allowed.is_empty() {
        warnings.push(format!(
            "{} bash allow rule(s) skipped: in Codex an allow rule runs the command outside the \
             sandbox without asking: {}",
            allowed.len(),
            allowed.join(", ")
        ));
    }
    let asks = rules
        .iter()
        .filter(|r| r.is(Scope::Execute, Action::Ask))
        .count();
    if asks > 0 {
        warnings.push(format!(
            "{asks} bash ask rule(s) skipped: Codex already asks before running anything outside \
             the sandbox, so they need no output"
        ));
    }
}
