//! Gemini CLI's managed layer (doc/clients.md, "Gemini CLI: managed policy
//! files"): the admin-tier policy `/etc/gemini-cli/policies/twsrt.toml`,
//! the same rules as the user-level policy (the tier ranks them above
//! every user and workspace rule), and, with `[managed.gemini]
//! disable_yolo = true`, the system settings `/etc/gemini-cli/settings.json`
//! holding `security.disableYoloMode`. Both files are twsrt's whole.
//!
//! Gemini CLI skips the whole admin directory unless it is owned by root
//! and not writable by group or others: [`Layer::doctor`] checks that on
//! the installed directory.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use serde_json::Value;

use crate::agent::managed::{Managed, ManagedFile, Root};
use crate::agent::{Ctx, Warnings};
use crate::diag::{Code, Diagnostic, Severity};
use crate::drift::{Difference, Direction, Side};
use crate::error::{Error, Result};
use crate::paths::home_dir;

/// The admin policy directory and file, relative to the root.
pub const POLICIES: &str = "etc/gemini-cli/policies";
pub const POLICY: &str = "etc/gemini-cli/policies/twsrt.toml";
/// The system settings file.
pub const SETTINGS: &str = "etc/gemini-cli/settings.json";

/// The user-level file's header line, and what the admin file says instead.
const USER_TIER: &str = "in ~/.gemini/policies (user tier)";
const ADMIN_TIER: &str = "in /etc/gemini-cli/policies (admin tier, above every user rule)";

const DISABLE_YOLO: &str = "disable_yolo";

const SETTINGS_TEXT: &str = "{\n  \"security\": {\n    \"disableYoloMode\": true\n  }\n}\n";

pub struct Layer;

impl Managed for Layer {
    fn switches(&self) -> &'static [&'static str] {
        &[DISABLE_YOLO]
    }

    fn render(&self, ctx: &Ctx, warnings: &mut Warnings) -> Result<Vec<ManagedFile>> {
        let home = home_dir();
        let rules = super::mapping::translate(ctx.rules(), ctx.yolo, &home, warnings)?;
        if ctx.rules().iter().any(|r| r.pattern.starts_with('~')) {
            warnings.push(crate::agent::warning(
                "gemini",
                Code::ManagedHomeExpanded,
                format!(
                    "Gemini CLI matches a path as the model spells it, so the admin policy holds \
                     each ~ path under {}, the home of this build: on a machine whose users \
                     live elsewhere those rules do not match (build the policy per home \
                     layout, or name the paths absolutely)",
                    home.display()
                ),
            ));
        }
        let mut files = vec![ManagedFile {
            path: POLICY,
            text: policy_text(&rules),
        }];
        if ctx.config.managed.on("gemini", DISABLE_YOLO) {
            files.push(ManagedFile {
                path: SETTINGS,
                text: SETTINGS_TEXT.to_string(),
            });
        }
        Ok(files)
    }

    fn compare(&self, file: &ManagedFile, on_disk: &str, path: &Path) -> Result<Vec<Difference>> {
        if file.path == POLICY {
            return super::drift::compare(&file.text, on_disk, path);
        }
        let disk: Value = serde_json::from_str(crate::bom::strip(on_disk))
            .map_err(|e| Error::target(path, format!("is not valid JSON: {e}")))?;
        let on = disk.pointer("/security/disableYoloMode") == Some(&Value::Bool(true));
        Ok(if on {
            Vec::new()
        } else {
            vec![Difference::plain(
                "security.disableYoloMode",
                "true",
                Side::Missing,
                Direction::Widening,
            )]
        })
    }

    /// Every other admin policy Gemini CLI loads beside twsrt's (every
    /// `.toml` of the folder, the same tier) with a rule that does not
    /// deny: its priority, not the file, decides against twsrt's rules.
    fn neighbours(&self, file: &ManagedFile, path: &Path) -> Result<Vec<Difference>> {
        if file.path != POLICY {
            return Ok(Vec::new());
        }
        let Some(dir) = path.parent() else {
            return Ok(Vec::new());
        };
        let mut others = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
            let other = entry.map_err(|e| Error::io(dir, e))?.path();
            if other != path && other.extension().is_some_and(|e| e == "toml") && other.is_file() {
                others.push(other);
            }
        }
        others.sort();
        let mut out = Vec::new();
        for other in others {
            let text = std::fs::read_to_string(&other).map_err(|e| Error::io(&other, e))?;
            let doc = crate::tomltext::parse_document(&text, &other)?;
            let rules = doc.get("rule").and_then(crate::tomltext::toml_to_json);
            for rule in rules
                .as_ref()
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let decision = rule.get("decision").and_then(Value::as_str).unwrap_or("");
                if decision != "deny" {
                    let section = format!("{} rule", other.display());
                    out.push(Difference::new(
                        &section,
                        &rule.to_string(),
                        &format!("{section}: {rule}"),
                        Side::Extra,
                        Direction::Widening,
                    ));
                }
            }
        }
        Ok(out)
    }

    /// The admin directory, when installed, must be root's and writable by
    /// root alone, or Gemini CLI skips every policy in it.
    fn doctor(&self, root: &Root, out: &mut Vec<Diagnostic>) {
        let dir = root.join(POLICIES);
        let Ok(meta) = std::fs::metadata(&dir) else {
            return;
        };
        let reasons: Vec<String> = [owner_refusal(&meta), mode_refusal(&meta)]
            .into_iter()
            .flatten()
            .collect();
        if reasons.is_empty() {
            return;
        }
        out.push(
            Diagnostic::new(
                Severity::Error,
                Code::ManagedFileIgnored,
                dir.display().to_string(),
                format!(
                    "Gemini CLI skips every admin policy in this directory: {}",
                    reasons.join(", and ")
                ),
            )
            .with_notes(vec![format!(
                "fix: chown root:root {0} && chmod g-w,o-w {0}",
                dir.display()
            )]),
        );
    }
}

/// The admin policy file of `rules`: the user-level file with the admin
/// tier named in its header.
fn policy_text(rules: &[super::render::Rule]) -> String {
    super::render::file(rules).replacen(USER_TIER, ADMIN_TIER, 1) + "\n"
}

/// The admin policy file `generate --scope managed` writes for `ctx` (`~`
/// under `home`), and the policy rule each of its `[[rule]]` tables comes
/// from.
pub fn rendered(ctx: &Ctx, home: &Path) -> Result<(String, Vec<super::Origin>)> {
    let rules = super::mapping::translate(ctx.rules(), ctx.yolo, home, &mut Vec::new())?;
    let text = policy_text(&rules);
    Ok((text, rules.into_iter().map(|rule| rule.origin).collect()))
}

/// Why Gemini CLI skips the admin folder of `meta` for its owner: it is
/// not root's.
pub fn owner_refusal(meta: &std::fs::Metadata) -> Option<String> {
    (meta.uid() != 0).then(|| format!("it is owned by uid {}, not root", meta.uid()))
}

/// Why Gemini CLI skips the admin folder of `meta` for its mode: group or
/// others may write it.
pub fn mode_refusal(meta: &std::fs::Metadata) -> Option<String> {
    (meta.mode() & 0o022 != 0).then(|| {
        format!(
            "it is writable by group or others (mode {:o})",
            meta.mode() & 0o7777
        )
    })
}
