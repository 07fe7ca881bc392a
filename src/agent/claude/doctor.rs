//! Claude Code's doctor check, `claude-relative-sandbox-path`: a settings
//! file with a relative `sandbox.filesystem` path, which Claude resolves
//! against the settings file, not the directory it runs in. Checked in the
//! Claude target and its yolo file (when `claude_settings` is set) and in
//! the layers a launch here loads (`super::layers`, as `audit` reads them,
//! whether or not a Claude target is set); a file that is absent or not
//! JSON is skipped (the other commands report that).

use crate::agent::claude::codes;
use std::path::PathBuf;

use crate::diag::{Diagnostic, Severity};
use crate::lint::{Input, entries, quoted};

const LISTS: [&str; 4] = ["allowWrite", "denyWrite", "denyRead", "allowRead"];

pub fn check(input: &Input, out: &mut Vec<Diagnostic>) {
    crate::agent::limits::doctor_findings(
        &super::Claude,
        input,
        &[crate::diag::Code::SrtKeySkipped],
        out,
    );
    let targets = &input.config.targets;
    let mut files: Vec<PathBuf> = Vec::new();
    if targets.contains("claude_settings") {
        // The yolo file has a name of its own even when config.toml sets none.
        for yolo in [false, true] {
            files.push(super::target_path(input.config, yolo));
        }
    }
    // The layers a launch here loads, as `audit` reads them.
    let config_dir = super::layers::config_dir(&input.home, std::env::var_os("CLAUDE_CONFIG_DIR"));
    files.extend(
        super::layers::layers(&input.cwd, &config_dir)
            .into_iter()
            .map(|l| l.path),
    );
    let mut seen: Vec<PathBuf> = Vec::new();
    for file in files {
        // By name, as 3.3.3 does: `settings.json`, the link to the active
        // mode's file, is a file of its own here.
        if seen.contains(&file) {
            continue;
        }
        seen.push(file.clone());
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let Ok(doc) = serde_json::from_str::<serde_json::Value>(crate::bom::strip(&text)) else {
            continue;
        };
        let at = file.display().to_string();
        for list in LISTS {
            let items: Vec<String> = doc
                .pointer(&format!("/sandbox/filesystem/{list}"))
                .and_then(|v| v.as_array())
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str())
                .filter(|p| !p.starts_with('/') && !p.starts_with('~'))
                .map(quoted)
                .collect();
            if !items.is_empty() {
                let message = format!(
                    "sandbox.filesystem.{list}: {} anchored at the settings-file root, not the launch directory; use Read()/Edit() rules instead",
                    entries(items.len())
                );
                out.push(
                    Diagnostic::new(
                        Severity::Warning,
                        codes::RELATIVE_SANDBOX_PATH,
                        &at,
                        message,
                    )
                    .with_notes(items),
                );
            }
        }
    }
}

#[cfg(test)]
#[path = "doctor_tests.rs"]
mod tests;
