//! Codex's rows in `twsrt explain`, decided on what `generate codex`
//! renders for the mode: the `[permissions.twsrt]` profile (its
//! `filesystem` entries, the globs under `":workspace_roots"`,
//! `workspace_roots`, `network.domains`) and the `.rules` file's
//! `prefix_rule` patterns. Two layers, `profile` (rank 21) and `rules`
//! (rank 22): after the Claude rows, before Copilot's; above them, rank
//! 20, the `managed` row of an installed requirements.toml
//! ([`super::explain_managed`]).
//!
//! How the profile decides, as twsrt compiles for it: a `deny` entry covering
//! the path blocks reading and writing, a `read` entry writing; a glob under
//! `":workspace_roots"` applies inside each workspace root; writes are
//! allowed under a `write` entry or a workspace root, nowhere else; reads
//! everywhere no `deny` covers.

use std::path::Path;

use serde_json::{Map, Value};

use super::explain_managed::{MANAGED, Requirements};
use crate::agent::Ctx;
use crate::drift::access::{Decision, Verdict, domain_matches, srt_matched};
use crate::explain::{ExplainLayers, Layer, Subject, not_covered};
use crate::srt::path::{Places, path_matches};

static PROFILE: Layer = Layer {
    rank: 21,
    layer: "profile",
    agent: "codex",
};
static RULES: Layer = Layer {
    rank: 22,
    layer: "rules",
    agent: "codex",
};

/// The rendered profile and rules, or why Codex gets none for this policy;
/// the compiled srt settings (which list a profile entry came from).
pub struct Layers<'a> {
    rendered: Result<(Value, Vec<Pattern>), String>,
    srt: &'a Value,
    places: &'a Places<'a>,
    /// The installed requirements.toml, when there is one.
    managed: Option<Requirements>,
}

impl<'a> Layers<'a> {
    /// Render the profile and the rules for `ctx`'s mode. A policy Codex
    /// refuses is no error here: every row says why it decides nothing.
    pub fn of(ctx: &Ctx<'a>, places: &'a Places<'a>) -> Self {
        let rendered = super::rendered(ctx)
            .map_err(|e| e.to_string())
            .map(|(fragment, rules)| (profile(&fragment), patterns(&rules)));
        Layers {
            rendered,
            srt: ctx.compiled.srt(),
            places,
            managed: Requirements::installed(&ctx.managed_root),
        }
    }
}

impl ExplainLayers for Layers<'_> {
    fn decide(&self, subject: &Subject) -> Vec<(&'static Layer, Decision)> {
        let profile = match subject {
            Subject::Write(p) => profile_path(self, p, true),
            Subject::Read(p) => profile_path(self, p, false),
            Subject::Domain(d) => profile_domain(self, d),
            Subject::Command(_) => not_covered("the profile does not pick commands"),
        };
        let rules = match subject {
            Subject::Command(c) => rules_command(self, c),
            _ => not_covered("execution rules only match commands"),
        };
        let mut rows = Vec::new();
        if let Some(managed) = &self.managed {
            rows.push((&MANAGED, managed.decide(subject, self.srt, self.places)));
        }
        rows.extend([(&PROFILE, profile), (&RULES, rules)]);
        rows
    }
}

/// `[permissions.twsrt]` of the fragment as JSON (`null` if it has none).
fn profile(fragment: &str) -> Value {
    let Ok(doc) = fragment.parse::<toml_edit::DocumentMut>() else {
        return Value::Null;
    };
    doc.get("permissions")
        .and_then(|p| p.get("twsrt"))
        .and_then(crate::tomltext::toml_to_json)
        .unwrap_or(Value::Null)
}

/// One `prefix_rule`: its `pattern` words and the bash rule it was written
/// from (its `match` example).
struct Pattern {
    words: Vec<String>,
    rule: String,
}

/// Each `prefix_rule` of the rules text.
fn patterns(rules: &str) -> Vec<Pattern> {
    let list = |line: &str, key: &str| -> Option<Vec<String>> {
        let text = line.trim().strip_prefix(key)?;
        serde_json::from_str(text.trim_end_matches(',')).ok()
    };
    let mut out = Vec::new();
    let mut words = None;
    for line in rules.lines() {
        if let Some(found) = list(line, "pattern = ") {
            words = Some(found);
        } else if let Some(examples) = list(line, "match = ")
            && let Some(w) = words.take()
        {
            let rule = examples.first().cloned().unwrap_or_else(|| w.join(" "));
            out.push(Pattern { words: w, rule });
        }
    }
    out
}

static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);

fn table<'a>(v: &'a Value, key: &str) -> &'a Map<String, Value> {
    v.get(key).and_then(Value::as_object).unwrap_or(&EMPTY)
}

/// Which srt list of the policy holds `rule` (for its fragment line).
fn srt_list(srt: &Value, rule: &str, keys: &[&str]) -> String {
    let holds = |key: &str| {
        srt.pointer(&format!("/filesystem/{key}"))
            .and_then(Value::as_array)
            .is_some_and(|l| l.iter().any(|v| v == rule))
    };
    let key = keys.iter().find(|k| holds(k)).unwrap_or(&keys[0]);
    format!("filesystem.{key}")
}

/// The entries covering `path`: (pattern as the profile spells it, access),
/// the most specific (longest) first.
fn covering<'a>(profile: &'a Value, path: &Path, places: &Places) -> Vec<(String, &'a str)> {
    let filesystem = table(profile, "filesystem");
    let roots: Vec<&String> = table(profile, "workspace_roots").keys().collect();
    let mut found: Vec<(String, &str)> = Vec::new();
    for (key, access) in filesystem {
        match access {
            Value::String(access) if path_matches(key, path, places) => {
                found.push((key.clone(), access));
            }
            Value::Object(inside) if key == ":workspace_roots" => {
                for (glob, access) in inside {
                    let Some(access) = access.as_str() else {
                        continue;
                    };
                    let under_a_root = roots.iter().any(|root| {
                        let full = format!("{}/{glob}", root.trim_end_matches('/'));
                        path_matches(&full, path, places)
                    });
                    if under_a_root {
                        found.push((glob.clone(), access));
                    }
                }
            }
            _ => {}
        }
    }
    found.sort_by_key(|(k, _)| std::cmp::Reverse(k.len()));
    found
}

fn no_profile(why: &str) -> Decision {
    Decision::without_rule(
        Verdict::NotCovered,
        Some(&format!("Codex gets no profile: {why}")),
    )
}

/// The profile's decision for reading or writing `path`.
fn profile_path(c: &Layers, path: &Path, write: bool) -> Decision {
    match &c.rendered {
        Ok((profile, _)) => path_by(profile, c.srt, c.places, path, write),
        Err(why) => no_profile(why),
    }
}

/// How the permission profile `profile` (a profile table as JSON) decides
/// reading or writing `path`; `srt` names the policy list of an entry.
pub(super) fn path_by(
    profile: &Value,
    srt: &Value,
    places: &Places,
    path: &Path,
    write: bool,
) -> Decision {
    let found = covering(profile, path, places);
    let blocking: &[&str] = if write { &["deny", "read"] } else { &["deny"] };
    if let Some((rule, access)) = found.iter().find(|(_, a)| blocking.contains(a)) {
        let list = srt_list(srt, rule, &["denyRead", "denyWrite"]);
        let mut note = format!("profile entry \"{rule}\" = \"{access}\"");
        if super::pathshape::has_codex_wildcard(rule) {
            // The agent limit `generate -v` and doctor name codex-glob-walk.
            note.push_str(
                "; a glob, expanded only when a command starts: a matching file the command \
                 creates is not covered (codex-glob-walk)",
            );
        }
        return Decision::rule(Verdict::Deny, (list, rule.clone()), Some(&note));
    }
    if !write {
        return Decision::without_rule(Verdict::Allow, Some("no deny entry covers it"));
    }
    if let Some((rule, _)) = found.iter().find(|(_, a)| *a == "write") {
        let list = srt_list(srt, rule, &["allowWrite"]);
        let note = format!("profile entry \"{rule}\" = \"write\"");
        return Decision::rule(Verdict::Allow, (list, rule.clone()), Some(&note));
    }
    let root = table(profile, "workspace_roots")
        .keys()
        .filter(|root| path_matches(root, path, places))
        .max_by_key(|root| root.len());
    match root {
        Some(root) => Decision::rule(
            Verdict::Allow,
            ("filesystem.allowWrite".into(), root.clone()),
            Some("a workspace root"),
        ),
        None => Decision::without_rule(Verdict::Deny, Some("outside the workspace roots")),
    }
}

/// The profile's `network.domains` for `domain`: a deny first.
fn profile_domain(c: &Layers, domain: &str) -> Decision {
    match &c.rendered {
        Ok((profile, _)) => domain_by(profile, domain),
        Err(why) => no_profile(why),
    }
}

/// How the permission profile `profile` decides `domain`.
pub(super) fn domain_by(profile: &Value, domain: &str) -> Decision {
    let domains = profile
        .get("network")
        .map(|n| table(n, "domains"))
        .unwrap_or(&EMPTY);
    let note = "enforced only with Codex's network_proxy feature";
    for (access, verdict, list) in [
        ("deny", Verdict::Deny, "network.deniedDomains"),
        ("allow", Verdict::Allow, "network.allowedDomains"),
    ] {
        let found = domains
            .iter()
            .find(|(pattern, a)| a.as_str() == Some(access) && domain_matches(pattern, domain));
        if let Some((pattern, _)) = found {
            let decision = Decision::rule(verdict, (list.into(), pattern.clone()), Some(note));
            return srt_matched(decision, domains.keys().map(String::as_str), domain);
        }
    }
    let decision = Decision::without_rule(Verdict::NotCovered, Some("no rule for this domain"));
    srt_matched(decision, domains.keys().map(String::as_str), domain)
}

/// The rules file's `forbidden` patterns for `command`, the longest first;
/// a rule joining commands is "not enforced" ([`super::joined`]) unless a
/// rule of words denies the command anyway.
fn rules_command(c: &Layers, command: &str) -> Decision {
    let patterns = match &c.rendered {
        Ok((_, patterns)) => patterns,
        Err(why) => return no_profile(why),
    };
    let words = crate::shellwords::split(command)
        .unwrap_or_else(|_| command.split_whitespace().map(str::to_string).collect());
    let covering = |joined: bool| {
        patterns
            .iter()
            .filter(|p| !p.words.is_empty() && words.starts_with(&p.words))
            .filter(|p| super::joined::is_joined(&p.rule) == joined)
            .max_by_key(|p| p.words.len())
    };
    match (covering(false), covering(true)) {
        (Some(p), _) => Decision::rule(
            Verdict::Deny,
            ("deny".into(), p.rule.clone()),
            Some("consulted only for commands run outside the sandbox"),
        ),
        (None, Some(p)) => Decision::rule(
            Verdict::NotEnforced,
            ("deny".into(), p.rule.clone()),
            Some(
                "Codex checks each command of a list or pipeline on its own: no rule can \
                 hold a rule joining commands (codex-compound-rule)",
            ),
        ),
        (None, None) => Decision::without_rule(
            Verdict::NotCovered,
            Some("no prefix_rule matches (only bash deny rules become Codex rules)"),
        ),
    }
}
