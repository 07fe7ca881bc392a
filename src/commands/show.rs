//! `twsrt show`: one compiled canonical document on stdout, the bytes
//! `generate -w` writes to its output file. Nothing is written.

use clap::Args;

use crate::agent::Ctx;
use crate::agent::managed;
use crate::commands::{Global, kind_arg, select_agents};
use crate::compile::compile;
use crate::error::Result;
use crate::ui;

/// Print the compiled canonical document of one source kind.
///
/// The output is byte for byte what `generate -w` writes to the kind's
/// `output` file for the profile; nothing is written. A kind twsrt knows
/// but config.toml does not configure prints a note and exits 0.
///
/// With --scope managed: every configured agent's managed policy files
/// instead, the bytes `generate --scope managed -w` writes (each under a
/// `--- PATH ---` heading when there are several).
///
/// Exit codes: 0 printed (or nothing to show); 1 an unknown kind, a config
/// error or a policy that does not compile; 2 a usage error.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The source kind to print: srt (the default) or bash. With --scope
    /// managed: an agent's name, or all (the default).
    #[arg(value_name = "KIND")]
    pub kind: Option<String>,

    /// The profile to compile instead of default_profile.
    #[arg(short, long, value_name = "NAME")]
    pub profile: Option<String>,

    #[command(flatten)]
    pub scope: crate::commands::scope::ScopeArgs,
}

pub fn run(global: &Global, args: &ShowArgs) -> Result<i32> {
    let config = crate::commands::load_config(&global.config_path)?;
    // As in twsrt 3.3.3 the policy is compiled before the kind is looked
    // at: a broken policy is reported whatever kind was asked for.
    let compiled = compile(&config, args.profile.as_deref())?;
    if let Some(root) = args.scope.managed_root()? {
        let name = args.kind.as_deref().unwrap_or("all");
        let agents = managed::with_layer(select_agents(name, &config)?, name != "all")?;
        let ctx = Ctx::new(&config, &compiled, false);
        managed::show(&agents, &ctx, &root, &mut Vec::new())?;
        return Ok(0);
    }
    let kind = args.kind.as_deref().unwrap_or("srt");
    if let Some(kind) = kind_arg::configured(&config, kind, "show")? {
        // Every configured kind has its document, so this always prints.
        if let Some(doc) = compiled.canonical.iter().find(|d| d.kind == kind) {
            ui::data(&crate::pyjson::to_pretty(doc.value()));
        }
    }
    crate::heap::forget_until_exit(compiled);
    Ok(0)
}
