//! `twsrt doctor`: the arguments, then one call into the lint engine
//! ([`crate::lint`]) with every agent's own checks ([`crate::agent::doctor_checks`]).

use clap::Args;

use crate::commands::Global;
use crate::error::Result;
use crate::lint::{self, Levels};
use crate::ui;

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
/// `--json` prints the shown findings as one JSON object instead (code,
/// severity, location, line and column, message, notes; then the counts of
/// every finding).
///
/// With --scope managed, also the installed managed policy files (under
/// --root DIR, or the real paths under /etc): an admin policy file the
/// agent would skip (Gemini CLI's, when it is not owned by root or is
/// writable by group or others) is an error.
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
    /// Print the findings as JSON.
    #[arg(long)]
    pub json: bool,

    #[command(flatten)]
    pub scope: crate::commands::scope::ScopeArgs,
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
    let managed = args.scope.managed_root()?;
    let input = lint::Input::new(&config);
    let findings = lint::check(&input, |input, out| {
        crate::agent::doctor_checks(input, out);
        if let Some(root) = &managed {
            crate::agent::managed::doctor_checks(root, out);
        }
    });
    let levels = args.levels();
    if args.json {
        ui::data(&crate::pyjson::to_pretty(&lint::report::to_json(
            &findings, levels,
        )));
    } else {
        let text = lint::report::render(&findings, levels);
        ui::data(text.trim_end_matches('\n'));
    }
    Ok(i32::from(lint::report::has_errors(&findings)))
}
