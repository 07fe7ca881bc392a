//! The agent limits among the generation warnings
//! ([`Code::is_agent_limit`]: what `generate AGENT -v` adds to `generate`)
//! as `twsrt doctor` findings, taken from the generator itself so the two
//! cannot disagree. An agent's [`Agent::doctor_checks`] calls
//! [`doctor_findings`] with the codes it has no check of its own for.

use crate::agent::{Agent, Ctx};
use crate::compile::compile;
use crate::diag::{Code, Diagnostic};
use crate::lint::Input;

/// The full mode's warnings of `agent` whose code is one of `codes`, for
/// every profile that compiles, as doctor warnings located at the agent's
/// name; each once, its notes naming the profiles it holds for. Nothing
/// while the agent is not configured. A profile that does not compile is
/// doctor's `profile-compile` finding already, so it is passed over here.
pub fn doctor_findings(
    agent: &dyn Agent,
    input: &Input,
    codes: &[Code],
    out: &mut Vec<Diagnostic>,
) {
    if !agent.configured(input.config) {
        return;
    }
    let mut found: Vec<Diagnostic> = Vec::new();
    for name in input.profile_names() {
        let Ok(compiled) = compile(input.config, Some(name)) else {
            continue;
        };
        let ctx = Ctx::new(input.config, &compiled, false);
        let mut warnings = Vec::new();
        if agent.preview(&ctx, &mut warnings).is_err() {
            continue;
        }
        let profile = format!("profile {}", crate::source::quoted(name));
        for w in warnings.into_iter().filter(|w| codes.contains(&w.code)) {
            match found
                .iter_mut()
                .find(|f| f.code == w.code && f.message == w.message)
            {
                Some(f) => f.notes.push(profile.clone()),
                None => found.push(w.with_notes(vec![profile.clone()])),
            }
        }
    }
    out.extend(found);
}
