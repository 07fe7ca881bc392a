//! `twsrt doctor`: a read-only lint of every profile and every registered
//! fragment. Each check family lives in its own file under `doctor/` and
//! appends findings to one list, in the order the report keeps within a
//! severity; [`report`] sorts, groups and counts them.

mod claude;
mod codex;
mod context;
mod coverage;
mod finding;
mod overlap;
mod profiles;
mod report;
mod srt_paths;
mod traps;

use clap::Args;

use crate::commands::Global;
use crate::error::Result;
use crate::ui;

use context::Ctx;
use finding::Finding;
use report::Levels;

/// Check every profile and fragment for mistakes, redundancy and rules that
/// do less than they seem to.
///
/// Errors: a fragment that cannot be read or parsed, a profile that does not
/// compile. Warnings: rules another rule already covers or another fragment
/// repeats, needless `extends` and selections, fragments no profile uses,
/// patterns the sandbox reads differently than they look, settings that
/// switch the generated Codex profile off. Info: rules that change nothing
/// and platform caveats. Nothing is written.
///
/// Without level flags errors and warnings are shown; the flags combine.
/// The closing count line counts every finding, shown or not.
///
/// A `// doctor-ignore` comment (optionally `// doctor-ignore: reason`)
/// silences the string values on its line, wherever the same value occurs
/// in that fragment.
///
/// Exit codes: 0 no error found (warnings and info do not count), 1 at least
/// one error, or config.toml cannot be loaded; 2 usage error.
#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Show errors.
    #[arg(long)]
    pub error: bool,
    /// Show warnings.
    #[arg(long)]
    pub warn: bool,
    /// Show info findings.
    #[arg(long)]
    pub info: bool,
    /// Show every level.
    #[arg(long)]
    pub all: bool,
}

impl DoctorArgs {
    fn levels(&self) -> Levels {
        if self.all {
            return Levels {
                error: true,
                warning: true,
                info: true,
            };
        }
        if !(self.error || self.warn || self.info) {
            return Levels {
                error: true,
                warning: true,
                info: false,
            };
        }
        Levels {
            error: self.error,
            warning: self.warn,
            info: self.info,
        }
    }
}

pub fn run(global: &Global, args: &DoctorArgs) -> Result<i32> {
    let config = crate::commands::load_config(&global.config_path)?;
    let ctx = Ctx::new(&config);
    let findings = check(&ctx);
    let text = report::render(&findings, args.levels());
    ui::data(text.trim_end_matches('\n'));
    let errors = findings
        .iter()
        .any(|f| f.severity == finding::Severity::Error);
    Ok(i32::from(errors))
}

/// Every check, in report order within a severity.
fn check(ctx: &Ctx) -> Vec<Finding> {
    let mut out = ctx.load_findings();
    profiles::check(ctx, &mut out);
    overlap::check(ctx, &mut out);
    traps::check(ctx, &mut out);
    srt_paths::check(ctx, &mut out);
    claude::check(ctx, &mut out);
    codex::check(ctx, &mut out);
    dedup(out)
}

/// Profiles share fragments, so a per-profile check can find the same
/// thing twice: the first one stays.
fn dedup(findings: Vec<Finding>) -> Vec<Finding> {
    let mut seen = std::collections::HashSet::new();
    findings
        .into_iter()
        .filter(|f| {
            seen.insert((
                f.location.clone(),
                f.code,
                f.message.clone(),
                f.items.clone(),
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests;
