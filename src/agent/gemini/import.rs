//! `twsrt import gemini`: Gemini CLI policy files read back into policy
//! terms, the inverse of [`super::mapping`] where it can be inverted.
//!
//! - a `run_shell_command` rule with a `commandPrefix` (a string or a
//!   list) is a bash rule of its decision: `deny` -> deny, `ask_user` ->
//!   ask, `allow` -> allow;
//! - an `argsPattern` rule is a regex over the call's arguments, which no
//!   reader can turn back into a path in general. twsrt's own rules name
//!   the policy rule they come from in their `denyMessage`
//!   (`twsrt policy: denyRead '~/.ssh'`): such a rule is imported when
//!   rendering that policy rule again gives the same tools and the same
//!   regex (so a message that lies is not believed);
//! - everything else (another tool, a `commandRegex`, a foreign regex, an
//!   MCP server rule, a mode) is listed with its reason.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::render::Matcher;
use crate::agent::import::{Ctx, Entry, Imported, Importer, Left, List, Origin};
use crate::error::{Error, Result};
use crate::rules::{Action, Scope, SecurityRule};

pub struct GeminiImport;

impl Importer for GeminiImport {
    fn import(&self, ctx: &Ctx) -> Result<Imported> {
        let files = sources(ctx)?;
        let owned = super::policy_path(ctx.config, false);
        let mut out = Imported::default();
        for path in files {
            let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
            let text =
                crate::text_position::utf8(bytes).map_err(|at| Error::toml_not_utf8(&path, at))?;
            let doc = crate::tomltext::parse_document(&text, &path)?;
            let json = crate::tomltext::toml_to_json(doc.as_item()).unwrap_or(Value::Null);
            let twsrts = owned.as_deref() == Some(path.as_path());
            import_policy(&json, &path, twsrts, ctx.home, &mut out);
            out.sources.push(path);
        }
        Ok(out)
    }
}

/// `--from`, else the policy file config.toml names, else every `.toml`
/// of Gemini's user policy directory.
fn sources(ctx: &Ctx) -> Result<Vec<PathBuf>> {
    if let Some(from) = ctx.from {
        return Ok(vec![from.to_path_buf()]);
    }
    if let Some(path) = super::policy_path(ctx.config, false).filter(|p| p.is_file()) {
        return Ok(vec![path]);
    }
    let dir = ctx.home.join(".gemini").join("policies");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    found.sort();
    if found.is_empty() {
        return Err(Error::target(
            &dir,
            "holds no policy file; name the Gemini CLI policy file to import with --from",
        ));
    }
    Ok(found)
}

/// The `[[rule]]` tables of one policy file. `twsrts`: the file is the
/// one `generate -w` replaces whole.
pub fn import_policy(doc: &Value, path: &Path, twsrts: bool, home: &Path, out: &mut Imported) {
    let rules = doc.get("rule").and_then(Value::as_array);
    for (i, rule) in rules.into_iter().flatten().enumerate() {
        let at = Origin::new(path, format!("/rule/{i}"));
        if let Err(reason) = import_rule(rule, &at, home, out) {
            let what = describe(rule);
            out.left.push(if twsrts {
                Left::untranslatable(
                    what,
                    at,
                    format!("{reason}; `generate -w` replaces this file whole"),
                )
            } else {
                Left::kept(
                    what,
                    at,
                    format!("{reason}; twsrt writes only its own policy file, so this one stays"),
                )
            });
        }
    }
}

/// A short name for a rule in the list of what stays.
fn describe(rule: &Value) -> String {
    let tools = match rule.get("toolName") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(", "),
        _ => "any tool".into(),
    };
    let decision = rule.get("decision").and_then(Value::as_str).unwrap_or("?");
    format!("[[rule]] {decision} {tools}")
}

fn strings(value: Option<&Value>) -> Option<Vec<&str>> {
    match value? {
        Value::String(s) => Some(vec![s.as_str()]),
        Value::Array(items) => items.iter().map(Value::as_str).collect(),
        _ => None,
    }
}

fn import_rule(
    rule: &Value,
    at: &Origin,
    home: &Path,
    out: &mut Imported,
) -> std::result::Result<(), String> {
    let decision = rule.get("decision").and_then(Value::as_str).unwrap_or("");
    for key in ["mcpName", "modes", "commandRegex"] {
        if rule.get(key).is_some() {
            return Err(format!("a rule with {key}: the policy has no such rule"));
        }
    }
    let tools = strings(rule.get("toolName")).unwrap_or_default();
    if let Some(prefixes) = strings(rule.get("commandPrefix")) {
        if tools != ["run_shell_command"] {
            return Err("a command prefix for another tool than run_shell_command".into());
        }
        let list = match decision {
            "deny" => List::BashDeny,
            "ask_user" => List::BashAsk,
            "allow" => List::BashAllow,
            _ => return Err(format!("the decision \"{decision}\"")),
        };
        for prefix in prefixes {
            out.add(Entry::listed(list, prefix.trim(), at.clone()));
        }
        return Ok(());
    }
    let Some(regex) = rule.get("argsPattern").and_then(Value::as_str) else {
        return Err("a rule for a whole tool: the policy has no such rule".into());
    };
    let message = rule
        .get("denyMessage")
        .and_then(Value::as_str)
        .unwrap_or("");
    let Some((list, pattern)) = twsrt_origin(message) else {
        return Err(
            "an argsPattern regex: twsrt reads back only those it writes \
                    (their denyMessage names the policy rule)"
                .into(),
        );
    };
    if decision != "deny" || !renders_as(list, &pattern, &tools, regex, home) {
        return Err(format!(
            "its denyMessage names {} but rendering it gives another rule",
            crate::source::quoted(&pattern)
        ));
    }
    out.add(Entry::listed(list, pattern, at.clone()));
    Ok(())
}

/// The list and rule a twsrt `denyMessage` names.
fn twsrt_origin(message: &str) -> Option<(List, String)> {
    let rest = message.strip_prefix("twsrt policy: ")?;
    let (list, quoted) = rest.split_once(' ')?;
    let list = match list {
        "denyRead" => List::DenyRead,
        "denyWrite" => List::DenyWrite,
        "deniedDomains" => List::DeniedDomains,
        _ => return None,
    };
    let text = unquote(quoted)?;
    (crate::source::quoted(&text) == quoted).then_some((list, text))
}

/// The text inside a quoted rule as twsrt quotes it (Python's `repr`):
/// the few escapes it writes; checked by quoting it again.
fn unquote(quoted: &str) -> Option<String> {
    let quote = quoted.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let inner = quoted.strip_prefix(quote)?.strip_suffix(quote)?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'x' => out.push(hex(&mut chars, 2)?),
            'u' => out.push(hex(&mut chars, 4)?),
            'U' => out.push(hex(&mut chars, 8)?),
            other => out.push(other),
        }
    }
    Some(out)
}

fn hex(chars: &mut std::str::Chars, digits: usize) -> Option<char> {
    let text: String = chars.take(digits).collect();
    char::from_u32(u32::from_str_radix(&text, 16).ok()?)
}

/// Whether twsrt renders the policy rule as a rule for `tools` with
/// `regex`.
fn renders_as(list: List, pattern: &str, tools: &[&str], regex: &str, home: &Path) -> bool {
    let (scope, action) = match list {
        List::DenyRead => (Scope::Read, Action::Deny),
        List::DenyWrite => (Scope::Write, Action::Deny),
        _ => (Scope::Network, Action::Deny),
    };
    let rule = SecurityRule {
        scope,
        action,
        pattern,
    };
    let mut warnings = Vec::new();
    let Ok(rendered) = super::mapping::translate(&[rule], false, home, &mut warnings) else {
        return false;
    };
    rendered
        .iter()
        .any(|r| r.tools == tools && matches!(&r.matcher, Matcher::ArgsPattern(p) if p == regex))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::import::Fate;

    fn import(text: &str, twsrts: bool) -> Imported {
        let doc = crate::tomltext::parse_document(text, Path::new("p.toml")).unwrap();
        let json = crate::tomltext::toml_to_json(doc.as_item()).unwrap();
        let mut out = Imported::default();
        import_policy(
            &json,
            Path::new("/h/.gemini/policies/mine.toml"),
            twsrts,
            Path::new("/h"),
            &mut out,
        );
        out
    }

    #[test]
    fn shell_prefix_rules_are_bash_rules_of_their_decision() {
        let out = import(
            r#"
[[rule]]
toolName = "run_shell_command"
commandPrefix = ["rm -rf", "sudo"]
decision = "deny"
priority = 500

[[rule]]
toolName = "run_shell_command"
commandPrefix = "git push"
decision = "ask_user"

[[rule]]
toolName = "run_shell_command"
commandPrefix = "git status"
decision = "allow"
"#,
            false,
        );
        assert_eq!(
            out.list(List::BashDeny).collect::<Vec<_>>(),
            ["rm -rf", "sudo"]
        );
        assert_eq!(out.list(List::BashAsk).collect::<Vec<_>>(), ["git push"]);
        assert_eq!(
            out.list(List::BashAllow).collect::<Vec<_>>(),
            ["git status"]
        );
        assert_eq!(out.entries[2].origins[0].at, "/rule/1");
    }

    /// twsrt's own path rule is imported only when its regex is the one
    /// rendering the named rule gives.
    #[test]
    fn a_twsrt_path_rule_is_read_back_when_its_regex_checks_out() {
        let rule = |regex: &str| {
            format!(
                "[[rule]]\ntoolName = [\"write_file\", \"replace\"]\nargsPattern = '{regex}'\n\
                 decision = \"deny\"\ndenyMessage = \"twsrt policy: denyWrite '~/.bashrc'\"\n"
            )
        };
        let good = import(&rule(r#"\x00"file_path":[^\x00]*"/h/\.bashrc[/"]"#), true);
        assert_eq!(
            good.list(List::DenyWrite).collect::<Vec<_>>(),
            ["~/.bashrc"]
        );
        let lying = import(&rule(r#"\x00"file_path":[^\x00]*"/other[/"]"#), true);
        assert!(lying.entries.is_empty());
        assert_eq!(lying.left[0].fate, Fate::Untranslatable);
        assert!(
            lying.left[0]
                .reason
                .contains("rendering it gives another rule"),
            "{}",
            lying.left[0].reason
        );
    }

    /// Every untranslatable rule kind, named with its reason; in a file
    /// twsrt does not write they are kept.
    #[test]
    fn every_untranslatable_rule_kind_is_named() {
        let out = import(
            r#"
[[rule]]
toolName = "web_search"
decision = "deny"

[[rule]]
toolName = "read_file"
argsPattern = 'secret'
decision = "deny"

[[rule]]
toolName = "run_shell_command"
commandRegex = "^curl"
decision = "deny"

[[rule]]
mcpName = "github"
decision = "ask_user"

[[rule]]
toolName = "run_shell_command"
commandPrefix = "ls"
decision = "maybe"
"#,
            false,
        );
        let reasons: Vec<(&str, &str)> = out
            .left
            .iter()
            .map(|l| (l.what.as_str(), l.reason.split(';').next().unwrap_or("")))
            .collect();
        assert_eq!(
            reasons,
            [
                (
                    "[[rule]] deny web_search",
                    "a rule for a whole tool: the policy has no such rule"
                ),
                (
                    "[[rule]] deny read_file",
                    "an argsPattern regex: twsrt reads back only those it writes (their denyMessage names the policy rule)"
                ),
                (
                    "[[rule]] deny run_shell_command",
                    "a rule with commandRegex: the policy has no such rule"
                ),
                (
                    "[[rule]] ask_user any tool",
                    "a rule with mcpName: the policy has no such rule"
                ),
                ("[[rule]] maybe run_shell_command", "the decision \"maybe\""),
            ]
        );
        assert!(out.left.iter().all(|l| l.fate == Fate::Kept));
    }
}
