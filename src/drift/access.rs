//! Derived rules for one access: how the srt settings and the bash rules
//! decide a read, a write, a connection or a command. Reads are
//! deny-then-allow (`denyRead`, then `allowRead` inside it), writes are
//! allow-only with denies inside (`allowWrite`, then `denyWrite`),
//! connections are allow-only with denies first, commands deny, then ask,
//! then allow. Which list denies and which allows is read from
//! [`super::list_meaning`], the table the diff directions use, so the two
//! can never disagree about a list.
//!
//! What srt does with one entry is [`crate::srt`]'s: which entries are
//! globs, how paths resolve and match, how a domain entry decides a
//! connection (ports, `*`, IP literals). The platform's matcher is part of
//! the model: on Linux srt drops glob patterns from its write lists and
//! expands read globs only when the command starts.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use super::{Meaning, list_meaning};
use crate::srt::domain::{self, Connection};
/// Kept under their old names for explain and the agents (they live in
/// [`crate::srt`]).
use crate::srt::glob::is_glob;
use crate::srt::path::{Places, path_matches};

/// What a layer does with one access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Deny,
    Ask,
    Allow,
    NotCovered,
    /// A rule of the policy covers the access but the layer cannot hold it
    /// (an agent without a pattern for it): the access is not stopped.
    NotEnforced,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Deny => "deny",
            Verdict::Ask => "ask",
            Verdict::Allow => "allow",
            Verdict::NotCovered => "not covered",
            Verdict::NotEnforced => "not enforced",
        }
    }
}

/// A verdict, the rule that decides it (`None` for a default) and the list
/// it is in (`filesystem.denyRead`), with what the layer cannot decide.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub verdict: Verdict,
    pub rule: Option<String>,
    pub list: Option<String>,
    pub note: Option<String>,
}

impl Decision {
    /// `verdict` by no rule: the layer's default (or a fact) decides.
    pub fn without_rule(verdict: Verdict, note: Option<&str>) -> Self {
        Decision {
            verdict,
            rule: None,
            list: None,
            note: note.map(str::to_string),
        }
    }

    fn by(verdict: Verdict, rule: &str, list: &str) -> Self {
        Decision {
            verdict,
            rule: Some(rule.to_string()),
            list: Some(list.to_string()),
            note: None,
        }
    }
}

/// Whether srt drops glob patterns from its write lists here.
pub const WRITE_GLOBS_DROPPED: bool = cfg!(target_os = "linux");

/// The lists of the srt `section` (`filesystem`, `network`) whose key ends
/// in `suffix`, split by what they mean: (restricting, granting).
fn lists<'a>(srt: &'a Value, section: &str, suffix: &str) -> [Vec<(String, &'a str)>; 2] {
    let mut out = [Vec::new(), Vec::new()];
    let Some(object) = srt.get(section).and_then(Value::as_object) else {
        return out;
    };
    for (key, value) in object.iter().filter(|(k, _)| k.ends_with(suffix)) {
        let slot = match list_meaning(key) {
            Some(Meaning::Restricts) => 0,
            Some(Meaning::Grants) => 1,
            None => continue,
        };
        let list = format!("{section}.{key}");
        for item in value
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            out[slot].push((list.clone(), item));
        }
    }
    out
}

/// The most specific rule of `rules` covering `path` (the longest pattern).
fn covering<'a>(
    rules: &'a [(String, &'a str)],
    path: &Path,
    places: &Places,
) -> Option<&'a (String, &'a str)> {
    rules
        .iter()
        .filter(|(_, p)| path_matches(p, path, places))
        .max_by_key(|(_, p)| p.len())
}

/// srt reading `path`: deny-then-allow. A declared credential file is a
/// read deny too (srt unions a `deny` one into its read-deny set; a
/// `mask` one reads as a stand-in: [`crate::srt::credentials`]).
pub fn srt_read(srt: &Value, path: &Path, places: &Places) -> Decision {
    let [mut deny, allow] = lists(srt, "filesystem", "Read");
    deny.extend(crate::srt::credentials::files(srt).map(|file| {
        (
            format!("credentials.files ({})", file.mode.name()),
            file.name,
        )
    }));
    let Some((list, rule)) = covering(&deny, path, places) else {
        return Decision::without_rule(Verdict::Allow, Some("no read rule: reads are allowed"));
    };
    if let Some((alist, arule)) =
        covering(&allow, path, places).filter(|(_, a)| a.len() > rule.len())
    {
        return Decision::by(Verdict::Allow, arule, alist);
    }
    let mut decision = Decision::by(Verdict::Deny, rule, list);
    if list.ends_with("(mask)") {
        decision.note = Some("the sandbox reads a stand-in, not the file".into());
    } else if is_glob(rule) && WRITE_GLOBS_DROPPED {
        decision.note = Some("srt expands this glob when the command starts".into());
    }
    decision
}

/// srt writing `path`: allow-only, with the denies inside the allows.
pub fn srt_write(srt: &Value, path: &Path, places: &Places) -> Decision {
    let [deny, allow] = lists(srt, "filesystem", "Write");
    let enforced: Vec<_> = deny
        .iter()
        .filter(|(_, p)| !(WRITE_GLOBS_DROPPED && is_glob(p)))
        .cloned()
        .collect();
    if let Some((list, rule)) = covering(&enforced, path, places) {
        return Decision::by(Verdict::Deny, rule, list);
    }
    let Some((alist, arule)) = covering(&allow, path, places) else {
        return Decision::without_rule(
            Verdict::Deny,
            Some("not under allowWrite: writes are denied"),
        );
    };
    let mut decision = Decision::by(Verdict::Allow, arule, alist);
    if let Some((_, glob)) = covering(&deny, path, places) {
        decision.note = Some(format!(
            "denyWrite {glob} matches, but srt does not enforce this here (glob in a write list)"
        ));
    }
    decision
}

/// The port a domain query without one stands for: the agents' fetches
/// and `twsrt test`'s network probes are https.
pub const HTTPS_PORT: u16 = 443;

/// srt connecting to `domain` (a host, `host:port`, or `*.x` for the
/// subdomains of x): denied domains first, then allow-only, as srt's proxy
/// decides ([`domain::decide`]). Without a port the decision is the one for
/// https (port 443), and where entries naming a port decide another port
/// differently the note lists those ports' answers.
pub fn srt_network(srt: &Value, domain: &str) -> Decision {
    let mut decision = network_by_port(srt, domain);
    if crate::srt::credentials::strict_allowlist(srt)
        && let Some(note) = &mut decision.note
    {
        *note = note.replacen(NOT_ALLOWED, STRICT_NOT_ALLOWED, 1);
    }
    decision
}

const NOT_ALLOWED: &str = "not in allowedDomains: connections are denied";
const STRICT_NOT_ALLOWED: &str =
    "not in allowedDomains: connections are denied without asking (strictAllowlist)";

/// [`srt_network`] without the strict allowlist's note.
fn network_by_port(srt: &Value, domain: &str) -> Decision {
    let [deny, allow] = lists(srt, "network", "Domains");
    let (host, port) = domain::split_port(domain);
    if let Some(port) = port {
        return connection(&deny, &allow, host, port);
    }
    let mut https = connection(&deny, &allow, domain, HTTPS_PORT);
    let canonical = query_host(domain);
    let named: BTreeSet<u16> = deny
        .iter()
        .chain(&allow)
        .filter_map(|(_, entry)| {
            let (pattern, port) = domain::entry_host(entry);
            port.filter(|_| domain::host_matches(&canonical, &pattern))
        })
        .collect();
    let describe = |d: &Decision| match &d.rule {
        Some(rule) => format!("{} ({rule})", d.verdict.name()),
        None => format!("{} (no rule)", d.verdict.name()),
    };
    let mut others: Vec<String> = named
        .into_iter()
        .filter(|p| *p != HTTPS_PORT)
        .map(|port| (port, connection(&deny, &allow, domain, port)))
        .filter(|(_, d)| d.verdict != https.verdict)
        .map(|(port, d)| format!("port {port} {}", describe(&d)))
        .collect();
    // No entry names port 0: it stands for every port none names.
    let unnamed = connection(&deny, &allow, domain, 0);
    if unnamed.verdict != https.verdict {
        others.push(format!("any other port {}", describe(&unnamed)));
    }
    if !others.is_empty() {
        let ports = format!("for https (port {HTTPS_PORT}); {}", others.join("; "));
        https.note = Some(match https.note.take() {
            Some(why) => format!("{why}; {ports}"),
            None => ports,
        });
    }
    https
}

/// srt's answer for `domain` (a host or a `*.x` query) on `port`.
fn connection(
    deny: &[(String, &str)],
    allow: &[(String, &str)],
    domain: &str,
    port: u16,
) -> Decision {
    let denied: Vec<&str> = deny.iter().map(|(_, e)| *e).collect();
    let allowed: Vec<&str> = allow.iter().map(|(_, e)| *e).collect();
    // A `*.x` query stands for the subdomains of x: srt's host check and
    // canonical form apply to x.
    let decided = match domain.strip_prefix("*.") {
        Some(base) if domain::is_valid_host(base) => {
            let query = format!("*.{}", domain::canonical_host(base).unwrap_or(base.into()));
            let covers = |e: &&str| {
                domain_matches(e, &query) && domain::entry_host(e).1.is_none_or(|p| p == port)
            };
            match (
                denied.iter().position(covers),
                allowed.iter().position(covers),
            ) {
                (Some(i), _) => Connection::Denied(i),
                (None, Some(i)) => Connection::Allowed(i),
                (None, None) => Connection::NotAllowed,
            }
        }
        _ => domain::decide(&denied, &allowed, domain, port),
    };
    match decided {
        Connection::Denied(i) => Decision::by(Verdict::Deny, deny[i].1, &deny[i].0),
        Connection::Allowed(i) => Decision::by(Verdict::Allow, allow[i].1, &allow[i].0),
        Connection::NotAllowed => Decision::without_rule(Verdict::Deny, Some(NOT_ALLOWED)),
        Connection::Malformed => Decision::without_rule(
            Verdict::Deny,
            Some("srt refuses a host that is not a DNS name or an IP address"),
        ),
    }
}

/// The host of a query as srt compares it; a `*.x` query keeps its `*.`.
fn query_host(domain: &str) -> String {
    let (host, _) = domain::split_port(domain);
    match host.strip_prefix("*.") {
        Some(base) => format!("*.{}", domain::canonical_host(base).unwrap_or(base.into())),
        None => domain::canonical_host(host).unwrap_or(host.into()),
    }
}

/// The bash rules deciding `command`: deny, then ask, then allow; within
/// one the longest rule.
pub fn bash_command(bash: &Value, command: &str) -> Decision {
    for (key, verdict) in [
        ("deny", Verdict::Deny),
        ("ask", Verdict::Ask),
        ("allow", Verdict::Allow),
    ] {
        let rules = bash
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten();
        if let Some(rule) = rules
            .filter_map(Value::as_str)
            .filter(|r| command_matches(r, command))
            .max_by_key(|r| r.len())
        {
            return Decision::by(verdict, rule, key);
        }
    }
    Decision::without_rule(Verdict::NotCovered, None)
}

/// A rule covers a command when the command's words start with the rule's.
pub fn command_matches(rule: &str, command: &str) -> bool {
    let words = |s: &str| -> Vec<String> {
        crate::shellwords::split(s)
            .unwrap_or_else(|_| s.split_whitespace().map(str::to_string).collect())
    };
    let (rule, command) = (words(rule), words(command));
    !rule.is_empty() && command.starts_with(&rule)
}

/// Whether the srt domain entry `pattern` applies to `domain` (a host,
/// `host:port`, or `*.x` for the subdomains of x; without a port, https on
/// port 443): its host part matches as srt matches it (`*.x.org` every
/// strict subdomain of x.org, `*` everything, an IP literal in canonical
/// form and never under a `*.` pattern, other names exactly and
/// case-insensitively; a wildcard query is covered by the same wildcard)
/// and an entry naming a port names the query's.
pub fn domain_matches(pattern: &str, domain: &str) -> bool {
    let port = domain::split_port(domain).1.unwrap_or(HTTPS_PORT);
    let (pattern_host, pattern_port) = domain::entry_host(pattern);
    pattern_port.is_none_or(|p| p == port)
        && domain::host_matches(&query_host(domain), &pattern_host)
}

/// The note [`srt_matched`] adds to an agent's domain row.
pub const SRT_MATCHING: &str =
    "matched as srt matches domains (ports, `*`): this agent's own matching is not measured";

/// `decision`, an agent's row on `domain` decided by [`domain_matches`]
/// over the agent's own domain `patterns`, with the note [`SRT_MATCHING`]
/// where a port or a wildcard takes part: the query names a port or is a
/// wildcard, or a pattern whose host covers the query's names a port or
/// is `*` or `*.x`. doc/clients.md records how srt matches those ("Sandbox
/// Runtime: what its proxy answers, measured"), not how Codex's
/// `network.domains` or Copilot's URL patterns do, so such a row says whose
/// matching it follows. (Claude Code's `WebFetch(domain:...)` rules need no
/// note: its sandbox adds them to srt's own domain lists, doc/clients.md
/// "Which permission rules Claude Code's sandbox also applies, read".)
pub fn srt_matched<'a>(
    mut decision: Decision,
    patterns: impl IntoIterator<Item = &'a str>,
    domain: &str,
) -> Decision {
    let host = query_host(domain);
    let wildcard = |h: &str| h == "*" || h.starts_with("*.");
    let involved = domain::split_port(domain).1.is_some()
        || wildcard(&host)
        || patterns.into_iter().any(|p| {
            let (pattern_host, port) = domain::entry_host(p);
            domain::host_matches(&host, &pattern_host)
                && (port.is_some() || wildcard(&pattern_host))
        });
    if involved {
        decision.note = Some(match decision.note.take() {
            Some(note) => format!("{note}; {SRT_MATCHING}"),
            None => SRT_MATCHING.to_string(),
        });
    }
    decision
}

impl Decision {
    /// `verdict` by `rule` of `list`, with a note.
    pub fn rule(verdict: Verdict, (list, rule): (String, String), note: Option<&str>) -> Self {
        Decision {
            verdict,
            rule: Some(rule),
            list: Some(list),
            note: note.map(str::to_string),
        }
    }
}

#[cfg(test)]
mod tests;
