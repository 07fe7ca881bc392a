//! What a Gemini CLI launch reads from its environment: its home, its
//! sandbox switch, and where its system settings are.

use std::path::{Path, PathBuf};

/// What Gemini reads from its environment.
#[derive(Debug, Default, Clone)]
pub struct GeminiEnv {
    /// `$GEMINI_CLI_HOME`: Gemini's home in place of HOME (its `.gemini`).
    pub cli_home: Option<PathBuf>,
    /// `$GEMINI_SANDBOX`: the sandbox switch or command, above any flag.
    pub sandbox: Option<String>,
    /// `$SANDBOX` is set: Gemini thinks it runs in its sandbox already and
    /// starts none.
    pub in_sandbox: bool,
    /// The system settings files and how findings name them.
    pub system_files: Vec<(PathBuf, String)>,
}

impl GeminiEnv {
    pub fn from_env() -> Self {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        let settings = var("GEMINI_CLI_SYSTEM_SETTINGS_PATH").map_or_else(
            || (PathBuf::from("/etc/gemini-cli/settings.json"), None),
            |p| (PathBuf::from(p), Some("$GEMINI_CLI_SYSTEM_SETTINGS_PATH")),
        );
        let defaults = var("GEMINI_CLI_SYSTEM_DEFAULTS_PATH").map_or_else(
            || {
                let dir = settings.0.parent().unwrap_or(Path::new("/"));
                (dir.join("system-defaults.json"), None)
            },
            |p| (PathBuf::from(p), Some("$GEMINI_CLI_SYSTEM_DEFAULTS_PATH")),
        );
        let named = |(path, env): (PathBuf, Option<&str>)| {
            let label = env.map_or_else(|| path.display().to_string(), str::to_string);
            (path, label)
        };
        GeminiEnv {
            cli_home: var("GEMINI_CLI_HOME").map(PathBuf::from),
            sandbox: var("GEMINI_SANDBOX").map(|v| v.to_string_lossy().trim().to_lowercase()),
            in_sandbox: var("SANDBOX").is_some(),
            // Lowest precedence first, as Gemini merges them.
            system_files: vec![named(defaults), named(settings)],
        }
    }
}
