//! The diagnostic codes OpenCode raises (doctor findings and generation warnings), declared
//! here in its folder; [`crate::diag::Code::Agent`] carries them, and the
//! registry test holds every code of every agent unique.

crate::diag::agent_codes! {
    /// OpenCode starts no sandbox: its permission rules only decide which tool calls run.
    NO_SANDBOX = "opencode-no-sandbox", limit;
    /// OpenCode matches bash rules against each command's text as written.
    COMMAND_TEXT = "opencode-command-text", limit;
    /// Bash rules joining commands, which OpenCode never matches (it checks each command alone).
    COMPOUND_RULE = "opencode-compound-rule";
    /// Bash rules holding quotes, which OpenCode matches only in their own spelling.
    QUOTED_RULE = "opencode-quoted-rule";
    /// OpenCode matches read and edit rules against the path relative to its project: denied by name in every directory.
    PATH_NAME = "opencode-path-name", limit;
    /// OpenCode's webfetch takes no URL patterns: domain denies make every fetch ask.
    FETCH_WHOLE = "opencode-fetch-whole";
    /// allowedDomains entries, which OpenCode's permissions cannot enforce.
    ALLOWED_DOMAINS = "opencode-allowed-domains";
    /// The comments of the existing OpenCode config are not kept by the merge.
    COMMENTS_DROPPED = "opencode-comments-dropped";
    /// Entries twsrt did not write, moved so that no allow or ask comes after a deny.
    FOREIGN_REORDERED = "opencode-foreign-reordered";
    /// Per-agent permissions in the OpenCode config, evaluated after twsrt's rules.
    AGENT_PERMISSION = "opencode-agent-permission";
}
