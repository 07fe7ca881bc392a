//! `twsrt show`: one compiled canonical document on stdout, the bytes
//! `generate -w` writes to its output file. Nothing is written.

use clap::Args;

use crate::commands::{Global, kind_arg};
use crate::compile::compile;
use crate::error::Result;
use crate::ui;

/// Print the compiled canonical document of one source kind.
///
/// The output is byte for byte what `generate -w` writes to the kind's
/// `output` file for the profile; nothing is written. A kind twsrt knows
/// but config.toml does not configure prints a note and exits 0.
///
/// Exit codes: 0 printed (or nothing to show); 1 an unknown kind, a config
/// error or a policy that does not compile; 2 a usage error.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The source kind to print: srt or bash.
    #[arg(value_name = "KIND", default_value = "srt")]
    pub kind: String,

    /// The profile to compile instead of default_profile.
    #[arg(short, long, value_name = "NAME")]
    pub profile: Option<String>,
}

pub fn run(global: &Global, args: &ShowArgs) -> Result<i32> {
    let config = crate::commands::load_config(&global.config_path)?;
    // As in twsrt 3.3.3 the policy is compiled before the kind is looked
    // at: a broken policy is reported whatever kind was asked for.
    let compiled = compile(&config, args.profile.as_deref())?;
    if let Some(kind) = kind_arg::configured(&config, &args.kind, "show")? {
        // Every configured kind has its document, so this always prints.
        if let Some(doc) = compiled.canonical.iter().find(|d| d.kind == kind) {
            ui::data(&crate::pyjson::to_pretty(doc.value()));
        }
    }
    crate::heap::forget_until_exit(compiled);
    Ok(0)
}
