//! The config.toml files a Codex launch loads, and what in each of them
//! overrides the permission profile twsrt generates. `audit` (and `run`
//! through it) and `doctor` both ask here, so they read the same files and
//! give a key the same weight.
//!
//! Codex 0.171 layers, lowest first: `$CODEX_HOME/config.toml` (default
//! `~/.codex`; `--ignore-user-config` skips it), the profile files `--profile
//! NAME` adds (`$CODEX_HOME/NAME.config.toml`), then the project files
//! `.codex/config.toml` of every directory from the repository root down to
//! the working directory (`-C DIR` moves it). Codex loads project files only
//! for trusted projects; trust is the user's to give at any launch, so every
//! one counts here.

use std::path::{Path, PathBuf};

use toml_edit::{Table, TableLike};

use super::merge::LEGACY_KEYS;
use crate::paths::same_file;

/// Where a layer comes from, which decides what in it counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// `$CODEX_HOME/config.toml`: the file twsrt merges into, when
    /// `codex_config` names it.
    User,
    /// `[targets] codex_config` when it is not the user config: Codex does
    /// not load it.
    Managed,
    /// `$CODEX_HOME/NAME.config.toml`, for `--profile NAME`.
    Profile(String),
    /// `.codex/config.toml` in the working directory or a directory above
    /// it, up to the repository root; `up` counts the steps above.
    Project { up: usize },
}

/// One config file of a launch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layer {
    pub path: PathBuf,
    pub source: Source,
}

/// What decides the layers of one launch.
#[derive(Debug, Clone, Default)]
pub struct Launch {
    /// The working directory Codex runs in (after `-C`/`--cd`).
    pub cwd: PathBuf,
    /// `$CODEX_HOME`, else `~/.codex`.
    pub codex_home: PathBuf,
    /// `[targets] codex_config`, if set.
    pub managed: Option<PathBuf>,
    /// The `--profile` names, in argv order.
    pub profiles: Vec<String>,
}

/// `$CODEX_HOME`, else `HOME/.codex`: where Codex reads its user config.
pub fn codex_home(home: &Path) -> PathBuf {
    match std::env::var_os("CODEX_HOME") {
        Some(h) if !h.is_empty() => PathBuf::from(h),
        _ => home.join(".codex"),
    }
}

/// The layers of `launch`, lowest first. The user, managed and profile
/// files are listed whether or not they exist (a reader treats a missing
/// one as empty); a project file only when it exists.
pub fn layers(launch: &Launch) -> Vec<Layer> {
    let user = launch.codex_home.join("config.toml");
    let mut out = vec![Layer {
        path: user.clone(),
        source: Source::User,
    }];
    if let Some(managed) = launch.managed.as_ref().filter(|m| !same_file(m, &user)) {
        out.push(Layer {
            path: managed.clone(),
            source: Source::Managed,
        });
    }
    for name in &launch.profiles {
        out.push(Layer {
            path: launch.codex_home.join(format!("{name}.config.toml")),
            source: Source::Profile(name.clone()),
        });
    }
    let dirs = project_dirs(&launch.cwd);
    for (up, dir) in dirs.iter().enumerate().rev() {
        let path = dir.join(".codex/config.toml");
        // A missing file adds nothing (and costs no path resolution); in
        // the home directory .codex/config.toml is the user config.
        if !path.exists() || out.iter().any(|l| same_file(&l.path, &path)) {
            continue;
        }
        out.push(Layer {
            path,
            source: Source::Project { up },
        });
    }
    out
}

/// The working directory and its parents up to the repository root (the
/// nearest one holding `.git`), nearest first; only the working directory
/// outside a repository.
fn project_dirs(cwd: &Path) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for dir in cwd.ancestors() {
        dirs.push(dir.to_path_buf());
        if dir.join(".git").exists() {
            return dirs;
        }
    }
    vec![cwd.to_path_buf()]
}

/// What overriding a key does to the generated profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// The profile is not in force (an error for audit and doctor alike).
    SwitchesOff,
    /// The policy is widened (a warning).
    Widens,
}

/// One key of a layer that overrides the profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Override {
    /// The dotted key (`sandbox_mode`, `profiles.fast.sandbox_mode`).
    pub key: String,
    /// Byte offset of the key in the file's text.
    pub offset: usize,
    pub effect: Effect,
    pub why: &'static str,
}

const LEGACY_WHY: &str =
    "a legacy sandbox setting: Codex ignores default_permissions while one is set";
const PROFILE_LEGACY_WHY: &str = "a legacy sandbox setting in a config profile: Codex ignores \
                                  default_permissions when that profile is selected";

/// The keys of `doc` that override the generated profile. The legacy
/// sandbox keys count in every layer (top level and `[profiles.*]`); the
/// keys twsrt writes count only in a layer twsrt does not write.
/// `doc` is the file's root table; its keys' offsets are known when it was
/// parsed with spans (`toml_edit::Document::parse`), else 0.
pub fn overrides(doc: &Table, source: &Source) -> Vec<Override> {
    let mut out = Vec::new();
    let table = doc;
    for key in LEGACY_KEYS {
        push(&mut out, table, key, "", Effect::SwitchesOff, LEGACY_WHY);
    }
    if let Some(profiles) = doc.get("profiles").and_then(|p| p.as_table_like()) {
        for (name, item) in profiles.iter() {
            if let Some(t) = item.as_table_like() {
                for key in LEGACY_KEYS {
                    let prefix = format!("profiles.{name}.");
                    push(
                        &mut out,
                        t,
                        key,
                        &prefix,
                        Effect::SwitchesOff,
                        PROFILE_LEGACY_WHY,
                    );
                }
            }
        }
    }
    if matches!(source, Source::User | Source::Managed) {
        return out;
    }
    let owned: [(&str, Effect, &str); 4] = [
        (
            "default_permissions",
            Effect::SwitchesOff,
            "selects another permission profile than the one twsrt generates",
        ),
        (
            "approval_policy",
            Effect::Widens,
            "changes when Codex asks before running a command",
        ),
        (
            "profile",
            Effect::Widens,
            "selects a config profile, a layer twsrt did not write",
        ),
        (
            "permissions",
            Effect::SwitchesOff,
            "overrides the permissions.twsrt profile twsrt generates",
        ),
    ];
    for (key, effect, why) in owned {
        if key == "permissions" {
            let twsrt = doc
                .get("permissions")
                .and_then(|p| p.as_table_like())
                .and_then(|p| p.get_key_value("twsrt"));
            if let Some((k, _)) = twsrt {
                out.push(Override {
                    key: "permissions.twsrt".into(),
                    offset: k.span().map_or(0, |s| s.start),
                    effect,
                    why,
                });
            }
            continue;
        }
        push(&mut out, table, key, "", effect, why);
    }
    out
}

fn push(
    out: &mut Vec<Override>,
    table: &dyn TableLike,
    key: &str,
    prefix: &str,
    effect: Effect,
    why: &'static str,
) {
    if let Some((k, _)) = table.get_key_value(key) {
        out.push(Override {
            key: format!("{prefix}{key}"),
            offset: k.span().map_or(0, |s| s.start),
            effect,
            why,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn project_layers_run_from_the_repository_root_down() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        std::fs::create_dir_all(root.join(".git")).unwrap();
        let sub = root.join("a/b");
        for dir in [&root, &root.join("a"), &sub] {
            write(&dir.join(".codex/config.toml"), "");
        }
        let launch = Launch {
            cwd: sub.clone(),
            codex_home: dir.path().join("ch"),
            managed: None,
            profiles: vec!["fast".into()],
        };
        let got: Vec<(PathBuf, Source)> = layers(&launch)
            .into_iter()
            .map(|l| (l.path, l.source))
            .collect();
        assert_eq!(
            got,
            [
                (dir.path().join("ch/config.toml"), Source::User),
                (
                    dir.path().join("ch/fast.config.toml"),
                    Source::Profile("fast".into())
                ),
                (root.join(".codex/config.toml"), Source::Project { up: 2 }),
                (root.join("a/.codex/config.toml"), Source::Project { up: 1 }),
                (sub.join(".codex/config.toml"), Source::Project { up: 0 }),
            ]
        );
        // Outside a repository only the working directory counts; a missing
        // project file is no layer.
        write(&dir.path().join("x/.codex/config.toml"), "");
        write(&dir.path().join(".codex/config.toml"), "");
        let plain = Launch {
            cwd: dir.path().join("x"),
            ..launch
        };
        let projects: Vec<_> = layers(&plain)
            .into_iter()
            .filter(|l| matches!(l.source, Source::Project { .. }))
            .collect();
        assert_eq!(projects.len(), 1);
    }

    #[test]
    fn the_user_config_is_no_project_layer_and_a_distinct_target_is_listed() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        write(&home.join(".codex/config.toml"), "");
        let launch = Launch {
            cwd: home.to_path_buf(),
            codex_home: home.join(".codex"),
            managed: Some(home.join("elsewhere/config.toml")),
            profiles: Vec::new(),
        };
        let sources: Vec<Source> = layers(&launch).into_iter().map(|l| l.source).collect();
        assert_eq!(sources, [Source::User, Source::Managed]);
    }

    #[test]
    fn what_overrides_the_profile_in_each_kind_of_layer() {
        let text = "sandbox_mode = \"x\"\ndefault_permissions = \"y\"\napproval_policy = \"never\"\n\
                    [permissions.twsrt]\n[profiles.fast]\nsandbox_workspace_write = {}\n";
        let parsed = toml_edit::Document::parse(text).unwrap();
        let doc = parsed.as_table();
        let keys = |source: &Source| -> Vec<(String, Effect)> {
            overrides(doc, source)
                .into_iter()
                .map(|o| (o.key, o.effect))
                .collect()
        };
        assert_eq!(
            keys(&Source::User),
            [
                ("sandbox_mode".to_string(), Effect::SwitchesOff),
                (
                    "profiles.fast.sandbox_workspace_write".to_string(),
                    Effect::SwitchesOff
                ),
            ]
        );
        let project = keys(&Source::Project { up: 0 });
        assert_eq!(project.len(), 5, "{project:?}");
        assert!(project.contains(&("approval_policy".into(), Effect::Widens)));
        assert!(project.contains(&("permissions.twsrt".into(), Effect::SwitchesOff)));
        let first = &overrides(doc, &Source::User)[0];
        assert_eq!(&text[first.offset..first.offset + 12], "sandbox_mode");
    }
}
