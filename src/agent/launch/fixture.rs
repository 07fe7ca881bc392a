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
                requirements: None,
                home: i.home.clone(),
            }),
            "claude" => Box::new(claude::launch::Inputs {
                cwd: i.cwd,
                home: i.home,
                config_dir: i.claude_config_dir,
                anchor: i.claude_anchor,
                hook: i.claude_hook,
                loaded: None,
                locked: false,
                generated: Default::default(),
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

/// The helpers of the per-flag tests: inputs rooted in a temporary
/// directory, findings as (severity, location).
pub mod flags {
    pub use super::{Inputs, audit};
    pub use crate::agent::launch::report::{exit_code, to_json};
    pub use crate::agent::launch::{EXIT_UNREADABLE, agent_of};
    pub use crate::diag::{Code, Diagnostic as Finding, Severity};
    use std::path::Path;

    pub fn argv(line: &[&str]) -> Vec<String> {
        line.iter().map(|w| w.to_string()).collect()
    }

    /// Inputs rooted in `dir` (cwd, HOME elsewhere, CODEX_HOME below it).
    pub fn inputs(dir: &Path) -> Inputs {
        Inputs {
            cwd: dir.to_path_buf(),
            home: dir.join("home"),
            codex_home: dir.join("codex-home"),
            ..Inputs::default()
        }
    }

    pub fn audit_in(dir: &Path, line: &[&str]) -> Vec<Finding> {
        audit(&argv(line), &inputs(dir)).unwrap_or_else(|e| panic!("{line:?}: {e}"))
    }

    pub fn findings(line: &[&str]) -> Vec<Finding> {
        let dir = tempfile::tempdir().unwrap();
        audit_in(dir.path(), line)
    }

    /// (severity, flag) of each finding.
    pub fn summary(line: &[&str]) -> Vec<(Severity, String)> {
        findings(line)
            .into_iter()
            .map(|f| (f.severity, f.location))
            .collect()
    }

    /// The findings a case expects, as (severity, flag).
    pub type Expected = Vec<(Severity, String)>;

    pub fn err(flag: &str) -> Vec<(Severity, String)> {
        vec![(Severity::Error, flag.to_string())]
    }

    pub fn warn(flag: &str) -> Vec<(Severity, String)> {
        vec![(Severity::Warning, flag.to_string())]
    }

    /// The findings with `generated` as the Copilot flags the policy makes.
    pub fn copilot_with(generated: &[&str], line: &[&str]) -> Vec<(Severity, String)> {
        let dir = tempfile::tempdir().unwrap();
        let mut inputs = inputs(dir.path());
        inputs.copilot_flags = argv(generated);
        audit(&argv(line), &inputs)
            .unwrap()
            .into_iter()
            .map(|f| (f.severity, f.location))
            .collect()
    }
}

/// The helpers of the gap tests: the same, with the guard hook installed
/// or not.
pub mod gaps {
    pub use super::{Inputs, audit};
    pub use crate::agent::launch::EXIT_UNREADABLE;
    pub use crate::diag::Severity;
    use std::path::Path;

    pub fn argv(line: &[&str]) -> Vec<String> {
        line.iter().map(|w| w.to_string()).collect()
    }

    /// Inputs rooted in `dir`: cwd `dir`, HOME and CODEX_HOME below it, the
    /// guard hook installed or not.
    pub fn inputs(dir: &Path, claude_hook: bool) -> Inputs {
        Inputs {
            cwd: dir.to_path_buf(),
            home: dir.join("home"),
            codex_home: dir.join("codex-home"),
            claude_hook,
            ..Inputs::default()
        }
    }

    pub fn summary_in(inputs: &Inputs, line: &[&str]) -> Vec<(Severity, String)> {
        audit(&argv(line), inputs)
            .unwrap_or_else(|e| panic!("{line:?}: {e}"))
            .into_iter()
            .map(|f| (f.severity, f.location))
            .collect()
    }

    pub fn summary(line: &[&str], claude_hook: bool) -> Vec<(Severity, String)> {
        let dir = tempfile::tempdir().unwrap();
        summary_in(&inputs(dir.path(), claude_hook), line)
    }

    pub fn one(severity: Severity, flag: &str) -> Vec<(Severity, String)> {
        vec![(severity, flag.to_string())]
    }

    pub fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}
