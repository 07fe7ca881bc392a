//! The settings files a Claude Code launch loads, for `audit` (and `run`
//! through it): the user settings in the config directory
//! (`$CLAUDE_CONFIG_DIR`, else `~/.claude`), then the project's
//! `.claude/settings.json` and `.claude/settings.local.json` in the working
//! directory. Launched in the directory that holds the config directory,
//! `.claude/settings.json` is the user settings, not a project's (its
//! `settings.local.json` still loads as the local layer).

use std::path::{Path, PathBuf};

/// Where a layer comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// `settings.json` of the config directory: what twsrt's anchor must be.
    User,
    /// `.claude/settings.json` of the working directory.
    Project,
    /// `.claude/settings.local.json` of the working directory.
    Local,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layer {
    pub path: PathBuf,
    /// The name a report shows: `$CLAUDE_CONFIG_DIR/settings.json` or the
    /// path relative to the working directory.
    pub shown: String,
    pub source: Source,
}

/// `$CLAUDE_CONFIG_DIR` (as `value`, when set and not empty), else
/// `HOME/.claude`.
pub fn config_dir(home: &Path, value: Option<std::ffi::OsString>) -> PathBuf {
    match value {
        Some(v) if !v.is_empty() => PathBuf::from(v),
        _ => home.join(".claude"),
    }
}

/// The layers of a launch in `cwd` with the config directory `config_dir`,
/// lowest first.
pub fn layers(cwd: &Path, config_dir: &Path) -> Vec<Layer> {
    let mut out = vec![Layer {
        path: config_dir.join("settings.json"),
        shown: "$CLAUDE_CONFIG_DIR/settings.json".into(),
        source: Source::User,
    }];
    let in_config_dir = crate::paths::same_file(&cwd.join(".claude"), config_dir);
    for (name, source) in [
        (".claude/settings.json", Source::Project),
        (".claude/settings.local.json", Source::Local),
    ] {
        if in_config_dir && source == Source::Project {
            continue;
        }
        out.push(Layer {
            path: cwd.join(name),
            shown: name.into(),
            source,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_directory_moves_the_user_layer_and_frees_home() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        let default = config_dir(home, None);
        assert_eq!(default, home.join(".claude"));
        // In HOME with the default directory, ./.claude/settings.json is
        // the user's; settings.local.json is still the local layer.
        let got: Vec<Source> = layers(home, &default)
            .into_iter()
            .map(|l| l.source)
            .collect();
        assert_eq!(got, [Source::User, Source::Local]);
        let moved = config_dir(home, Some("/etc/claude-x".into()));
        let got: Vec<Source> = layers(home, &moved).into_iter().map(|l| l.source).collect();
        assert_eq!(got, [Source::User, Source::Project, Source::Local]);
        assert_eq!(config_dir(home, Some("".into())), default);
    }
}
