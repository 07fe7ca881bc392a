//! The diagnostic codes Claude raises (doctor findings and generation warnings), declared
//! here in its folder; [`crate::diag::Code::Agent`] carries them, and the
//! registry test holds every code of every agent unique.

crate::diag::agent_codes! {
    /// A relative `sandbox.filesystem` path in a Claude settings file, resolved against the file.
    RELATIVE_SANDBOX_PATH = "claude-relative-sandbox-path";
    /// A `[sandbox_overrides.*.filesystem]` path list that has no effect on Claude.
    OVERRIDE_IGNORED = "claude-override-ignored";
    /// A value in a Claude settings file that Claude Code's settings schema refuses (it drops the file).
    SETTINGS_REJECTED = "claude-settings-rejected";
    /// Bash rules holding quotes, which Claude Code matches only in their own spelling.
    QUOTED_RULE = "claude-quoted-rule";
}
