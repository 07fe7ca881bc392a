//! The srt prover behind `twsrt test`: prove with the real Sandbox Runtime
//! that the compiled srt policy is enforced.
//!
//! Setup (exit 2 on any failure): compile the profile, read the srt settings
//! file on disk (the file srt reads), find srt, run a preflight. Then one
//! probe per rule of the policy (the compiled srt document, not the file:
//! a rule the file lost is a FAIL naming it, and so is every entry or
//! change of the file that widens the policy), each run plainly (the
//! control, filesystem probes only) and inside `srt -s SETTINGS -c`; a
//! verdict per probe; a table or one JSON object. Exit 0 when every probe
//! is PASS or SKIP, 1 otherwise. What srt does with an entry (globs,
//! domains, the schema) is [`crate::srt`]'s.
//!
//! - `settings.rs`: the file on disk, what srt refuses in it, srt, preflight
//! - `derive.rs` (with `witness.rs`): rules to probes
//! - `model.rs`: what a probe is and its shell command
//! - `run.rs`: running control and sandbox, timeouts, probe files, scratch
//! - `schedule.rs`: which probes may run at once (srt placeholder races)
//! - `verdict.rs`: PASS, FAIL, INVALID, ERROR, SKIP
//! - `report.rs`: table, details, summary, JSON

pub mod agents;
mod credentials;
mod derive;
mod model;
mod plant;
mod report;
mod run;
mod schedule;
mod settings;
mod verdict;
mod witness;

pub use model::Section;
/// How `run --srt` finds srt: the same lookup as the prover's.
pub use settings::{find_program, find_srt};

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use crate::compile::{Canonical, compile};
use crate::config::Config;
use crate::error::{Error, Result};
use crate::source::SourceKind;
use crate::ui;
use model::Probe;
use settings::setup_error;

/// What one `twsrt test` run probes and how it reports.
pub struct Options<'a> {
    /// The profile to compile instead of default_profile.
    pub profile: Option<&'a str>,
    /// Only the probes whose kind or rule contains this text.
    pub keyword: Option<&'a str>,
    /// One JSON object instead of the table.
    pub json: bool,
    /// Seconds one command (control or sandbox) may take.
    pub timeout: f64,
    /// The sections to probe (never empty).
    pub sections: Vec<Section>,
}

/// Any error before the first probe runs is a setup failure: exit 2 (the
/// command maps loading config.toml through it too).
pub fn setup(e: Error) -> Error {
    match e {
        Error::Setup(_) => e,
        other => setup_error(other.to_string()),
    }
}

/// Probe the policy `config` compiles to; the exit code (0 every probe
/// PASS or SKIP, 1 otherwise; setup failures are errors with exit 2).
pub fn run(config: &Config, args: &Options) -> Result<i32> {
    let compiled = compile(config, args.profile).map_err(setup)?;
    let profile = compiled.profile.name.as_str();
    let doc = compiled
        .canonical
        .iter()
        .find(|c| c.kind == SourceKind::Srt)
        .ok_or_else(|| setup_error("the config defines no srt source"))?;
    let cwd = std::env::current_dir()
        .map_err(|e| setup_error(format!("the working directory is unusable: {e}")))?;
    let session = Session::open(doc, profile, &cwd, args.timeout)?;
    let ctx = derive::ProbeSite::new(cwd, settings::find_program("curl").is_some());
    let mut derived = derive::derive(doc.value(), &session.disk, &ctx, &args.sections);
    if let Some(text) = args.keyword {
        derived
            .probes
            .retain(|p| p.kind().contains(text) || p.rule.contains(text));
    }
    let header = report::Header {
        settings: &session.env.settings,
        srt_version: &session.srt_version,
    };
    let witnesses = Witnesses::create(&derived)?;
    let planted = plant::Planted::create(&derived.plants, &mut derived.probes);
    // srt creates its placeholders from the file it reads.
    let placeholders = schedule::placeholders(&session.disk, &ctx);
    ui::debug(|| format!("srt placeholder paths: {placeholders:?}"));
    let outcomes = probe_all(derived.probes, &placeholders, &session.env, args.timeout);
    // Nothing touches the probe files after the runs: remove them now.
    drop(witnesses);
    drop(planted);
    drop(session.scratch);
    if args.json {
        ui::data(&crate::pyjson::to_pretty(&report::json(&header, &outcomes)));
    } else {
        report::print_text(&header, &outcomes);
    }
    Ok(if report::Counts::of(&outcomes).any_bad() {
        1
    } else {
        0
    })
}

/// The `.twsrt-test-*` directories witness files go in: created before the
/// first probe, removed with whatever is left in them on drop.
struct Witnesses(Vec<PathBuf>);

impl Witnesses {
    fn create(derived: &derive::Derived) -> Result<Self> {
        let mut made = Witnesses(Vec::new());
        for dir in &derived.witness_dirs {
            std::fs::create_dir(dir).map_err(|e| {
                setup_error(format!(
                    "cannot create the witness directory {}: {e}",
                    dir.display()
                ))
            })?;
            made.0.push(dir.clone());
        }
        Ok(made)
    }
}

impl Drop for Witnesses {
    fn drop(&mut self) {
        for dir in &self.0 {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// What the probes run against, set up before the first one: the settings
/// file srt reads, srt itself (preflighted), a scratch directory.
struct Session {
    /// The settings file as it is on disk, which srt reads: the probes
    /// hold it to the policy.
    disk: Value,
    env: run::RunEnv,
    /// Removed when dropped.
    scratch: run::Scratch,
    srt_version: String,
}

impl Session {
    /// Every failure here is a setup failure (exit 2).
    fn open(doc: &Canonical, profile: &str, cwd: &Path, timeout: f64) -> Result<Self> {
        let settings_path = cwd.join(&doc.output);
        let (disk, differs) = settings::load(doc)?;
        if differs {
            ui::warning(&format!(
                "{} differs from what profile '{}' compiles to; probing the policy against it: \
                 each rule it lacks and each entry that widens is a FAIL (`twsrt diff` shows \
                 the drift, `twsrt generate -w` rewrites it)",
                settings_path.display(),
                profile
            ));
        }
        let srt = settings::find_srt()?;
        let scratch = run::Scratch::new("twsrt-test")
            .map_err(|e| setup_error(format!("cannot create a scratch directory: {e}")))?;
        let env = run::RunEnv {
            srt,
            settings: settings_path,
            scratch: scratch.path.clone(),
            timeout: Duration::from_secs_f64(timeout),
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
            env,
            scratch,
            srt_version,
        })
    }
}

/// Run every probe (as many at a time as the schedule allows) and judge each.
fn probe_all(
    probes: Vec<Probe>,
    placeholders: &[PathBuf],
    env: &run::RunEnv,
    timeout: f64,
) -> Vec<report::Outcome> {
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    ui::debug(|| format!("probes: {}; parallel runs: up to {jobs}", probes.len()));
    let executed = run::execute_all(&probes, placeholders, env, jobs);
    let timeout = verdict::seconds(timeout);
    probes
        .into_iter()
        .zip(executed)
        .map(|(probe, executed)| {
            let verdict = verdict::judge(&probe, executed.as_ref(), &timeout);
            report::Outcome {
                probe,
                executed,
                verdict,
            }
        })
        .collect()
}
