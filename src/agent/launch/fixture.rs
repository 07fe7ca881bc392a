//! Test inputs for any agent: one struct holding what each agent's audit
//! reads, turned into that agent's own inputs by the argv's binary, so one
//! table of cases can cover several agents.

use std::path::PathBuf;

use crate::agent::{claude, codex, copilot, gemini};
use crate::diag::Diagnostic;
use crate::error::Result;

#[derive(Debug, Default, Clone)]
pub struct Inputs {
    pub cwd: PathBuf,
    pub home: PathBuf,
    pub codex_home: PathBuf,
    pub codex_target: Option<PathBuf>,
    pub claude_config_dir: PathBuf,
    pub claude_anchor: Option<PathBuf>,
    pub claude_hook: bool,
    pub copilot_flags: Vec<String>,
    pub yolo: bool,
    pub gemini_policy: Option<PathBuf>,
    pub gemini_owned: Vec<PathBuf>,
    pub gemini: gemini::launch::GeminiEnv,
}

impl Inputs {
    /// The inputs of the agent whose binary is `binary`.
    fn of(&self, binary: &str) -> Box<dyn super::Audit> {
        let i = self.clone();
        match binary {
            "codex" => Box::new(codex::launch::Inputs {
                cwd: i.cwd,
                codex_home: i.codex_home,
                target: i.codex_target,
            }),
            "claude" => Box::new(claude::launch::Inputs {
                cwd: i.cwd,
                home: i.home,
                config_dir: i.claude_config_dir,
                anchor: i.claude_anchor,
                hook: i.claude_hook,
                loaded: None,
            }),
            "copilot" => Box::new(copilot::launch::Inputs {
                flags: i.copilot_flags,
                yolo: i.yolo,
            }),
            "gemini" => Box::new(gemini::launch::Inputs {
                cwd: i.cwd,
                home: i.home,
                policy: i.gemini_policy,
                owned: i.gemini_owned,
                env: i.gemini,
            }),
            other => panic!("the fixture has no inputs for {other}"),
        }
    }
}

/// [`super::audit`] of `argv` with the inputs of its agent.
pub fn audit(argv: &[String], inputs: &Inputs) -> Result<Vec<Diagnostic>> {
    let agent = super::agent_of(argv)?;
    let own = inputs.of(agent.launch.binary());
    super::audit(agent.launch, argv, own.as_ref())
}
