//! The layers one access meets. srt is decided from the derived model
//! ([`crate::drift::access`]) the way srt enforces it; Claude's permissions
//! and sandbox (its switch and its lists), Copilot's flags, Codex's profile
//! and rules and Gemini's policy file on the documents the renderers produce
//! for the mode ([`super::rendered`], [`super::rendered_codex`],
//! [`super::rendered_gemini`]), so they say what `generate` writes.
//!
//! The Claude guard hook (`twsrt hook claude`) is decided by the hook's own
//! decision function on the event Claude Code would send for the access, so
//! explain and the hook cannot disagree; its row is shown only when
//! `[targets] claude_hook` installs the hook. Gemini CLI's row is shown only
//! when `[targets] gemini_policy` compiles a policy file for it.

use std::path::Path;

use serde_json::Value;

use super::rendered::{self, Rendered};
use super::rendered_codex::{self, Codex};
use super::rendered_gemini::{self, Call, Gemini};
use crate::drift::access::{self, Decision, Places, Verdict};
use crate::hook;

/// What is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    Network,
    Command,
}

impl Access {
    pub fn name(self) -> &'static str {
        match self {
            Access::Read => "read",
            Access::Write => "write",
            Access::Network => "network",
            Access::Command => "command",
        }
    }
}

/// One access: reading or writing a path, a domain, a command.
pub enum Subject<'a> {
    Read(&'a Path),
    Write(&'a Path),
    Domain(&'a str),
    Command(&'a str),
}

impl Subject<'_> {
    pub fn access(&self) -> Access {
        match self {
            Subject::Read(_) => Access::Read,
            Subject::Write(_) => Access::Write,
            Subject::Domain(_) => Access::Network,
            Subject::Command(_) => Access::Command,
        }
    }
}

/// What every layer reads: the compiled documents and the mode.
pub struct Model<'a> {
    pub srt: &'a Value,
    pub bash: &'a Value,
    pub places: Places<'a>,
    /// What the renderers produce for the mode.
    pub rendered: &'a Rendered,
    pub codex: &'a Codex,
    pub yolo: bool,
    /// The guard hook's policy, when config.toml installs the hook.
    pub hook: Option<&'a hook::Policy>,
    /// Whether config.toml compiles a Gemini CLI policy file.
    pub gemini: bool,
    /// That file as rendered for the mode.
    pub gemini_policy: &'a Gemini,
}

pub struct Layer {
    pub layer: &'static str,
    pub agent: &'static str,
    pub decide: fn(&Model, &Subject) -> Decision,
}

/// Every layer, in the order the table lists them.
pub const LAYERS: [Layer; 8] = [
    Layer {
        layer: "srt",
        agent: "srt",
        decide: srt,
    },
    Layer {
        layer: "permissions",
        agent: "claude",
        decide: claude_permissions,
    },
    Layer {
        layer: "sandbox",
        agent: "claude",
        decide: claude_sandbox,
    },
    Layer {
        layer: "hook",
        agent: "claude",
        decide: claude_hook,
    },
    Layer {
        layer: "profile",
        agent: "codex",
        decide: codex_profile,
    },
    Layer {
        layer: "rules",
        agent: "codex",
        decide: codex_rules,
    },
    Layer {
        layer: "flags",
        agent: "copilot",
        decide: copilot_flags,
    },
    Layer {
        layer: "policy",
        agent: "gemini",
        decide: gemini_policy,
    },
];

fn not_covered(note: &str) -> Decision {
    Decision::default(Verdict::NotCovered, Some(note))
}

fn srt(m: &Model, s: &Subject) -> Decision {
    match s {
        Subject::Write(p) => access::srt_write(m.srt, p, &m.places),
        Subject::Read(p) => access::srt_read(m.srt, p, &m.places),
        Subject::Domain(d) => access::srt_network(m.srt, d),
        Subject::Command(_) => not_covered("srt confines what a command touches, not which runs"),
    }
}

fn claude_permissions(m: &Model, s: &Subject) -> Decision {
    match s {
        Subject::Write(p) => rendered::claude_path(m.rendered, p, true, &m.places),
        Subject::Read(p) => rendered::claude_path(m.rendered, p, false, &m.places),
        Subject::Domain(d) => rendered::claude_domain(m.rendered, d),
        Subject::Command(c) => rendered::claude_command(m.rendered, c),
    }
}

fn claude_sandbox(m: &Model, s: &Subject) -> Decision {
    if !m.rendered.claude_sandbox_on() {
        return not_covered("the Claude sandbox is off in this mode (sandbox.enabled)");
    }
    let lists = rendered::claude_sandbox_lists(m.rendered);
    match s {
        Subject::Write(p) => access::srt_write(&lists, p, &m.places),
        Subject::Read(p) => access::srt_read(&lists, p, &m.places),
        Subject::Domain(d) => access::srt_network(&lists, d),
        Subject::Command(_) => not_covered("the sandbox confines commands, it does not pick them"),
    }
}

/// The hook's verdict on the tool call Claude Code would make for the
/// access: Read or Write on the path, Bash for a command.
fn claude_hook(m: &Model, s: &Subject) -> Decision {
    let Some(policy) = m.hook else {
        return not_covered("no guard hook ([targets] claude_hook is not set)");
    };
    let (tool, input) = match s {
        Subject::Read(p) => (
            "Read",
            serde_json::json!({"file_path": p.to_string_lossy()}),
        ),
        Subject::Write(p) => (
            "Write",
            serde_json::json!({"file_path": p.to_string_lossy(), "content": ""}),
        ),
        Subject::Command(c) => ("Bash", serde_json::json!({"command": c})),
        Subject::Domain(_) => return not_covered("the hook does not look at domains"),
    };
    let event = hook::Event {
        tool_name: tool.into(),
        tool_input: input,
        cwd: m.places.cwd.to_path_buf(),
    };
    let mode = if m.yolo {
        hook::Mode::Yolo
    } else {
        hook::Mode::Full
    };
    match hook::decide(&event, policy, mode) {
        hook::Verdict::Deny(reason) => Decision::default(Verdict::Deny, Some(&reason)),
        hook::Verdict::Ask(reason) => Decision::default(Verdict::Ask, Some(&reason)),
        hook::Verdict::Pass => not_covered("the hook lets it through to the other layers"),
        hook::Verdict::Sandbox { reason, .. } => not_covered(&reason),
    }
}

fn codex_profile(m: &Model, s: &Subject) -> Decision {
    match s {
        Subject::Write(p) => rendered_codex::profile_path(m.codex, m.srt, p, true, &m.places),
        Subject::Read(p) => rendered_codex::profile_path(m.codex, m.srt, p, false, &m.places),
        Subject::Domain(d) => rendered_codex::profile_domain(m.codex, d),
        Subject::Command(_) => not_covered("the profile does not pick commands"),
    }
}

fn codex_rules(m: &Model, s: &Subject) -> Decision {
    let Subject::Command(c) = s else {
        return not_covered("execution rules only match commands");
    };
    rendered_codex::rules_command(m.codex, c)
}

fn copilot_flags(m: &Model, s: &Subject) -> Decision {
    match s {
        Subject::Read(_) => rendered::copilot_path(m.rendered, false),
        Subject::Write(_) => rendered::copilot_path(m.rendered, true),
        Subject::Domain(d) => rendered::copilot_domain(m.rendered, d),
        Subject::Command(c) => rendered::copilot_command(m.rendered, c, m.bash),
    }
}

/// Gemini CLI's policy file as `generate` renders it for the mode, run
/// through Gemini's rule order ([`super::rendered_gemini`]).
fn gemini_policy(m: &Model, s: &Subject) -> Decision {
    let call = match s {
        Subject::Read(p) => Call::Read(p),
        Subject::Write(p) => Call::Write(p),
        Subject::Domain(d) => Call::Domain(d),
        Subject::Command(c) => Call::Command(c),
    };
    rendered_gemini::decide(m.gemini_policy, call, m.yolo)
}

/// Decide `subject` at every layer.
pub fn decide(model: &Model, subject: &Subject) -> Vec<(&'static Layer, Decision)> {
    LAYERS
        .iter()
        .filter(|layer| layer.layer != "hook" || model.hook.is_some())
        .filter(|layer| layer.agent != "gemini" || model.gemini)
        .map(|layer| (layer, (layer.decide)(model, subject)))
        .collect()
}
