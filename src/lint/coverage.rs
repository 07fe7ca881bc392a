//! When one rule already covers another, for the three kinds of values:
//!
//! * paths: `/**` and `./` stripped, `~` expanded; a glob covers nothing;
//!   `.` covers every relative path; otherwise a rule covers what lies
//!   below it, and of `x` and `x/**` (the same rule) the longer spelling is
//!   the covered one;
//! * domains: only wildcards are covered: `*` covers every `*.x`, `*.x`
//!   covers `*.a.x`; entries with a port are left alone;
//! * commands: `git` covers `git push` (a prefix followed by a space).
//!
//! Each entry looks its possible coverers up in a map (its ancestors, its
//! parent domains, its word prefixes), so a list is checked in about linear
//! time, not by comparing every pair.

/// A glob as srt reads one (one meaning, with explain, drift and `twsrt test`).
pub use crate::srt::glob::is_glob;
use std::collections::HashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Path,
    Domain,
    Command,
}

/// The family of the values in the list at `pointer`.
pub fn family(pointer: &str) -> Family {
    if pointer.starts_with("/network/") {
        Family::Domain
    } else if pointer.starts_with("/filesystem/") {
        Family::Path
    } else {
        Family::Command
    }
}

/// A path rule as the sandbox reads it, for comparing rules.
pub fn normalize(path: &str, home: &str) -> String {
    let mut p = path;
    while let Some(rest) = p.strip_suffix("/**") {
        p = rest;
    }
    while let Some(rest) = p.strip_prefix("./") {
        p = rest;
    }
    let mut out = if p == "~" {
        home.to_string()
    } else if let Some(rest) = p.strip_prefix("~/") {
        format!("{}/{rest}", home.trim_end_matches('/'))
    } else if p.is_empty() {
        ".".to_string()
    } else {
        p.to_string()
    };
    while out.len() > 1 && out.ends_with('/') {
        out.pop();
    }
    out
}

/// For each entry, the index of the first entry (in list order) that covers
/// it. `entries` hold distinct values.
pub fn first_coverers(family: Family, entries: &[&str], home: &str) -> Vec<Option<usize>> {
    match family {
        Family::Path => paths(entries, home),
        Family::Domain => domains(entries),
        Family::Command => commands(entries),
    }
}

fn paths(entries: &[&str], home: &str) -> Vec<Option<usize>> {
    let norms: Vec<String> = entries.iter().map(|e| normalize(e, home)).collect();
    let mut by_norm: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, e) in entries.iter().enumerate() {
        if !is_glob(e) {
            by_norm.entry(norms[i].as_str()).or_default().push(i);
        }
    }
    let first = |key: &str| by_norm.get(key).and_then(|v| v.first().copied());
    (0..entries.len())
        .map(|i| {
            let norm = norms[i].as_str();
            let same = by_norm
                .get(norm)
                .into_iter()
                .flatten()
                .copied()
                .find(|&j| j != i && entries[j].len() < entries[i].len());
            let mut ancestors: Vec<Option<usize>> = norm
                .match_indices('/')
                .map(|(k, _)| first(if k == 0 { "/" } else { &norm[..k] }))
                .filter(|&j| j != Some(i))
                .collect();
            if !norm.starts_with('/') && norm != "." {
                ancestors.push(first("."));
            }
            ancestors.into_iter().flatten().chain(same).min()
        })
        .collect()
}

fn domains(entries: &[&str]) -> Vec<Option<usize>> {
    let wild = |e: &str| !e.contains(':') && (e == "*" || e.starts_with("*."));
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (i, e) in entries.iter().enumerate() {
        if wild(e) {
            index.entry(e).or_insert(i);
        }
    }
    entries
        .iter()
        .map(|e| {
            let rest = e.strip_prefix("*.").filter(|_| !e.contains(':'))?;
            let parents = rest
                .match_indices('.')
                .map(|(k, _)| format!("*.{}", &rest[k + 1..]));
            std::iter::once("*".to_string())
                .chain(parents)
                .filter_map(|p| index.get(p.as_str()).copied())
                .min()
        })
        .collect()
}

fn commands(entries: &[&str]) -> Vec<Option<usize>> {
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (i, e) in entries.iter().enumerate() {
        index.entry(e).or_insert(i);
    }
    entries
        .iter()
        .map(|e| {
            e.match_indices(' ')
                .filter(|(k, _)| *k > 0)
                .filter_map(|(k, _)| index.get(&e[..k]).copied())
                .min()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn covered(family: Family, entries: &[&str]) -> Vec<(String, String)> {
        let found = first_coverers(family, entries, "/home/u");
        entries
            .iter()
            .zip(found)
            .filter_map(|(e, c)| Some((e.to_string(), entries[c?].to_string())))
            .collect()
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn paths_are_covered_by_their_ancestors_and_the_shorter_spelling() {
        let entries = [
            "~/g*", "~/g1/x", "~/h/**", "~/h", "~/i", "~/i/**", "./j", "j/k", "~/l/", "~/l/m",
            "/o", "/o/p", "/op",
        ];
        assert_eq!(
            covered(Family::Path, &entries),
            pairs(&[
                ("~/h/**", "~/h"),
                ("~/i/**", "~/i"),
                ("j/k", "./j"),
                ("~/l/m", "~/l/"),
                ("/o/p", "/o"),
            ])
        );
    }

    #[test]
    fn the_first_coverer_in_list_order_is_named_and_dot_covers_relative_paths() {
        let entries = ["/", "~/.config/x", "~/.config", ".", "rel", "~/*"];
        assert_eq!(
            covered(Family::Path, &entries),
            pairs(&[
                ("~/.config/x", "/"),
                ("~/.config", "/"),
                ("rel", "."),
                ("~/*", "/")
            ])
        );
    }

    #[test]
    fn only_wildcard_domains_are_covered_and_ports_are_skipped() {
        let entries = [
            "*",
            "x.com",
            "*.y.com",
            "*.z.y.com",
            "a.y.com",
            "*.q.com:443",
            "*.com",
        ];
        assert_eq!(
            covered(Family::Domain, &entries),
            pairs(&[("*.y.com", "*"), ("*.z.y.com", "*"), ("*.com", "*")])
        );
        let entries = ["*.e.d.com", "*.d.com"];
        assert_eq!(
            covered(Family::Domain, &entries),
            pairs(&[("*.e.d.com", "*.d.com")])
        );
    }

    #[test]
    fn commands_are_covered_by_a_prefix_of_whole_words() {
        let entries = [
            "git",
            "git status",
            "gitk",
            "npm  i",
            "npm",
            "rm -rf /",
            "rm -rf",
        ];
        assert_eq!(
            covered(Family::Command, &entries),
            pairs(&[
                ("git status", "git"),
                ("npm  i", "npm"),
                ("rm -rf /", "rm -rf")
            ])
        );
    }

    #[test]
    fn the_lookup_agrees_with_comparing_every_pair() {
        // The simple quadratic definition as an oracle.
        let covers = |c: &str, e: &str| {
            let (nc, ne) = (normalize(c, "/h"), normalize(e, "/h"));
            !is_glob(c)
                && c != e
                && ((nc == "." && !ne.starts_with('/') && ne != ".")
                    || (nc == "/" && ne.starts_with('/') && ne != "/")
                    || ne.starts_with(&format!("{nc}/"))
                    || (nc == ne && c.len() < e.len()))
        };
        let pool = [
            "/", ".", "a", "a/b", "./a/b/c", "~", "~/x", "~/x/**", "/h/x/y", "a*", "a/*/c", "~/",
        ];
        for mask in 0u32..(1 << pool.len()) {
            let entries: Vec<&str> = (0..pool.len())
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| pool[i])
                .collect();
            let got = first_coverers(Family::Path, &entries, "/h");
            let want: Vec<Option<usize>> = entries
                .iter()
                .map(|e| entries.iter().position(|c| covers(c, e)))
                .collect();
            assert_eq!(got, want, "{entries:?}");
        }
    }
}
