//! `twsrt test`: its arguments, then one call into the srt prover
//! ([`crate::probe`]).

use clap::Args;

use crate::commands::Global;
use crate::error::Result;
use crate::probe::{Options, Section};

/// Prove with the real Sandbox Runtime (srt) that the srt settings are enforced.
///
/// Each rule is probed plainly (the control) and inside `srt -s SETTINGS -c`,
/// and judged PASS, FAIL, INVALID, ERROR or SKIP.
///
/// Exit codes: 0 when every probe is PASS or SKIP; 1 on any FAIL, INVALID
/// or ERROR; 2 when the setup fails (config or profile, the settings file
/// missing or refused by srt, srt not found, the preflight run failing).
#[derive(Debug, Args)]
pub struct TestArgs {
    /// The profile to compile instead of default_profile.
    #[arg(short, long, value_name = "NAME")]
    pub profile: Option<String>,

    /// Only the probes whose kind or rule contains TEXT (case-sensitive),
    /// after the section flags.
    #[arg(short = 'k', long = "keyword", value_name = "TEXT")]
    pub keyword: Option<String>,

    /// Print one JSON object (summary and every result) instead of the table.
    #[arg(long)]
    pub json: bool,

    /// Seconds one command (control or sandbox) may take before it is an ERROR.
    #[arg(long, value_name = "SECS", default_value_t = 30.0, value_parser = parse_timeout)]
    pub timeout: f64,

    /// Probe denyRead (the section flags combine; none means all).
    #[arg(long, visible_alias = "denyRead")]
    pub deny_read: bool,

    /// Probe denyWrite.
    #[arg(long, visible_alias = "denyWrite")]
    pub deny_write: bool,

    /// Probe allowWrite.
    #[arg(long, visible_alias = "allowWrite")]
    pub allow_write: bool,

    /// Probe allowedDomains and the allowlist canary.
    #[arg(long, visible_alias = "allowedDomains")]
    pub allowed_domains: bool,

    /// Probe deniedDomains.
    #[arg(long, visible_alias = "deniedDomains")]
    pub denied_domains: bool,

    /// Prove this agent's own decisions instead of srt's (codex: bash deny
    /// rules through `codex execpolicy check`, paths through `codex sandbox`;
    /// gemini: every rule through its policy engine; an absent client is a
    /// SKIP).
    #[arg(long, value_name = "NAME")]
    pub agent: Option<String>,
}

fn parse_timeout(text: &str) -> std::result::Result<f64, String> {
    match text.parse::<f64>() {
        Ok(secs) if secs.is_finite() && secs > 0.0 && secs <= 86_400.0 => Ok(secs),
        _ => Err(format!(
            "{text} is not a number of seconds above 0 (at most 86400)"
        )),
    }
}

impl TestArgs {
    fn sections(&self) -> Vec<Section> {
        let flags = [
            (Section::DenyRead, self.deny_read),
            (Section::DenyWrite, self.deny_write),
            (Section::AllowWrite, self.allow_write),
            (Section::AllowedDomains, self.allowed_domains),
            (Section::DeniedDomains, self.denied_domains),
        ];
        let chosen: Vec<Section> = flags
            .iter()
            .filter(|(_, on)| *on)
            .map(|(k, _)| *k)
            .collect();
        if chosen.is_empty() {
            Section::ALL.to_vec()
        } else {
            chosen
        }
    }
}

pub fn run(global: &Global, args: &TestArgs) -> Result<i32> {
    let options = Options {
        profile: args.profile.as_deref(),
        keyword: args.keyword.as_deref(),
        json: args.json,
        timeout: args.timeout,
        sections: args.sections(),
    };
    let config = crate::commands::load_config(&global.config_path).map_err(crate::probe::setup)?;
    if let Some(agent) = &args.agent {
        let compiled = crate::explain::source::compile(&config, args.profile.as_deref())
            .map_err(crate::probe::setup)?;
        let outcomes = crate::probe::agents::prove(agent, &config, &global.config_path, &compiled);
        return Ok(crate::probe::agents::report(&outcomes, args.json));
    }
    crate::probe::run(&config, &options)
}
