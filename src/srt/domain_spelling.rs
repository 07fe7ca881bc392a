//! Which spellings a domain entry may take: a bare host (`github.com`, an
//! IP literal, `[::1]`), `*.host` for its subdomains, `*` (deniedDomains
//! only), each with an optional `:port`. srt's proxy compares the host of a
//! connection with the entry as written, so an entry with a scheme, a path,
//! whitespace, an invisible character, a trailing dot or an empty label
//! covers no connection (or makes srt refuse the whole settings file), and
//! is refused with the entry to write instead (`https://evil.example.com/x`
//! -> `evil.example.com`).
//!
//! An internationalized name (`bücher.example.com`) is accepted and
//! compiled to its IDNA A-label (`xn--bcher-kva.example.com`, UTS 46
//! processing, nontransitional): srt's proxy takes only ASCII hosts and a
//! client resolves the Unicode name to the A-label, so the A-label is the
//! one spelling every consumer that compares ASCII matches.

use std::borrow::Cow;

use serde_json::Value;

use super::spelling::{Problem, invisible};

/// The entry as every consumer compares it (`entry` itself unless it holds
/// an internationalized name), or what is wrong with it and the fix.
pub fn canonical(entry: &str, denied: bool) -> Result<Cow<'_, str>, Problem> {
    let fix = suggestion(entry);
    let problem = |what: &str| {
        Err(Problem {
            what: what.to_string(),
            fix: fix.clone(),
        })
    };
    if entry.chars().any(|c| c.is_whitespace() || invisible(c)) {
        return problem("a domain has no whitespace or invisible character, srt keeps it");
    }
    if entry.contains("://") {
        return problem("a domain entry is a host, not a URL: srt compares hosts");
    }
    if entry.contains(['/', '?', '#']) {
        return problem("a domain entry is a host without a path: srt compares hosts");
    }
    let (host, port) = host_and_port(entry);
    if host.starts_with('[') || (denied && host == "*") {
        return Ok(Cow::Borrowed(entry));
    }
    if host.ends_with('.') {
        return problem("a trailing dot makes srt refuse the settings file");
    }
    if host.split('.').any(str::is_empty) {
        return problem("a domain has no empty label (`..` or a leading dot)");
    }
    if host.is_ascii() {
        return Ok(Cow::Borrowed(entry));
    }
    let (wildcard, name) = match host.strip_prefix("*.") {
        Some(name) => ("*.", name),
        None => ("", host),
    };
    match idna::domain_to_ascii_cow(name.as_bytes(), idna::AsciiDenyList::URL) {
        Ok(ascii) if !ascii.is_empty() => Ok(Cow::Owned(format!("{wildcard}{ascii}{port}"))),
        _ => problem("it is not a valid internationalized domain name (IDNA)"),
    }
}

/// The host and the `:port` suffix (with its colon, or empty) of an
/// entry. An unbracketed entry with two or more colons is all host.
fn host_and_port(entry: &str) -> (&str, &str) {
    if let Some(close) = entry.strip_prefix('[').and_then(|e| e.find(']')) {
        return entry.split_at(close + 2);
    }
    match entry.rfind(':') {
        Some(at) if entry.find(':') == Some(at) => entry.split_at(at),
        _ => (entry, ""),
    }
}

/// The entry a user most likely meant: invisible characters dropped, the
/// host and port of a URL, no path, no trailing dot, no empty label.
fn suggestion(entry: &str) -> String {
    let text: String = entry
        .chars()
        .filter(|c| !c.is_whitespace() && !invisible(*c))
        .collect();
    let rest = text.split_once("://").map_or(text.as_str(), |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let authority = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let (host, port) = host_and_port(authority);
    if host.starts_with('[') {
        return authority.to_string();
    }
    let labels: Vec<&str> = host.split('.').filter(|l| !l.is_empty()).collect();
    format!("{}{port}", labels.join("."))
}

/// The composed srt document with every domain entry in its canonical
/// spelling ([`canonical`]; the fragments were checked, so each one has
/// one).
pub fn canonicalise(doc: &mut Value) {
    for (pointer, denied) in [
        ("/network/allowedDomains", false),
        ("/network/deniedDomains", true),
    ] {
        let Some(items) = doc.pointer_mut(pointer).and_then(Value::as_array_mut) else {
            continue;
        };
        let mut changed = false;
        for item in items.iter_mut() {
            if let Some(text) = item.as_str()
                && let Ok(Cow::Owned(ascii)) = canonical(text, denied)
            {
                *item = Value::String(ascii);
                changed = true;
            }
        }
        if !changed {
            continue;
        }
        let mut seen = std::collections::HashSet::new();
        items.retain(|item| seen.insert(item.as_str().map(str::to_string)));
    }
}

/// The host a user typed (`explain bücher.example`): its A-label, or
/// `None` when it is not a name IDNA takes.
pub fn ascii_host(host: &str) -> Option<String> {
    if host.is_ascii() {
        return Some(host.to_ascii_lowercase());
    }
    idna::domain_to_ascii_cow(host.as_bytes(), idna::AsciiDenyList::URL)
        .ok()
        .map(|ascii| ascii.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fix(entry: &str) -> Option<String> {
        canonical(entry, true).err().map(|p| p.fix)
    }

    #[test]
    fn canonical_entries_pass_as_written() {
        for ok in [
            "github.com",
            "*.npmjs.org",
            "api.github.com:443",
            "[::1]:8443",
            "10.0.0.1",
            "localhost",
            "*",
            "*:22",
        ] {
            assert_eq!(canonical(ok, true).ok(), Some(Cow::Borrowed(ok)), "{ok}");
        }
    }

    #[test]
    fn a_misspelt_entry_names_the_entry_to_write() {
        for (bad, want) in [
            ("https://evil.example.com/x", "evil.example.com"),
            ("https://github.com", "github.com"),
            ("http://u@host.example:8080/p?q", "host.example:8080"),
            ("github.com/org", "github.com"),
            (" evil.example.com", "evil.example.com"),
            ("evil.example.com ", "evil.example.com"),
            ("evil.example.com\u{200b}", "evil.example.com"),
            ("github.com.", "github.com"),
            ("github..com", "github.com"),
            (".github.com", "github.com"),
            ("*.example.com.", "*.example.com"),
        ] {
            assert_eq!(fix(bad).as_deref(), Some(want), "{bad:?}");
        }
    }

    #[test]
    fn an_internationalized_name_compiles_to_its_a_label() {
        let c = |e: &str| canonical(e, false).map(|c| c.into_owned()).ok();
        assert_eq!(
            c("bücher.example.com").as_deref(),
            Some("xn--bcher-kva.example.com")
        );
        assert_eq!(
            c("*.Bücher.example:8443").as_deref(),
            Some("*.xn--bcher-kva.example:8443")
        );
        assert!(canonical("a\u{fffd}b.example", false).is_err());
        let mut doc = serde_json::json!({"network": {
            "deniedDomains": ["bücher.example.com", "xn--bcher-kva.example.com", "x.io"]}});
        canonicalise(&mut doc);
        assert_eq!(
            doc["network"]["deniedDomains"],
            serde_json::json!(["xn--bcher-kva.example.com", "x.io"])
        );
    }
}
