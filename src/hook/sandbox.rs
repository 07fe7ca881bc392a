//! The hook's sandbox mode (`[targets] claude_hook = "sandbox"`, `twsrt
//! hook claude --sandbox`): a Bash command the analysis cannot see through
//! is not asked about (or, in yolo mode, refused) but allowed with its text
//! replaced by `<srt> -s <settings> -c '<command>'`, so it runs inside the
//! kernel sandbox with the compiled policy.
//!
//! srt is `$TWSRT_SRT` when set, else `srt` on `PATH`, taken as an absolute
//! path. The settings are the srt source's output file, used only while its
//! bytes are exactly what the policy compiles to now (an edited or stale
//! file is not the policy). Without either the command is answered as
//! without the mode: ask, or deny in yolo mode.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::compile::Compiled;
use crate::config::Targets;
use crate::source::SourceKind;

/// The `[targets]` key and the word that turns the mode on.
pub const KEY: &str = "claude_hook";
pub const WORD: &str = "sandbox";

/// How `[targets] claude_hook` installs the hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Install {
    /// `true`: the hook answers pass, ask or deny.
    Check,
    /// `"sandbox"`: what it would ask about runs inside srt.
    Sandbox,
}

/// The hook `targets` configures, if any.
pub fn install(targets: &Targets) -> Option<Install> {
    if targets.flag(KEY) {
        Some(Install::Check)
    } else if targets.word(KEY) == Some(WORD) {
        Some(Install::Sandbox)
    } else {
        None
    }
}

/// Where a wrapped command's srt and settings are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sandbox {
    pub srt: PathBuf,
    pub settings: PathBuf,
}

impl Sandbox {
    /// srt and the settings for `compiled`, or why the mode cannot wrap.
    pub fn find(
        compiled: &Compiled,
        env_srt: Option<&str>,
        path: Option<&str>,
    ) -> Result<Sandbox, String> {
        let srt = find_srt(env_srt, path)?;
        let srt_doc = compiled
            .canonical
            .iter()
            .find(|c| c.kind == SourceKind::Srt)
            .ok_or("the config has no srt source, so there are no sandbox settings")?;
        let settings = srt_doc.output.clone();
        match std::fs::read_to_string(&settings) {
            Ok(text) if text == srt_doc.text() => Ok(Sandbox { srt, settings }),
            Ok(_) => Err(format!(
                "{} is not what the policy compiles to (run `twsrt generate srt -w`)",
                settings.display()
            )),
            Err(e) => Err(format!("cannot read {}: {e}", settings.display())),
        }
    }

    /// `input` (a Bash tool input) with its command run inside srt.
    pub fn wrap_input(&self, input: &Value, command: &str) -> Value {
        let mut input = input.clone();
        input["command"] = Value::String(self.wrap(command));
        input
    }

    /// `command` as a command line that runs it inside srt: the shell that
    /// runs the line hands srt the text unchanged as the value of `-c`, and
    /// srt runs it with `bash -c`. A text starting with `-` or `+` would be
    /// options there (and for srt), so it is handed over as `eval '<text>'`,
    /// which is how Claude Code's Bash tool runs every command.
    pub fn wrap(&self, command: &str) -> String {
        let text = if command.starts_with(['-', '+']) {
            format!("eval {}", quote(command))
        } else {
            command.to_string()
        };
        format!(
            "{} -s {} -c {}",
            quote(&self.srt.to_string_lossy()),
            quote(&self.settings.to_string_lossy()),
            quote(&text)
        )
    }
}

/// `$TWSRT_SRT` (which must be an executable file), else the first `srt`
/// on `path`.
fn find_srt(env_srt: Option<&str>, path: Option<&str>) -> Result<PathBuf, String> {
    if let Some(named) = env_srt.filter(|s| !s.is_empty()) {
        let p = Path::new(named);
        return if p.is_absolute() && is_executable(p) {
            Ok(p.to_path_buf())
        } else {
            Err(format!(
                "TWSRT_SRT={named} is not an absolute path to an executable"
            ))
        };
    }
    path.into_iter()
        .flat_map(|p| p.split(':'))
        .filter(|dir| dir.starts_with('/'))
        .map(|dir| Path::new(dir).join("srt"))
        .find(|p| is_executable(p))
        .ok_or_else(|| "srt is not on PATH (nor named by TWSRT_SRT)".to_string())
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// `text` as one POSIX shell word: single quotes, each `'` as `'\''`.
pub fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}
