//! `twsrt test`: prove with the real Sandbox Runtime that the compiled srt
//! policy is enforced.
//!
//! Setup (exit 2 on any failure): compile the profile, read the srt settings
//! file on disk (the file srt reads), find srt, run a preflight. Then one
//! probe per effective rule, derived from the settings, each run plainly (the
//! control) and inside `srt -s SETTINGS -c`; a verdict per probe; a table or
//! one JSON object. Exit 0 when every probe is PASS or SKIP, 1 otherwise.
//!
//! - `settings.rs`: the file on disk, what srt refuses in it, srt, preflight
//! - `derive.rs` (with `glob.rs`, `domain.rs`): rules to probes
//! - `probe.rs`: what a probe is and its shell command
//! - `run.rs`: running control and sandbox, timeouts, probe files, scratch
//! - `verdict.rs`: PASS, FAIL, INVALID, ERROR, SKIP
//! - `report.rs`: table, details, summary, JSON

mod derive;
mod domain;
mod glob;
mod probe;
mod report;
mod run;
mod settings;
mod verdict;

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use serde_json::Value;

use crate::commands::Global;
use crate::compile::{Canonical, compile};
use crate::error::{Error, Result};
use crate::source::SourceKind;
use crate::ui;
use probe::{Kind, Probe};
use settings::setup_error;

/// Prove with the real Sandbox Runtime that the compiled srt policy is enforced.
#[derive(Debug, Args)]
pub struct TestArgs {
    /// The profile to compile instead of default_profile.
    #[arg(short, long, value_name = "NAME")]
    pub profile: Option<String>,

    /// Only the probes whose rule or probed path/URL contains TEXT (any case).
    #[arg(short = 'k', value_name = "TEXT")]
    pub keyword: Option<String>,

    /// Print one JSON object (summary and every result) instead of the table.
    #[arg(long)]
    pub json: bool,

    /// Seconds one run (control or sandbox) may take before it is an ERROR.
    #[arg(long, value_name = "SECS", default_value_t = 20,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub timeout: u64,

    /// Probe denyRead rules (the kind flags combine; none means all).
    #[arg(long)]
    pub deny_read: bool,

    /// Probe denyWrite rules.
    #[arg(long)]
    pub deny_write: bool,

    /// Probe allowWrite rules.
    #[arg(long)]
    pub allow_write: bool,

    /// Probe allowedDomains rules (and the canary host outside them).
    #[arg(long)]
    pub allowed_domains: bool,

    /// Probe deniedDomains rules.
    #[arg(long)]
    pub denied_domains: bool,
}

impl TestArgs {
    fn kinds(&self) -> Vec<Kind> {
        let flags = [
            (Kind::DenyRead, self.deny_read),
            (Kind::DenyWrite, self.deny_write),
            (Kind::AllowWrite, self.allow_write),
            (Kind::AllowedDomains, self.allowed_domains),
            (Kind::DeniedDomains, self.denied_domains),
        ];
        let chosen: Vec<Kind> = flags
            .iter()
            .filter(|(_, on)| *on)
            .map(|(k, _)| *k)
            .collect();
        if chosen.is_empty() {
            Kind::ALL.to_vec()
        } else {
            chosen
        }
    }
}

/// Any error before the first probe runs is a setup failure: exit 2.
fn setup(e: Error) -> Error {
    match e {
        Error::WithCode { .. } => e,
        other => setup_error(other.to_string()),
    }
}

pub fn run(global: &Global, args: &TestArgs) -> Result<i32> {
    let start = Instant::now();
    let config = crate::config::load(&global.config_path).map_err(setup)?;
    let compiled = compile(&config, args.profile.as_deref()).map_err(setup)?;
    let profile = compiled.profile.name.as_str();
    let doc = compiled
        .canonical
        .iter()
        .find(|c| c.kind == SourceKind::Srt)
        .ok_or_else(|| setup_error("the config defines no srt source"))?;
    let cwd = std::env::current_dir()
        .map_err(|e| setup_error(format!("the working directory is unusable: {e}")))?;
    let session = Session::open(doc, profile, &cwd, args.timeout)?;
    let probes = select_probes(doc.value(), &session.disk, cwd, args)?;
    let header = report::Header {
        settings: &session.env.settings,
        profile,
        srt: &session.env.srt,
        srt_version: &session.srt_version,
        differs: session.differs,
    };
    if !args.json {
        ui::info(&format!(
            "Probing {} (profile {}) with srt {} at {}",
            header.settings.display(),
            header.profile,
            header.srt_version,
            header.srt.display()
        ));
    }
    let outcomes = probe_all(probes, &session.env, args.timeout);
    // Nothing touches the probe files after the runs: remove them now, not
    // after the report.
    drop(session.scratch);
    let counts = report::Counts::of(&outcomes);
    let elapsed_ms = start.elapsed().as_millis() as u64;
    if args.json {
        let value = report::json(&header, &outcomes, &counts, elapsed_ms);
        ui::data(&serde_json::to_string_pretty(&value).unwrap_or_default());
    } else {
        report::print_text(&outcomes, &counts, elapsed_ms);
    }
    Ok(if counts.any_bad() { 1 } else { 0 })
}

/// What the probes run against, set up before the first one: the settings
/// file srt reads, srt itself (preflighted), a scratch directory.
struct Session {
    /// The settings file as it is on disk: what the probes are derived from.
    disk: Value,
    /// The file on disk is not what the profile compiles to.
    differs: bool,
    env: run::RunEnv,
    /// Removed when dropped.
    scratch: run::Scratch,
    srt_version: String,
}

impl Session {
    /// Every failure here is a setup failure (exit 2).
    fn open(doc: &Canonical, profile: &str, cwd: &Path, timeout_secs: u64) -> Result<Self> {
        let settings_path = cwd.join(&doc.output);
        let (disk, differs) = settings::load(doc)?;
        if differs {
            ui::warning(&format!(
                "{} differs from what profile '{}' compiles to; probing the file on disk \
                 (`twsrt diff` shows the drift, `twsrt generate -w` rewrites it)",
                settings_path.display(),
                profile
            ));
        }
        let srt = settings::find_srt()?;
        let scratch = run::Scratch::new()
            .map_err(|e| setup_error(format!("cannot create a scratch directory: {e}")))?;
        let env = run::RunEnv {
            srt,
            settings: settings_path,
            scratch: scratch.path.clone(),
            timeout_secs,
        };
        ui::debug(|| {
            format!(
                "profile: {}; settings: {}; srt: {}; scratch: {}",
                profile,
                env.settings.display(),
                env.srt.display(),
                env.scratch.display()
            )
        });
        settings::preflight(&env, &disk, differs)?;
        let srt_version = settings::srt_version(&env);
        Ok(Session {
            disk,
            differs,
            env,
            scratch,
            srt_version,
        })
    }
}

/// The probes the arguments select: derived from the compiled policy and the
/// file on disk, filtered by the kind flags and `-k`. None is a setup
/// failure; a missing curl only skips the network probes (with a warning).
fn select_probes(
    policy: &Value,
    disk: &Value,
    cwd: PathBuf,
    args: &TestArgs,
) -> Result<Vec<Probe>> {
    let curl = settings::find_program("curl").is_some();
    let kinds = args.kinds();
    let ctx = derive::Ctx::new(cwd, curl, args.timeout.saturating_sub(2).clamp(1, 10));
    let mut probes = derive::derive(policy, disk, &ctx, &kinds);
    if let Some(text) = &args.keyword {
        let text = text.to_lowercase();
        probes.retain(|p| {
            p.label().to_lowercase().contains(&text)
                || p.action
                    .as_ref()
                    .is_ok_and(|a| a.target().to_lowercase().contains(&text))
        });
    }
    if probes.is_empty() {
        return Err(setup_error(
            "no probe matches the selection (-k and the kind flags)",
        ));
    }
    if !curl && kinds.iter().any(|k| k.section() == "network") {
        ui::warning("curl not found on PATH: the network probes are skipped");
    }
    Ok(probes)
}

/// Run every probe (control and sandbox, a few at a time) and judge each.
fn probe_all(probes: Vec<Probe>, env: &run::RunEnv, timeout: u64) -> Vec<report::Outcome> {
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    ui::debug(|| format!("probes: {}; parallel runs: {jobs}", probes.len()));
    let executed = run::execute_all(&probes, env, jobs);
    probes
        .into_iter()
        .zip(executed)
        .map(|(probe, executed)| {
            let verdict = verdict::judge(&probe, executed.as_ref(), timeout);
            report::Outcome {
                probe,
                executed,
                verdict,
            }
        })
        .collect()
}
