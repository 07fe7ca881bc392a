//! Rules a profile holds more than once: the same entry in several of its
//! fragments (duplicate-rule, reported at the last one), and an entry
//! another entry of the same list already covers (subsumed-rule, reported
//! where the covered entry is, naming the coverer's fragment when it is
//! another one). Both are silenced when the reported entry carries a
//! `// doctor-ignore` in any fragment that holds it. The apex checks read
//! a profile's combined lists the same way: `*.x` without `x` anywhere in
//! the profile, reported where the wildcard first appears.

use std::collections::HashMap;

use super::context::{Ctx, Frag};
use super::coverage::{self, first_coverers};
use super::finding::{Finding, Severity, count, entries, quoted};
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

/// `/filesystem/denyRead` as the messages name it: `filesystem.denyRead`.
pub fn dotted(pointer: &str) -> String {
    pointer.trim_start_matches('/').replace('/', ".")
}

pub fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    let home = ctx.home.to_string_lossy().into_owned();
    for name in ctx.profile_names() {
        for source in &ctx.config.sources {
            let frags: Vec<&Frag> = ctx
                .resolved(name, source.kind)
                .into_iter()
                .filter(|f| f.located.is_some())
                .collect();
            for pointer in lists(source.kind) {
                let list = Combined::new(&frags, pointer);
                duplicates(&list, &frags, pointer, out);
                subsumed(&list, &frags, pointer, &home, out);
            }
            if source.kind == SourceKind::Srt {
                apex(&frags, out);
            }
        }
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

fn duplicates(list: &Combined, frags: &[&Frag], pointer: &str, out: &mut Vec<Finding>) {
    for (i, frag) in frags.iter().enumerate() {
        // (the other fragments, the values), in the order the values appear here
        let mut groups: Vec<(&[usize], Vec<String>)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for v in frag.list(pointer) {
            let holders = list.holders(v);
            let Some((&last, others)) = holders.split_last() else {
                continue;
            };
            if last != i || others.is_empty() || list.silenced(frags, v) || !seen.insert(v) {
                continue;
            }
            match groups.iter_mut().find(|(o, _)| *o == others) {
                Some((_, items)) => items.push(quoted(v)),
                None => groups.push((others, vec![quoted(v)])),
            }
        }
        for (others, items) in groups {
            let names: Vec<&str> = others.iter().map(|&o| frags[o].shown.as_str()).collect();
            let message = format!(
                "{}: {} also in {}",
                dotted(pointer),
                entries(items.len()),
                names.join(", ")
            );
            out.push(
                Finding::new(Severity::Warning, "duplicate-rule", &frag.shown, message)
                    .with_items(items),
            );
        }
    }
}

fn subsumed(list: &Combined, frags: &[&Frag], pointer: &str, home: &str, out: &mut Vec<Finding>) {
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
    for (frag, items) in frags.iter().zip(items) {
        if items.is_empty() {
            continue;
        }
        let message = format!(
            "{}: {} already covered",
            dotted(pointer),
            entries(items.len())
        );
        out.push(
            Finding::new(Severity::Warning, "subsumed-rule", &frag.shown, message)
                .with_items(items),
        );
    }
}

/// `*.x` without a bare `x` in the profile's list: the wildcard does not
/// match the apex domain (info for an allow list, a warning for a deny list).
fn apex(frags: &[&Frag], out: &mut Vec<Finding>) {
    let lists = [
        (
            "/network/allowedDomains",
            Severity::Info,
            "wildcard-apex",
            "not matching the bare apex domain (add it where needed)",
        ),
        (
            "/network/deniedDomains",
            Severity::Warning,
            "wildcard-deny-apex",
            "leaving the bare apex domain not denied; list it too",
        ),
    ];
    for (pointer, severity, code, says) in lists {
        let list = Combined::new(frags, pointer);
        let mut items: Vec<Vec<String>> = vec![Vec::new(); frags.len()];
        for value in &list.values {
            let Some(apex) = value.strip_prefix("*.") else {
                continue;
            };
            if list.holders.contains_key(apex) || list.silenced(frags, value) {
                continue;
            }
            items[list.holders(value)[0]].push(format!("{} ({apex})", quoted(value)));
        }
        for (frag, items) in frags.iter().zip(items) {
            if items.is_empty() {
                continue;
            }
            let message = format!(
                "{}: {} {says}",
                dotted(pointer),
                count(items.len(), "wildcard", "wildcards")
            );
            out.push(Finding::new(severity, code, &frag.shown, message).with_items(items));
        }
    }
}
