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

/// One `env` key a settings file sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    pub file: PathBuf,
    pub key: String,
}

/// Whether `key` decides what the hook loads or runs: `HOME` (where `~`
/// rules point), `PATH` (where srt is found), any `TWSRT_*`.
pub fn untrusted(key: &str) -> bool {
    key == "HOME" || key == "PATH" || key.starts_with("TWSRT_")
}

/// Every untrusted key ([`untrusted`]) that a settings file around `cwd`
/// sets, in file order.
pub fn moved(cwd: &Path, home: &Path, user_dirs: &[PathBuf], project: Option<&Path>) -> Vec<Moved> {
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
            out.extend(keys(&file).into_iter().map(|key| Moved {
                file: file.clone(),
                key,
            }));
        }
        seen.push(folder);
    }
    out
}

/// The untrusted `env` keys of one settings file.
fn keys(file: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(file) else {
        return Vec::new();
    };
    let Ok(serde_json::Value::Object(doc)) = serde_json::from_str(&text) else {
        return Vec::new();
    };
    match doc.get("env") {
        Some(serde_json::Value::Object(env)) => {
            env.keys().filter(|k| untrusted(k)).cloned().collect()
        }
        _ => Vec::new(),
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
        let got = moved(
            &root.join("p/sub"),
            &root.join("h"),
            &[],
            Some(&root.join("q")),
        );
        let keys: Vec<&str> = got.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(keys, ["HOME", "TWSRT_SRT", "PATH"]);
        assert_eq!(got[1].file, root.join("p/.claude/settings.local.json"));
        assert!(moved(&root.join("q"), &root.join("none"), &[], None).is_empty());
    }
}
