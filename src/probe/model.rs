//! What a probe is: the rule it checks, what it expects, and the shell command
//! that exercises it. Probes are derived from the settings (see `derive.rs`),
//! never written by hand.

use std::path::{Path, PathBuf};

use crate::drift::Side;
use crate::shellwords::quote;

/// The rule lists of an srt settings file that twsrt probes, in report order;
/// `Settings` holds what the file changes beyond those lists (a key, a
/// switch, a list twsrt does not probe) in a way that widens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    DenyRead,
    DenyWrite,
    AllowWrite,
    AllowedDomains,
    DeniedDomains,
    /// srt's declared credentials (`credentials.files`, `.envVars`): not a
    /// list of strings, so not in [`Section::ALL`]; probed with the read
    /// denies.
    Credentials,
    Settings,
}

impl Section {
    pub const ALL: [Section; 5] = [
        Section::DenyRead,
        Section::DenyWrite,
        Section::AllowWrite,
        Section::AllowedDomains,
        Section::DeniedDomains,
    ];

    /// The settings key (the `section` of a JSON result).
    pub fn name(self) -> &'static str {
        match self {
            Section::DenyRead => "denyRead",
            Section::DenyWrite => "denyWrite",
            Section::AllowWrite => "allowWrite",
            Section::AllowedDomains => "allowedDomains",
            Section::DeniedDomains => "deniedDomains",
            Section::Credentials => "credentials",
            Section::Settings => "settings",
        }
    }

    /// The settings object holding the list.
    pub fn object(self) -> &'static str {
        match self {
            Section::DenyRead | Section::DenyWrite | Section::AllowWrite => "filesystem",
            Section::AllowedDomains | Section::DeniedDomains => "network",
            Section::Credentials => "credentials",
            Section::Settings => "",
        }
    }

    pub fn is_network(self) -> bool {
        self.object() == "network"
    }
}

/// What the sandbox must do with the probe's access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    Deny,
    Allow,
}

impl Expect {
    pub fn name(self) -> &'static str {
        match self {
            Expect::Deny => "deny",
            Expect::Allow => "allow",
        }
    }
}

/// The access a probe attempts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Read the first byte of a file.
    Read(PathBuf),
    /// List a directory that holds no regular file to read.
    List(PathBuf),
    /// Append-open an existing file (writes nothing).
    Append(PathBuf),
    /// Create a file that does not exist yet; twsrt checks on the host
    /// whether it arrived and removes it after each run. `dirs` are the
    /// directories twsrt creates for it first (outermost first) and removes
    /// after the probe.
    Create { file: PathBuf, dirs: Vec<PathBuf> },
    /// A HEAD request to a concrete host, in the sandbox only: srt's proxy
    /// answers the CONNECT (403 when it refuses), and curl prints that
    /// answer (`%{http_connect}`). Run plainly it would prove nothing.
    Http(String),
    /// The same request to a made-up subdomain of a `*.domain` rule.
    Connect(String),
    /// Print an environment variable: a denied one must be unset in the
    /// sandbox; a masked one (`masked`) may be set, but not to the value
    /// the control run prints.
    Env { name: String, masked: bool },
    /// Print the start of a masked file: the sandbox must not see the
    /// bytes the control run prints.
    Content(PathBuf),
}

impl Action {
    /// The command run (plainly for the control, and inside the sandbox).
    pub fn command(&self) -> String {
        match self {
            Action::Read(p) => format!("head -c 1 -- {}", quote_path(p)),
            Action::List(p) => format!("ls -- {}", quote_path(p)),
            Action::Append(p) | Action::Create { file: p, .. } => {
                format!(": >> {}", quote_path(p))
            }
            Action::Http(url) => format!(
                "curl -sS -m 10 -o /dev/null -I -w {} {}",
                quote("%{http_connect}"),
                quote(url)
            ),
            Action::Connect(url) => format!(
                "curl -sS -m 10 -o /dev/null -w {} {}",
                quote("%{http_connect}"),
                quote(url)
            ),
            Action::Env { name, .. } => format!("printenv {}", quote(name)),
            Action::Content(p) => format!("head -c 256 -- {}", quote_path(p)),
        }
    }

    /// A network probe has no control run: the verdict is srt's proxy
    /// answer, which only the sandboxed run gets (and a made-up host need
    /// not exist).
    pub fn has_control(&self) -> bool {
        !self.is_network()
    }

    pub fn is_network(&self) -> bool {
        matches!(self, Action::Http(_) | Action::Connect(_))
    }
}

#[derive(Debug, Clone)]
pub struct Probe {
    pub section: Section,
    /// The rule as the settings spell it, with a qualifier where the probe
    /// is a derived one (`~/.aws (realpath)`, `example.org (not allowlisted)`).
    pub rule: String,
    pub expect: Expect,
    /// The access to attempt, or why this rule cannot be probed (SKIP).
    pub action: Result<Action, String>,
    /// `None`: the rule is the policy's and in the settings file srt reads.
    /// `Missing`: the policy's rule is not in that file; `Extra`: the file
    /// holds it, the policy does not, and it widens. Either is a FAIL
    /// without a run.
    pub drift: Option<Side>,
}

impl Probe {
    /// `read-deny`, `write-deny`, `write-allow`, `net-allow`, `net-deny`.
    pub fn kind(&self) -> &'static str {
        match (self.section, self.expect) {
            (Section::Settings, _) => "settings",
            (Section::Credentials, _) => "credential",
            (Section::DenyRead, _) => "read-deny",
            (s, Expect::Deny) if s.is_network() => "net-deny",
            (s, Expect::Allow) if s.is_network() => "net-allow",
            (_, Expect::Deny) => "write-deny",
            (_, Expect::Allow) => "write-allow",
        }
    }

    /// Whether the probe runs at all (a SKIP and a drifted rule do not).
    pub fn runs(&self) -> bool {
        self.action.is_ok() && self.drift.is_none()
    }

    pub fn command(&self) -> String {
        self.action
            .as_ref()
            .map(Action::command)
            .unwrap_or_default()
    }
}

fn quote_path(path: &Path) -> String {
    quote(&path.to_string_lossy())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_per_action() {
        let p = PathBuf::from("/h/.ssh/id");
        assert_eq!(Action::Read(p.clone()).command(), "head -c 1 -- /h/.ssh/id");
        assert_eq!(Action::List(p.clone()).command(), "ls -- /h/.ssh/id");
        assert_eq!(Action::Append(p).command(), ": >> /h/.ssh/id");
        let create = Action::Create {
            file: PathBuf::from("/w/.twsrt-probe-1"),
            dirs: vec![],
        };
        assert_eq!(create.command(), ": >> /w/.twsrt-probe-1");
        assert_eq!(
            Action::Http("https://github.com/".into()).command(),
            "curl -sS -m 10 -o /dev/null -I -w '%{http_connect}' https://github.com/"
        );
        let connect = Action::Connect("https://twsrt-probe.x.io/".into());
        assert_eq!(
            connect.command(),
            "curl -sS -m 10 -o /dev/null -w '%{http_connect}' https://twsrt-probe.x.io/"
        );
        assert!(!connect.has_control());
        let env = Action::Env {
            name: "TOKEN".into(),
            masked: false,
        };
        assert_eq!(env.command(), "printenv TOKEN");
        assert!(env.has_control());
        assert_eq!(
            Action::Content(PathBuf::from("/h/.netrc")).command(),
            "head -c 256 -- /h/.netrc"
        );
    }

    #[test]
    fn kinds_follow_section_and_expectation() {
        let probe = |section, expect| Probe {
            section,
            rule: "r".into(),
            expect,
            action: Err("x".into()),
            drift: None,
        };
        assert_eq!(probe(Section::DenyRead, Expect::Deny).kind(), "read-deny");
        assert_eq!(probe(Section::DenyWrite, Expect::Deny).kind(), "write-deny");
        assert_eq!(
            probe(Section::AllowWrite, Expect::Allow).kind(),
            "write-allow"
        );
        assert_eq!(
            probe(Section::AllowedDomains, Expect::Allow).kind(),
            "net-allow"
        );
        // The canary: listed under allowedDomains, expected to be denied.
        assert_eq!(
            probe(Section::AllowedDomains, Expect::Deny).kind(),
            "net-deny"
        );
        assert_eq!(probe(Section::DenyRead, Expect::Deny).command(), "");
    }
}
