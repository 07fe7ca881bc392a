//! The files an agent could write to switch the guard hook off, or to change
//! what the next Claude Code launch loads, spelled as write-deny rules for
//! the hook ([`crate::hook::Policy::guard_also`]). No policy needs to list
//! them; the hook denies every write to them, by a file tool or by Bash:
//!
//! - in every `.claude` folder (a project's, `~/.claude`, and
//!   `$CLAUDE_CONFIG_DIR` when the hook's environment sets it): the folder
//!   itself (replaced by a symlink, it would load another folder's files),
//!   its `settings*.json` (hooks, `disableAllHooks`, `env`, permissions)
//!   and the folders of code and prompts it loads (`agents`, `commands`,
//!   `skills`, `hooks`, `plugins`, `output-styles`); its other files
//!   (plans, todos, transcripts) stay writable;
//! - `~/.claude.json` (user MCP servers, which start outside any sandbox)
//!   and every project's `.mcp.json`;
//! - the managed settings and their drop-ins (`/etc/claude-code`, and the
//!   macOS folder);
//! - the program the hook entry runs (the running twsrt, as named and as
//!   its real file);
//! - twsrt's config folder (the folder of config.toml), unless it holds the
//!   working directory (a config kept inside the project): then only the
//!   policy files, which every compile write-denies already.

use std::path::Path;

/// The project's settings files as srt write-deny rules: relative, so srt
/// anchors them where it starts (the project, where Claude Code runs a
/// Bash command). srt protects `.mcp.json` and `.claude/commands` itself.
pub const PROJECT_SETTINGS: [&str; 2] = [".claude/settings.json", ".claude/settings.local.json"];

/// What Claude Code loads from a `.claude` folder besides its settings.
const LOADED: [&str; 6] = [
    "agents",
    "commands",
    "skills",
    "hooks",
    "plugins",
    "output-styles",
];

/// The guard files of a hook answering in `cwd` for the config file
/// `config` (absolute), `exe` the running program, `config_dir` the value
/// of `$CLAUDE_CONFIG_DIR` when set. An entry ending in `/.` names the
/// folder itself only.
pub fn guard_files(
    config: &Path,
    exe: Option<&Path>,
    config_dir: Option<&Path>,
    cwd: &Path,
) -> Vec<String> {
    let mut folders = vec!["**/.claude".to_string(), "~/.claude".to_string()];
    folders.extend(
        config_dir
            .filter(|d| d.is_absolute())
            .map(|d| d.to_string_lossy().trim_end_matches('/').to_string()),
    );
    let mut out = Vec::new();
    for folder in &folders {
        out.push(format!("{folder}/."));
        out.push(format!("{folder}/settings*.json"));
        out.extend(LOADED.iter().map(|name| format!("{folder}/{name}")));
    }
    out.extend(
        [
            "~/.claude.json",
            "**/.mcp.json",
            "/etc/claude-code",
            "/Library/Application Support/ClaudeCode",
        ]
        .map(String::from),
    );
    let mut add = |path: &Path| {
        if path.is_absolute() {
            out.push(path.to_string_lossy().into_owned());
        }
    };
    if let Some(exe) = exe {
        add(exe);
    }
    if let Some(folder) = config.parent().filter(|f| !cwd.starts_with(f)) {
        add(folder);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_folder_is_guarded_unless_it_holds_the_working_directory() {
        let config = Path::new("/h/.config/twsrt/config.toml");
        let got = guard_files(config, Some(Path::new("/bin/twsrt")), None, Path::new("/w"));
        assert!(got.contains(&"/h/.config/twsrt".to_string()), "{got:?}");
        assert!(got.contains(&"/bin/twsrt".to_string()), "{got:?}");
        assert!(got.contains(&"**/.claude/.".to_string()), "{got:?}");
        let inside = guard_files(config, None, None, Path::new("/h/.config/twsrt/proj"));
        assert!(
            !inside.contains(&"/h/.config/twsrt".to_string()),
            "{inside:?}"
        );
        let dir = guard_files(config, None, Some(Path::new("/c")), Path::new("/w"));
        assert!(dir.contains(&"/c/settings*.json".to_string()), "{dir:?}");
    }
}
