//! The keys srt's settings schema knows, object by object, read from the
//! schema of srt 0.0.83 (doc/clients.md, "The keys twsrt holds fragments
//! and overrides to", says how). srt drops
//! any other key silently (a misspelled `denyread` is no rule at all), so
//! compiling refuses one (`crate::source::srt`), and `doctor`, `diff`'s
//! directions and `test` judge keys on disk against the same lists.
//!
//! A level is named by its dotted path from the top (`""` is the top level,
//! `network.tlsTerminate` an object inside `network`); `[]` stands for the
//! objects inside a list (`credentials.files[]`). An object whose path is
//! not listed (`ignoreViolations`, `network.deniedDomainReasons`: maps from
//! any name) takes any key.

/// The srt release the lists are read from.
pub const SRT_VERSION: &str = "0.0.83";

/// The top level: srt's keys and `enabled`, which twsrt maps to every
/// agent's sandbox switch.
pub const TOP_KEYS: &[&str] = &[
    "enabled",
    "network",
    "filesystem",
    "credentials",
    "ignoreViolations",
    "enableWeakerNestedSandbox",
    "allowNestedUserNamespaces",
    "enableWeakerNetworkIsolation",
    "allowAppleEvents",
    "ripgrep",
    "mandatoryDenySearchDepth",
    "allowPty",
    "seccomp",
    "bwrapPath",
    "socatPath",
    "javaAgentJarPath",
    "windows",
    "git",
];

pub const NETWORK_KEYS: &[&str] = &[
    "allowedDomains",
    "deniedDomains",
    "deniedDomainReasons",
    "strictAllowlist",
    "deniedResolvedAddresses",
    "allowUnixSockets",
    "allowAllUnixSockets",
    "allowLocalBinding",
    "allowMachLookup",
    "httpProxyPort",
    "socksProxyPort",
    "mitmProxy",
    "filterRequest",
    "allowPlaintextHeaderSet",
    "stripResponseHeaders",
    "refuseOpaqueTunnels",
    "requireHostMatch",
    "ambiguousRequestTarget",
    "tlsTerminate",
    "parentProxy",
];

pub const FILESYSTEM_KEYS: &[&str] = &[
    "disabled",
    "denyRead",
    "allowRead",
    "allowWrite",
    "denyWrite",
    "allowGitConfig",
];

/// A path entry written as an object (`{"path": "...", "literal": true}`).
/// The keys of `credentials` and of its entries, as srt 0.0.83 and Claude
/// Code's `sandbox.credentials` both spell them.
pub const CREDENTIALS_KEYS: &[&str] = &[
    "files",
    "envVars",
    "allowPlaintextInject",
    "awsPairs",
    "sigv4",
];
pub const CREDENTIAL_FILE_KEYS: &[&str] = &[
    "path",
    "mode",
    "extract",
    "onExtractNoMatch",
    "decode",
    "maskClaims",
    "maskDuplicates",
    "injectHosts",
];
pub const CREDENTIAL_ENV_KEYS: &[&str] = &[
    "name",
    "mode",
    "extract",
    "onExtractNoMatch",
    "decode",
    "maskClaims",
    "injectHosts",
];
pub const AWS_PAIR_KEYS: &[&str] = &["accessKeyIdVar", "secretAccessKeyVar", "sessionTokenVar"];
pub const SIGV4_KEYS: &[&str] = &["streaming", "presigned", "sigv4a"];

const PATH_ENTRY_KEYS: &[&str] = &["path", "literal"];

/// Every level with its keys.
pub const LEVELS: &[(&str, &[&str])] = &[
    ("", TOP_KEYS),
    ("network", NETWORK_KEYS),
    ("network.mitmProxy", &["socketPath", "domains"]),
    (
        "network.tlsTerminate",
        &[
            "caCertPath",
            "caKeyPath",
            "excludeDomains",
            "extraCaCertPaths",
            "maxTunnels",
            "handshakeTimeoutMs",
        ],
    ),
    ("network.parentProxy", &["http", "https", "noProxy"]),
    ("filesystem", FILESYSTEM_KEYS),
    ("filesystem.denyRead[]", PATH_ENTRY_KEYS),
    ("filesystem.allowRead[]", PATH_ENTRY_KEYS),
    ("filesystem.allowWrite[]", PATH_ENTRY_KEYS),
    ("filesystem.denyWrite[]", PATH_ENTRY_KEYS),
    ("credentials", CREDENTIALS_KEYS),
    ("credentials.files[]", CREDENTIAL_FILE_KEYS),
    ("credentials.envVars[]", CREDENTIAL_ENV_KEYS),
    ("credentials.awsPairs[]", AWS_PAIR_KEYS),
    ("credentials.sigv4", SIGV4_KEYS),
    ("ripgrep", &["command", "args", "argv0"]),
    ("seccomp", &["applyPath", "argv0"]),
    (
        "windows",
        &[
            "backend",
            "sandboxUser",
            "sublayerGuid",
            "wfpSublayerGuid",
            "proxyPortRange",
            "srtWin",
        ],
    ),
    ("windows.srtWin", &["path"]),
    ("git", &["safeDirectories"]),
];
