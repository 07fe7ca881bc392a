//! The diagnostic codes Codex raises (doctor findings and generation warnings), declared
//! here in its folder; [`crate::diag::Code::Agent`] carries them, and the
//! registry test holds every code of every agent unique.

crate::diag::agent_codes! {
    /// Domain lists Codex ignores: the managed config does not turn `network_proxy` on.
    DOMAINS_IGNORED = "codex-domains-ignored", limit;
    /// A Codex config layer twsrt does not write sets a key of the generated profile.
    LAYER_OVERRIDE = "codex-layer-override";
    /// A legacy sandbox key in a Codex config layer switches the generated profile off.
    LEGACY_SANDBOX = "codex-legacy-sandbox";
    /// Two or more rules under one missing directory, where Codex's sandbox fails to start.
    MISSING_PARENT = "codex-missing-parent", limit;
    /// Two or more home or absolute rules under one missing directory, written as one entry for it.
    MISSING_DIR_LIFTED = "codex-missing-dir-lifted";
    /// A directory entry written while it was missing, kept by diff (it is as strict) now that it exists.
    LIFTED_DIR_EXISTS = "codex-lifted-dir-exists";
    /// A workspace rule inside `.git`, `.codex` or `.agents`, which Codex keeps read-only.
    PROTECTED_PATH = "codex-protected-path", limit;
    /// An allowUnixSockets entry that is not the exact absolute path of a socket, skipped for Codex.
    SOCKET_SKIPPED = "codex-socket-skipped";
    /// allowLocalBinding, skipped for Codex (its switch lifts a wider guard).
    LOCAL_BINDING_SKIPPED = "codex-local-binding-skipped";
    /// An srt proxy port, which Codex has no setting for.
    PROXY_PORT_SKIPPED = "codex-proxy-port-skipped";
    /// srt sandbox fields or mode overrides with no Codex counterpart, skipped.
    UNMAPPED_KEY = "codex-unmapped-key";
    /// denyWrite globs Codex cannot make read-only: compiled as deny read and write.
    DENY_WRITE_GLOB = "codex-deny-write-glob";
    /// allowWrite patterns that are not one concrete directory, skipped as Codex workspace roots.
    ROOT_SKIPPED = "codex-root-skipped";
    /// allowWrite paths a deny rule also names: the deny stays, the workspace root is skipped.
    DENIED_ROOT = "codex-denied-root";
    /// Bash allow rules, skipped for Codex (an allow rule would run outside the sandbox).
    BASH_ALLOW_SKIPPED = "codex-bash-allow-skipped";
    /// Bash ask rules, which need no Codex output.
    BASH_ASK_SKIPPED = "codex-bash-ask-skipped";
    /// Codex consults its execution rules only for requests to run outside the sandbox.
    RULES_OUTSIDE_SANDBOX = "codex-rules-outside-sandbox";
    /// A legacy sandbox setting in a Codex layer twsrt does not check would switch the profile off.
    LEGACY_LAYERS = "codex-legacy-layers";
    /// Codex expands deny globs only when a command starts, by walking the workspace roots.
    GLOB_WALK = "codex-glob-walk", limit;
    /// Bash deny rules joining commands, which no Codex rule can match: not enforced.
    COMPOUND_RULE = "codex-compound-rule";
}
