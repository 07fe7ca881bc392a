//! Domain entries as srt reads them (srt 0.0.78 to 0.0.83; doc/clients.md,
//! "Sandbox Runtime: what its proxy answers, measured"): an optional
//! `:port` (1-65535, no leading zero; an IPv6 literal in brackets,
//! `[::1]:443`), `*.example.com` for strict subdomains, `*` (deniedDomains
//! only) for everything, anything else exactly, case-insensitively.
//!
//! A connection is decided as srt's proxy decides it ([`decide`]): a host
//! that is not a plain DNS name or IP literal is refused, the host is put in
//! its canonical form (lower case, no trailing dot, IPv4 shorthand such as
//! `127.1` or `2130706433` spelled `127.0.0.1`, IPv6 compressed, an
//! IPv4-mapped IPv6 address spelled as the IPv4 one), then the first
//! deniedDomains entry that matches refuses it, else the first
//! allowedDomains entry that matches lets it through, else it is refused.
//! A `*.` pattern never matches an IP literal. An entry's host is put in
//! canonical form only when it is an IPv6 literal (bracketed, or with two
//! or more colons); `127.1` as an entry matches nothing, as in srt.
//! Internationalized names are outside this model (srt refuses a host that
//! is not ASCII letters, digits, `.`, `_` and `-`), and so is the check of
//! `xn--` labels srt's URL parser makes.

use std::net::{Ipv4Addr, Ipv6Addr};

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

/// Whether the entry `pattern` covers a connection to `host` on `port`
/// (srt's `matchesDomainPatternWithPort`, on the canonical host).
pub fn matches(host: &str, port: u16, pattern: &str) -> bool {
    let (host_pattern, pattern_port) = entry_host(pattern);
    pattern_port.is_none_or(|p| p == port) && host_matches(&canonical_or_raw(host), &host_pattern)
}

/// The entry's host pattern and port as srt compares them: an IPv6
/// literal (bracketed, or unbracketed with two or more colons, which is
/// never split) without its zone and in canonical form.
pub fn entry_host(entry: &str) -> (String, Option<u16>) {
    let (host, port) = split_port(entry);
    let ipv6 = if entry.starts_with('[') {
        host != entry
    } else {
        entry.matches(':').count() >= 2
    };
    if !ipv6 {
        return (host.to_string(), port);
    }
    let bare = host.split('%').next().unwrap_or(host);
    (
        canonical_host(bare).unwrap_or_else(|| bare.to_string()),
        port,
    )
}

/// srt's `matchesDomainPattern`: `host` (canonical) against a host pattern
/// without a port.
pub fn host_matches(host: &str, host_pattern: &str) -> bool {
    let h = host.to_ascii_lowercase();
    if host_pattern == "*" {
        return true;
    }
    if let Some(base) = host_pattern.strip_prefix("*.") {
        if is_ip(&h) {
            return false;
        }
        return h.ends_with(&format!(".{}", base.to_ascii_lowercase()));
    }
    h == host_pattern.to_ascii_lowercase()
}

/// Whether srt's proxy takes `host` at all (`isValidHost`): at most 255
/// characters, no zone id, an IP literal or ASCII letters, digits, `.`,
/// `_` and `-`.
pub fn is_valid_host(host: &str) -> bool {
    let bare = strip_brackets(host);
    if host.is_empty() || host.len() > 255 || bare.contains('%') {
        return false;
    }
    is_ip(bare) || bare.chars().all(is_name_char)
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')
}

/// The host as srt compares it (`canonicalizeHost`, the WHATWG URL host of
/// `http://HOST/`), or `None` where that parse fails (srt then compares the
/// host as given). Defined for the hosts [`is_valid_host`] takes; `None`
/// for any other.
pub fn canonical_host(host: &str) -> Option<String> {
    let bare = strip_brackets(host);
    if let Ok(v6) = bare.parse::<Ipv6Addr>() {
        return Some(match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => ipv6_text(&v6),
        });
    }
    if !bare.chars().all(is_name_char) {
        return None;
    }
    let lower = bare.to_ascii_lowercase();
    if ends_in_a_number(&lower) {
        return ipv4_shorthand(&lower).map(|v4| v4.to_string());
    }
    Some(lower.strip_suffix('.').unwrap_or(&lower).to_string())
}

fn canonical_or_raw(host: &str) -> String {
    canonical_host(host).unwrap_or_else(|| host.to_string())
}

fn strip_brackets(host: &str) -> &str {
    host.strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host)
}

/// Node's `isIP`: a dotted-quad IPv4 address or an IPv6 address.
fn is_ip(text: &str) -> bool {
    let bare = strip_brackets(text);
    bare.parse::<Ipv4Addr>().is_ok() || bare.parse::<Ipv6Addr>().is_ok()
}

/// The WHATWG URL spelling of an IPv6 address: lower-case hex groups, the
/// first longest run of two or more zero groups written `::`.
fn ipv6_text(addr: &Ipv6Addr) -> String {
    let groups = addr.segments();
    let mut best: Option<(usize, usize)> = None;
    let mut i = 0;
    while i < groups.len() {
        let len = groups[i..].iter().take_while(|g| **g == 0).count();
        if len >= 2 && best.is_none_or(|(_, l)| len > l) {
            best = Some((i, len));
        }
        i += len.max(1);
    }
    let hex = |gs: &[u16]| {
        gs.iter()
            .map(|g| format!("{g:x}"))
            .collect::<Vec<_>>()
            .join(":")
    };
    match best {
        Some((start, len)) => format!("{}::{}", hex(&groups[..start]), hex(&groups[start + len..])),
        None => hex(&groups),
    }
}

/// The WHATWG "ends in a number" test: the last label (a trailing empty
/// one aside) is all digits or a `0x` number.
fn ends_in_a_number(host: &str) -> bool {
    let mut labels: Vec<&str> = host.split('.').collect();
    if labels.last() == Some(&"") && labels.len() > 1 {
        labels.pop();
    }
    let last = labels.last().copied().unwrap_or("");
    !last.is_empty() && (last.chars().all(|c| c.is_ascii_digit()) || ipv4_number(last).is_some())
}

/// The WHATWG IPv4 parser (inet_aton forms: one to four parts, each
/// decimal, `0x` hex or `0` octal, the last filling the remaining bytes).
fn ipv4_shorthand(host: &str) -> Option<Ipv4Addr> {
    let mut parts: Vec<&str> = host.split('.').collect();
    if parts.last() == Some(&"") && parts.len() > 1 {
        parts.pop();
    }
    if parts.len() > 4 {
        return None;
    }
    let numbers: Vec<u64> = parts
        .iter()
        .map(|p| ipv4_number(p))
        .collect::<Option<_>>()?;
    let (last, init) = numbers.split_last()?;
    if init.iter().any(|n| *n > 255) || *last >= 256u64.pow(5 - numbers.len() as u32) {
        return None;
    }
    let mut value = *last;
    for (i, n) in init.iter().enumerate() {
        value += n << (8 * (3 - i));
    }
    u32::try_from(value).ok().map(Ipv4Addr::from)
}

fn ipv4_number(part: &str) -> Option<u64> {
    let (digits, radix) = if let Some(hex) = part.strip_prefix("0x").or(part.strip_prefix("0X")) {
        (hex, 16)
    } else if part.len() > 1 && part.starts_with('0') {
        (&part[1..], 8)
    } else {
        (part, 10)
    };
    if digits.is_empty() {
        return (!part.is_empty()).then_some(0);
    }
    if !digits.chars().all(|c| c.is_digit(radix)) || digits.len() > 20 {
        return None;
    }
    u64::from_str_radix(digits, radix).ok()
}

/// How srt's proxy answers a connection to `host` on `port`: the index of
/// the deciding entry of the denied or the allowed list, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Connection {
    /// `host` is not a name srt's proxy takes: refused.
    Malformed,
    Denied(usize),
    Allowed(usize),
    /// No entry matches: refused.
    NotAllowed,
}

/// srt's `filterNetworkRequest` for a connection to `host` on `port`: the
/// first entry of `denied` that matches, else the first of `allowed`.
pub fn decide(denied: &[&str], allowed: &[&str], host: &str, port: u16) -> Connection {
    if !is_valid_host(host) {
        return Connection::Malformed;
    }
    let host = canonical_or_raw(host);
    let covers = |entry: &&str| {
        let (pattern, entry_port) = entry_host(entry);
        entry_port.is_none_or(|p| p == port) && host_matches(&host, &pattern)
    };
    if let Some(i) = denied.iter().position(covers) {
        return Connection::Denied(i);
    }
    match allowed.iter().position(covers) {
        Some(i) => Connection::Allowed(i),
        None => Connection::NotAllowed,
    }
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
    fn hosts_are_compared_in_canonical_form() {
        let c = |h: &str| canonical_host(h);
        assert_eq!(c("GitHub.com.").as_deref(), Some("github.com"));
        assert_eq!(c("127.1").as_deref(), Some("127.0.0.1"));
        assert_eq!(c("2130706433").as_deref(), Some("127.0.0.1"));
        assert_eq!(c("0x7f.0.0.1").as_deref(), Some("127.0.0.1"));
        assert_eq!(c("0177.0.0.1").as_deref(), Some("127.0.0.1"));
        assert_eq!(c("169.254.169.254.").as_deref(), Some("169.254.169.254"));
        assert_eq!(c("[0:0:0:0:0:0:0:1]").as_deref(), Some("::1"));
        assert_eq!(
            c("2001:DB8:0:0:1:0:0:1").as_deref(),
            Some("2001:db8::1:0:0:1")
        );
        assert_eq!(c("::ffff:10.0.0.1").as_deref(), Some("10.0.0.1"));
        assert_eq!(c("::1.2.3.4").as_deref(), Some("::102:304"));
        assert_eq!(c("1.2.3.256"), None);
        assert_eq!(c("08.1"), None);
        assert_eq!(c("4294967296"), None);
        assert_eq!(c("a:b"), None);
    }

    #[test]
    fn connections_are_decided_deny_first_by_port_and_canonical_host() {
        let denied = ["evil.com:443", "10.0.0.1", "[::1]:22", "*.internal.io"];
        let allowed = ["evil.com", "*.github.com", "[0:0:0:0:0:0:0:1]"];
        let d = |h: &str, p: u16| decide(&denied, &allowed, h, p);
        assert_eq!(d("evil.com", 443), Connection::Denied(0));
        assert_eq!(d("EVIL.com.", 80), Connection::Allowed(0));
        assert_eq!(d("10.0.0.1", 80), Connection::Denied(1));
        assert_eq!(d("::ffff:10.0.0.1", 80), Connection::Denied(1));
        assert_eq!(d("167772161", 80), Connection::Denied(1));
        assert_eq!(d("[::1]", 22), Connection::Denied(2));
        assert_eq!(d("::1", 80), Connection::Allowed(2));
        assert_eq!(d("x.internal.io", 80), Connection::Denied(3));
        assert_eq!(d("api.github.com", 1), Connection::Allowed(1));
        assert_eq!(d("github.com", 443), Connection::NotAllowed);
        assert_eq!(d("a b.com", 443), Connection::Malformed);
        assert_eq!(d("", 443), Connection::Malformed);
        // A wildcard never covers an IP literal.
        assert!(!matches("1.2.3.4", 443, "*.2.3.4"));
        assert!(matches("1.2.3.4", 443, "*"));
        // An IPv4 entry is compared as written: `127.1` matches nothing.
        assert!(!matches("127.1", 443, "127.1"));
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
