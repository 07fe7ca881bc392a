//! Claude target (being written).

use crate::agent::{Agent, AgentDiff, Ctx, Warnings};
use crate::error::{Error, Result};
use crate::plan::Plan;

pub struct Claude;

impl Agent for Claude {
    fn name(&self) -> &'static str {
        "claude"
    }

    fn preview(&self, _ctx: &Ctx, _warnings: &mut Warnings) -> Result<String> {
        Err(Error::Policy("claude: not built yet".into()))
    }

    fn stage(&self, _ctx: &Ctx, _plan: &mut Plan, _warnings: &mut Warnings) -> Result<()> {
        Err(Error::Policy("claude: not built yet".into()))
    }

    fn diff(&self, _ctx: &Ctx, _warnings: &mut Warnings) -> Result<AgentDiff> {
        Err(Error::Policy("claude: not built yet".into()))
    }
}
