//! What `twsrt explain` is asked: a path (read and write), a domain, or a
//! shell command; anything else is refused with exit 2.

use std::path::PathBuf;

use super::Subject;
use crate::error::{Error, Result};
use crate::srt::path::{Places, absolute};

/// The query as typed and what it reads as.
pub struct Query {
    shown: String,
    asked: Asked,
}

enum Asked {
    Path(PathBuf),
    Domain(String),
    Command(String),
}

impl Query {
    /// Classify `query` (a URL, `scheme://host[:port]/...`, asks about its
    /// host; a path when it has a `/` or starts with `~` or `.`, a domain
    /// when it has a dot) or `command` (which wins); an
    /// error (exit 2) when it is none of the three. A path is made
    /// absolute against `places`.
    pub fn classify(query: Option<&str>, command: Option<&str>, places: &Places) -> Result<Query> {
        let not_a_query = Error::Usage;
        if let Some(command) = command {
            if command.trim().is_empty() {
                return Err(not_a_query("--command needs a command to explain".into()));
            }
            return Ok(Query::new(command, Asked::Command(command.to_string())));
        }
        let text = query.unwrap_or_default();
        if let Some(url) = url_host(text) {
            let host = url.map_err(not_a_query)?;
            return Ok(Query::new(text, Asked::Domain(host)));
        }
        if text.starts_with(['/', '~', '.']) || text.contains('/') {
            return Ok(Query::new(text, Asked::Path(absolute(text, places))));
        }
        if let Some(host) = ascii_host(text).filter(|h| is_domain(h)) {
            return Ok(Query::new(text, Asked::Domain(host)));
        }
        Err(not_a_query(format!(
            "{} is not a path, a domain or a command: a path has a `/` (./{text} for a file \
             here), a domain a dot; use --command \"CMD\" for a command",
            crate::source::quoted(text)
        )))
    }

    fn new(shown: &str, asked: Asked) -> Query {
        Query {
            shown: shown.to_string(),
            asked,
        }
    }

    /// The query as the user typed it (the report's title).
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// The accesses the query asks about: a path is read and written.
    pub fn subjects(&self) -> Vec<Subject<'_>> {
        match &self.asked {
            Asked::Path(p) => vec![Subject::Read(p), Subject::Write(p)],
            Asked::Domain(d) => vec![Subject::Domain(d)],
            Asked::Command(c) => vec![Subject::Command(c)],
        }
    }
}

/// The host a URL connects to, lowercased: `None` when `text` is no URL
/// (no `scheme://`), an error when its host is no domain. A user part and
/// a port are dropped: the layers decide by host.
fn url_host(text: &str) -> Option<std::result::Result<String, String>> {
    let (scheme, rest) = text.split_once("://")?;
    let scheme_ok = !scheme.is_empty()
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !scheme_ok {
        return None;
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = match host_port.rsplit_once(':') {
        Some((host, port)) if port.chars().all(|c| c.is_ascii_digit()) => host,
        _ => host_port,
    };
    let host = host.trim_end_matches('.');
    let host =
        ascii_host(host).map_or_else(|| host.to_ascii_lowercase(), |h| h.to_ascii_lowercase());
    Some(if is_domain(&host) {
        Ok(host)
    } else {
        Err(format!(
            "{} is a URL whose host {} is not a domain twsrt can explain",
            crate::source::quoted(text),
            crate::source::quoted(&host)
        ))
    })
}

/// The host as the policy compiles it: an internationalized name as its
/// A-label ([`crate::srt::domain_spelling::ascii_host`]); an ASCII one as
/// typed.
fn ascii_host(text: &str) -> Option<String> {
    if text.is_ascii() {
        return Some(text.to_string());
    }
    crate::srt::domain_spelling::ascii_host(text)
}

/// `name.tld`, optionally `*.`-prefixed: labels of letters, digits and `-`.
fn is_domain(text: &str) -> bool {
    let rest = text.strip_prefix("*.").unwrap_or(text);
    let labels: Vec<&str> = rest.split('.').collect();
    labels.len() >= 2
        && labels
            .iter()
            .all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
}

#[cfg(test)]
mod url_tests {
    use super::url_host;

    #[test]
    fn a_url_asks_about_its_host() {
        let host = |t: &str| url_host(t).map(|r| r.ok());
        assert_eq!(
            host("https://github.com/x"),
            Some(Some("github.com".into()))
        );
        assert_eq!(
            host("HTTP://Me@API.GitHub.com:8443/a?b#c"),
            Some(Some("api.github.com".into()))
        );
        assert_eq!(
            host("git+ssh://git.example.org/r"),
            Some(Some("git.example.org".into()))
        );
        assert_eq!(host("https://[::1]:8080/"), Some(None));
        assert_eq!(
            host("https://bücher.example/x"),
            Some(Some("xn--bcher-kva.example".into()))
        );
        assert_eq!(host("~/x://y"), None);
        assert_eq!(host("./a/b"), None);
    }
}
