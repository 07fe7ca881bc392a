//! srt's `credentials` section, `network.strictAllowlist` and
//! `network.deniedDomainReasons`: their shape as srt 0.0.83's settings
//! schema has it (doc/clients.md, "srt 0.0.83's credentials, strict
//! allowlist and allowRead, read"), and what they mean for the rest of the
//! policy.
//!
//! Contract:
//! - [`check`] refuses, in one fragment, what srt would refuse for the whole
//!   settings file (it validates the file with zod and does not start) or
//!   what twsrt cannot compile as meant: a `files[]` entry without a `path`
//!   or `mode`, a `mode` other than `deny` and `mask`, a relative `path`
//!   (twsrt writes every credential path into agents whose relative anchors
//!   differ, so only absolute and `~` paths say one file to all of them),
//!   an env var name that is not a POSIX identifier, a `strictAllowlist`
//!   that is not a boolean, a reason that is not a non-empty string.
//! - [`check_composed`] does the checks that need every fragment: masking
//!   needs `network.tlsTerminate` or `credentials.allowPlaintextInject`
//!   (srt refuses the file otherwise), and a `deniedDomainReasons` key must
//!   be a `deniedDomains` entry (srt matches keys by the exact entry; any
//!   other key never fires, so it is a mistake).
//! - [`files`] and [`env_vars`] list the declared credentials of a composed
//!   document; every file, masked or denied, is a read deny for the agents'
//!   own file tools (`crate::source::srt::rules`).

use std::path::Path;

use serde_json::Value;

use crate::error::{Error, Result};

/// What srt does with a declared credential inside the sandbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The file is unreadable, the variable unset.
    Deny,
    /// The sandbox sees a sentinel; srt's proxy puts the real value back
    /// on the way out to the entry's hosts.
    Mask,
}

impl Mode {
    fn parse(text: &str) -> Option<Self> {
        match text {
            "deny" => Some(Mode::Deny),
            "mask" => Some(Mode::Mask),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mode::Deny => "deny",
            Mode::Mask => "mask",
        }
    }
}

/// One declared credential: a file's path or a variable's name, and its mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Credential<'d> {
    pub name: &'d str,
    pub mode: Mode,
}

/// The declared credential files of a composed document, in order (entries
/// [`check`] would refuse are skipped).
pub fn files(doc: &Value) -> impl Iterator<Item = Credential<'_>> {
    declared(doc, "/credentials/files", "path")
}

/// The declared credential environment variables, in order.
pub fn env_vars(doc: &Value) -> impl Iterator<Item = Credential<'_>> {
    declared(doc, "/credentials/envVars", "name")
}

fn declared<'d>(
    doc: &'d Value,
    pointer: &str,
    key: &'static str,
) -> impl Iterator<Item = Credential<'d>> + use<'d> {
    doc.pointer(pointer)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(move |entry| {
            Some(Credential {
                name: entry.get(key)?.as_str()?,
                mode: Mode::parse(entry.get("mode")?.as_str()?)?,
            })
        })
}

/// Whether the document sets `network.strictAllowlist: true`.
pub fn strict_allowlist(doc: &Value) -> bool {
    doc.pointer("/network/strictAllowlist") == Some(&Value::Bool(true))
}

/// The shape checks on one fragment read from `path`.
pub fn check(path: &Path, fragment: &Value) -> Result<()> {
    let bad = |message: String| Err(Error::fragment(path, message));
    if let Some(value) = fragment.pointer("/network/strictAllowlist")
        && !value.is_boolean()
    {
        return bad("`network.strictAllowlist` must be true or false".into());
    }
    if let Some(reasons) = fragment.pointer("/network/deniedDomainReasons") {
        let Some(map) = reasons.as_object() else {
            return bad("`network.deniedDomainReasons` must be an object".into());
        };
        for (domain, reason) in map {
            if reason.as_str().is_none_or(str::is_empty) {
                return bad(format!(
                    "`network.deniedDomainReasons` \"{domain}\" must be a non-empty string"
                ));
            }
        }
    }
    let Some(credentials) = fragment.get("credentials") else {
        return Ok(());
    };
    if !credentials.is_object() {
        return bad("`credentials` must be an object".into());
    }
    for (list, key) in [("files", "path"), ("envVars", "name")] {
        let Some(entries) = credentials.get(list) else {
            continue;
        };
        let Some(entries) = entries.as_array() else {
            return bad(format!("`credentials.{list}` must be a list of objects"));
        };
        for (i, entry) in entries.iter().enumerate() {
            if let Some(message) = entry_problem(list, key, entry) {
                return bad(format!("`credentials.{list}` entry {i}: {message}"));
            }
        }
    }
    Ok(())
}

/// What is wrong with one `files[]` or `envVars[]` entry, if anything.
fn entry_problem(list: &str, key: &str, entry: &Value) -> Option<String> {
    if !entry.is_object() {
        return Some("must be an object".into());
    }
    let Some(name) = entry.get(key).and_then(Value::as_str) else {
        return Some(format!("`{key}` must be a string"));
    };
    if list == "files" && !(name.starts_with('/') || name.starts_with('~')) {
        return Some(format!(
            "`path` \"{name}\" must be absolute or start with `~` \
             (a relative path is anchored differently by each agent)"
        ));
    }
    if list == "envVars" && !is_env_name(name) {
        return Some(format!(
            "`name` \"{name}\" must start with a letter or underscore and hold only \
             letters, digits and underscores"
        ));
    }
    match entry
        .get("mode")
        .and_then(Value::as_str)
        .and_then(Mode::parse)
    {
        Some(_) => None,
        None => Some("`mode` must be \"deny\" or \"mask\"".into()),
    }
}

/// srt's `^[A-Za-z_][A-Za-z0-9_]*$`.
fn is_env_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The checks on the composed document of profile `profile`.
pub fn check_composed(profile: &str, doc: &Value) -> Result<()> {
    let masked = files(doc)
        .chain(env_vars(doc))
        .any(|c| c.mode == Mode::Mask);
    let plaintext = doc.pointer("/credentials/allowPlaintextInject") == Some(&Value::Bool(true));
    if masked && doc.pointer("/network/tlsTerminate").is_none() && !plaintext {
        return Err(Error::Policy(format!(
            "profile '{profile}', source 'srt': a credential with mode \"mask\" needs \
             network.tlsTerminate (or credentials.allowPlaintextInject: true); srt {} refuses \
             the settings without one",
            crate::srt::schema::SRT_VERSION
        )));
    }
    if let Some(reasons) = doc
        .pointer("/network/deniedDomainReasons")
        .and_then(Value::as_object)
    {
        let denied = doc
            .pointer("/network/deniedDomains")
            .and_then(Value::as_array);
        let listed = |d: &str| denied.is_some_and(|l| l.iter().any(|e| e.as_str() == Some(d)));
        if let Some(key) = reasons.keys().find(|k| !listed(k)) {
            return Err(Error::Policy(format!(
                "profile '{profile}', source 'srt': network.deniedDomainReasons has \"{key}\", \
                 which is no network.deniedDomains entry (srt matches a reason by the exact \
                 entry, so it would never be given)"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn problem(fragment: Value) -> String {
        match check(Path::new("f.jsonc"), &fragment) {
            Err(e) => e.to_string(),
            Ok(()) => String::new(),
        }
    }

    #[test]
    fn the_shapes_srt_refuses_are_refused() {
        for (fragment, says) in [
            (
                json!({"network": {"strictAllowlist": "yes"}}),
                "strictAllowlist` must be",
            ),
            (
                json!({"network": {"deniedDomainReasons": []}}),
                "must be an object",
            ),
            (
                json!({"network": {"deniedDomainReasons": {"a.com": ""}}}),
                "non-empty string",
            ),
            (
                json!({"credentials": []}),
                "`credentials` must be an object",
            ),
            (json!({"credentials": {"files": {}}}), "list of objects"),
            (
                json!({"credentials": {"files": ["~/.netrc"]}}),
                "entry 0: must be an object",
            ),
            (
                json!({"credentials": {"files": [{"mode": "deny"}]}}),
                "`path` must be a string",
            ),
            (
                json!({"credentials": {"files": [{"path": "~/.n", "mode": "hide"}]}}),
                "`mode` must be",
            ),
            (
                json!({"credentials": {"files": [{"path": "~/.n"}]}}),
                "`mode` must be",
            ),
            (
                json!({"credentials": {"files": [{"path": ".env", "mode": "deny"}]}}),
                "must be absolute",
            ),
            (
                json!({"credentials": {"envVars": [{"name": "1X", "mode": "deny"}]}}),
                "must start with",
            ),
            (
                json!({"credentials": {"envVars": [{"name": "A-B", "mode": "deny"}]}}),
                "must start with",
            ),
        ] {
            let got = problem(fragment.clone());
            assert!(got.contains(says), "{fragment}: {got}");
        }
    }

    #[test]
    fn the_shapes_srt_takes_pass() {
        for fragment in [
            json!({"network": {"strictAllowlist": false, "deniedDomainReasons": {"a.com": "no"}}}),
            json!({"credentials": {"files": [{"path": "/etc/k", "mode": "mask"}],
                   "envVars": [{"name": "_T1", "mode": "deny"}]}}),
            json!({"credentials": {"files": [{"path": "~/.netrc", "mode": "deny"}]}}),
        ] {
            assert_eq!(problem(fragment.clone()), "", "{fragment}");
        }
    }

    #[test]
    fn masking_needs_tls_termination_or_the_plaintext_opt_out() {
        let masked = json!({"credentials": {"envVars": [{"name": "T", "mode": "mask"}]}});
        let err = check_composed("p", &masked).unwrap_err().to_string();
        assert!(err.contains("needs network.tlsTerminate"), "{err}");
        let mut opted = masked.clone();
        opted["credentials"]["allowPlaintextInject"] = json!(true);
        assert!(check_composed("p", &opted).is_ok());
        let mut tls = masked;
        tls["network"] = json!({"tlsTerminate": {}});
        assert!(check_composed("p", &tls).is_ok());
        let denied = json!({"credentials": {"envVars": [{"name": "T", "mode": "deny"}]}});
        assert!(check_composed("p", &denied).is_ok());
    }

    #[test]
    fn a_reason_must_name_a_denied_entry() {
        let doc = json!({"network": {"deniedDomains": ["github.com:22"],
            "deniedDomainReasons": {"github.com": "no"}}});
        let err = check_composed("p", &doc).unwrap_err().to_string();
        assert!(err.contains("\"github.com\", which is no"), "{err}");
        let doc = json!({"network": {"deniedDomains": ["github.com:22"],
            "deniedDomainReasons": {"github.com:22": "use https"}}});
        assert!(check_composed("p", &doc).is_ok());
    }

    #[test]
    fn declared_credentials_are_listed_in_order() {
        let doc = json!({"credentials": {
            "files": [{"path": "~/.netrc", "mode": "mask"}, {"path": "/k", "mode": "deny"}],
            "envVars": [{"name": "T", "mode": "deny"}]}});
        let files: Vec<_> = files(&doc).map(|c| (c.name, c.mode)).collect();
        assert_eq!(files, [("~/.netrc", Mode::Mask), ("/k", Mode::Deny)]);
        assert_eq!(env_vars(&doc).map(|c| c.name).collect::<Vec<_>>(), ["T"]);
        assert!(!strict_allowlist(&doc));
        assert!(strict_allowlist(
            &json!({"network": {"strictAllowlist": true}})
        ));
    }
}
