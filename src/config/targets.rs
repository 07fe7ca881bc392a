//! `[targets]`: where each agent's configuration is written. An agent
//! exists only when its primary key is set; its secondary keys refine it.

use std::path::{Path, PathBuf};

use toml_edit::Item;

use super::{Loader, Targets};
use crate::error::Result;

/// The keys `[targets]` may hold.
const TARGET_KEYS: [&str; 7] = [
    "claude_settings",
    "claude_settings_yolo",
    "copilot_output",
    "copilot_output_yolo",
    "codex_config",
    "codex_rules",
    "claude_hook",
];

/// (secondary key, the primary key it needs), in check order.
const DEPENDENT: [(&str, &str); 4] = [
    ("claude_settings_yolo", "claude_settings"),
    ("claude_hook", "claude_settings"),
    ("copilot_output_yolo", "copilot_output"),
    ("codex_rules", "codex_config"),
];

impl Loader<'_> {
    pub(super) fn targets(&self) -> Result<Targets> {
        let table = self.root.get("targets").and_then(Item::as_table_like);
        let has = |key: &str| table.is_some_and(|t| t.contains_key(key));
        // A misspelt key would leave its agent silently unwritten.
        let mut unknown: Vec<&str> = table
            .into_iter()
            .flat_map(|t| t.iter().map(|(key, _)| key))
            .filter(|key| !TARGET_KEYS.contains(key))
            .collect();
        if !unknown.is_empty() {
            unknown.sort_unstable();
            return Err(self.err(format!(
                "targets: unknown key(s) {}; the targets twsrt knows are {}",
                unknown.join(", "),
                TARGET_KEYS.join(", ")
            )));
        }
        // Alone, a secondary key would configure half an agent.
        if let Some((key, primary)) = DEPENDENT
            .into_iter()
            .find(|(key, primary)| has(key) && !has(primary))
        {
            return Err(self.err(format!(
                "targets.{key} requires {primary}: set targets.{primary} as well, or remove targets.{key}"
            )));
        }
        let get = |key: &str| -> Result<Option<PathBuf>> {
            match table.and_then(|t| t.get(key)) {
                None => Ok(None),
                Some(item) => self.path_value(&format!("targets.{key}"), item).map(Some),
            }
        };
        // Read in the reference's order, so a bad value is reported first
        // where it would be; the anchor-name check follows them all.
        let claude_settings = get("claude_settings")?;
        let copilot_output = get("copilot_output")?;
        let codex_config = get("codex_config")?;
        let codex_rules = get("codex_rules")?;
        let claude_settings_yolo = get("claude_settings_yolo")?;
        let copilot_output_yolo = get("copilot_output_yolo")?;
        let claude_hook = self.hook_flag(table.and_then(|t| t.get("claude_hook")))?;
        if claude_settings
            .as_deref()
            .and_then(Path::file_name)
            .is_some_and(|n| n == "settings.json")
        {
            return Err(self.err(
                "targets.claude_settings may not be called settings.json: twsrt keeps that \
                 name for the symlink to the active settings file (try settings.full.json)",
            ));
        }
        Ok(Targets {
            claude_settings,
            claude_hook,
            claude_settings_yolo,
            copilot_output,
            copilot_output_yolo,
            codex_config,
            codex_rules,
        })
    }
}

impl Loader<'_> {
    /// `claude_hook`: a boolean, false when absent.
    fn hook_flag(&self, item: Option<&Item>) -> Result<bool> {
        match item {
            None => Ok(false),
            Some(item) => item.as_bool().ok_or_else(|| {
                self.err(format!(
                    "targets.claude_hook must be true or false, found {}",
                    super::shown(item)
                ))
            }),
        }
    }
}
