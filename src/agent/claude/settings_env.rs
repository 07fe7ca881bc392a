//! The `env` keys of Claude Code settings that the guard hook must not
//! trust. Claude Code puts a settings file's `env` into the environment of
//! every hook it runs, and a project's `.claude/settings*.json` is a file
//! the agent (or a cloned repository) may have written, so the hook's own
//! `HOME`, `PATH` and `TWSRT_*` are only the user's when no settings file
//! sets them.
//!
//! The files read: `.claude/settings.json` and `.claude/settings.local.json`
//! of the working directory and each of its ancestors, of
//! `$CLAUDE_PROJECT_DIR` when set, and of the user folders (`~/.claude`,
//! `$CLAUDE_CONFIG_DIR`). A file that is missing or not a JSON object sets
//! nothing (Claude Code loads no `env` from it).

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

/// One `env` key a settings file sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    pub file: PathBuf,
    pub key: String,
}

/// Whether `key` decides what the hook loads or runs: `HOME` (where `~`
/// rules point), `PATH` (where srt is found), any `TWSRT_*`, and
/// `CLAUDE_PROJECT_DIR` (where the sandbox mode starts srt).
pub fn untrusted(key: &str) -> bool {
    key == "HOME" || key == "PATH" || key.starts_with("TWSRT_") || key == "CLAUDE_PROJECT_DIR"
}

/// The settings files around `cwd` that Claude Code may load, each read
/// once: (file, its JSON object).
pub fn layers(
    cwd: &Path,
    home: &Path,
    user_dirs: &[PathBuf],
    project: Option<&Path>,
) -> Vec<(PathBuf, Map<String, Value>)> {
    let mut folders: Vec<PathBuf> = cwd.ancestors().map(|d| d.join(".claude")).collect();
    folders.extend(project.map(|p| p.join(".claude")));
    folders.push(home.join(".claude"));
    folders.extend(user_dirs.iter().cloned());
    let mut out = Vec::new();
    let mut seen: Vec<PathBuf> = Vec::new();
    for folder in folders {
        if seen.contains(&folder) {
            continue;
        }
        for name in ["settings.json", "settings.local.json"] {
            let file = folder.join(name);
            if let Some(doc) = object(&file) {
                out.push((file, doc));
            }
        }
        seen.push(folder);
    }
    out
}

/// Every untrusted key ([`untrusted`]) the `layers` set in their `env`, in
/// file order.
pub fn moved(layers: &[(PathBuf, Map<String, Value>)]) -> Vec<Moved> {
    let mut out = Vec::new();
    for (file, doc) in layers {
        let Some(Value::Object(env)) = doc.get("env") else {
            continue;
        };
        out.extend(env.keys().filter(|k| untrusted(k)).map(|key| Moved {
            file: file.clone(),
            key: key.clone(),
        }));
    }
    out
}

/// The first layer whose `sandbox` lets a command leave Claude Code's
/// sandbox or run without it (Claude Code merges these keys across the
/// files): `enabled` or `failIfUnavailable` false, `allowUnsandboxedCommands`
/// true, any `excludedCommands`.
pub fn loosens(layers: &[(PathBuf, Map<String, Value>)]) -> Option<&Path> {
    layers.iter().find_map(|(file, doc)| {
        let sandbox = doc.get("sandbox")?;
        let is = |key: &str, value: bool| sandbox.get(key) == Some(&Value::Bool(value));
        let excluded = sandbox.get("excludedCommands").is_some_and(|e| {
            !matches!(e, Value::Null) && e.as_array().is_none_or(|a| !a.is_empty())
        });
        (is("enabled", false)
            || is("failIfUnavailable", false)
            || is("allowUnsandboxedCommands", true)
            || excluded)
            .then_some(file.as_path())
    })
}

/// A settings file as a JSON object, or `None` (missing, unreadable, not
/// an object: Claude Code loads nothing from it).
fn object(file: &Path) -> Option<Map<String, Value>> {
    let text = std::fs::read_to_string(file).ok()?;
    match serde_json::from_str(&text) {
        Ok(Value::Object(doc)) => Some(doc),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_every_layer_around_the_working_directory_are_found() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let write = |rel: &str, text: &str| {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write(
            "p/.claude/settings.local.json",
            r#"{"env": {"TWSRT_SRT": "/p/srt", "X": "1"}}"#,
        );
        write(
            "p/sub/.claude/settings.json",
            r#"{"env": {"HOME": "/tmp"}}"#,
        );
        write("h/.claude/settings.json", r#"{"env": {"PATH": "/bin"}}"#);
        write("q/.claude/settings.json", "not json");
        let found = layers(
            &root.join("p/sub"),
            &root.join("h"),
            &[],
            Some(&root.join("q")),
        );
        let got = moved(&found);
        let keys: Vec<&str> = got.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(keys, ["HOME", "TWSRT_SRT", "PATH"]);
        assert_eq!(got[1].file, root.join("p/.claude/settings.local.json"));
        assert!(moved(&layers(&root.join("q"), &root.join("none"), &[], None)).is_empty());
        assert_eq!(loosens(&found), None);
        write(
            "p/.claude/settings.json",
            r#"{"sandbox": {"excludedCommands": ["make"]}}"#,
        );
        let found = layers(&root.join("p/sub"), &root.join("h"), &[], None);
        assert_eq!(
            loosens(&found),
            Some(root.join("p/.claude/settings.json").as_path())
        );
    }
}
