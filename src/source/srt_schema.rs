//! The keys srt's settings schema knows, level by level. srt ignores any
//! other key silently (a misspelled `denyread` is no rule at all), so
//! `doctor`, `diff`'s directions and `test` all judge unknown keys against
//! this one list.

/// The top level (`enabled` included: twsrt maps it to every agent).
pub const TOP_KEYS: &[&str] = &[
    "enabled",
    "filesystem",
    "network",
    "ignoreViolations",
    "enableWeakerNestedSandbox",
    "enableWeakerNetworkIsolation",
    "allowPty",
    "allowAppleEvents",
    "ripgrep",
    "mandatoryDenySearchDepth",
    "seccomp",
    "credentials",
    "git",
    "windows",
];

pub const NETWORK_KEYS: &[&str] = &[
    "allowedDomains",
    "deniedDomains",
    "deniedDomainReasons",
    "deniedResolvedAddresses",
    "strictAllowlist",
    "allowUnixSockets",
    "allowAllUnixSockets",
    "allowLocalBinding",
    "allowMachLookup",
    "httpProxyPort",
    "socksProxyPort",
    "filterRequest",
    "tlsTerminate",
    "mitmProxy",
    "parentProxy",
];

pub const FILESYSTEM_KEYS: &[&str] = &[
    "denyRead",
    "allowRead",
    "allowWrite",
    "denyWrite",
    "disabled",
    "allowGitConfig",
];

/// Every level with its keys; `""` is the top level.
pub const LEVELS: &[(&str, &[&str])] = &[
    ("", TOP_KEYS),
    ("network", NETWORK_KEYS),
    ("filesystem", FILESYSTEM_KEYS),
];
