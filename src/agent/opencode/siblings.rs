//! The config files OpenCode 1.18.33 loads from the directory of twsrt's
//! file besides it (measured with `opencode debug config`, doc/clients.md
//! "OpenCode: the files beside twsrt's"): in the global directory
//! `config.json` (merged below `opencode.json`) and `opencode.jsonc`
//! (merged above it, so its `permission` wins), in a project directory the
//! other of `opencode.json` / `opencode.jsonc`. One that sets permission
//! entries decides over twsrt's: `diff` reports it as widening drift,
//! `audit` as an error. And twsrt's own file with a second `permission`
//! key: OpenCode takes the later one, so the first (twsrt's) is not in force.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::drift::{Difference, Direction, Side};

/// The names OpenCode loads in a project directory.
const PROJECT_NAMES: [&str; 2] = ["opencode.json", "opencode.jsonc"];

/// The files OpenCode loads beside `target` that exist, `global` being
/// its global config directory (where `config.json` loads too).
pub fn siblings(target: &Path, global: &Path) -> Vec<PathBuf> {
    let Some(dir) = target.parent() else {
        return Vec::new();
    };
    let mut names: Vec<&str> = PROJECT_NAMES.to_vec();
    if crate::paths::same_file(dir, global) {
        names.insert(0, "config.json");
    }
    names
        .into_iter()
        .map(|n| dir.join(n))
        .filter(|p| p.is_file() && p.as_path() != target && !crate::paths::same_file(p, target))
        .collect()
}

/// Whether the file sets permission entries (a `permission` or `tools`
/// key, or an agent's or mode's); `None` when twsrt cannot read it as
/// JSON with comments, so what it sets is unknown.
pub fn sets_permission(path: &Path) -> Option<bool> {
    let text = std::fs::read_to_string(path).ok()?;
    let doc: Value = crate::fragment::parse_trailing_commas(&text, path).ok()?;
    Some(
        doc.get("permission").is_some()
            || doc.get("tools").is_some()
            || !super::merge::agent_permissions(&doc).is_empty(),
    )
}

/// The widening drift of each sibling that sets (or may set) permission
/// entries.
pub fn differences(target: &Path, global: &Path) -> Vec<Difference> {
    siblings(target, global)
        .into_iter()
        .filter(|p| sets_permission(p) != Some(false))
        .map(|p| {
            let shown = format!(
                "layer:{} (OpenCode merges it with twsrt's file: its permission entries decide)",
                p.display()
            );
            Difference::new(
                "layer",
                &p.display().to_string(),
                &shown,
                Side::Extra,
                Direction::Widening,
            )
        })
        .collect()
}

/// The global config directory for `home` (`$XDG_CONFIG_HOME/opencode`
/// when it is set to an absolute path, else `~/.config/opencode`).
pub fn global_dir(home: &Path, xdg_config_home: Option<&Path>) -> PathBuf {
    xdg_config_home
        .map_or_else(|| home.join(".config"), Path::to_path_buf)
        .join("opencode")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_beside_twsrts_that_set_permission_are_drift() {
        let dir = tempfile::tempdir().unwrap();
        let global = dir.path().join(".config/opencode");
        std::fs::create_dir_all(&global).unwrap();
        let target = global.join("opencode.json");
        std::fs::write(&target, "{}").unwrap();
        assert!(differences(&target, &global).is_empty());
        std::fs::write(
            global.join("opencode.jsonc"),
            r#"{"permission": {"*": "allow"}}"#,
        )
        .unwrap();
        std::fs::write(global.join("config.json"), r#"{"model": "x"}"#).unwrap();
        std::fs::write(global.join("config.jsonc"), r#"{"permission": "allow"}"#).unwrap();
        let found = differences(&target, &global);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].entry.ends_with("opencode.jsonc"));
        std::fs::write(
            global.join("config.json"),
            r#"{"permission": {"edit": "allow"}}"#,
        )
        .unwrap();
        assert_eq!(differences(&target, &global).len(), 2);
        // In a project directory, config.json is not loaded.
        let project = dir.path().join("p");
        std::fs::create_dir_all(&project).unwrap();
        std::fs::write(project.join("config.json"), r#"{"permission": "allow"}"#).unwrap();
        assert!(differences(&project.join("opencode.json"), &global).is_empty());
    }
}
