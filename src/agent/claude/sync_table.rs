//! `[claude_sync]`, the table of config.toml Claude owns
//! ([`crate::config::AgentTable`]): which Claude settings belong to one mode
//! only. With the table present, a switch between full and yolo rebuilds the
//! new mode's target from the file `settings.json` pointed at (see
//! [`super::sync`]), keeping only these paths (and twsrt's own sections)
//! from the target itself.

use std::sync::Arc;

use toml_edit::{Item, Value};

use crate::config::{AgentTable, Config, TableReader, TableValue};
use crate::error::Result;

/// The table's key in config.toml.
pub const KEY: &str = "claude_sync";

/// The declaration the registry hands config.toml's loader.
pub static TABLE: AgentTable = AgentTable {
    key: KEY,
    read: read_table,
};

/// The keys `[claude_sync]` may hold.
const KEYS: [&str; 1] = ["mode_specific"];

/// The loaded table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClaudeSync {
    /// Dotted key paths (`env.ANTHROPIC_MODEL`), as written.
    pub mode_specific: Vec<String>,
}

impl ClaudeSync {
    /// The table config.toml holds; `None` when it has no `[claude_sync]`:
    /// no sync then.
    pub fn of(config: &Config) -> Option<&ClaudeSync> {
        config.agent_tables.get::<ClaudeSync>(KEY)
    }
}

fn read_table(reader: &TableReader<'_>, item: &Item) -> Result<TableValue> {
    Ok(Arc::new(read(reader, item)?))
}

fn read(reader: &TableReader<'_>, item: &Item) -> Result<ClaudeSync> {
    let Some(table) = item.as_table_like() else {
        return Err(reader.err("claude_sync must be a table holding mode_specific"));
    };
    // A misspelt key would silently sync what was meant to be kept.
    let mut unknown: Vec<&str> = table
        .iter()
        .map(|(key, _)| key)
        .filter(|key| !KEYS.contains(key))
        .collect();
    if !unknown.is_empty() {
        let first = unknown[0];
        unknown.sort_unstable();
        let hint = crate::known_keys::nearest(first, &KEYS)
            .map(|near| format!("; did you mean \"{near}\" for \"{first}\"?"))
            .unwrap_or_default();
        return Err(reader.unknown_key(
            reader.key_position(table, first),
            format!(
                "claude_sync: unknown field(s): {}; the only key is mode_specific{hint}",
                unknown.join(", ")
            ),
        ));
    }
    let mode_specific = match table.get("mode_specific") {
        None => Vec::new(),
        Some(item) => key_paths(reader, item)?,
    };
    Ok(ClaudeSync { mode_specific })
}

fn key_paths(reader: &TableReader<'_>, item: &Item) -> Result<Vec<String>> {
    let Some(list) = item.as_array() else {
        return Err(
            reader.err("claude_sync.mode_specific must be a list of dotted key paths (strings)")
        );
    };
    list.iter()
        .map(|value| match value.as_str() {
            Some(path) if !path.is_empty() => Ok(path.to_string()),
            _ => Err(reader.err(format!(
                "claude_sync.mode_specific entries must be non-empty strings, got {}",
                python_repr(value)
            ))),
        })
        .collect()
}

/// A TOML value as twsrt 3.3.3 names it in this message (Python's `repr`):
/// `''`, `True`, `['a']`, `{'a': 1}`. Numbers and dates keep their TOML text.
fn python_repr(value: &Value) -> String {
    match value {
        Value::String(s) => format!("'{}'", s.value().replace('\\', "\\\\").replace('\'', "\\'")),
        Value::Boolean(b) => if *b.value() { "True" } else { "False" }.to_string(),
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(python_repr).collect();
            format!("[{}]", inner.join(", "))
        }
        Value::InlineTable(table) => {
            let inner: Vec<String> = table
                .iter()
                .map(|(k, v)| format!("'{k}': {}", python_repr(v)))
                .collect();
            format!("{{{}}}", inner.join(", "))
        }
        other => other.to_string().trim().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    const BASE: &str = "schema_version = 1\ndefault_profile = \"d\"\n\
        [sources.srt]\noutput = \"o.json\"\n[sources.srt.fragments.b]\npath = \"b.jsonc\"\n\
        [profiles.d]\nsrt = [\"b\"]\n";

    fn load(extra: &str) -> Result<Option<ClaudeSync>> {
        parse(&format!("{BASE}{extra}")).map(|c| ClaudeSync::of(&c).cloned())
    }

    fn parse(text: &str) -> Result<Config> {
        crate::config::parse_with(text, Path::new("/c/config.toml"), &[&TABLE])
    }

    fn error(extra: &str) -> String {
        load(extra).unwrap_err().to_string()
    }

    #[test]
    fn an_absent_table_means_no_sync_and_an_empty_one_syncs_nothing_extra() {
        assert_eq!(load("").unwrap(), None);
        assert_eq!(
            load("[claude_sync]\n").unwrap(),
            Some(ClaudeSync::default())
        );
        assert_eq!(
            load("[claude_sync]\nmode_specific = [\"model\", \"env.A\"]\n").unwrap(),
            Some(ClaudeSync {
                mode_specific: vec!["model".into(), "env.A".into()]
            })
        );
    }

    #[test]
    fn without_the_declaration_the_table_is_an_unknown_key() {
        let err = crate::config::parse(
            &format!("{BASE}[claude_sync]\n"),
            Path::new("/c/config.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("unknown key \"claude_sync\""), "{err}");
    }

    #[test]
    fn unknown_keys_are_named_sorted() {
        let err = error("[claude_sync]\nzeta = 1\nalpha = 2\nmode_specific = []\n");
        assert!(
            err.starts_with("/c/config.toml:10:1: claude_sync: unknown field(s): alpha, zeta;"),
            "{err}"
        );
    }

    #[test]
    fn bad_values_are_refused_naming_the_value() {
        let not_a_table = parse(&format!("claude_sync = 5\n{BASE}"));
        assert!(
            not_a_table
                .unwrap_err()
                .to_string()
                .contains("claude_sync must be a table")
        );
        assert!(
            error("[claude_sync]\nmode_specific = \"model\"\n")
                .contains("claude_sync.mode_specific must be a list")
        );
        for (value, shown) in [
            ("[1]", "got 1"),
            ("[\"\"]", "got ''"),
            ("[\"a\", true]", "got True"),
            ("[1.5]", "got 1.5"),
            ("[[\"a\"]]", "got ['a']"),
            ("[{a = 1}]", "got {'a': 1}"),
        ] {
            let err = error(&format!("[claude_sync]\nmode_specific = {value}\n"));
            assert!(err.ends_with(shown), "{value}: {err}");
        }
    }
}
