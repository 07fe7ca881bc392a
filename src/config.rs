//! config.toml, schema version 1: the registry of source kinds and fragments,
//! the profiles that select them, the agent targets and the sandbox overrides.
//!
//! Every check the reference makes at load time is made here, in the same
//! order, so the first error a user sees is the same one. That includes the
//! profile graph (unknown parents, `extends` cycles): a loaded `Config` is
//! one `profile::resolve` can walk without checking it again.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};
use toml_edit::{Item, Table};

use crate::error::{Error, Result};
use crate::paths::{expand_tilde, resolve_config_path, tidy};
use crate::source::SourceKind;
use crate::tomltext::toml_to_json;

mod agent_tables;
mod keys;
mod managed;
mod sandbox_keys;
mod sources;
mod targets;

pub use agent_tables::{AgentTable, AgentTables, TableReader, TableValue};
pub use managed::{Managed, Switch};
pub use targets::{TargetKey, TargetKind, Targets};

pub const DEFAULT_CONFIG_PATH: &str = "~/.config/twsrt/config.toml";

#[derive(Debug, Clone)]
pub struct Fragment {
    pub name: String,
    pub path: PathBuf,
}

#[derive(Debug, Clone)]
pub struct Source {
    pub kind: SourceKind,
    pub output: PathBuf,
    pub fragments: Vec<Fragment>,
    /// `allow_unknown_keys`: keys (dotted paths, `network.newKey`) its
    /// fragments may hold although the kind's schema does not know them,
    /// each named on purpose (keys of an srt newer than twsrt).
    pub allowed_unknown: Vec<String>,
}

impl Source {
    pub fn fragment(&self, name: &str) -> Option<&Fragment> {
        self.fragments.iter().find(|f| f.name == name)
    }
}

#[derive(Debug, Clone, Default)]
pub struct ProfileDef {
    pub extends: Vec<String>,
    /// Fragment names per source kind, as written.
    pub selections: HashMap<SourceKind, Vec<String>>,
}

#[derive(Debug, Clone)]
pub struct Config {
    pub path: PathBuf,
    /// The configured sources in config.toml order. srt is always there;
    /// bash only when `[sources.bash]` is.
    pub sources: Vec<Source>,
    /// Profiles in the order config.toml defines them.
    pub profiles: Vec<(String, ProfileDef)>,
    pub default_profile: String,
    pub targets: Targets,
    pub overrides_full: Map<String, Value>,
    pub overrides_yolo: Map<String, Value>,
    /// The agents' own top-level tables config.toml holds
    /// ([`AgentTable`]), each read by the agent that declares it.
    pub agent_tables: AgentTables,
    /// `[managed.<agent>]`: the switches of the agents' managed layers
    /// (held to what the agents declare by the commands' loader).
    pub managed: Managed,
    /// The files the configured agents' targets write, in both modes (the
    /// agent's guard: its settings, rules, flags, policy). config.toml does
    /// not know the agents, so the loader of the commands fills this in
    /// (`commands::load_config`); compiling write-denies them with the
    /// policy files, so no agent can switch its own guard off.
    pub guard_files: Vec<PathBuf>,
    /// Write-deny rules as written (`.claude/settings.json`: relative, so
    /// srt anchors them where it starts, in the project), which the
    /// configured agents' guards imply: the files that could switch a
    /// guard hook off. Filled in with [`Config::guard_files`].
    pub guard_rules: Vec<String>,
}

impl Config {
    /// The source of `kind`, if config.toml configures it.
    pub fn source(&self, kind: SourceKind) -> Option<&Source> {
        self.sources.iter().find(|s| s.kind == kind)
    }

    pub fn profile(&self, name: &str) -> Option<&ProfileDef> {
        self.profiles
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, p)| p)
    }

    pub fn profile_names(&self) -> Vec<&str> {
        self.profiles.iter().map(|(n, _)| n.as_str()).collect()
    }

    pub fn overrides(&self, yolo: bool) -> &Map<String, Value> {
        if yolo {
            &self.overrides_yolo
        } else {
            &self.overrides_full
        }
    }
}

/// Resolve the `-c` argument: `~` expanded, `.` segments dropped
/// ([`tidy`]), otherwise as given.
pub fn config_path(arg: Option<&str>) -> PathBuf {
    tidy(&expand_tilde(arg.unwrap_or(DEFAULT_CONFIG_PATH)))
}

/// Loads config.toml at `path`; `tables` are the top-level tables the
/// agents declare (`crate::agent::config_tables`), the other keys
/// config.toml may hold.
pub fn load(path: &Path, tables: &[&AgentTable]) -> Result<Config> {
    let text = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Error::ConfigMissing(path.to_path_buf()));
        }
        Err(e) => return Err(Error::io(path, e)),
    };
    let text = crate::text_position::utf8(text).map_err(|at| Error::toml_not_utf8(path, at))?;
    parse_with(&text, path, tables)
}

/// [`parse_with`] for a config.toml that holds no agent's table.
pub fn parse(text: &str, path: &Path) -> Result<Config> {
    parse_with(text, path, &[])
}

/// Parses config.toml's `text` (read from `path`), `tables` the top-level
/// tables the agents declare.
pub fn parse_with(text: &str, path: &Path, tables: &[&AgentTable]) -> Result<Config> {
    let doc = crate::tomltext::parse_spanned(text, path)?;
    let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
    Loader {
        path,
        text,
        dir: &dir,
        root: doc.as_table(),
    }
    .load(tables)
}

struct Loader<'a> {
    path: &'a Path,
    /// The text of config.toml, for the positions of unknown keys.
    text: &'a str,
    dir: &'a Path,
    root: &'a Table,
}

impl Loader<'_> {
    fn err(&self, message: impl Into<String>) -> Error {
        Error::config(self.path, message)
    }

    fn load(&self, tables: &[&AgentTable]) -> Result<Config> {
        let mut root_keys = keys::ROOT.to_vec();
        root_keys.extend(tables.iter().map(|t| t.key));
        self.check_keys(self.root, "config.toml's top level", &root_keys)?;
        self.reject_legacy_sources()?;
        self.check_schema_version()?;
        let sources = self.sources()?;
        let profiles = self.profiles(&sources)?;
        let default_profile = self.default_profile(&profiles)?;
        self.check_profile_graph(&profiles, &sources)?;
        let targets = self.targets();
        let agent_tables = self.agent_tables(tables)?;
        let managed = self.managed()?;
        let (overrides_full, overrides_yolo) = self.overrides()?;
        Ok(Config {
            path: self.path.to_path_buf(),
            sources,
            profiles,
            default_profile,
            targets,
            overrides_full,
            overrides_yolo,
            agent_tables,
            managed,
            guard_files: Vec::new(),
            guard_rules: Vec::new(),
        })
    }

    /// The pre-1.0 schema named output files directly (`[sources] srt = "..."`).
    /// Guessing a translation could silently drop policy, so it is refused.
    fn reject_legacy_sources(&self) -> Result<()> {
        let Some(sources) = self.root.get("sources").and_then(Item::as_table_like) else {
            return Ok(());
        };
        if sources.iter().any(|(_, v)| v.is_str()) {
            return Err(self.err(
                "the legacy flat [sources] schema (`srt = \"path\"`) is no longer read; \
                 declare each kind as [sources.<kind>] with `output = ...` and its fragments \
                 as [sources.<kind>.fragments.<name>] with `path = ...`",
            ));
        }
        Ok(())
    }

    fn check_schema_version(&self) -> Result<()> {
        match self.root.get("schema_version") {
            Some(item) if item.as_integer() == Some(1) => Ok(()),
            Some(item) => Err(self.err(format!("schema_version must be 1, found {}", shown(item)))),
            None => Err(self.err("schema_version is missing; this version of twsrt reads 1")),
        }
    }

    /// A non-empty path string, resolved relative to config.toml.
    fn path_value(&self, key: &str, item: &Item) -> Result<PathBuf> {
        match item.as_str() {
            Some(s) if !s.is_empty() => Ok(resolve_config_path(s, self.dir)),
            // The value is named, as the reference names it.
            _ => Err(self.err(format!(
                "{key} must be a non-empty path string, found {}",
                shown(item)
            ))),
        }
    }

    fn profiles(&self, sources: &[Source]) -> Result<Vec<(String, ProfileDef)>> {
        let table = self.root.get("profiles").and_then(Item::as_table_like);
        let Some(table) = table.filter(|t| !t.is_empty()) else {
            return Err(self.err("no profiles: define at least one [profiles.<name>]"));
        };
        let mut profiles = Vec::new();
        for (name, item) in table.iter() {
            let Some(pt) = item.as_table_like() else {
                return Err(self.err(format!("profiles.{name} must be a table")));
            };
            // A known kind without its [sources.<kind>] table: smallest name first.
            let unconfigured = SourceKind::ALL
                .into_iter()
                .filter(|k| !sources.iter().any(|s| s.kind == *k) && pt.contains_key(k.name()))
                .min_by_key(|k| k.name());
            if let Some(kind) = unconfigured {
                return Err(self.err(format!(
                    "profiles.{name}: source kind '{kind}' not configured; add [sources.{kind}] \
                     or remove profiles.{name}.{kind}",
                    kind = kind.name()
                )));
            }
            let mut unknown: Vec<&str> = pt
                .iter()
                .map(|(k, _)| k)
                .filter(|k| *k != "extends" && SourceKind::from_name(k).is_none())
                .collect();
            if !unknown.is_empty() {
                let first = unknown[0];
                unknown.sort_unstable();
                let mut known = vec!["extends"];
                known.extend(SourceKind::names());
                let hint = crate::known_keys::nearest(first, &known)
                    .map(|near| format!("; did you mean \"{near}\" for \"{first}\"?"))
                    .unwrap_or_default();
                return Err(self.unknown_key(
                    self.key_position(pt, first),
                    format!(
                        "profiles.{name}: unknown field(s) {}; allowed: {}{hint}",
                        unknown.join(", "),
                        known.join(", ")
                    ),
                ));
            }
            let mut def = ProfileDef::default();
            if let Some(ext) = pt.get("extends") {
                def.extends = self.name_list(&format!("profiles.{name}.extends"), ext)?;
            }
            for kind in SourceKind::ALL {
                if let Some(sel) = pt.get(kind.name()) {
                    let names = self.name_list(&format!("profiles.{name}.{}", kind.name()), sel)?;
                    def.selections.insert(kind, names);
                }
            }
            profiles.push((name.to_string(), def));
        }
        Ok(profiles)
    }

    /// Parents and selected fragments exist, and no profile extends itself.
    /// Checked after default_profile, as the reference does.
    fn check_profile_graph(
        &self,
        profiles: &[(String, ProfileDef)],
        sources: &[Source],
    ) -> Result<()> {
        let known: HashSet<&str> = profiles.iter().map(|(n, _)| n.as_str()).collect();
        for (name, def) in profiles {
            if let Some(parent) = def.extends.iter().find(|p| !known.contains(p.as_str())) {
                return Err(self.err(format!(
                    "profiles.{name} extends '{parent}', which is not a defined profile"
                )));
            }
            for source in sources {
                let selected = def.selections.get(&source.kind);
                for frag in selected.into_iter().flatten() {
                    if source.fragment(frag).is_none() {
                        return Err(self.err(format!(
                            "profiles.{name}.{kind} selects '{frag}', which is not a \
                             [sources.{kind}.fragments.*] entry",
                            kind = source.kind.name()
                        )));
                    }
                }
            }
        }
        if let Some(chain) = find_extends_cycle(profiles) {
            return Err(self.err(format!(
                "profiles extend each other in a cycle: {}",
                chain.join(" -> ")
            )));
        }
        Ok(())
    }

    fn name_list(&self, key: &str, item: &Item) -> Result<Vec<String>> {
        let list = item.as_array().and_then(|a| {
            a.iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
        });
        list.ok_or_else(|| self.err(format!("{key} must be a list of name strings")))
    }

    fn default_profile(&self, profiles: &[(String, ProfileDef)]) -> Result<String> {
        match self.root.get("default_profile").and_then(Item::as_str) {
            Some(name) if !name.is_empty() => {
                if profiles.iter().any(|(n, _)| n == name) {
                    Ok(name.to_string())
                } else {
                    Err(self.err(format!("default_profile '{name}' is not a defined profile")))
                }
            }
            _ => Err(self.err("default_profile must be set to the name of a defined profile")),
        }
    }

    fn overrides(&self) -> Result<(Map<String, Value>, Map<String, Value>)> {
        let Some(item) = self.root.get("sandbox_overrides") else {
            return Ok((Map::new(), Map::new()));
        };
        let Some(table) = item.as_table_like() else {
            return Err(self.err("sandbox_overrides must be a table of [sandbox_overrides.full] and [sandbox_overrides.yolo]"));
        };
        self.check_override_keys(table)?;
        let mode = |name: &str| -> Result<Map<String, Value>> {
            match table.get(name) {
                None => Ok(Map::new()),
                Some(item) => match toml_to_json(item) {
                    Some(Value::Object(map)) => Ok(map),
                    Some(_) => Err(self.err(format!("sandbox_overrides.{name} must be a table"))),
                    None => Err(self.err(format!(
                        "sandbox_overrides.{name} holds a value JSON cannot express (a date or time)"
                    ))),
                },
            }
        };
        Ok((mode("full")?, mode("yolo")?))
    }
}

/// The first `extends` cycle, as the chain that starts and ends at the
/// profile closing the loop (`a -> b -> a`); `None` when there is none.
/// Parents that are not defined profiles are skipped (they are reported
/// before this check runs).
fn find_extends_cycle(profiles: &[(String, ProfileDef)]) -> Option<Vec<String>> {
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
                    return Some(chain);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests;

/// A config value as an error message shows it: its TOML text, or "a table".
fn shown(item: &Item) -> String {
    item.as_value()
        .map(|v| v.to_string().trim().to_string())
        .unwrap_or_else(|| "a table".into())
}
