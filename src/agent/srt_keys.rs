//! The srt keys of issue 33 an agent may have no counterpart for
//! (`credentials`, `network.strictAllowlist`, `network.deniedDomainReasons`,
//! `filesystem.allowRead`), and the one warning that says so.
//!
//! Contract: [`skipped`] gives at most one warning per agent and run, code
//! [`Code::SrtKeySkipped`], naming the keys of `keys` the composed srt
//! settings set (a non-empty list or map, `strictAllowlist: true`) and the
//! agent's own reason. A key the settings do not set is never named. The
//! credential files themselves are read denies every agent already
//! compiles (`crate::source::srt::rules`), so `credentials.files` is named
//! only by an agent that has no read deny at all. `filesystem.allowRead`
//! is compiled into Claude's `sandbox.filesystem.allowRead` only; every
//! other agent names it (its read denies stay: stricter than srt).

use serde_json::Value;

use super::warning;
use crate::diag::{Code, Diagnostic};

/// The keys, by their dotted name.
pub const ENV_VARS: &str = "credentials.envVars";
pub const FILES: &str = "credentials.files";
pub const STRICT_ALLOWLIST: &str = "network.strictAllowlist";
pub const DENIED_DOMAIN_REASONS: &str = "network.deniedDomainReasons";
pub const ALLOW_READ: &str = "filesystem.allowRead";

/// Whether `srt` sets the key named `dotted`.
pub fn sets(srt: &Value, dotted: &str) -> bool {
    let pointer = format!("/{}", dotted.replace('.', "/"));
    match srt.pointer(&pointer) {
        Some(Value::Array(items)) => !items.is_empty(),
        Some(Value::Object(map)) => !map.is_empty(),
        Some(Value::Bool(on)) => *on,
        _ => false,
    }
}

/// The warning of `agent` for the keys of `keys` that `srt` sets, with
/// `why` after the list; none when it sets none of them.
pub fn skipped(agent: &str, srt: &Value, keys: &[&str], why: &str) -> Option<Diagnostic> {
    let set: Vec<&str> = keys.iter().copied().filter(|k| sets(srt, k)).collect();
    (!set.is_empty()).then(|| {
        warning(
            agent,
            Code::SrtKeySkipped,
            format!("srt {} not compiled: {why}", set.join(", ")),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_the_keys_the_settings_set_are_named() {
        let srt = json!({"network": {"strictAllowlist": false, "deniedDomainReasons": {"a": "b"}},
            "credentials": {"envVars": [], "files": [{"path": "/k", "mode": "deny"}]}});
        let keys = [
            ENV_VARS,
            FILES,
            STRICT_ALLOWLIST,
            DENIED_DOMAIN_REASONS,
            ALLOW_READ,
        ];
        let w = skipped("agent", &srt, &keys, "no such setting").unwrap();
        assert_eq!(w.code, Code::SrtKeySkipped);
        assert_eq!(
            w.message,
            "srt credentials.files, network.deniedDomainReasons not compiled: no such setting"
        );
        assert!(skipped("agent", &json!({}), &keys, "x").is_none());
        assert!(sets(
            &json!({"network": {"strictAllowlist": true}}),
            STRICT_ALLOWLIST
        ));
    }
}
