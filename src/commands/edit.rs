//! `twsrt edit`: open the policy's fragments in one `$EDITOR` call, then
//! recompile and say whether the canonical outputs on disk still match.
//! Nothing is compiled before the editor opens (a fragment with a syntax
//! error is exactly the one to fix) and twsrt creates no file itself.

use std::collections::HashSet;
use std::path::PathBuf;

use clap::Args;

use crate::commands::editor::Editor;
use crate::commands::{Global, kind_arg};
use crate::config::Config;
use crate::error::Result;
use crate::profile::{ResolvedProfile, resolve};
use crate::source::SourceKind;
use crate::ui;

/// Open the policy's fragments in $EDITOR, then report canonical drift.
///
/// Without --profile every fragment config.toml registers opens; with it,
/// the fragments that profile resolves to, inherited ones included. srt
/// fragments come before bash ones, each file once, all in one editor call
/// ($EDITOR split like a shell command, vi when unset; a bare vim, nvim,
/// gvim or mvim gets -p). A fragment that does not exist yet is noted; the
/// editor creates it. When the editor exits the profile is compiled again
/// and each canonical output that no longer matches is reported as drift
/// on stdout.
///
/// Exit codes: the editor's exit status (0 with --dry-run); 1 an unknown
/// kind or profile, a config error, an editor that cannot be started, or a
/// policy that does not compile after editing; 2 a usage error.
#[derive(Debug, Args)]
pub struct EditArgs {
    /// The fragments to open: srt, bash or all.
    #[arg(value_name = "KIND", default_value = "all")]
    pub kind: String,

    /// Open the fragments this profile resolves to (inherited included).
    #[arg(short, long, value_name = "NAME")]
    pub profile: Option<String>,

    /// Print the fragment paths, one per line, and open nothing.
    #[arg(short = 'n', long)]
    pub dry_run: bool,
}

/// The hint after a drift report; stdout, as `generate` is what fixes it.
const APPLY_HINT: &str = "run `twsrt generate -w` to apply fragment changes";

pub fn run(global: &Global, args: &EditArgs) -> Result<i32> {
    let config = crate::commands::load_config(&global.config_path)?;
    let resolved = match &args.profile {
        Some(name) => Some(resolve(&config, Some(name))?),
        None => None,
    };
    let kinds: Vec<SourceKind> = if args.kind == "all" {
        SourceKind::ALL.to_vec()
    } else {
        match kind_arg::configured(&config, &args.kind, "edit")? {
            Some(kind) => vec![kind],
            None => return Ok(0),
        }
    };
    let files = fragment_paths(&config, resolved.as_ref(), &kinds);
    for file in files
        .iter()
        .filter(|f| std::fs::symlink_metadata(f).is_err())
    {
        ui::note(&format!(
            "fragment does not exist yet (the editor will create it): {}",
            file.display()
        ));
    }
    if args.dry_run {
        for file in &files {
            ui::data(&file.display().to_string());
        }
        return Ok(0);
    }
    let editor = Editor::from_env()?;
    ui::debug(|| {
        let shown: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        format!(
            "opening {} fragment{}: {} {}",
            files.len(),
            if files.len() == 1 { "" } else { "s" },
            editor.command(true).join(" "),
            shown.join(" ")
        )
    });
    let status = editor.open(&files, true)?;
    report_drift(global, args.profile.as_deref())?;
    Ok(status)
}

/// The files to open, srt's before bash's, each path once.
fn fragment_paths(
    config: &Config,
    resolved: Option<&ResolvedProfile>,
    kinds: &[SourceKind],
) -> Vec<PathBuf> {
    let mut seen = HashSet::new();
    let mut paths = Vec::new();
    for &kind in SourceKind::ALL.iter().filter(|k| kinds.contains(k)) {
        let fragments = match resolved {
            Some(profile) => profile.fragments(kind),
            None => config.source(kind).map_or(&[][..], |s| &s.fragments),
        };
        for fragment in fragments {
            if seen.insert(fragment.path.clone()) {
                paths.push(fragment.path.clone());
            }
        }
    }
    paths
}

/// Compile again (config.toml included: the editor may have been used on
/// anything) and compare every canonical output with the file on disk.
fn report_drift(global: &Global, profile: Option<&str>) -> Result<()> {
    let config = crate::commands::load_config(&global.config_path)?;
    let compiled = crate::compile::compile(&config, profile)?;
    let mut drifted = false;
    for doc in &compiled.canonical {
        if !doc.matches_output()? {
            drifted = true;
            ui::drift(&format!("{} canonical: drift", doc.kind.name()));
        }
    }
    if drifted {
        ui::drift(APPLY_HINT);
    } else {
        ui::success("canonical: no drift");
    }
    Ok(())
}

#[cfg(test)]
mod tests;
