//! The keys of Claude Code's `sandbox` settings object, object by object,
//! read from Claude Code 2.1.332's own settings schema (the zod object
//! behind `sandbox` in its executable; doc/clients.md, "The sandbox keys
//! `[sandbox_overrides]` may set", says how). `[sandbox_overrides.<mode>]`
//! is copied into that object, and Claude Code keeps a key it does not know
//! without acting on it (the object is read with `.passthrough()`), so a
//! misspelt `enabeld = false` would switch nothing off: config.toml refuses
//! it.

use crate::known_keys::Levels;

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
        ],
    ),
    (
        "credentials",
        &[
            "files",
            "envVars",
            "allowPlaintextInject",
            "awsPairs",
            "sigv4",
        ],
    ),
    (
        "credentials.files[]",
        &[
            "path",
            "mode",
            "extract",
            "onExtractNoMatch",
            "decode",
            "maskClaims",
            "maskDuplicates",
            "injectHosts",
        ],
    ),
    (
        "credentials.envVars[]",
        &[
            "name",
            "mode",
            "extract",
            "onExtractNoMatch",
            "decode",
            "maskClaims",
            "injectHosts",
        ],
    ),
    (
        "credentials.awsPairs[]",
        &["accessKeyIdVar", "secretAccessKeyVar", "sessionTokenVar"],
    ),
    ("credentials.sigv4", &["streaming", "presigned", "sigv4a"]),
    ("windows", &["backend"]),
    ("ripgrep", &["command", "args"]),
];
