//! Copilot CLI: it has no settings file for tool permissions, so twsrt emits
//! launch flags, one per line, each ending in ` \` to paste into a command.

use std::path::PathBuf;

use crate::agent::{Agent, AgentDiff, Ctx, Warnings};
use crate::error::{Error, Result};
use crate::paths::yolo_variant;
use crate::plan::{FileKind, Plan};
use crate::rules::{Action, Scope};

pub struct Copilot;

/// The tools a write permission opens, emitted once for the first allowWrite.
const WRITE_TOOLS: [&str; 4] = ["shell", "read", "edit", "write"];

impl Copilot {
    /// The flag lines, without the ` \` continuation.
    fn flags(ctx: &Ctx, warnings: &mut Warnings) -> Vec<String> {
        let mut flags = Vec::new();
        if ctx.yolo {
            flags.push("--yolo".to_string());
        }
        let mut write_tools_done = false;
        for rule in &ctx.compiled.rules {
            match (rule.scope, rule.action) {
                (Scope::Write, Action::Allow) if !ctx.yolo && !write_tools_done => {
                    write_tools_done = true;
                    for tool in WRITE_TOOLS {
                        flags.push(flag("--allow-tool", tool));
                    }
                }
                (Scope::Network, Action::Allow) if !ctx.yolo => {
                    flags.push(flag("--allow-url", &rule.pattern));
                }
                (Scope::Network, Action::Deny) => flags.push(flag("--deny-url", &rule.pattern)),
                (Scope::Execute, Action::Ask) if !ctx.yolo => {
                    warnings.push(format!(
                        "Copilot has no ask tier: bash ask rule '{}' becomes --deny-tool",
                        rule.pattern
                    ));
                    flags.push(flag("--deny-tool", &format!("shell({})", rule.pattern)));
                }
                (Scope::Execute, Action::Deny) => {
                    flags.push(flag("--deny-tool", &format!("shell({})", rule.pattern)));
                }
                _ => {}
            }
        }
        flags
    }

    fn render(ctx: &Ctx, warnings: &mut Warnings) -> String {
        let mut out = String::new();
        for (i, line) in Self::flags(ctx, warnings).iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(line);
            out.push_str(" \\");
        }
        out
    }

    fn target(ctx: &Ctx) -> Option<PathBuf> {
        let targets = &ctx.config.targets;
        if ctx.yolo {
            targets
                .copilot_output_yolo
                .clone()
                .or_else(|| targets.copilot_output.as_deref().map(yolo_variant))
        } else {
            targets.copilot_output.clone()
        }
    }
}

/// `--flag 'value'`, with a single quote inside the value closed, escaped and
/// reopened (`'it'\''s'`) so no pattern can break out of its quotes. The
/// reference leaves such quotes as they are (doc/compatibility.md).
fn flag(name: &str, value: &str) -> String {
    format!("{name} '{}'", value.replace('\'', r"'\''"))
}

impl Agent for Copilot {
    fn name(&self) -> &'static str {
        "copilot"
    }

    fn preview(&self, ctx: &Ctx, warnings: &mut Warnings) -> Result<String> {
        Ok(Self::render(ctx, warnings))
    }

    fn stage(&self, ctx: &Ctx, plan: &mut Plan, warnings: &mut Warnings) -> Result<()> {
        let rendering = Self::render(ctx, warnings);
        match Self::target(ctx) {
            Some(path) => {
                let mut content = rendering.clone();
                content.push('\n');
                plan.write(path, content, FileKind::AgentTarget);
            }
            // No output file configured: the snippet goes to stdout instead.
            None => plan.print(rendering.clone()),
        }
        plan.dry_run(self.name(), rendering);
        Ok(())
    }

    fn diff(&self, ctx: &Ctx, warnings: &mut Warnings) -> Result<AgentDiff> {
        let target = Self::target(ctx);
        let existing = match &target {
            Some(path) => match std::fs::read_to_string(path) {
                Ok(text) => text,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    return Ok(AgentDiff::TargetMissing(format!(
                        "copilot: target file not found: {}",
                        path.display()
                    )));
                }
                Err(e) => return Err(Error::io(path, e)),
            },
            None => {
                return Ok(AgentDiff::TargetMissing(
                    "copilot: no target file: targets.copilot_output is not set".to_string(),
                ));
            }
        };
        let generated = Self::flags(ctx, warnings);
        let existing_lines: Vec<String> = existing
            .lines()
            .map(|l| l.trim())
            .map(|l| l.strip_suffix('\\').unwrap_or(l).trim_end().to_string())
            .filter(|l| !l.is_empty())
            .collect();
        Ok(crate::agent::set_diff(generated, existing_lines))
    }
}

#[cfg(test)]
mod tests;
