//! Codex target (being written).

use crate::agent::{Agent, AgentDiff, Ctx, Warnings};
use crate::error::{Error, Result};
use crate::plan::Plan;

pub struct Codex;

impl Agent for Codex {
    fn name(&self) -> &'static str {
        "codex"
    }

    fn preview(&self, _ctx: &Ctx, _warnings: &mut Warnings) -> Result<String> {
        Err(Error::Policy("codex: not built yet".into()))
    }

    fn stage(&self, _ctx: &Ctx, _plan: &mut Plan, _warnings: &mut Warnings) -> Result<()> {
        Err(Error::Policy("codex: not built yet".into()))
    }

    fn diff(&self, _ctx: &Ctx, _warnings: &mut Warnings) -> Result<AgentDiff> {
        Err(Error::Policy("codex: not built yet".into()))
    }
}
