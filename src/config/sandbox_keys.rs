//! The keys of Claude Code's `sandbox` settings object, object by object,
//! read from Claude Code 2.1.332's own settings schema (the zod object
//! behind `sandbox` in its executable; doc/clients.md, "The sandbox keys
//! `[sandbox_overrides]` may set", says how). `[sandbox_overrides.<mode>]`
//! is copied into that object, and Claude Code keeps a key it does not know
//! without acting on it (the object is read with `.passthrough()`), so a
//! misspelt `enabeld = false` would switch nothing off: config.toml refuses
//! it.

use crate::known_keys::Levels;
use crate::srt::schema;

/// The Claude Code release the lists are read from.
pub const CLAUDE_CODE_VERSION: &str = "2.1.332";

/// The modes `[sandbox_overrides]` holds.
pub const MODES: &[&str] = &["full", "yolo"];

pub const LEVELS: Levels = &[
    (
        "",
        &[
            "enabled",
            "failIfUnavailable",
            "autoAllowBashIfSandboxed",
            "allowUnsandboxedCommands",
            "network",
            "filesystem",
            "credentials",
            "windows",
            "ignoreViolations",
            "enableWeakerNestedSandbox",
            "allowNestedUserNamespaces",
            "enableWeakerNetworkIsolation",
            "allowAppleEvents",
            "excludedCommands",
            "ripgrep",
            "bwrapPath",
            "socatPath",
        ],
    ),
    (
        "network",
        &[
            "allowedDomains",
            "deniedDomains",
            "strictAllowlist",
            "allowManagedDomainsOnly",
            "allowUnixSockets",
            "allowAllUnixSockets",
            "allowLocalBinding",
            "allowMachLookup",
            "httpProxyPort",
            "socksProxyPort",
            "tlsTerminate",
        ],
    ),
    ("network.tlsTerminate", &["caCertPath", "caKeyPath"]),
    (
        "filesystem",
        &[
            "allowWrite",
            "denyWrite",
            "denyRead",
            "allowRead",
            "allowManagedReadPathsOnly",
            "disabled",
            // In Claude Code 2.1.337's `sandbox.filesystem` object beside
            // the keys above (doc/clients.md, "The sandbox keys").
            "allowWriteWithinDeny",
            "allowGitConfig",
        ],
    ),
    ("credentials", schema::CREDENTIALS_KEYS),
    ("credentials.files[]", schema::CREDENTIAL_FILE_KEYS),
    ("credentials.envVars[]", schema::CREDENTIAL_ENV_KEYS),
    ("credentials.awsPairs[]", schema::AWS_PAIR_KEYS),
    ("credentials.sigv4", schema::SIGV4_KEYS),
    ("windows", &["backend"]),
    ("ripgrep", &["command", "args"]),
];
