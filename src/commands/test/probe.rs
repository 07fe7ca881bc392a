//! What a probe is: the rule it checks, what it expects, and the shell command
//! that exercises it. Probes are derived from the settings (see `derive.rs`),
//! never written by hand.

use std::path::{Path, PathBuf};

/// The rule lists of an srt settings file that twsrt probes, in report order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    DenyRead,
    DenyWrite,
    AllowWrite,
    AllowedDomains,
    DeniedDomains,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::DenyRead,
        Kind::DenyWrite,
        Kind::AllowWrite,
        Kind::AllowedDomains,
        Kind::DeniedDomains,
    ];

    /// The settings key, which is also the name shown in reports.
    pub fn name(self) -> &'static str {
        match self {
            Kind::DenyRead => "denyRead",
            Kind::DenyWrite => "denyWrite",
            Kind::AllowWrite => "allowWrite",
            Kind::AllowedDomains => "allowedDomains",
            Kind::DeniedDomains => "deniedDomains",
        }
    }

    pub fn section(self) -> &'static str {
        match self {
            Kind::DenyRead | Kind::DenyWrite | Kind::AllowWrite => "filesystem",
            Kind::AllowedDomains | Kind::DeniedDomains => "network",
        }
    }
}

/// What the sandbox must do with the probe's access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    Blocked,
    Allowed,
}

impl Expect {
    pub fn name(self) -> &'static str {
        match self {
            Expect::Blocked => "blocked",
            Expect::Allowed => "allowed",
        }
    }
}

/// Where a rule comes from: the compiled policy and the settings file on disk
/// agree, or only one of them holds it (a hand edit of the file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Both,
    PolicyOnly,
    FileOnly,
}

impl Origin {
    pub fn name(self) -> &'static str {
        match self {
            Origin::Both => "policy and file",
            Origin::PolicyOnly => "policy only",
            Origin::FileOnly => "file only",
        }
    }
}

/// The access a probe attempts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Read the first byte of a file.
    Read(PathBuf),
    /// Open an existing file for appending and write nothing.
    Append(PathBuf),
    /// Create this (not yet existing) probe file; twsrt checks on the host
    /// whether it arrived and removes it.
    Create(PathBuf),
    /// twsrt creates `dir` and an empty `file` in it before the runs, the
    /// probe append-opens `file`, and twsrt removes both afterwards.
    Plant { dir: PathBuf, file: PathBuf },
    /// An HTTPS request through srt's proxy.
    Http { url: String, max_time: u64 },
}

impl Action {
    /// The command run inside the sandbox.
    pub fn command(&self) -> String {
        match self {
            Action::Read(p) => format!("head -c1 -- {}", quote_path(p)),
            Action::Append(p) | Action::Plant { file: p, .. } => {
                let q = quote_path(p);
                format!("test -f {q} && : >> {q}")
            }
            Action::Create(p) => format!("set -C && : > {}", quote_path(p)),
            Action::Http { url, max_time } => format!(
                "curl -sS -o /dev/null -D - --max-time {max_time} {}",
                quote(url)
            ),
        }
    }

    /// The command run plainly, outside the sandbox. The same as `command`,
    /// except for network probes: the control request is pinned to a closed
    /// local port with every proxy off, so it proves that curl runs and the
    /// URL is well-formed without sending anything off this machine.
    pub fn control_command(&self) -> String {
        match self {
            Action::Http { url, max_time } => format!(
                "curl -sS -o /dev/null -D - --max-time {max_time} --noproxy '*' \
                 --connect-to ::127.0.0.1:9 {}",
                quote(url)
            ),
            other => other.command(),
        }
    }

    /// The path or URL the probe touches.
    pub fn target(&self) -> String {
        match self {
            Action::Read(p) | Action::Append(p) | Action::Create(p) => p.display().to_string(),
            Action::Plant { file, .. } => file.display().to_string(),
            Action::Http { url, .. } => url.clone(),
        }
    }

    pub fn verb(&self) -> &'static str {
        match self {
            Action::Read(_) => "the read",
            Action::Append(_) | Action::Plant { .. } => "the append-open",
            Action::Create(_) => "creating the probe file",
            Action::Http { .. } => "the request",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Probe {
    pub kind: Kind,
    /// The rule as the settings spell it.
    pub rule: String,
    pub origin: Origin,
    /// A short qualifier shown next to the rule ("real path", ...).
    pub note: Option<String>,
    pub expect: Expect,
    /// The access to attempt, or why this rule cannot be probed (SKIP).
    pub action: Result<Action, String>,
}

impl Probe {
    /// The rule with its qualifiers, as the table shows it.
    pub fn label(&self) -> String {
        let mut notes: Vec<&str> = Vec::new();
        if let Some(n) = &self.note {
            notes.push(n);
        }
        match self.origin {
            Origin::Both => {}
            Origin::PolicyOnly => notes.push("missing from the file"),
            Origin::FileOnly => notes.push("only in the file"),
        }
        if notes.is_empty() {
            self.rule.clone()
        } else {
            format!("{} [{}]", self.rule, notes.join(", "))
        }
    }
}

/// Single-quote a word for `sh`.
pub fn quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:=@,%".contains(c))
    {
        return text.to_string();
    }
    format!("'{}'", text.replace('\'', r"'\''"))
}

fn quote_path(path: &Path) -> String {
    quote(&path.to_string_lossy())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_survives_quotes_and_spaces() {
        assert_eq!(quote("/a/b.txt"), "/a/b.txt");
        assert_eq!(quote("/a b"), "'/a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
    }

    #[test]
    fn commands_per_action() {
        let p = PathBuf::from("/h/.ssh/id");
        assert_eq!(Action::Read(p.clone()).command(), "head -c1 -- /h/.ssh/id");
        assert_eq!(
            Action::Append(p.clone()).command(),
            "test -f /h/.ssh/id && : >> /h/.ssh/id"
        );
        assert_eq!(
            Action::Create(PathBuf::from("/w/twsrt-probe-1-2")).command(),
            "set -C && : > /w/twsrt-probe-1-2"
        );
        let http = Action::Http {
            url: "https://github.com/".into(),
            max_time: 8,
        };
        assert_eq!(
            http.command(),
            "curl -sS -o /dev/null -D - --max-time 8 https://github.com/"
        );
        assert!(
            http.control_command()
                .contains("--connect-to ::127.0.0.1:9")
        );
        assert_eq!(
            Action::Read(p.clone()).control_command(),
            Action::Read(p).command()
        );
    }
}
