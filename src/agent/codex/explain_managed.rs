//! Codex's `managed` row in `twsrt explain`: the installed
//! requirements.toml ([`super::requirements::REQUIREMENTS`] under the
//! managed root), read as it is on disk, not as the policy would write it,
//! so the row says what the machine enforces (doc/clients.md, "Codex:
//! managed policy files"):
//! - a read: a `[permissions.filesystem] deny_read` entry covering the path
//!   denies it whatever profile is selected (the entries add up across
//!   layers); otherwise the required profile decides;
//! - a read or write: the required profile (`default_permissions`, the one
//!   Codex falls back to when a user selects a profile
//!   `[allowed_permission_profiles]` does not allow), decided as the user
//!   profile row decides, when the file defines it as `[permissions.NAME]`;
//! - a domain: the required profile's `network.domains`; the
//!   `[experimental_network]` lists load, but whether Codex enforces them
//!   was not measured, and the row says so;
//! - a command: `[rules] prefix_rules`, the most restrictive matching rule
//!   (`forbidden` denies, `prompt` asks), as Codex applies its rules.
//!
//! The row appears only when the file exists; one that is not TOML is a
//! row that says so and decides nothing.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::explain::{domain_by, path_by};
use crate::agent::managed::Root;
use crate::drift::access::{Decision, Verdict};
use crate::explain::{Layer, Subject, not_covered};
use crate::srt::path::{Places, path_matches};

pub static MANAGED: Layer = Layer {
    rank: 20,
    layer: "managed",
    agent: "codex",
};

/// One `prefix_rules` entry: the alternatives at each position of the
/// prefix, and what a match does.
#[derive(Debug, Clone, PartialEq, Eq)]
struct PrefixRule {
    pattern: Vec<Vec<String>>,
    verdict: Verdict,
}

/// The installed requirements, as far as the row reads them.
#[derive(Debug)]
pub struct Requirements {
    path: PathBuf,
    /// Why the file could not be read, when it could not.
    unreadable: Option<String>,
    /// `default_permissions`.
    required: Option<String>,
    /// `[permissions.<required>]`, when the file defines it.
    profile: Option<Value>,
    /// The names `[allowed_permission_profiles]` allows.
    allowed: Vec<String>,
    deny_read: Vec<String>,
    prefix_rules: Vec<PrefixRule>,
    /// `[experimental_network]` is present.
    managed_network: bool,
}

impl Requirements {
    /// The requirements installed under `root`, `None` when there are none.
    pub fn installed(root: &Root) -> Option<Self> {
        let path = root.join(super::requirements::REQUIREMENTS);
        let text = match std::fs::read(&path) {
            Ok(bytes) => String::from_utf8(bytes).map_err(|_| "is not UTF-8 text".to_string()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => Err(format!("cannot be read ({e})")),
        };
        Some(match text {
            Ok(text) => Self::parse(path, &text),
            Err(why) => Self::unreadable(path, why),
        })
    }

    fn unreadable(path: PathBuf, why: String) -> Self {
        Requirements {
            path,
            unreadable: Some(why),
            required: None,
            profile: None,
            allowed: Vec::new(),
            deny_read: Vec::new(),
            prefix_rules: Vec::new(),
            managed_network: false,
        }
    }

    /// The requirements of `text`, the file at `path`.
    pub fn parse(path: PathBuf, text: &str) -> Self {
        let doc = match text.parse::<toml_edit::DocumentMut>() {
            Ok(doc) => doc,
            Err(e) => return Self::unreadable(path, format!("is not TOML ({})", e.message())),
        };
        let json = crate::tomltext::toml_to_json(doc.as_item()).unwrap_or(Value::Null);
        let required = json
            .get("default_permissions")
            .and_then(Value::as_str)
            .map(str::to_string);
        let profile = required
            .as_deref()
            .and_then(|name| json.get("permissions")?.get(name))
            .filter(|p| p.is_object())
            .cloned();
        let allowed = json
            .get("allowed_permission_profiles")
            .and_then(Value::as_object)
            .map(|table| {
                table
                    .iter()
                    .filter(|(_, on)| **on == Value::Bool(true))
                    .map(|(name, _)| name.clone())
                    .collect()
            })
            .unwrap_or_default();
        let strings = |pointer: &str| -> Vec<String> {
            json.pointer(pointer)
                .and_then(Value::as_array)
                .map(|l| {
                    l.iter()
                        .filter_map(Value::as_str)
                        .map(String::from)
                        .collect()
                })
                .unwrap_or_default()
        };
        Requirements {
            deny_read: strings("/permissions/filesystem/deny_read"),
            prefix_rules: prefix_rules(&json),
            managed_network: json.get("experimental_network").is_some(),
            unreadable: None,
            path,
            required,
            profile,
            allowed,
        }
    }

    /// The row for `subject`; `srt` names the policy list of an entry.
    pub fn decide(&self, subject: &Subject, srt: &Value, places: &Places) -> Decision {
        if let Some(why) = &self.unreadable {
            return not_covered(&format!(
                "{} {why}: Codex's requirements are not read here",
                self.path.display()
            ));
        }
        match subject {
            Subject::Read(p) => self.deny_read(p, places).unwrap_or_else(|| {
                self.by_profile(|profile| path_by(profile, srt, places, p, false))
            }),
            Subject::Write(p) => self.by_profile(|profile| path_by(profile, srt, places, p, true)),
            Subject::Domain(d) => {
                let decision = self.by_profile(|profile| domain_by(profile, d));
                match self.managed_network {
                    true => then_note(
                        decision,
                        "the requirements' [experimental_network] lists load, but whether Codex \
                         enforces them was not measured",
                    ),
                    false => decision,
                }
            }
            Subject::Command(c) => self.command(c),
        }
    }

    /// A `deny_read` entry covering `path`, the longest.
    fn deny_read(&self, path: &Path, places: &Places) -> Option<Decision> {
        let entry = self
            .deny_read
            .iter()
            .filter(|entry| path_matches(entry, path, places))
            .max_by_key(|entry| entry.len())?;
        Some(Decision::rule(
            Verdict::Deny,
            ("filesystem.denyRead".into(), entry.clone()),
            Some(&format!(
                "requirements deny_read entry \"{entry}\": applies whatever profile is selected"
            )),
        ))
    }

    /// The required profile's decision, with which profiles users may
    /// select.
    fn by_profile(&self, decide: impl Fn(&Value) -> Decision) -> Decision {
        let Some(name) = &self.required else {
            return not_covered("the requirements set no default_permissions: no required profile");
        };
        let Some(profile) = &self.profile else {
            return not_covered(&format!(
                "the required profile {name} is not defined in the requirements: not decided here"
            ));
        };
        let only = match self.allowed.as_slice() {
            [] => String::new(),
            [one] if one == name => ", the only one users may select".to_string(),
            allowed => format!("; users may select only {}", allowed.join(", ")),
        };
        with_note(decide(profile), &format!("required profile {name}{only}"))
    }

    /// The most restrictive prefix rule matching `command`, the longest
    /// among equals.
    fn command(&self, command: &str) -> Decision {
        let words = crate::shellwords::split(command)
            .unwrap_or_else(|_| command.split_whitespace().map(str::to_string).collect());
        let found = [Verdict::Deny, Verdict::Ask]
            .into_iter()
            .find_map(|verdict| {
                self.prefix_rules
                    .iter()
                    .filter(|r| r.verdict == verdict && prefix_of(&r.pattern, &words))
                    .max_by_key(|r| r.pattern.len())
            });
        let Some(rule) = found else {
            return not_covered("no requirements prefix_rule matches");
        };
        let text: Vec<String> = rule
            .pattern
            .iter()
            .zip(&words)
            .map(|(_, word)| word.clone())
            .collect();
        let (list, decision) = match rule.verdict {
            Verdict::Deny => ("deny", "forbidden"),
            _ => ("ask", "prompt"),
        };
        Decision::rule(
            rule.verdict,
            (list.into(), text.join(" ")),
            Some(&format!(
                "requirements prefix_rule, decision = \"{decision}\""
            )),
        )
    }
}

/// Whether each position of `pattern` has `words`' word at it among its
/// alternatives.
fn prefix_of(pattern: &[Vec<String>], words: &[String]) -> bool {
    !pattern.is_empty()
        && pattern.len() <= words.len()
        && pattern
            .iter()
            .zip(words)
            .all(|(alternatives, word)| alternatives.contains(word))
}

/// `[rules] prefix_rules` of the requirements: each `{ token = W }` or
/// `{ any_of = [W, ...] }` position; a rule with a position of another
/// shape, or a decision other than `forbidden` or `prompt`/`prompt-user`
/// (which the requirements refuse), is left out.
fn prefix_rules(json: &Value) -> Vec<PrefixRule> {
    let rules = json
        .pointer("/rules/prefix_rules")
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    rules
        .filter_map(|rule| {
            let verdict = match rule.get("decision")?.as_str()? {
                "forbidden" => Verdict::Deny,
                "prompt" | "prompt-user" => Verdict::Ask,
                _ => return None,
            };
            let pattern = rule
                .get("pattern")?
                .as_array()?
                .iter()
                .map(position)
                .collect::<Option<Vec<_>>>()?;
            Some(PrefixRule { pattern, verdict })
        })
        .collect()
}

fn position(token: &Value) -> Option<Vec<String>> {
    if let Some(word) = token.get("token").and_then(Value::as_str) {
        return Some(vec![word.to_string()]);
    }
    let any = token.get("any_of")?.as_array()?;
    any.iter().map(|w| w.as_str().map(str::to_string)).collect()
}

/// `decision` with `note` put last.
fn then_note(mut decision: Decision, note: &str) -> Decision {
    decision.note = Some(match decision.note.take() {
        Some(first) => format!("{first}; {note}"),
        None => note.to_string(),
    });
    decision
}

/// `decision` with `note` put first.
fn with_note(mut decision: Decision, note: &str) -> Decision {
    decision.note = Some(match decision.note.take() {
        Some(rest) => format!("{note}: {rest}"),
        None => note.to_string(),
    });
    decision
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"default_permissions = "fleet"

[allowed_permission_profiles]
fleet = true

[permissions.fleet]
extends = ":workspace"

[permissions.fleet.filesystem]
"/srv/secret" = "deny"

[permissions.filesystem]
deny_read = ["/data/keys"]

[rules]
prefix_rules = [
  { pattern = [{ token = "git" }], decision = "prompt" },
  { pattern = [{ token = "git" }, { any_of = ["push", "reset"] }], decision = "forbidden" },
  { pattern = [{ token = "curl" }], decision = "allow" },
]
"#;

    fn decide(subject: &Subject) -> Decision {
        let places = Places {
            home: Path::new("/home/u"),
            cwd: Path::new("/home/u"),
        };
        Requirements::parse(PathBuf::from("r.toml"), TEXT).decide(subject, &Value::Null, &places)
    }

    #[test]
    fn deny_read_denies_a_read_before_the_profile_is_asked() {
        let d = decide(&Subject::Read(Path::new("/data/keys/id")));
        assert_eq!(d.verdict, Verdict::Deny, "{d:?}");
        assert_eq!(d.rule.as_deref(), Some("/data/keys"));
        let d = decide(&Subject::Read(Path::new("/srv/secret/x")));
        assert_eq!(d.verdict, Verdict::Deny, "{d:?}");
        let note = d.note.unwrap_or_default();
        assert!(
            note.starts_with(
                "required profile fleet, the only one users may select: profile entry \"/srv/secret\""
            ),
            "{note}"
        );
    }

    #[test]
    fn the_most_restrictive_prefix_rule_decides_and_allow_is_left_out() {
        let d = decide(&Subject::Command("git push origin"));
        assert_eq!(
            (d.verdict, d.rule.as_deref()),
            (Verdict::Deny, Some("git push"))
        );
        let d = decide(&Subject::Command("git status"));
        assert_eq!((d.verdict, d.rule.as_deref()), (Verdict::Ask, Some("git")));
        assert_eq!(
            decide(&Subject::Command("curl x")).verdict,
            Verdict::NotCovered
        );
    }

    #[test]
    fn a_required_profile_the_file_does_not_define_decides_nothing() {
        let r = Requirements::parse(PathBuf::new(), "default_permissions = \":workspace\"\n");
        let places = Places {
            home: Path::new("/h"),
            cwd: Path::new("/h"),
        };
        let d = r.decide(&Subject::Write(Path::new("/x")), &Value::Null, &places);
        assert_eq!(d.verdict, Verdict::NotCovered);
        assert!(
            d.note
                .unwrap_or_default()
                .contains(":workspace is not defined")
        );
        let bad = Requirements::parse(PathBuf::from("r.toml"), "not [ toml");
        let d = bad.decide(&Subject::Command("ls"), &Value::Null, &places);
        assert_eq!(d.verdict, Verdict::NotCovered);
        assert!(d.note.unwrap_or_default().starts_with("r.toml is not TOML"));
    }
}
