//! `[managed.<agent>]`: the switches of an agent's managed (system-wide)
//! policy layer, each `true` or `false` (`generate --scope managed`).
//!
//! config.toml does not know the agents: this module reads every
//! `[managed.NAME]` table as a list of boolean switches, keeping where each
//! key is written, and [`Managed::check`] holds them to the switches the
//! agents declare (called by the commands' loader, as `[targets]` is).

use std::path::Path;

use toml_edit::Item;

use super::Loader;
use crate::error::{Error, Result};

/// One switch as written: `[managed.AGENT] KEY = VALUE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Switch {
    pub agent: String,
    pub key: String,
    pub value: bool,
    /// Line and column of the key in config.toml.
    pub position: Option<(usize, usize)>,
}

/// Every `[managed.*]` switch, in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Managed {
    pub switches: Vec<Switch>,
}

impl Managed {
    /// Whether `[managed.AGENT] KEY = true`.
    pub fn on(&self, agent: &str, key: &str) -> bool {
        self.switches
            .iter()
            .any(|s| s.agent == agent && s.key == key && s.value)
    }

    /// Hold the switches to `known`: (agent, its switches) for every agent
    /// with a managed layer. An unknown agent or switch is an error naming
    /// it, where it is written and the nearest known one.
    pub fn check(&self, known: &[(&str, &[&str])], config_path: &Path) -> Result<()> {
        for switch in &self.switches {
            let agents: Vec<&str> = known.iter().map(|(a, _)| *a).collect();
            let Some((_, keys)) = known.iter().find(|(a, _)| *a == switch.agent) else {
                return Err(Error::UnknownKey {
                    path: config_path.to_path_buf(),
                    position: switch.position,
                    message: format!(
                        "unknown table [managed.{}]: the agents with a managed layer are {}{}",
                        switch.agent,
                        agents.join(", "),
                        crate::known_keys::hint(&switch.agent, &agents)
                    ),
                });
            };
            if !keys.contains(&switch.key.as_str()) {
                return Err(Error::UnknownKey {
                    path: config_path.to_path_buf(),
                    position: switch.position,
                    message: format!(
                        "unknown key \"{}\" in [managed.{}]: its keys are {}{}",
                        switch.key,
                        switch.agent,
                        keys.join(", "),
                        crate::known_keys::hint(&switch.key, keys)
                    ),
                });
            }
        }
        Ok(())
    }
}

impl Loader<'_> {
    /// `[managed]`: a table of agent tables of booleans.
    pub(super) fn managed(&self) -> Result<Managed> {
        let Some(item) = self.root.get("managed") else {
            return Ok(Managed::default());
        };
        let Some(agents) = item.as_table_like() else {
            return Err(self.err("managed must be a table of [managed.<agent>] tables"));
        };
        let mut switches = Vec::new();
        for (agent, item) in agents.iter() {
            let Some(table) = item.as_table_like() else {
                return Err(self.err(format!(
                    "managed.{agent} must be a table of true/false switches"
                )));
            };
            for (key, value) in table.iter() {
                let Some(value) = value.as_bool() else {
                    return Err(self.err(format!(
                        "managed.{agent}.{key} must be true or false, found {}",
                        shown(value)
                    )));
                };
                switches.push(Switch {
                    agent: agent.to_string(),
                    key: key.to_string(),
                    value,
                    position: self.key_position(table, key),
                });
            }
        }
        Ok(Managed { switches })
    }
}

fn shown(item: &Item) -> String {
    item.as_value()
        .map(|v| v.to_string().trim().to_string())
        .unwrap_or_else(|| "a table".to_string())
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    const BASE: &str = "schema_version = 1\ndefault_profile = \"p\"\n\
        [sources.srt]\noutput = \"/o/srt.json\"\n\
        [sources.srt.fragments.base]\npath = \"/f/base.jsonc\"\n\
        [profiles.p]\nsrt = [\"base\"]\n";

    fn load(extra: &str) -> crate::error::Result<crate::config::Config> {
        crate::config::parse(&format!("{BASE}{extra}"), Path::new("/c/config.toml"))
    }

    #[test]
    fn switches_are_read_in_order_with_their_positions() {
        let config =
            load("[managed.alpha]\nlock_permission_rules = true\nfail = false\n").expect("loads");
        let switches = &config.managed.switches;
        assert_eq!(switches.len(), 2);
        assert!(config.managed.on("alpha", "lock_permission_rules"));
        assert!(!config.managed.on("alpha", "fail"));
        assert_eq!(switches[0].position, Some((10, 1)));
    }

    #[test]
    fn a_non_boolean_switch_is_refused() {
        let err = load("[managed.alpha]\nlock_permission_rules = \"yes\"\n")
            .expect_err("refused")
            .to_string();
        assert!(
            err.contains(
                "managed.alpha.lock_permission_rules must be true or false, found \"yes\""
            ),
            "{err}"
        );
    }

    #[test]
    fn unknown_agents_and_keys_are_named() {
        let config = load("[managed.alpha]\nlock_permision_rules = true\n").expect("loads");
        let known: &[(&str, &[&str])] = &[("alpha", &["lock_permission_rules"])];
        let err = config
            .managed
            .check(known, Path::new("/c/config.toml"))
            .expect_err("unknown key")
            .to_string();
        assert!(
            err.contains("unknown key \"lock_permision_rules\" in [managed.alpha]"),
            "{err}"
        );
        assert!(
            err.contains("did you mean \"lock_permission_rules\""),
            "{err}"
        );
        let config = load("[managed.beta]\nx = true\n").expect("loads");
        let err = config
            .managed
            .check(known, Path::new("/c/config.toml"))
            .expect_err("unknown agent")
            .to_string();
        assert!(err.contains("unknown table [managed.beta]"), "{err}");
    }
}
