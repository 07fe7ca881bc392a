//! Rules a profile holds more than once: the same entry in several of its
//! fragments (duplicate-rule, reported at the last one), and an entry
//! another entry of the same list already covers (subsumed-rule, reported
//! where the covered entry is, naming the coverer's fragment when it is
//! another one). Both are silenced when the reported entry carries a
//! `// doctor-ignore` in any fragment that holds it. The apex checks read
//! a profile's combined lists the same way: `*.x` without `x` anywhere in
//! the profile, reported where the wildcard first appears.

use std::collections::HashMap;

use super::coverage::{self, first_coverers};
use super::input::{Frag, Input};
use super::words::{count, dotted, entries, quoted};
use crate::diag::{Code, Diagnostic, Severity};
use crate::source::SourceKind;

/// The lists checked, in report order.
pub const SRT_LISTS: [&str; 6] = [
    "/filesystem/allowWrite",
    "/filesystem/denyWrite",
    "/filesystem/denyRead",
    "/filesystem/allowRead",
    "/network/allowedDomains",
    "/network/deniedDomains",
];
const BASH_LISTS: [&str; 3] = ["/allow", "/ask", "/deny"];

pub fn lists(kind: SourceKind) -> &'static [&'static str] {
    match kind {
        SourceKind::Srt => &SRT_LISTS,
        SourceKind::Bash => &BASH_LISTS,
    }
}

pub fn check(input: &Input, out: &mut Vec<Diagnostic>) {
    let home = input.home.to_string_lossy().into_owned();
    // A profile that cannot be used on its own is not compared.
    let complete = |name: &str| {
        input
            .config
            .sources
            .iter()
            .all(|s| !input.resolved(name, s.kind).is_empty())
    };
    for name in input.profile_names().into_iter().filter(|n| complete(n)) {
        for source in &input.config.sources {
            let frags: Vec<&Frag> = input
                .resolved(name, source.kind)
                .into_iter()
                .filter(|f| f.located.is_some())
                .collect();
            let mut reports: Vec<Report> = Vec::new();
            for (index, pointer) in lists(source.kind).iter().enumerate() {
                let list = Combined::new(&frags, pointer);
                let family = coverage::family(pointer);
                reports.extend(duplicates(&list, &frags, pointer));
                reports.extend(subsumed(&list, &frags, pointer, &home));
                if family == coverage::Family::Domain {
                    reports.extend(apex(&list, &frags, pointer));
                }
                // The first fragment with entries in this list.
                let first = frags.iter().position(|f| !f.list(pointer).is_empty());
                for r in reports.iter_mut().filter(|r| r.list == usize::MAX) {
                    (r.first, r.list) = (first.unwrap_or(0), index);
                }
            }
            // The order 3.3.3 reports them in: fragment by fragment, each
            // list when the first fragment that has entries in it comes up;
            // within one list duplicates, then coverage, then the apex check.
            reports.sort_by_key(|r| (r.first, r.list));
            out.extend(reports.into_iter().flat_map(|r| r.parts));
        }
    }
}

/// What one check found in one list of a profile: a finding per fragment
/// it is reported at; `first` and `list` place it in the report (set by
/// `check` once the list is done).
struct Report {
    first: usize,
    list: usize,
    parts: Vec<Diagnostic>,
}

impl Report {
    fn new(parts: Vec<Diagnostic>) -> Option<Report> {
        (!parts.is_empty()).then_some(Report {
            first: 0,
            list: usize::MAX,
            parts,
        })
    }
}

/// One list of a profile across its fragments: each value once, in
/// profile order, with the fragments (indexes into the profile's) holding it.
struct Combined<'f> {
    values: Vec<&'f str>,
    holders: HashMap<&'f str, Vec<usize>>,
}

impl<'f> Combined<'f> {
    fn new(frags: &[&'f Frag], pointer: &str) -> Self {
        let mut values = Vec::new();
        let mut holders: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, f) in frags.iter().enumerate() {
            for v in f.list(pointer) {
                let h = holders.entry(v).or_default();
                if h.is_empty() {
                    values.push(v);
                }
                if h.last() != Some(&i) {
                    h.push(i);
                }
            }
        }
        Combined { values, holders }
    }

    fn holders(&self, value: &str) -> &[usize] {
        self.holders.get(value).map_or(&[], Vec::as_slice)
    }

    fn silenced(&self, frags: &[&Frag], value: &str) -> bool {
        self.holders(value).iter().any(|&i| frags[i].ignores(value))
    }
}

/// Grouped by (the fragment reported at, the other holders), groups and
/// items in the order of the profile's combined list.
fn duplicates(list: &Combined, frags: &[&Frag], pointer: &str) -> Option<Report> {
    let mut groups: Vec<(usize, &[usize], Vec<String>)> = Vec::new();
    for v in &list.values {
        let holders = list.holders(v);
        let Some((&last, others)) = holders.split_last() else {
            continue;
        };
        if others.is_empty() || list.silenced(frags, v) {
            continue;
        }
        match groups
            .iter_mut()
            .find(|(l, o, _)| *l == last && *o == others)
        {
            Some((_, _, items)) => items.push(quoted(v)),
            None => groups.push((last, others, vec![quoted(v)])),
        }
    }
    let parts = groups
        .into_iter()
        .map(|(last, others, items)| {
            let names: Vec<&str> = others.iter().map(|&o| frags[o].shown.as_str()).collect();
            let message = format!(
                "{}: {} also in {}",
                dotted(pointer),
                entries(items.len()),
                names.join(", ")
            );
            Diagnostic::new(
                Severity::Warning,
                Code::DuplicateRule,
                &frags[last].shown,
                message,
            )
            .with_notes(items)
        })
        .collect();
    Report::new(parts)
}

/// Reported where the covered entry first is, one finding per fragment in
/// profile order.
fn subsumed(list: &Combined, frags: &[&Frag], pointer: &str, home: &str) -> Option<Report> {
    let coverers = first_coverers(coverage::family(pointer), &list.values, home);
    let mut items: Vec<Vec<String>> = vec![Vec::new(); frags.len()];
    for (value, coverer) in list.values.iter().zip(coverers) {
        let Some(c) = coverer else { continue };
        if list.silenced(frags, value) {
            continue;
        }
        let at = list.holders(value)[0];
        let by = list.values[c];
        let from = list.holders(by)[0];
        let mut item = format!("{} by {}", quoted(value), quoted(by));
        if from != at {
            item.push_str(&format!(" ({})", frags[from].shown));
        }
        items[at].push(item);
    }
    let message = |n: usize| format!("{}: {} already covered", dotted(pointer), entries(n));
    let parts = per_fragment(frags, items, |frag, items| {
        Diagnostic::new(
            Severity::Warning,
            Code::SubsumedRule,
            &frag.shown,
            message(items.len()),
        )
        .with_notes(items)
    });
    Report::new(parts)
}

/// `*.x` without a bare `x` in the profile's list: the wildcard does not
/// match the apex domain (info for an allow list, a warning for a deny
/// list). Reported where the wildcard first is.
fn apex(list: &Combined, frags: &[&Frag], pointer: &str) -> Option<Report> {
    let (severity, code, says) = if pointer.ends_with("deniedDomains") {
        (
            Severity::Warning,
            Code::WildcardDenyApex,
            "leaving the bare apex domain not denied; list it too",
        )
    } else {
        (
            Severity::Info,
            Code::WildcardApex,
            "not matching the bare apex domain (add it where needed)",
        )
    };
    let mut items: Vec<Vec<String>> = vec![Vec::new(); frags.len()];
    for value in &list.values {
        // A port makes it another rule: `*.x:8080` is left alone.
        let Some(apex) = value.strip_prefix("*.").filter(|_| !value.contains(':')) else {
            continue;
        };
        if list.holders.contains_key(apex) || list.silenced(frags, value) {
            continue;
        }
        let at = list.holders(value)[0];
        items[at].push(format!("{} ({apex})", quoted(value)));
    }
    let parts = per_fragment(frags, items, |frag, items| {
        let message = format!(
            "{}: {} {says}",
            dotted(pointer),
            count(items.len(), "wildcard", "wildcards")
        );
        Diagnostic::new(severity, code, &frag.shown, message).with_notes(items)
    });
    Report::new(parts)
}

/// One finding per fragment that has items, in profile order.
fn per_fragment(
    frags: &[&Frag],
    items: Vec<Vec<String>>,
    finding: impl Fn(&Frag, Vec<String>) -> Diagnostic,
) -> Vec<Diagnostic> {
    frags
        .iter()
        .zip(items)
        .filter(|(_, items)| !items.is_empty())
        .map(|(frag, items)| finding(frag, items))
        .collect()
}
