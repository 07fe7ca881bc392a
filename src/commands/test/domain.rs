//! Domain patterns as Sandbox Runtime reads them (srt 0.0.78-0.0.83,
//! `dist/sandbox/domain-pattern.js` and `sandbox-config.js`): an optional
//! `:port`, `*.example.com` for strict subdomains, `*` (deniedDomains only)
//! for everything, exact names otherwise.

use std::net::{IpAddr, Ipv6Addr};

/// A pattern split into host pattern and port. An unbracketed entry with two
/// or more colons is never split (srt rejects it).
pub fn split_port(entry: &str) -> (&str, Option<u16>) {
    if let Some(inner) = entry.strip_prefix('[') {
        let Some(close) = inner.find(']') else {
            return (entry, None);
        };
        let host = &inner[..close];
        let rest = &inner[close + 1..];
        if rest.is_empty() {
            return (host, None);
        }
        return match rest.strip_prefix(':').and_then(parse_port) {
            Some(port) => (host, Some(port)),
            None => (entry, None),
        };
    }
    let Some(idx) = entry.rfind(':') else {
        return (entry, None);
    };
    if entry.find(':') != Some(idx) {
        return (entry, None);
    }
    match parse_port(&entry[idx + 1..]) {
        Some(port) => (&entry[..idx], Some(port)),
        None => (entry, None),
    }
}

fn parse_port(text: &str) -> Option<u16> {
    let ok = !text.is_empty()
        && text.len() <= 5
        && !text.starts_with('0')
        && text.chars().all(|c| c.is_ascii_digit());
    if !ok {
        return None;
    }
    text.parse::<u32>()
        .ok()
        .filter(|p| (1..=65535).contains(p))
        .map(|p| p as u16)
}

/// Would srt accept this entry? `denied` also admits `*` and `*:port`.
pub fn srt_accepts(entry: &str, denied: bool) -> bool {
    let colons = entry.matches(':').count();
    if colons >= 2 && !entry.starts_with('[') {
        return false;
    }
    let (host, _) = split_port(entry);
    (denied && host == "*") || valid_host_pattern(host)
}

fn valid_host_pattern(v: &str) -> bool {
    if v.parse::<Ipv6Addr>().is_ok() {
        return true;
    }
    if v.contains("://") || v.contains('/') || v.contains(':') {
        return false;
    }
    if v == "localhost" {
        return true;
    }
    if let Some(domain) = v.strip_prefix("*.") {
        return domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
            && domain.split('.').all(|p| !p.is_empty());
    }
    if v.contains('*') {
        return false;
    }
    v.contains('.') && !v.starts_with('.') && !v.ends_with('.')
}

/// srt's `matchesDomainPatternWithPort`.
pub fn matches(host: &str, port: u16, pattern: &str) -> bool {
    let (host_pattern, pattern_port) = split_port(pattern);
    if pattern_port.is_some_and(|p| p != port) {
        return false;
    }
    let h = host.to_ascii_lowercase();
    if host_pattern == "*" {
        return true;
    }
    if let Some(base) = host_pattern.strip_prefix("*.") {
        if h.parse::<IpAddr>().is_ok() {
            return false;
        }
        return h.ends_with(&format!(".{}", base.to_ascii_lowercase()));
    }
    h == host_pattern.to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_split_like_srt() {
        assert_eq!(
            split_port("api.github.com:443"),
            ("api.github.com", Some(443))
        );
        assert_eq!(split_port("github.com"), ("github.com", None));
        assert_eq!(split_port("[::1]:8443"), ("::1", Some(8443)));
        assert_eq!(split_port("[::1]"), ("::1", None));
        assert_eq!(split_port("x.com:0"), ("x.com:0", None));
        assert_eq!(split_port("x.com:99999"), ("x.com:99999", None));
        assert_eq!(split_port("::1"), ("::1", None));
    }

    #[test]
    fn srt_refuses_broad_or_url_patterns() {
        for ok in [
            "github.com",
            "*.npmjs.org",
            "localhost",
            "[::1]",
            "x.io:443",
        ] {
            assert!(srt_accepts(ok, false), "{ok}");
        }
        for bad in [
            "*",
            "*.com",
            "https://github.com",
            "github.com/x",
            "com",
            "::1",
            "",
        ] {
            assert!(!srt_accepts(bad, false), "{bad}");
        }
        assert!(srt_accepts("*", true));
        assert!(srt_accepts("*:22", true));
        assert!(!srt_accepts("*.com", true));
    }

    #[test]
    fn matching_follows_srt() {
        assert!(matches("a.example.com", 443, "*.example.com"));
        assert!(!matches("example.com", 443, "*.example.com"));
        assert!(matches("GitHub.com", 443, "github.com"));
        assert!(matches("anything", 1, "*"));
        assert!(!matches("x.io", 443, "x.io:8443"));
        assert!(matches("x.io", 8443, "x.io:8443"));
    }
}
