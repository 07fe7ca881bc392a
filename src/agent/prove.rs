//! What an agent's prover (`twsrt test --agent NAME`) is given and answers:
//! the rules of the policy (bash deny and ask, denyRead, denyWrite,
//! deniedDomains, allowedDomains), and a verdict per rule from the agent's
//! own decision ([`crate::probe::agents`] runs it and reports).

use std::path::{Path, PathBuf};

use crate::config::Config;

/// One rule, with where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// `bash`, `filesystem` or `network`.
    pub section: &'static str,
    /// The list in its section: `deny`, `ask` (bash), `denyRead`,
    /// `denyWrite`, `deniedDomains`, `allowedDomains`.
    pub list: &'static str,
    pub rule: String,
    /// `fragment:line`, `-` when unknown (a rule the compile added).
    pub source: String,
}

impl Rule {
    pub fn is_bash(&self) -> bool {
        self.section == "bash"
    }
}

/// A rule's verdict: `PASS`, `FAIL` or `SKIP`, and what the agent did (or
/// why it was not asked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged {
    pub verdict: &'static str,
    pub detail: String,
}

impl Judged {
    pub fn new(verdict: &'static str, detail: impl Into<String>) -> Self {
        Judged {
            verdict,
            detail: detail.into(),
        }
    }
}

/// An agent whose own decision can be asked offline.
pub trait Prover: Sync {
    /// One verdict per rule of `rules`, in order; `find` looks a program up
    /// on PATH.
    fn prove(
        &self,
        config: &Config,
        rules: &[Rule],
        find: fn(&str) -> Option<PathBuf>,
    ) -> Vec<Judged>;
}

/// The argument every probe adds, so the probe is a longer command than
/// the rule, as a real one is.
pub const PROBE_ARG: &str = "twsrt-probe";

/// The shell command an agent is asked about for a bash rule: the rule's
/// words plus [`PROBE_ARG`]; for a rule joining commands (`curl | sh`) the
/// argument goes after its first command's words (`curl twsrt-probe | sh`),
/// as a real pipeline gives its first command arguments.
pub fn probe_command(rule: &str) -> String {
    let rule = rule.trim();
    let joint = ['|', ';', '&', '`', '\n']
        .iter()
        .filter_map(|c| rule.find(*c))
        .chain(rule.find("$("))
        .min();
    match joint {
        Some(at) => format!("{} {PROBE_ARG} {}", rule[..at].trim_end(), &rule[at..]),
        None => format!("{rule} {PROBE_ARG}"),
    }
}

/// Concrete paths a path rule covers, as an agent would be asked about
/// them: `~` is `home`, a relative rule is under `cwd`; a glob gives one
/// sample it matches (`*` and `**` a probe name, `?` and a bracket one
/// character) and, for `**/`, one at the top too; a plain path gives
/// itself and a name below it (a directory rule covers what is inside).
pub fn sample_paths(rule: &str, home: &Path, cwd: &Path) -> Vec<PathBuf> {
    let glob = rule.contains(['*', '?', '[']);
    let mut patterns = Vec::new();
    if glob {
        patterns.push(glob_sample(rule));
        if rule.contains("**/") {
            patterns.push(glob_sample(&rule.replacen("**/", "", 1)));
        }
    } else {
        patterns.push(rule.to_string());
        patterns.push(format!("{}/{PROBE_ARG}", rule.trim_end_matches('/')));
    }
    patterns
        .iter()
        .map(|p| {
            if p == "~" {
                home.to_path_buf()
            } else if let Some(rest) = p.strip_prefix("~/") {
                home.join(rest)
            } else if p.starts_with('/') {
                PathBuf::from(p)
            } else {
                let mut rest = p.as_str();
                while let Some(r) = rest.strip_prefix("./") {
                    rest = r;
                }
                cwd.join(rest)
            }
        })
        .collect()
}

fn glob_sample(pattern: &str) -> String {
    let mut out = String::new();
    let mut chars = pattern
        .replace("**/", "twsrt-sub/")
        .replace("**", "twsrt-sub/twsrt-probe")
        .chars()
        .collect::<Vec<_>>()
        .into_iter()
        .peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' => out.push_str("twsrt-probe"),
            '?' => out.push('x'),
            '[' => {
                let mut inside = String::new();
                for d in chars.by_ref() {
                    if d == ']' {
                        break;
                    }
                    inside.push(d);
                }
                match inside.strip_prefix(['!', '^']) {
                    Some(not) => out.push(
                        ['x', 'y', 'z', '0']
                            .into_iter()
                            .find(|c| !not.contains(*c))
                            .unwrap_or('_'),
                    ),
                    None => out.push(inside.chars().next().unwrap_or('x')),
                }
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_is_the_rule_with_an_argument_for_its_first_command() {
        assert_eq!(probe_command("sudo"), "sudo twsrt-probe");
        assert_eq!(probe_command(" rm -rf / "), "rm -rf / twsrt-probe");
        assert_eq!(probe_command("curl | sh"), "curl twsrt-probe | sh");
        assert_eq!(probe_command("a && b; c"), "a twsrt-probe && b; c");
        assert_eq!(probe_command("x $(y)"), "x twsrt-probe $(y)");
    }

    #[test]
    fn a_rule_gives_the_paths_an_agent_is_asked_about() {
        let (home, cwd) = (Path::new("/h"), Path::new("/p"));
        let got = |rule| sample_paths(rule, home, cwd);
        assert_eq!(
            got("~/.ssh"),
            [home.join(".ssh"), home.join(".ssh/twsrt-probe")]
        );
        assert_eq!(
            got("**/.env"),
            [cwd.join("twsrt-sub/.env"), cwd.join(".env")]
        );
        assert_eq!(got("/etc/*.pem")[0], PathBuf::from("/etc/twsrt-probe.pem"));
        assert_eq!(got("./a/[!x]c?")[0], cwd.join("a/ycx"));
        assert_eq!(got("a[bc]")[0], cwd.join("ab"));
    }
}
