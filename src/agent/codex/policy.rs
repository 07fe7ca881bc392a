//! The canonical policy translated into the parts of a Codex permission
//! profile, with a warning for everything Codex cannot express.

use crate::agent::codex::codes;
use crate::diag::Code;
use std::collections::{BTreeSet, HashMap};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use serde_json::{Map, Value};

use super::pathshape::{
    climbs_out, has_codex_wildcard, is_anchored, is_rooted_tilde, socket_path, workspace_relative,
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
    (home, made_dirs): (&Path, Option<&[std::path::PathBuf]>),
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
    let skipped = place_paths(rules, &mut profile)?;
    for rule in rules.iter().filter(|r| r.scope == Scope::Network) {
        match rule.action {
            Action::Allow => profile.domains.set(rule.pattern, "allow"),
            _ => profile.domains.set(rule.pattern, "deny"),
        }
    }
    let network = srt.get("network").and_then(Value::as_object);
    place_network(network, &mut profile, home, warnings);
    unmapped_warning(srt, overrides, warnings);
    skipped.warn(warnings);
    bash_warnings(rules, warnings);
    if let Some(made) = made_dirs {
        super::missing::lift(&mut profile, home, made, warnings);
    }
    runtime_warnings(&profile, home, made_dirs.unwrap_or_default(), warnings);
    Ok(profile)
}

/// What the filesystem rules could not say exactly in Codex, for the warnings.
#[derive(Default)]
struct SkippedPaths {
    /// denyWrite globs, compiled as deny (Codex has no read-only glob).
    deny_write_globs: usize,
    /// allowWrite patterns that are not one concrete directory.
    unsupported_roots: BTreeSet<String>,
    /// allowWrite roots that a deny rule also names (the deny stays).
    denied_roots: BTreeSet<String>,
}

impl SkippedPaths {
    fn warn(self, warnings: &mut Warnings) {
        if self.deny_write_globs > 0 {
            warnings.push(warning(
                codes::DENY_WRITE_GLOB,
                format!(
                    "{} denyWrite globs cannot be made read-only in Codex; they were \
                 compiled as deny, which blocks reading as well as writing",
                    self.deny_write_globs
                ),
            ));
        }
        if !self.unsupported_roots.is_empty() {
            warnings.push(warning(
                codes::ROOT_SKIPPED,
                format!(
                    "{} allowWrite pattern(s) skipped: a Codex workspace root must be one concrete \
                 directory: {}",
                    self.unsupported_roots.len(),
                    join(&self.unsupported_roots)
                ),
            ));
        }
        if !self.denied_roots.is_empty() {
            warnings.push(warning(codes::DENIED_ROOT, format!(
                "{} allowWrite path(s) are also named by SRT deny rules; the deny stays and the \
                 workspace root(s) were skipped: {}",
                self.denied_roots.len(),
                join(&self.denied_roots)
            )));
        }
    }
}

/// The Codex access of a filesystem rule, `None` for the rules that are not
/// one (network, bash, read allows).
fn path_access(rule: &SecurityRule) -> Option<Access> {
    match (rule.scope, rule.action) {
        (Scope::Write, Action::Allow) => Some(Access::Write),
        (Scope::Read, Action::Deny) => Some(Access::Deny),
        // Codex cannot make a glob read-only: it is denied outright.
        (Scope::Write, Action::Deny) if has_codex_wildcard(rule.pattern) => Some(Access::Deny),
        (Scope::Write, Action::Deny) => Some(Access::Read),
        _ => None,
    }
}

/// Places the filesystem rules: anchored paths in `filesystem`, the others in
/// `workspace_rules` (most restrictive access wins), and anchored allowWrite
/// paths as workspace roots once every deny is known (a root a deny also
/// names is skipped).
fn place_paths(rules: &[SecurityRule], profile: &mut Profile) -> Result<SkippedPaths> {
    let mut skipped = SkippedPaths::default();
    let mut root_candidates = Vec::new();
    for rule in rules {
        let Some(access) = path_access(rule) else {
            continue;
        };
        let pattern = rule.pattern;
        check_path(pattern)?;
        if rule.scope == Scope::Write && access == Access::Deny {
            skipped.deny_write_globs += 1;
        }
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
    for pattern in root_candidates {
        match workspace_root(pattern) {
            None => {
                skipped.unsupported_roots.insert(pattern.to_string());
            }
            Some(root) if profile.filesystem.contains(&root) => {
                skipped.denied_roots.insert(root);
            }
            Some(root) => profile.workspace_roots.set(&root, ()),
        }
    }
    Ok(skipped)
}

/// The srt `network` keys: unix sockets Codex can name, and a warning for
/// each setting it has no equivalent for.
fn place_network(
    network: Option<&Map<String, Value>>,
    profile: &mut Profile,
    home: &Path,
    warnings: &mut Warnings,
) {
    let network_get = |key: &str| network.and_then(|n| n.get(key));
    if let Some(Value::Array(entries)) = network_get("allowUnixSockets") {
        for entry in entries {
            match entry.as_str().and_then(|e| socket_path(e, home)) {
                Some(path) => profile.unix_sockets.set(&path, ()),
                None => warnings.push(warning(codes::SOCKET_SKIPPED, format!(
                    "allowUnixSockets entry {} skipped: Codex accepts only the exact absolute path \
                     of a socket, not a directory or a relative path",
                    entry
                        .as_str()
                        .map(str::to_string)
                        .unwrap_or_else(|| entry.to_string())
                ))),
            }
        }
    }
    profile.allow_all_unix_sockets = network_get("allowAllUnixSockets") == Some(&Value::Bool(true));
    if network_get("allowLocalBinding") == Some(&Value::Bool(true)) {
        warnings.push(warning(
            codes::LOCAL_BINDING_SKIPPED,
            "allowLocalBinding skipped: SRT only lets commands bind local ports, while the Codex \
             switch would also lift its wider local/private-network guard",
        ));
    }
    for port in ["httpProxyPort", "socksProxyPort"] {
        if network_get(port).is_some() {
            warnings.push(warning(
                codes::PROXY_PORT_SKIPPED,
                format!("{port} skipped: Codex has no setting for an integer proxy port"),
            ));
        }
    }
}

/// One warning naming the srt keys and mode overrides Codex has nothing for.
fn unmapped_warning(srt: &Value, overrides: &Map<String, Value>, warnings: &mut Warnings) {
    use crate::agent::srt_keys::{
        ALLOW_READ, DENIED_DOMAIN_REASONS, ENV_VARS, STRICT_ALLOWLIST, skipped,
    };
    warnings.extend(skipped(
        "codex",
        srt,
        &[ALLOW_READ],
        "a \"read\" path inside a \"deny\" one stays unreadable in Codex 0.171 (measured), so \
         the denied paths stay closed (stricter than srt)",
    ));
    warnings.extend(skipped(
        "codex",
        srt,
        &[ENV_VARS, STRICT_ALLOWLIST, DENIED_DOMAIN_REASONS],
        "Codex 0.171's own credential masking (features.network_proxy.credentials) and \
         shell_environment_policy are not mapped, and whether its proxy refuses an unlisted \
         host without asking is not measured; credential files are denied outright",
    ));
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
        warnings.push(warning(
            codes::UNMAPPED_KEY,
            format!(
                "SRT sandbox fields with no Codex counterpart were skipped: {}",
                unmapped.into_iter().collect::<Vec<_>>().join(", ")
            ),
        ));
    }
}

/// Directories Codex's `:workspace` base keeps read-only in every workspace
/// root; a missing path in them cannot get a mount point.
const PROTECTED_WORKSPACE_DIRS: [&str; 3] = [".git", ".codex", ".agents"];

/// What Codex does with the written profile when a command starts, measured
/// with Codex 0.171 on Linux (bubblewrap): deny globs are expanded then, and
/// some shapes of missing paths stop the sandbox from starting at all.
fn runtime_warnings(
    profile: &Profile,
    home: &Path,
    made: &[std::path::PathBuf],
    warnings: &mut Warnings,
) {
    let rules = || {
        profile
            .filesystem
            .entries()
            .iter()
            .chain(profile.workspace_rules.entries())
    };
    let globs: Vec<&str> = rules()
        .filter(|(key, access)| *access == Access::Deny && has_codex_wildcard(key))
        .map(|(key, _)| key.as_str())
        .collect();
    if !globs.is_empty() {
        warnings.push(warning(
            codes::GLOB_WALK,
            format!(
                "Codex (measured with 0.171) expands deny globs only when a command starts, by \
             walking every workspace root: a command can still create a new matching file and \
             write to it, and a file that vanishes during the walk (common in /tmp) makes the \
             command fail; keep busy directories out of allowWrite: {}",
                globs.join(", ")
            ),
        ));
    }

    let protected: Vec<&str> = profile
        .workspace_rules
        .entries()
        .iter()
        .map(|(key, _)| key.as_str())
        .filter(|key| {
            let first = key.split('/').next().unwrap_or_default();
            PROTECTED_WORKSPACE_DIRS.contains(&first)
        })
        .collect();
    if !protected.is_empty() {
        warnings.push(warning(
            codes::PROTECTED_PATH,
            format!(
                "Codex (measured with 0.171) keeps .git, .codex and .agents read-only in each \
             workspace and fails to start its sandbox in a workspace where one of these paths \
             does not exist: {}",
                protected.join(", ")
            ),
        ));
    }

    let shared = shared_missing_parents(profile, home, made);
    if !shared.is_empty() {
        warnings.push(warning(
            codes::MISSING_PARENT,
            format!(
                "Codex (measured with 0.171) fails to start its sandbox when two or more rules lie \
             under one directory that does not exist inside a writable place (the workspace it \
             runs in, a workspace root, /tmp); create these directories (a workspace-relative \
             one in each workspace): {}",
                join(&shared)
            ),
        ));
    }
}

/// The missing directories that hold two or more non-glob rules: for `~/` and
/// absolute rules as they are on this machine now; for workspace-relative
/// rules every shared parent (it may be missing in some workspace); a
/// directory this command's writes create (`made`) exists. Codex
/// trips over them only inside a place it may write to, which depends on the
/// directory it is started in, so every one is reported.
fn shared_missing_parents(
    profile: &Profile,
    home: &Path,
    made: &[std::path::PathBuf],
) -> BTreeSet<String> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    // Rules share directories: look each one up once.
    let mut exists: HashMap<Vec<u8>, bool> = HashMap::new();
    let mut dir_exists = |dir: &Path| {
        let key = dir.as_os_str().as_bytes();
        match exists.get(key) {
            Some(&known) => known,
            None => {
                let found = made.iter().any(|m| m.starts_with(dir)) || dir.exists();
                exists.insert(key.to_vec(), found);
                found
            }
        }
    };
    for (key, _) in profile.filesystem.entries() {
        if has_codex_wildcard(key) {
            continue;
        }
        let (path, shown_home) = match key.strip_prefix("~/") {
            Some(rest) => (home.join(rest), true),
            None if key.starts_with('/') => (Path::new(key).to_path_buf(), false),
            None => continue, // `~user/...`: not this user's tree
        };
        for dir in path.ancestors().skip(1) {
            if dir.as_os_str().is_empty() || dir_exists(dir) {
                break;
            }
            let shown = match dir.strip_prefix(home) {
                Ok(rest) if shown_home => format!("~/{}", rest.display()),
                _ => dir.display().to_string(),
            };
            *counts.entry(shown).or_default() += 1;
        }
    }
    for (key, _) in profile.workspace_rules.entries() {
        if has_codex_wildcard(key) {
            continue;
        }
        let key = key.trim_end_matches('/');
        let mut end = key.len();
        while let Some(i) = key[..end].rfind('/') {
            *counts.entry(key[..i].to_string()).or_default() += 1;
            end = i;
        }
    }
    counts
        .into_iter()
        .filter(|(_, n)| *n >= 2)
        .map(|(dir, _)| dir)
        .collect()
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
            "path {} starts with /~/, a directory literally named ~ under the root; \
             write ~/ for the home directory",
            crate::source::quoted(pattern)
        )));
    }
    if !is_anchored(pattern) && climbs_out(workspace_relative(pattern)) {
        return Err(Error::Policy(format!(
            "workspace-relative path {} uses '..'; it must stay inside the workspace",
            crate::source::quoted(pattern)
        )));
    }
    Ok(())
}

/// The table Codex reads only with its `network_proxy` feature on.
const DOMAINS_TABLE: &str = "[permissions.twsrt.network.domains]";

/// The warning for a managed fragment that writes `network.domains` while
/// neither it (`generate` adds the feature: `feature.rs`) nor the managed
/// config.toml (`managed`, `None` when absent or unreadable) switches
/// Codex's `network_proxy` feature on. Measured with Codex 0.171:
/// without the feature the domain lists are ignored and sandboxed commands
/// get the unfiltered network of `network.enabled = true`.
pub fn network_proxy_warning(fragment: &str, managed: Option<&str>) -> Option<String> {
    let emits_domains = fragment.lines().any(|line| line.trim() == DOMAINS_TABLE);
    let enabled = network_proxy_enabled(fragment) || managed.is_some_and(network_proxy_enabled);
    if !emits_domains || enabled {
        return None;
    }
    Some(
        "Codex (measured with 0.171) enforces the allow/deny lists in \
         [permissions.twsrt.network.domains] only when its experimental network_proxy feature \
         is on, and the managed config.toml does not enable it: sandboxed commands can reach \
         any host. Add `[features]` `network_proxy = true` to that file to enforce the lists."
            .into(),
    )
}

/// Whether a Codex config.toml turns the `network_proxy` feature on:
/// `[features] network_proxy = true`, or the table form
/// `[features.network_proxy] enabled = true` (both accepted by Codex 0.171).
/// A file that is not valid TOML enables nothing.
pub fn network_proxy_enabled(config: &str) -> bool {
    // Without the name spelled out, only an escape in a quoted key could
    // spell it; a file with neither cannot enable it (and is not parsed).
    if !config.contains("network_proxy") && !config.contains('\\') {
        return false;
    }
    // Only read: the parsed document without owned copies of every spelling.
    let Ok(doc) = toml_edit::Document::parse(config) else {
        return false;
    };
    let Some(feature) = doc.get("features").and_then(|f| f.get("network_proxy")) else {
        return false;
    };
    feature.as_bool() == Some(true)
        || feature.get("enabled").and_then(toml_edit::Item::as_bool) == Some(true)
}

/// Bash allow and ask rules have no Codex output; say so, with the facts.
fn bash_warnings(rules: &[SecurityRule], warnings: &mut Warnings) {
    let mut allowed: Vec<&str> = rules
        .iter()
        .filter(|r| r.is(Scope::Execute, Action::Allow))
        .map(|r| r.pattern)
        .collect();
    allowed.sort_unstable();
    if !allowed.is_empty() {
        warnings.push(warning(codes::BASH_ALLOW_SKIPPED, format!(
            "{} bash allow rule(s) skipped: in Codex an allow rule runs the command outside the \
             sandbox without asking: {}",
            allowed.len(),
            allowed.join(", ")
        )));
    }
    let asks = rules
        .iter()
        .filter(|r| r.is(Scope::Execute, Action::Ask))
        .count();
    if asks > 0 {
        warnings.push(warning(codes::BASH_ASK_SKIPPED, format!(
            "{asks} bash ask rule(s) skipped: Codex already asks before running anything outside \
             the sandbox, so they need no output"
        )));
    }
}

#[cfg(test)]
mod network_proxy_tests {
    use super::*;

    /// The shortcut and the read-only parse answer as a full parse does.
    #[test]
    fn the_quick_answer_is_the_parsed_one() {
        let parsed = |config: &str| {
            let Ok(doc) = config.parse::<toml_edit::DocumentMut>() else {
                return false;
            };
            let Some(feature) = doc.get("features").and_then(|f| f.get("network_proxy")) else {
                return false;
            };
            feature.as_bool() == Some(true)
                || feature.get("enabled").and_then(toml_edit::Item::as_bool) == Some(true)
        };
        for config in [
            "[features]\n\"network\\u005fproxy\" = true\n",
            "[features]\n\"network\\u005Fproxy\" = true\n",
            "[features]\n\"network\\U0000005fproxy\" = true\n",
            "[features]\n\"network\\x5fproxy\" = true\n",
            "[\"fe\\u0061tures\"]\nnetwork_proxy = true\n",
            "[features]\n'network_proxy' = true\n",
            "[features]\nnetwork_proxy = true\n",
            "[features]\nnetwork_proxy.enabled = true\n",
            "[features]\nnetwork = true\n",
            "x = \"\\\\\"\n",
            "[features\n",
        ] {
            assert_eq!(network_proxy_enabled(config), parsed(config), "{config}");
        }
    }

    const FRAGMENT: &str = "default_permissions = \"twsrt\"\n\n[permissions.twsrt]\n\
        extends = \":workspace\"\n\n[permissions.twsrt.network]\nenabled = true\n\n\
        [permissions.twsrt.network.domains]\n\"github.com\" = \"allow\"\n";

    #[test]
    fn the_feature_switches_recognised_are_the_ones_codex_accepts() {
        for on in [
            "[features]\nnetwork_proxy = true\n",
            "features.network_proxy = true\n",
            "[features.network_proxy]\nenabled = true\n",
            "[features]\nnetwork_proxy = { enabled = true }\n",
            "model = \"x\"\n[features]\nother = false\nnetwork_proxy = true # on\n",
        ] {
            assert!(network_proxy_enabled(on), "{on}");
        }
        for off in [
            "",
            "[features]\nnetwork_proxy = false\n",
            "[features]\nnetwork_proxy = \"true\"\n",
            "[features.network_proxy]\nenabled = false\n",
            "[features]\nnetwork_proxy = {}\n",
            "network_proxy = true\n",
            "[profiles.p.features]\nnetwork_proxy = true\n",
            "[features]\nnetwork_proxy = true\n[[broken",
        ] {
            assert!(!network_proxy_enabled(off), "{off}");
        }
    }

    #[test]
    fn warns_for_a_domains_table_unless_the_managed_config_enables_the_proxy() {
        let warning = network_proxy_warning(FRAGMENT, None).unwrap();
        assert!(warning.contains("network_proxy"));
        assert!(warning.contains("[permissions.twsrt.network.domains]"));
        assert!(
            network_proxy_warning(FRAGMENT, Some("[features]\nnetwork_proxy = false\n")).is_some()
        );
        assert!(
            network_proxy_warning(FRAGMENT, Some("[features]\nnetwork_proxy = true\n")).is_none()
        );
        let without_domains = FRAGMENT.replace("[permissions.twsrt.network.domains]", "");
        assert!(network_proxy_warning(&without_domains, None).is_none());
    }
}

#[cfg(test)]
mod runtime_tests {
    use super::*;

    fn profile(filesystem: &[(&str, Access)], workspace: &[(&str, Access)]) -> Profile {
        let mut profile = Profile::default();
        for (key, access) in filesystem {
            profile.filesystem.set(key, *access);
        }
        for (key, access) in workspace {
            profile.workspace_rules.set(key, *access);
        }
        profile
    }

    fn warnings_for(profile: &Profile, home: &Path) -> Vec<String> {
        let mut warnings = Vec::new();
        runtime_warnings(profile, home, &[], &mut warnings);
        crate::agent::messages(&warnings)
    }

    #[test]
    fn deny_globs_are_named_because_codex_expands_them_per_command() {
        let home = tempfile::tempdir().unwrap();
        let p = profile(
            &[
                ("~/.config/*/token", Access::Deny),
                ("~/.ssh", Access::Deny),
            ],
            &[("**/.env", Access::Deny), ("*.lock", Access::Read)],
        );
        let warnings = warnings_for(&p, home.path());
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("expands deny globs only when a command starts"));
        assert!(warnings[0].ends_with(": ~/.config/*/token, **/.env"));
    }

    #[test]
    fn rules_inside_protected_workspace_directories_are_named() {
        let home = tempfile::tempdir().unwrap();
        let p = profile(
            &[],
            &[
                (".git/config", Access::Deny),
                (".codex", Access::Deny),
                (".github/x", Access::Read),
                ("src/.git", Access::Deny),
            ],
        );
        let warnings = warnings_for(&p, home.path());
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].ends_with("does not exist: .git/config, .codex"));
    }

    #[test]
    fn two_rules_under_one_missing_directory_are_named() {
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir(home.path().join(".docker")).unwrap();
        let abs = home.path().join("opt");
        let abs_a = format!("{}/data/a", abs.display());
        let abs_b = format!("{}/data/sub/b", abs.display());
        let p = profile(
            &[
                // ~/.docker exists: no warning for its two files.
                ("~/.docker/config.json", Access::Deny),
                ("~/.docker/daemon.json", Access::Read),
                // ~/.kube does not: one rule alone is fine, two are not.
                ("~/.gcloud/key", Access::Deny),
                ("~/.kube/config", Access::Deny),
                ("~/.kube/cache/x", Access::Read),
                (abs_a.as_str(), Access::Deny),
                (abs_b.as_str(), Access::Deny),
                ("~/.kube/*.yaml", Access::Deny),
            ],
            &[
                ("config/prod.env", Access::Deny),
                ("config/locked.cfg", Access::Read),
                ("secrets", Access::Deny),
                ("vault/x", Access::Deny),
            ],
        );
        let warnings = warnings_for(&p, home.path());
        let last = warnings.last().unwrap();
        let listed = last.rsplit_once("in each workspace): ").unwrap().1;
        let mut want = [
            abs.display().to_string(),
            home.path().join("opt/data").display().to_string(),
            "config".to_string(),
            "~/.kube".to_string(),
        ];
        want.sort();
        assert_eq!(listed, want.join(", "));
        assert!(!last.contains(".docker") && !last.contains("gcloud") && !last.contains("vault"));
    }
}

/// A generation warning of this agent.
fn warning(code: Code, message: impl Into<String>) -> crate::diag::Diagnostic {
    crate::agent::warning("codex", code, message)
}
