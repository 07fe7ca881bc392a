//! OpenCode 1.18.33: what on its command line, in its environment or in
//! the config layers a launch here loads approves more than twsrt's
//! entries say, or keeps them from loading (doc/clients.md, "OpenCode:
//! launch options").
//!
//! OpenCode deep-merges its config layers (the global file, the
//! `OPENCODE_CONFIG` file, each project `opencode.json`/`opencode.jsonc`
//! and `.opencode/` one from the launch directory up, then
//! `OPENCODE_CONFIG_CONTENT` and `OPENCODE_PERMISSION`): an entry a later
//! layer adds to a `permission` map comes after twsrt's and, the last
//! match winning, decides.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::agent::launch::redact::typed;
use crate::agent::launch::{Audit, Launch, Setting};
use crate::argv::{Grammar, Parsed};
use crate::diag::{Code, Diagnostic, Severity};
use crate::error::Result;
use crate::paths::same_file;

/// OpenCode's launch part ([`crate::agent::Agent::launch`]).
pub struct OpenCodeLaunch;

impl Launch for OpenCodeLaunch {
    fn binary(&self) -> &'static str {
        "opencode"
    }

    fn grammar(&self) -> &'static Grammar {
        &super::grammar::OPENCODE
    }

    fn listed_at(&self) -> u8 {
        5
    }

    fn vocabulary(&self) -> &'static [&'static str] {
        &[]
    }

    fn inputs(&self, setting: &Setting) -> Result<Box<dyn Audit>> {
        let var = |name: &str| std::env::var_os(name).map(PathBuf::from);
        let compiled = crate::compile::compile(setting.config, None)?;
        let entries = super::mapping::translate(&compiled.rules(), &mut Vec::new())?;
        Ok(Box::new(Inputs {
            entries,
            sandboxed: setting.sandboxed,
            cwd: setting.cwd.clone(),
            home: setting.home.clone(),
            target: super::config_path(setting.config),
            as_on_disk: setting.as_on_disk,
            env: Env {
                config: var("OPENCODE_CONFIG"),
                config_dir: var("OPENCODE_CONFIG_DIR"),
                xdg_config_home: var("XDG_CONFIG_HOME").filter(|p| p.is_absolute()),
                config_content: std::env::var_os("OPENCODE_CONFIG_CONTENT").is_some(),
                permission: std::env::var_os("OPENCODE_PERMISSION").is_some(),
                no_project: std::env::var_os("OPENCODE_DISABLE_PROJECT_CONFIG").is_some(),
            },
        }))
    }
}

/// What OpenCode reads from its environment that moves or adds config.
#[derive(Debug, Default, Clone)]
pub struct Env {
    pub config: Option<PathBuf>,
    pub config_dir: Option<PathBuf>,
    pub xdg_config_home: Option<PathBuf>,
    pub config_content: bool,
    pub permission: bool,
    pub no_project: bool,
}

/// What the OpenCode audit reads besides the argv.
#[derive(Debug, Default)]
pub struct Inputs {
    pub cwd: PathBuf,
    pub home: PathBuf,
    /// `[targets] opencode_config`.
    pub target: Option<PathBuf>,
    /// The target must exist already (`audit`; `run` writes it first).
    pub as_on_disk: bool,
    pub env: Env,
    /// twsrt's entries for the policy.
    pub entries: Vec<super::mapping::Entry>,
    /// Inside Sandbox Runtime, which denies the paths to the whole process.
    pub sandboxed: bool,
}

impl Audit for Inputs {
    fn check(&self, parsed: &Parsed) -> Result<Vec<Diagnostic>> {
        Ok(check(parsed, self))
    }
}

const AUTO: &str = "approves every permission no entry denies: twsrt's ask entries run without \
                    asking; its deny entries still hold";

fn check(parsed: &Parsed, inputs: &Inputs) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for occ in &parsed.options {
        let flagged = matches!(
            occ.name,
            "--auto" | "--yolo" | "--dangerously-skip-permissions"
        );
        if flagged && occ.on() {
            out.push(Diagnostic::new(
                Severity::Warning,
                Code::ApprovalMode,
                typed(occ),
                AUTO,
            ));
        }
    }
    let env = &inputs.env;
    for (set, name) in [
        (env.permission, "OPENCODE_PERMISSION"),
        (env.config_content, "OPENCODE_CONFIG_CONTENT"),
    ] {
        if set {
            out.push(Diagnostic::new(
                Severity::Error,
                Code::LayerOverride,
                name,
                "merges into the config after every file: an entry it adds to a permission map \
                 comes after twsrt's and decides",
            ));
        }
    }
    if env.config_dir.is_some() {
        out.push(Diagnostic::new(
            Severity::Error,
            Code::LayerOverride,
            "OPENCODE_CONFIG_DIR",
            "loads a config folder after twsrt's file, whose config, agents and plugins can \
             replace its permission entries",
        ));
    }
    worktree_findings(inputs, &mut out);
    let Some(target) = &inputs.target else {
        return out;
    };
    target_findings(target, inputs, &mut out);
    layer_findings(target, inputs, &mut out);
    out
}

/// The policy paths OpenCode's rules miss inside the launch's worktree.
fn worktree_findings(inputs: &Inputs, out: &mut Vec<Diagnostic>) {
    if let Some(worktree) = super::worktree::worktree(&inputs.cwd) {
        for (key, rule, relative) in
            super::worktree::unmatched(&inputs.entries, &worktree, &inputs.home)
        {
            let severity = if inputs.sandboxed {
                Severity::Warning
            } else {
                Severity::Error
            };
            out.push(Diagnostic::new(
                severity,
                super::codes::PATH_NAME,
                rule.clone(),
                format!(
                    "lies inside the git worktree {} OpenCode starts in, where it matches its \
                     {key} rules against the path relative to the worktree ({relative}): no \
                     entry twsrt writes names it so, and no external_directory rule applies \
                     inside the worktree; start OpenCode elsewhere, or inside Sandbox Runtime \
                     (`twsrt run --srt -- opencode`)",
                    worktree.display()
                ),
            ));
        }
    }
}

/// The config layers and agent files besides twsrt's that set entries.
fn layer_findings(target: &Path, inputs: &Inputs, out: &mut Vec<Diagnostic>) {
    let mut seen: Vec<PathBuf> = Vec::new();
    // A file beside twsrt's is merged with it wherever it is loaded: an
    // error (the others only load in some launch directories).
    let beside = super::siblings::siblings(target, &global_dir(inputs));
    for layer in config_layers(inputs) {
        if seen.contains(&layer) || same_file(&layer, target) {
            continue;
        }
        let severity = if beside.contains(&layer) {
            Severity::Error
        } else {
            Severity::Warning
        };
        let message = match super::siblings::sets_permission(&layer) {
            Some(true) => {
                "a config layer this launch loads besides twsrt's file sets permission entries \
                 (permission, tools, or an agent's or mode's): OpenCode merges the layers, and \
                 what one adds or moves after twsrt's entries decides"
            }
            Some(false) => {
                seen.push(layer);
                continue;
            }
            None => {
                "a config layer this launch loads could not be read as JSON with comments by \
                 twsrt, so what it sets is unknown (OpenCode substitutes {env:...} and \
                 {file:...} before parsing)"
            }
        };
        out.push(Diagnostic::new(
            severity,
            Code::LayerOverride,
            layer.display().to_string(),
            message,
        ));
        seen.push(layer);
    }
    for file in code_files(inputs) {
        out.push(Diagnostic::new(
            Severity::Warning,
            Code::LayerOverride,
            file.display().to_string(),
            "a plugin or custom tool this launch loads runs its own code inside OpenCode, with \
             the user's rights: no permission rule sees what a custom tool reads, and a plugin \
             can answer twsrt's asks; only the sandbox (`twsrt run --srt -- opencode`) confines it",
        ));
    }
    for file in agent_files(inputs) {
        out.push(Diagnostic::new(
            Severity::Warning,
            Code::LayerOverride,
            file.display().to_string(),
            "an agent or mode file this launch loads sets permission or tools: OpenCode \
             evaluates an agent's own permission after the config's, so its allows win over \
             twsrt's entries for that agent",
        ));
    }
}

/// Every config file the launch loads (that exists), twsrt's among them:
/// the global files, `OPENCODE_CONFIG`, the project layers, and the
/// `OPENCODE_CONFIG_DIR` ones.
fn config_layers(inputs: &Inputs) -> Vec<PathBuf> {
    let global = global_dir(inputs);
    let mut out: Vec<PathBuf> = CONFIG_NAMES.iter().map(|n| global.join(n)).collect();
    out.extend(inputs.env.config.iter().cloned());
    out.extend(layers(inputs));
    if let Some(dir) = &inputs.env.config_dir {
        out.extend(["opencode.json", "opencode.jsonc"].map(|n| dir.join(n)));
    }
    out.retain(|p| p.exists());
    out
}

/// The directories OpenCode reads agent and mode files from: the global
/// one, `~/.opencode`, each `.opencode` from the launch directory up, and
/// `OPENCODE_CONFIG_DIR`.
fn agent_dirs(inputs: &Inputs) -> Vec<PathBuf> {
    let mut out = vec![global_dir(inputs), inputs.home.join(".opencode")];
    if !inputs.env.no_project {
        out.extend(inputs.cwd.ancestors().map(|d| d.join(".opencode")));
    }
    out.extend(inputs.env.config_dir.iter().cloned());
    out.dedup();
    out
}

/// The agent files (`{agent,agents}/**/*.md`, `{mode,modes}/*.md`) whose
/// text names `permission` or `tools` (the front matter keys that add
/// entries), or that cannot be read.
fn agent_files(inputs: &Inputs) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for dir in agent_dirs(inputs) {
        for (sub, depth) in [("agent", 8), ("agents", 8), ("mode", 1), ("modes", 1)] {
            markdown(&dir.join(sub), depth, &mut found);
        }
    }
    found.retain(|file| {
        std::fs::read(file).map_or(true, |bytes| {
            let text = String::from_utf8_lossy(&bytes);
            text.contains("permission") || text.contains("tools")
        })
    });
    found
}

/// The plugin and custom tool files (`{plugin,plugins}/*.{ts,js}`,
/// `{tool,tools}/*.{js,ts}` in the agent directories, the loader's globs),
/// and the config files that name npm plugins (`plugin`).
fn code_files(inputs: &Inputs) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for dir in agent_dirs(inputs) {
        for sub in ["plugin", "plugins", "tool", "tools"] {
            let Ok(entries) = std::fs::read_dir(dir.join(sub)) else {
                continue;
            };
            let mut files: Vec<PathBuf> = entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "ts" || e == "js"))
                .collect();
            files.sort();
            found.extend(files);
        }
    }
    for layer in config_layers(inputs) {
        let named = std::fs::read_to_string(&layer)
            .ok()
            .and_then(|text| crate::fragment::parse_trailing_commas(&text, &layer).ok())
            .is_some_and(|doc: Value| {
                doc.get("plugin")
                    .and_then(Value::as_array)
                    .is_some_and(|list| !list.is_empty())
            });
        if named && !found.contains(&layer) {
            found.push(layer);
        }
    }
    found
}

/// The `.md` files in `dir`, and below it down to `depth` levels.
fn markdown(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if depth > 1 {
                markdown(&path, depth - 1, out);
            }
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// The global config directory (`$XDG_CONFIG_HOME/opencode`, else
/// `~/.config/opencode`).
fn global_dir(inputs: &Inputs) -> PathBuf {
    let base = inputs
        .env
        .xdg_config_home
        .clone()
        .unwrap_or_else(|| inputs.home.join(".config"));
    base.join("opencode")
}

const CONFIG_NAMES: [&str; 3] = ["config.json", "opencode.json", "opencode.jsonc"];

/// Whether the launch loads `target`, and whether it is there.
fn target_findings(target: &Path, inputs: &Inputs, out: &mut Vec<Diagnostic>) {
    let global = global_dir(inputs);
    let mut loaded: Vec<PathBuf> = CONFIG_NAMES.iter().map(|n| global.join(n)).collect();
    loaded.extend(inputs.env.config.iter().cloned());
    if let Some(dir) = &inputs.env.config_dir {
        loaded.extend(["opencode.json", "opencode.jsonc"].map(|n| dir.join(n)));
    }
    loaded.extend(layers(inputs));
    let shown = target.display().to_string();
    if !loaded.iter().any(|p| p == target || same_file(p, target)) {
        out.push(Diagnostic::new(
            Severity::Error,
            Code::TargetNotLoaded,
            shown,
            format!(
                "OpenCode does not load this file from here: it reads {} (or a project \
                 opencode.json, or the file OPENCODE_CONFIG names)",
                global.join("opencode.json").display()
            ),
        ));
    } else if inputs.as_on_disk && !target.exists() {
        out.push(Diagnostic::new(
            Severity::Error,
            Code::TargetNotLoaded,
            shown,
            "the file does not exist: run `twsrt generate opencode -w` first",
        ));
    } else if let Some(why) = unreadable_target(target) {
        out.push(Diagnostic::new(
            Severity::Error,
            Code::TargetNotLoaded,
            shown,
            why,
        ));
    }
}

/// Why twsrt's file does not hold what OpenCode loads from it, when it
/// cannot be read as JSON with comments: a second `permission` key
/// (OpenCode takes the later one, so twsrt's entries are not in force) or
/// any other reading error.
fn unreadable_target(target: &Path) -> Option<String> {
    let text = std::fs::read_to_string(target).ok()?;
    let e = crate::fragment::parse_trailing_commas(&text, target).err()?;
    let e = e.to_string();
    // The error names the file first: the finding's location shows it.
    let prefix = format!("{}:", target.display());
    let e = e.strip_prefix(&prefix).map_or(e.as_str(), str::trim_start);
    let e = format!("at {e}");
    let duplicate = e.contains("duplicate key");
    Some(if duplicate {
        format!(
            "{e}: OpenCode takes the later of two equal keys, so the entries of the first are \
             not in force; keep one `permission` object (`twsrt generate opencode -w` refuses \
             the file until then)"
        )
    } else {
        format!("{e}: what OpenCode loads from it is unknown")
    })
}

/// The project layers a launch in `cwd` loads: `opencode.json`,
/// `opencode.jsonc` and `.opencode/opencode.json(c)` in the directory and
/// each above it (none with `OPENCODE_DISABLE_PROJECT_CONFIG`).
fn layers(inputs: &Inputs) -> Vec<PathBuf> {
    if inputs.env.no_project {
        return Vec::new();
    }
    let mut out = Vec::new();
    for dir in inputs.cwd.ancestors() {
        for name in ["opencode.json", "opencode.jsonc"] {
            for file in [dir.join(name), dir.join(".opencode").join(name)] {
                if file.is_file() {
                    out.push(file);
                }
            }
        }
    }
    out
}
