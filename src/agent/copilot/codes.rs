//! The diagnostic codes Copilot raises (doctor findings and generation warnings), declared
//! here in its folder; [`crate::diag::Code::Agent`] carries them, and the
//! registry test holds every code of every agent unique.

crate::diag::agent_codes! {
    /// An allowWrite entry makes Copilot approve every shell command (`--allow-tool 'shell'`).
    SHELL_ALLOWED = "copilot-shell-allowed";
    /// A bash ask rule Copilot gets as --deny-tool (it has no ask tier).
    ASK_AS_DENY = "copilot-ask-as-deny";
    /// Bash rules joining commands, which no Copilot `shell(...)` pattern can match: not enforced.
    COMPOUND_RULE = "copilot-compound-rule";
    /// Bash rules holding quotes, which Copilot matches only in their own spelling.
    QUOTED_RULE = "copilot-quoted-rule";
    /// A deniedDomains entry Copilot's settings would ignore.
    IGNORED_URL = "copilot-ignored-url";
    /// Paths Copilot's command sandbox cannot hold as the policy means (globs, relative paths), left out of it.
    SANDBOX_SKIPPED = "copilot-sandbox-skipped";
    /// What Copilot's command sandbox keeps whatever the policy says: a writable temp directory, its own read scope and network defaults.
    SANDBOX_LIMIT = "copilot-sandbox-limit", limit;
}
