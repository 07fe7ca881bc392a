//! Derived rules for one access: how the srt settings and the bash rules
//! decide a read, a write, a connection or a command. Reads are
//! deny-then-allow (`denyRead`, then `allowRead` inside it), writes are
//! allow-only with denies inside (`allowWrite`, then `denyWrite`),
//! connections are allow-only with denies first, commands deny, then ask,
//! then allow. Which list denies and which allows is read from
//! [`super::list_meaning`], the table the diff directions use, so the two
//! can never disagree about a list.
//!
//! The platform's matcher is part of the model: on Linux srt drops glob
//! patterns from its write lists and expands read globs only when the
//! command starts.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Meaning, list_meaning};

/// What a layer does with one access.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Deny,
    Ask,
    Allow,
    NotCovered,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Deny => "deny",
            Verdict::Ask => "ask",
            Verdict::Allow => "allow",
            Verdict::NotCovered => "not covered",
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
    pub fn default(verdict: Verdict, note: Option<&str>) -> Self {
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

/// Where relative paths and `~` resolve.
pub struct Places<'a> {
    pub home: &'a Path,
    pub cwd: &'a Path,
}

pub fn is_glob(pattern: &str) -> bool {
    pattern.contains(['*', '?', '['])
}

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

/// srt reading `path`: deny-then-allow.
pub fn srt_read(srt: &Value, path: &Path, places: &Places) -> Decision {
    let [deny, allow] = lists(srt, "filesystem", "Read");
    let Some((list, rule)) = covering(&deny, path, places) else {
        return Decision::default(Verdict::Allow, Some("no read rule: reads are allowed"));
    };
    if let Some((alist, arule)) =
        covering(&allow, path, places).filter(|(_, a)| a.len() > rule.len())
    {
        return Decision::by(Verdict::Allow, arule, alist);
    }
    let mut decision = Decision::by(Verdict::Deny, rule, list);
    if is_glob(rule) && WRITE_GLOBS_DROPPED {
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
        return Decision::default(
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

/// srt connecting to `domain`: denied domains first, then allow-only.
pub fn srt_network(srt: &Value, domain: &str) -> Decision {
    let [deny, allow] = lists(srt, "network", "Domains");
    if let Some((list, rule)) = deny.iter().find(|(_, p)| domain_matches(p, domain)) {
        return Decision::by(Verdict::Deny, rule, list);
    }
    match allow.iter().find(|(_, p)| domain_matches(p, domain)) {
        Some((list, rule)) => Decision::by(Verdict::Allow, rule, list),
        None => Decision::default(
            Verdict::Deny,
            Some("not in allowedDomains: connections are denied"),
        ),
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
    Decision::default(Verdict::NotCovered, None)
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

/// `*.x.org` covers every subdomain of x.org, not x.org itself; other
/// patterns only themselves (case-insensitively). A wildcard query is
/// covered by the same wildcard.
pub fn domain_matches(pattern: &str, domain: &str) -> bool {
    let (pattern, domain) = (pattern.to_ascii_lowercase(), domain.to_ascii_lowercase());
    if pattern == domain {
        return true;
    }
    match pattern.strip_prefix("*.") {
        Some(apex) => domain
            .trim_start_matches("*.")
            .strip_suffix(apex)
            .is_some_and(|rest| rest.ends_with('.') && rest.len() > 1),
        None => false,
    }
}

/// `~` and relative paths resolved, `.` and `..` folded (no file access).
pub fn absolute(pattern: &str, places: &Places) -> PathBuf {
    let joined = if pattern == "~" {
        places.home.to_path_buf()
    } else if let Some(rest) = pattern.strip_prefix("~/") {
        places.home.join(rest)
    } else {
        places.cwd.join(pattern)
    };
    let mut out = PathBuf::new();
    for part in joined.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// Whether the rule `pattern` covers `path` (absolute): the path itself
/// or anything under it, compared as written and, since the sandbox
/// matches real paths, with symlinks resolved on both sides.
pub fn path_matches(pattern: &str, path: &Path, places: &Places) -> bool {
    if is_glob(pattern) {
        let anchored = pattern.starts_with(['/', '~', '.']);
        let text = if anchored {
            absolute(pattern, places).display().to_string()
        } else {
            format!("**/{}", pattern.trim_start_matches("**/"))
        };
        return real_forms(path)
            .iter()
            .any(|p| super::glob::matches(&text, &p.display().to_string()));
    }
    let rule = absolute(pattern, places);
    let rules = real_forms(&rule);
    real_forms(path)
        .iter()
        .any(|p| rules.iter().any(|r| p.starts_with(r)))
}

/// `path` as written and, when some part of it exists, with its symlinks
/// resolved (the longest existing ancestor canonicalized, the rest kept).
fn real_forms(path: &Path) -> Vec<PathBuf> {
    let mut forms = vec![path.to_path_buf()];
    let mut base = path;
    let mut rest = Vec::new();
    while let Some(parent) = base.parent() {
        if let Ok(real) = std::fs::canonicalize(base) {
            let real = rest
                .iter()
                .rev()
                .fold(real, |acc: PathBuf, part| acc.join(part));
            if real != path {
                forms.push(real);
            }
            break;
        }
        if let Some(name) = base.file_name() {
            rest.push(name.to_os_string());
        }
        base = parent;
    }
    forms
}

/// The most specific rule of the srt lists `keys` of `section` covering
/// `path`, glob or not (the agents' own rules match globs): (list, rule).
pub fn covered_by(
    srt: &Value,
    section: &str,
    keys: &[&str],
    path: &Path,
    places: &Places,
) -> Option<(String, String)> {
    let rules: Vec<(String, &str)> = keys
        .iter()
        .flat_map(|key| {
            let list = format!("{section}.{key}");
            srt.get(section)
                .and_then(|s| s.get(key))
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(move |item| (list.clone(), item))
        })
        .collect();
    covering(&rules, path, places).map(|(l, r)| (l.clone(), r.to_string()))
}

/// The first rule of the srt network list `key` covering `domain`.
pub fn domain_in(srt: &Value, key: &str, domain: &str) -> Option<String> {
    srt.get("network")
        .and_then(|n| n.get(key))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .find(|p| domain_matches(p, domain))
        .map(str::to_string)
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
