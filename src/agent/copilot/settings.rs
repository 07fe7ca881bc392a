//! Copilot CLI's user settings file (`settings.json` in `~/.copilot`, or in
//! `$COPILOT_HOME`), which Copilot reads at every launch, with or without a
//! login and with or without twsrt's flags (doc/clients.md, "Copilot CLI
//! settings file", has the measurements).
//!
//! twsrt owns two top-level keys of it and nothing else:
//! - `deniedUrls`: every denied domain as written, and again with `http://`
//!   in front when it names no scheme (Copilot reads a bare pattern as
//!   `https://` only, so the bare entry alone would leave plain HTTP open);
//! - `allowedUrls`: every allowed domain as written (HTTPS only, which is
//!   narrower than the policy, never wider); `[]` in yolo mode, where
//!   `--yolo` allows every URL and nothing is generated for it.
//!
//! Both lists are replaced whole: an entry someone added by hand (or with
//! `copilot config allowedUrls ...`) is gone after the next `-w`, and `diff`
//! reports it. The merge splices the two values into the file's text, so
//! every other byte (other keys, comments, indentation) stays as it was.
//! Copilot reads the file as JSONC (comments and trailing commas, measured),
//! so twsrt accepts the same; anything else is an error naming the file and
//! the position, and nothing is written. Errors never quote the file: it
//! can hold tokens (`sandbox.userPolicy.network.proxy.password`).

use crate::agent::copilot::codes;
use crate::diag::Code;
use std::path::Path;

use jsonc_parser::ast;
use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, ParseOptions};
use serde_json::Value;

use crate::agent::{Ctx, Warnings};
use crate::drift::{Difference, Direction, Side};
use crate::error::{Error, Result};
use crate::rules::{Action, Scope};
use crate::text_position::line_column;

pub const ALLOWED: &str = "allowedUrls";
pub const DENIED: &str = "deniedUrls";
use super::sandbox::SANDBOX;

/// The two lists twsrt writes, in the order they appear in a new file, and
/// with `[targets] copilot_sandbox = true` the whole `sandbox` object after
/// them (`super::sandbox`; without the switch the file's own `sandbox` key
/// is never touched).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lists {
    pub allowed: Vec<String>,
    pub denied: Vec<String>,
    pub sandbox: Option<Value>,
}

impl Lists {
    /// The lists for the mode's rules. Warns about a denied pattern Copilot
    /// would skip: it ignores an invalid settings entry with a warning and
    /// starts anyway (where the same value as `--deny-url` stops it), so
    /// such a deny would silently not apply.
    pub fn of(ctx: &Ctx, warnings: &mut Warnings) -> Lists {
        let mut lists = Lists {
            allowed: Vec::new(),
            denied: Vec::new(),
            sandbox: super::sandbox::policy(ctx, warnings),
        };
        for rule in ctx.rules() {
            match (rule.scope, rule.action) {
                (Scope::Network, Action::Allow) if !ctx.yolo => {
                    push_once(&mut lists.allowed, rule.pattern.to_string());
                }
                (Scope::Network, Action::Deny) => {
                    if skipped_by_copilot(rule.pattern) {
                        warnings.push(warning(
                            codes::IGNORED_URL,
                            format!(
                                "Copilot ignores the {DENIED} entry {}: it is not a URL pattern \
                             Copilot accepts, so that deny does not apply in Copilot",
                                crate::source::quoted(rule.pattern)
                            ),
                        ));
                    }
                    push_once(&mut lists.denied, rule.pattern.to_string());
                    if let Some(twin) = http_twin(rule.pattern) {
                        push_once(&mut lists.denied, twin);
                    }
                }
                _ => {}
            }
        }
        lists
    }

    fn owned(&self) -> [(&'static str, &[String]); 2] {
        [(ALLOWED, &self.allowed), (DENIED, &self.denied)]
    }
}

/// The same pattern over plain HTTP, for a denied pattern that names no
/// scheme: Copilot reads a scheme-less URL pattern as `https://` only
/// (measured, doc/clients.md "The URL keys"), so denying the bare pattern
/// alone leaves `http://` open. `None` when the pattern has a scheme.
/// The flags (`--deny-url`) and `deniedUrls` both add it.
pub fn http_twin(pattern: &str) -> Option<String> {
    (!has_scheme(pattern)).then(|| format!("http://{pattern}"))
}

/// Whether a URL pattern names its scheme (`http://x`, `wss://x`), as
/// Copilot tells the two apart: by the `://` separator.
pub fn has_scheme(pattern: &str) -> bool {
    pattern.contains("://")
}

fn push_once(list: &mut Vec<String>, entry: String) {
    if !list.contains(&entry) {
        list.push(entry);
    }
}

/// The patterns measured to be refused by Copilot 1.0.102's URL pattern
/// parser (an empty one, one holding whitespace, a scheme with no host).
fn skipped_by_copilot(pattern: &str) -> bool {
    pattern.trim().is_empty()
        || pattern.chars().any(char::is_whitespace)
        || pattern.ends_with("://")
}

/// What the preview shows: the two owned keys as a JSON object (also the
/// whole content of a new settings file).
pub fn render(lists: &Lists) -> String {
    let mut out = String::from("{");
    for (i, (key, entries)) in lists.owned().into_iter().enumerate() {
        out.push_str(if i == 0 { "\n" } else { ",\n" });
        push_property(&mut out, key, entries, "  ", "  ");
    }
    if let Some(sandbox) = &lists.sandbox {
        out.push_str(",\n  ");
        push_object(&mut out, SANDBOX, sandbox, "  ");
    }
    out.push_str("\n}");
    out
}

/// `"key": value` (an object, two spaces a level) after `indent`.
fn push_object(out: &mut String, key: &str, value: &Value, indent: &str) {
    out.push_str(&json_string(key));
    out.push_str(": ");
    out.push_str(&pretty_at(value, indent));
}

/// `value` as indented JSON whose lines after the first start at `indent`.
fn pretty_at(value: &Value, indent: &str) -> String {
    // A `Value` always serializes.
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.replace('\n', &format!("\n{indent}"))
}

/// `"key": [ ... ]` at `indent`, its entries one level (`unit`) deeper.
fn push_property(out: &mut String, key: &str, entries: &[String], indent: &str, unit: &str) {
    out.push_str(indent);
    out.push_str(&json_string(key));
    out.push_str(": ");
    push_array(out, entries, indent, unit);
}

fn push_array(out: &mut String, entries: &[String], indent: &str, unit: &str) {
    if entries.is_empty() {
        out.push_str("[]");
        return;
    }
    out.push('[');
    for (i, entry) in entries.iter().enumerate() {
        out.push_str(if i == 0 { "\n" } else { ",\n" });
        out.push_str(indent);
        out.push_str(unit);
        out.push_str(&json_string(entry));
    }
    out.push('\n');
    out.push_str(indent);
    out.push(']');
}

fn json_string(s: &str) -> String {
    // A `&str` always serializes.
    serde_json::to_string(s).unwrap_or_default()
}

/// The `deniedUrls` entries of the existing settings `text` that `lists`
/// no longer holds: what the merge would take out of Copilot's deny list.
pub fn dropped_denies(text: &str, lists: &Lists, path: &Path) -> Result<Vec<String>> {
    let text = crate::bom::strip(text);
    let object = parse(text, path)?;
    let owned = owned_props(&object, text, path, false)?;
    let have = owned
        .iter()
        .find(|(name, _)| *name == DENIED)
        .and_then(|(_, prop)| strings(&prop.value))
        .unwrap_or_default();
    Ok(have
        .into_iter()
        .filter(|entry| !lists.denied.contains(entry))
        .collect())
}

/// Every `deniedUrls` entry twsrt writes for the srt document `srt`.
pub fn denies_of(srt: &Value) -> Vec<String> {
    let patterns = srt
        .pointer("/network/deniedDomains")
        .and_then(Value::as_array);
    let patterns = patterns.into_iter().flatten().filter_map(Value::as_str);
    patterns
        .flat_map(|p| std::iter::once(p.to_string()).chain(http_twin(p)))
        .collect()
}

/// The file as it is after `-w`: `existing` (the current text, `None` for
/// no file) with the two owned values replaced or added; a byte order
/// mark the file starts with is kept.
pub fn merge(existing: Option<&str>, lists: &Lists, path: &Path) -> Result<String> {
    let Some(text) = existing else {
        return Ok(render(lists) + "\n");
    };
    let unmarked = crate::bom::strip(text);
    let mark = &text[..text.len() - unmarked.len()];
    Ok(format!("{mark}{}", merge_unmarked(unmarked, lists, path)?))
}

/// [`merge`] into a file's text without its byte order mark.
fn merge_unmarked(text: &str, lists: &Lists, path: &Path) -> Result<String> {
    let object = parse(text, path)?;
    let owned = owned_props(&object, text, path, lists.sandbox.is_some())?;
    if object.properties.is_empty()
        && text[object.range.start + 1..object.range.end - 1]
            .trim()
            .is_empty()
    {
        // Nothing in the object to keep: a fresh one, in its place.
        let mut out = String::with_capacity(text.len() + 256);
        out.push_str(&text[..object.range.start]);
        out.push_str(&render(lists));
        out.push_str(&text[object.range.end..]);
        return Ok(out);
    }
    let (indent, unit) = indentation(&object, text);
    // (byte range to replace, replacement), applied back to front.
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let mut added = String::new();
    for (key, entries) in lists.owned() {
        let mut value = String::new();
        push_array(&mut value, entries, &indent, &unit);
        match owned.iter().find(|(name, _)| *name == key) {
            Some((_, prop)) => {
                let range = prop.value.range();
                edits.push((range.start, range.end, value));
            }
            None => {
                open_property(&mut added, object.properties.is_empty());
                push_property(&mut added, key, entries, &indent, &unit);
            }
        }
    }
    if let Some(sandbox) = &lists.sandbox {
        let value = pretty_at(sandbox, &indent);
        match owned.iter().find(|(name, _)| *name == SANDBOX) {
            Some((_, prop)) => {
                let range = prop.value.range();
                edits.push((range.start, range.end, value));
            }
            None => {
                open_property(&mut added, object.properties.is_empty());
                added.push_str(&indent);
                push_object(&mut added, SANDBOX, sandbox, &indent);
            }
        }
    }
    if !added.is_empty() {
        // After the last property (before a trailing comma or comment of
        // its own), or just inside the braces of an object with none.
        let at = match object.properties.last() {
            Some(last) => last.range.end,
            None => {
                added.push('\n');
                object.range.start + 1
            }
        };
        edits.push((at, at, added));
    }
    edits.sort_by_key(|(start, _, _)| std::cmp::Reverse(*start));
    let mut out = text.to_string();
    for (start, end, replacement) in edits {
        out.replace_range(start..end, &replacement);
    }
    Ok(out)
}

/// The top-level object of the file's text (without its byte order mark:
/// Copilot reads a marked file, and offsets are then the columns an editor
/// shows).
fn parse<'t>(text: &'t str, path: &Path) -> Result<ast::Object<'t>> {
    // Copilot reads its settings with comments and trailing commas.
    let options = ParseOptions {
        allow_trailing_commas: true,
        ..crate::fragment::strict_options()
    };
    let parsed = jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &options)
        .map_err(|e| at(text, path, e.range().start, e.kind().to_string()))?;
    match parsed.value {
        Some(ast::Value::Object(object)) => Ok(object),
        Some(other) => Err(at(
            text,
            path,
            other.range().start,
            "expected a JSON object at the top level".to_string(),
        )),
        None => Err(at(
            text,
            path,
            text.len(),
            "expected a JSON object, found no value".to_string(),
        )),
    }
}

fn at(text: &str, path: &Path, offset: usize, message: String) -> Error {
    let (line, column) = line_column(text, offset);
    Error::Jsonc {
        path: path.to_path_buf(),
        line,
        column,
        message: format!("{message}; fix or remove the Copilot settings file first"),
    }
}

/// The owned properties the file has (`sandbox` among them when `sandbox`
/// is owned). A key twice is an error: which of the two Copilot reads is
/// not documented, so neither can be replaced.
fn owned_props<'o, 't>(
    object: &'o ast::Object<'t>,
    text: &str,
    path: &Path,
    sandbox: bool,
) -> Result<Vec<(&'static str, &'o ast::ObjectProp<'t>)>> {
    let mut found: Vec<(&'static str, &ast::ObjectProp)> = Vec::new();
    let keys: &[&'static str] = if sandbox {
        &[ALLOWED, DENIED, SANDBOX]
    } else {
        &[ALLOWED, DENIED]
    };
    for prop in &object.properties {
        let Some(key) = keys.iter().copied().find(|k| *k == prop.name.as_str()) else {
            continue;
        };
        if found.iter().any(|(k, _)| *k == key) {
            return Err(at(
                text,
                path,
                prop.range.start,
                format!("{key} appears twice; keep one"),
            ));
        }
        found.push((key, prop));
    }
    Ok(found)
}

/// The indentation of the top-level keys and the step of one level: taken
/// from the first key when it starts its own line, two spaces otherwise.
fn indentation(object: &ast::Object, text: &str) -> (String, String) {
    let fallback = || ("  ".to_string(), "  ".to_string());
    let Some(first) = object.properties.first() else {
        return fallback();
    };
    let line_start = text[..first.range.start].rfind('\n').map_or(0, |i| i + 1);
    let lead = &text[line_start..first.range.start];
    if lead.is_empty() || !lead.chars().all(|c| c == ' ' || c == '\t') {
        return fallback();
    }
    (lead.to_string(), lead.to_string())
}

/// Every entry of the owned lists that differs between `lists` and the
/// file's text, with its direction; the file's other keys are not looked at.
pub fn compare(text: &str, lists: &Lists, path: &Path) -> Result<Vec<Difference>> {
    let text = crate::bom::strip(text);
    let object = parse(text, path)?;
    let owned = owned_props(&object, text, path, lists.sandbox.is_some())?;
    let mut differences = Vec::new();
    if let Some(want) = &lists.sandbox {
        // The whole object, compared as JSON: any difference (comments in
        // it included) counts as widening, since which way a change of a
        // sandbox policy goes is not modelled.
        let have = owned
            .iter()
            .find(|(name, _)| *name == SANDBOX)
            .and_then(|(_, prop)| {
                let range = prop.value.range();
                serde_json::from_str::<Value>(&text[range.start..range.end]).ok()
            });
        if have.as_ref() != Some(want) {
            differences.push(Difference::plain(
                SANDBOX,
                "(differs from the generated command sandbox)",
                Side::Missing,
                Direction::Widening,
            ));
        }
    }
    for (key, want) in lists.owned() {
        let have = match owned.iter().find(|(name, _)| *name == key) {
            None => Vec::new(),
            Some((_, prop)) => match strings(&prop.value) {
                Some(have) => have,
                None => {
                    // Copilot then drops the whole file, denies included
                    // (measured): wider, whatever the policy holds.
                    differences.push(Difference::plain(
                        key,
                        "(not a list of strings: Copilot ignores the whole file)",
                        Side::Extra,
                        Direction::Widening,
                    ));
                    continue;
                }
            },
        };
        differences.extend(super::drift::list(key, want, &have));
    }
    Ok(differences)
}

/// The strings of a list value; `None` for anything else (`null`
/// included: Copilot drops the whole file for it, measured).
fn strings(value: &ast::Value) -> Option<Vec<String>> {
    match value {
        ast::Value::Array(array) => array
            .elements
            .iter()
            .map(|e| match e {
                ast::Value::StringLit(s) => Some(s.value.to_string()),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

#[cfg(test)]
mod tests;

/// A generation warning of this agent.
fn warning(code: Code, message: impl Into<String>) -> crate::diag::Diagnostic {
    crate::agent::warning("copilot", code, message)
}

/// Starts a property appended to an object: after a comma when something
/// comes before it (a property of the file, or one added just before).
fn open_property(added: &mut String, object_empty: bool) {
    added.push_str(if object_empty && added.is_empty() {
        "\n"
    } else {
        ",\n"
    });
}
