//! `twsrt import claude`: a Claude Code settings file read back into policy
//! terms, the inverse of [`super::render`].
//!
//! - `permissions.deny` `Read(p)` and `Edit(p)` of one path are one srt
//!   denyRead (twsrt renders a denyRead as both), `Edit(p)` alone a
//!   denyWrite, a `Read(p)` alone a denyRead too (which also denies
//!   writing: stricter, and said so); `p` and `p/**` are one path;
//! - `Edit(p)` allows are allowWrite, `WebFetch(domain:d)` rules and
//!   `sandbox.network.allowedDomains`/`deniedDomains` the srt domains;
//! - `Bash(cmd)`, `Bash(cmd *)` and the legacy `Bash(cmd:*)` are the bash
//!   rule `cmd` of their list (`cmd:*` means both of the others:
//!   doc/clients.md, "Claude Code's legacy `Bash(CMD:*)` rules");
//! - `sandbox.filesystem` lists are srt's, the srt pass-through keys of
//!   `sandbox` and `sandbox.network` srt settings (unless a
//!   `[sandbox_overrides]` table sets them: then the file shows the
//!   override, not the policy).
//!
//! Paths come back as Claude Code reads them: `//p` is the absolute `/p`,
//! `~/p` stays, a single leading `/` is relative to the settings file's
//! directory (SECURITY_CONCEPT.md, "Claude Code: where a path points"), so
//! `Read(/etc/x)` in `~/.claude/settings.json` protects `~/.claude/etc/x`
//! and is imported as that, with a note; a relative rule path stays
//! relative (the launch directory, as srt reads it), a relative sandbox
//! list path is anchored at the settings file's directory.
//!
//! Everything else is left in the file: what twsrt never writes is kept
//! there, what sits in a list twsrt replaces (a deny of another tool) is
//! reported as untranslatable.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::render::{NETWORK_KEYS, SANDBOX_KEYS};
use crate::agent::import::{Ctx, Entry, Imported, Importer, Left, List, Origin, Put, tilde};
use crate::error::{Error, Result};

pub struct ClaudeImport;

impl Importer for ClaudeImport {
    fn import(&self, ctx: &Ctx) -> Result<Imported> {
        let path = match ctx.from {
            // A single-slash rule path starts at the file's directory: a
            // relative --from names it from the launch directory.
            Some(from) => {
                let cwd = std::env::current_dir().map_err(|e| Error::io(from, e))?;
                crate::paths::absolute_normalised(from, &cwd)
            }
            None if ctx.config.targets.contains("claude_settings") => {
                super::anchor_path(ctx.config)
            }
            None => ctx.home.join(".claude").join(super::anchor::ANCHOR_NAME),
        };
        let text = match std::fs::read(&path) {
            Ok(bytes) => {
                crate::text_position::utf8(bytes).map_err(|at| Error::jsonc_not_utf8(&path, at))?
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(Error::target(
                    &path,
                    "does not exist; name the Claude Code settings file to import with --from",
                ));
            }
            Err(e) => return Err(Error::io(&path, e)),
        };
        let doc = crate::fragment::parse(&text, &path)?;
        let overridden = |key: &str| {
            [false, true]
                .iter()
                .any(|&yolo| ctx.config.overrides(yolo).contains_key(key))
        };
        Ok(import_settings(&doc, &path, ctx.home, &overridden))
    }
}

/// The settings document `doc`, read from `path`, in policy terms.
/// `overridden` says which `sandbox` keys a `[sandbox_overrides]` table sets.
pub fn import_settings(
    doc: &Value,
    path: &Path,
    home: &Path,
    overridden: &dyn Fn(&str) -> bool,
) -> Imported {
    let mut out = Imported {
        sources: vec![path.to_path_buf()],
        ..Imported::default()
    };
    let reader = Reader {
        file: path,
        dir: path.parent().unwrap_or(Path::new("")).to_path_buf(),
        home,
    };
    let Some(root) = doc.as_object() else {
        return out;
    };
    for (key, value) in root {
        match (key.as_str(), value) {
            ("permissions", Value::Object(permissions)) => {
                reader.permissions(permissions, &mut out)
            }
            ("sandbox", Value::Object(sandbox)) => reader.sandbox(sandbox, overridden, &mut out),
            ("hooks", Value::Object(hooks)) => reader.hooks(hooks, &mut out),
            _ => out.left.push(Left::kept(
                format!("\"{key}\""),
                reader.at(&format!("/{key}")),
                top_level_reason(key),
            )),
        }
    }
    out
}

fn top_level_reason(key: &str) -> &'static str {
    match key {
        "hooks" => {
            "hooks have no policy meaning; twsrt keeps them (with [targets] claude_hook it \
             writes only its own guard entry)"
        }
        "permissions" | "sandbox" => "not an object; twsrt refuses to merge into it",
        _ => "no policy meaning; twsrt keeps it",
    }
}

struct Reader<'a> {
    file: &'a Path,
    /// The settings file's directory, where a single-slash path starts.
    dir: PathBuf,
    home: &'a Path,
}

/// A permission list, as the rules in it are read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Perm {
    Deny,
    Ask,
    Allow,
}

impl Reader<'_> {
    fn at(&self, pointer: &str) -> Origin {
        Origin::new(self.file, pointer)
    }

    /// The hooks stay; twsrt's own guard entry is named as what it is.
    fn hooks(&self, hooks: &Map<String, Value>, out: &mut Imported) {
        out.left.push(Left::kept(
            "\"hooks\"",
            self.at("/hooks"),
            top_level_reason("hooks"),
        ));
        let entries = hooks.get("PreToolUse").and_then(Value::as_array);
        for (i, entry) in entries.into_iter().flatten().enumerate() {
            if super::hook_entry::is_ours(entry) {
                out.left.push(Left::kept(
                    "twsrt's own guard hook entry",
                    self.at(&format!("/hooks/PreToolUse/{i}")),
                    "twsrt writes it with [targets] claude_hook = true (set that to keep it \
                     managed)",
                ));
            }
        }
    }

    fn permissions(&self, permissions: &Map<String, Value>, out: &mut Imported) {
        let mut paths = Paths::default();
        let mut bash = Bash::default();
        for (key, value) in permissions {
            let perm = match key.as_str() {
                "deny" => Perm::Deny,
                "ask" => Perm::Ask,
                "allow" => Perm::Allow,
                _ => {
                    out.left.push(Left::kept(
                        format!("permissions.{key}"),
                        self.at(&format!("/permissions/{key}")),
                        "no policy meaning; twsrt keeps it",
                    ));
                    continue;
                }
            };
            let items = value.as_array().map_or(&[][..], Vec::as_slice);
            for (i, item) in items.iter().enumerate() {
                let origin = self.at(&format!("/permissions/{key}/{i}"));
                match item.as_str() {
                    Some(rule) => self.rule(perm, rule, origin, &mut paths, &mut bash, out),
                    None => out
                        .left
                        .push(left(perm, item.to_string(), origin, "not a string")),
                }
            }
        }
        paths.finish(out);
        bash.finish(out);
    }

    fn rule(
        &self,
        perm: Perm,
        rule: &str,
        origin: Origin,
        paths: &mut Paths,
        bash: &mut Bash,
        out: &mut Imported,
    ) {
        let (tool, content) = split_rule(rule);
        // `Read()` names no path: it falls to the rules the policy has no
        // list for, rather than becoming an empty pattern.
        let content = content.filter(|c| !c.trim().is_empty());
        match (perm, tool, content) {
            (Perm::Deny, "Read", Some(p)) | (Perm::Deny, "Edit", Some(p)) => {
                let (path, note) = self.rule_path(tool, p);
                let to = if tool == "Read" {
                    &mut paths.read
                } else {
                    &mut paths.edit
                };
                to.push((path, origin, note));
            }
            (Perm::Allow, "Edit", Some(p)) => {
                let (path, note) = self.rule_path(tool, p);
                paths.write.push((path, origin, note));
            }
            (Perm::Deny | Perm::Allow, "WebFetch", Some(c))
                if c.len() > "domain:".len() && c.starts_with("domain:") =>
            {
                let list = if perm == Perm::Deny {
                    List::DeniedDomains
                } else {
                    List::AllowedDomains
                };
                out.add(Entry::listed(list, &c["domain:".len()..], origin));
            }
            (_, "Bash", Some(command)) => match bash_rule(command) {
                Some((command, shape)) => bash.add(perm, command, shape, origin),
                None => out.left.push(left(
                    perm,
                    rule.to_string(),
                    origin,
                    "a wildcard inside the command: bash rules are command prefixes",
                )),
            },
            (Perm::Allow, "Read", _) => out.left.push(Left::kept(
                rule,
                origin,
                "srt reads everything not denied: a Read allow has no policy meaning; twsrt keeps it",
            )),
            (_, tool, _) if tool.starts_with("mcp__") => out.left.push(left(
                perm,
                rule.to_string(),
                origin,
                "an MCP tool: the policy has no MCP rules",
            )),
            _ => out.left.push(left(
                perm,
                rule.to_string(),
                origin,
                &format!("a rule for the {tool} tool: the policy has no such rule"),
            )),
        }
    }

    /// A Read/Edit rule path as Claude Code reads it, and a note when that
    /// differs from how it is written.
    fn rule_path(&self, tool: &str, path: &str) -> (String, Option<String>) {
        if let Some(rest) = path.strip_prefix("//") {
            return (format!("/{}", rest.trim_start_matches('/')), None);
        }
        if let Some(rest) = path.strip_prefix('/') {
            let anchored = tilde(&self.dir.join(rest), self.home);
            let note = format!(
                "{tool}({path}): Claude Code reads a single leading `/` relative to the settings \
                 file's directory ({}), so the rule protects {anchored}, imported as that (the \
                 absolute path is written {tool}(/{path}))",
                tilde(&self.dir, self.home)
            );
            return (anchored, Some(note));
        }
        (path.to_string(), None)
    }

    /// A `sandbox.filesystem` path as Claude Code reads it.
    fn sandbox_path(&self, list: &str, path: &str) -> (String, Option<String>) {
        if path.starts_with("//") || path.starts_with('/') {
            return self.rule_path(&format!("sandbox.filesystem.{list}"), path);
        }
        if path == "~" || path.starts_with("~/") {
            return (path.to_string(), None);
        }
        let anchored = tilde(&self.dir.join(path), self.home);
        let note = format!(
            "sandbox.filesystem.{list} \"{path}\": Claude Code anchors a relative sandbox path at \
             the settings file's directory ({}), so it means {anchored}, imported as that",
            tilde(&self.dir, self.home)
        );
        (anchored, Some(note))
    }

    fn sandbox(
        &self,
        sandbox: &Map<String, Value>,
        overridden: &dyn Fn(&str) -> bool,
        out: &mut Imported,
    ) {
        for (key, value) in sandbox {
            let pointer = format!("/sandbox/{key}");
            match (key.as_str(), value) {
                (_, _) if overridden(key) => out.left.push(Left::kept(
                    format!("sandbox.{key}"),
                    self.at(&pointer),
                    "[sandbox_overrides] in config.toml sets it",
                )),
                ("network", Value::Object(network)) => self.network(network, out),
                ("filesystem", Value::Object(filesystem)) => self.filesystem(filesystem, out),
                (key, value) if SANDBOX_KEYS.contains(&key) => out.add(Entry::setting(
                    format!("/{key}"),
                    value.clone(),
                    self.at(&pointer),
                )),
                _ => out.left.push(Left::kept(
                    format!("sandbox.{key}"),
                    self.at(&pointer),
                    "a Claude Code sandbox setting srt does not have; twsrt keeps it (or set it \
                     in [sandbox_overrides])",
                )),
            }
        }
    }

    fn network(&self, network: &Map<String, Value>, out: &mut Imported) {
        for (key, value) in network {
            let pointer = format!("/sandbox/network/{key}");
            let list = match key.as_str() {
                "allowedDomains" => List::AllowedDomains,
                "deniedDomains" => List::DeniedDomains,
                key if NETWORK_KEYS.contains(&key) => {
                    out.add(Entry::setting(
                        format!("/network/{key}"),
                        value.clone(),
                        self.at(&pointer),
                    ));
                    continue;
                }
                _ => {
                    out.left.push(Left::kept(
                        format!("sandbox.network.{key}"),
                        self.at(&pointer),
                        "a Claude Code network setting srt does not have; twsrt keeps it",
                    ));
                    continue;
                }
            };
            for (i, item) in value.as_array().into_iter().flatten().enumerate() {
                if let Some(domain) = item.as_str() {
                    out.add(Entry::listed(
                        list,
                        domain,
                        self.at(&format!("{pointer}/{i}")),
                    ));
                }
            }
        }
    }

    fn filesystem(&self, filesystem: &Map<String, Value>, out: &mut Imported) {
        for (key, value) in filesystem {
            let pointer = format!("/sandbox/filesystem/{key}");
            let list = match key.as_str() {
                "denyRead" => List::DenyRead,
                "denyWrite" => List::DenyWrite,
                "allowWrite" => List::AllowWrite,
                "allowRead" => List::AllowRead,
                _ => {
                    out.left.push(Left::kept(
                        format!("sandbox.filesystem.{key}"),
                        self.at(&pointer),
                        "a Claude Code filesystem setting srt does not have; twsrt keeps it",
                    ));
                    continue;
                }
            };
            for (i, item) in value.as_array().into_iter().flatten().enumerate() {
                if let Some(path) = item.as_str() {
                    let (path, note) = self.sandbox_path(key, path);
                    let entry = Entry::listed(list, path, self.at(&format!("{pointer}/{i}")));
                    out.add(match note {
                        Some(note) => entry.noted(note),
                        None => entry,
                    });
                }
            }
        }
    }
}

/// What stays of a rule import cannot translate: in `deny` and `ask`,
/// which twsrt replaces, it is untranslatable; an allow twsrt keeps.
fn left(perm: Perm, what: String, origin: Origin, reason: &str) -> Left {
    match perm {
        Perm::Allow => Left::kept(
            what,
            origin,
            format!("{reason}; twsrt keeps every allow it does not write"),
        ),
        Perm::Deny | Perm::Ask => Left::untranslatable(
            what,
            origin,
            format!(
                "{reason}; `generate -w` keeps it in Claude's file beside twsrt's entries \
                 (only Claude Code enforces it; --drop-foreign removes it)"
            ),
        ),
    }
}

/// `Tool(content)` as (tool, content); a bare `Tool` has no content.
fn split_rule(rule: &str) -> (&str, Option<&str>) {
    match rule.split_once('(') {
        Some((tool, rest)) => match rest.strip_suffix(')') {
            Some(content) => (tool, Some(content)),
            None => (rule, None),
        },
        None => (rule, None),
    }
}

/// How a Bash rule spells its command.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// `Bash(cmd)`: the command alone.
    Exact,
    /// `Bash(cmd *)`: the command with arguments.
    Args,
    /// `Bash(cmd:*)`: both.
    Prefix,
}

/// The bash rule of a Bash rule's content; `None` for a wildcard the
/// prefix rules cannot say.
fn bash_rule(content: &str) -> Option<(&str, Shape)> {
    let (command, shape) = if let Some(c) = content.strip_suffix(":*") {
        (c, Shape::Prefix)
    } else if let Some(c) = content.strip_suffix(" *") {
        (c, Shape::Args)
    } else {
        (content, Shape::Exact)
    };
    let command = command.trim();
    (!command.is_empty() && !command.contains('*')).then_some((command, shape))
}

/// The Bash rules of the three lists, by command, until all are read.
#[derive(Default)]
struct Bash {
    rules: Vec<(Perm, String, Vec<Shape>, Vec<Origin>)>,
}

impl Bash {
    fn add(&mut self, perm: Perm, command: &str, shape: Shape, origin: Origin) {
        match self
            .rules
            .iter_mut()
            .find(|(p, c, _, _)| *p == perm && c == command)
        {
            Some((_, _, shapes, origins)) => {
                shapes.push(shape);
                origins.push(origin);
            }
            None => self
                .rules
                .push((perm, command.to_string(), vec![shape], vec![origin])),
        }
    }

    fn finish(self, out: &mut Imported) {
        for (perm, command, shapes, origins) in self.rules {
            let list = match perm {
                Perm::Deny => List::BashDeny,
                Perm::Ask => List::BashAsk,
                Perm::Allow => List::BashAllow,
            };
            let both = shapes.contains(&Shape::Prefix)
                || (shapes.contains(&Shape::Exact) && shapes.contains(&Shape::Args));
            let mut entry = Entry {
                value: Put::Entry(list, command.clone()),
                origins,
                note: None,
            };
            if !both {
                let written = if shapes.contains(&Shape::Exact) {
                    format!("Bash({command})")
                } else {
                    format!("Bash({command} *)")
                };
                entry = entry.noted(format!(
                    "{written}: the bash rule \"{command}\" covers the command with and without \
                     arguments (Bash({command}) and Bash({command} *))"
                ));
            }
            out.add(entry);
        }
    }
}

/// Read and Edit rule paths, paired once all rules are read.
#[derive(Default)]
struct Paths {
    read: Vec<(String, Origin, Option<String>)>,
    edit: Vec<(String, Origin, Option<String>)>,
    write: Vec<(String, Origin, Option<String>)>,
}

impl Paths {
    fn finish(self, out: &mut Imported) {
        let read = by_path(self.read);
        let edit = by_path(self.edit);
        for (path, (origins, note)) in &read {
            let mut origins = origins.clone();
            let mut note = note.clone();
            match edit.get(path) {
                Some((edit_origins, edit_note)) => {
                    origins.extend(edit_origins.iter().cloned());
                    note = note.or(edit_note.clone());
                }
                None => {
                    let only = format!(
                        "Read({path}) without an Edit rule: a denyRead also denies writing it \
                         (stricter than the file)"
                    );
                    note = Some(note.map_or(only.clone(), |n| format!("{n}\n{only}")));
                }
            }
            push(out, List::DenyRead, path, origins, note);
        }
        for (path, (origins, note)) in edit {
            if !read.contains_key(&path) {
                push(out, List::DenyWrite, &path, origins, note);
            }
        }
        for (path, (origins, note)) in by_path(self.write) {
            push(out, List::AllowWrite, &path, origins, note);
        }
    }
}

fn push(out: &mut Imported, list: List, path: &str, origins: Vec<Origin>, note: Option<String>) {
    out.add(Entry {
        value: Put::Entry(list, path.to_string()),
        origins,
        note,
    });
}

type Grouped = BTreeMap<String, (Vec<Origin>, Option<String>)>;

/// The paths, `p/**` folded into `p` when `p` is there too, sorted.
fn by_path(rules: Vec<(String, Origin, Option<String>)>) -> Grouped {
    let bare: std::collections::HashSet<String> = rules.iter().map(|(p, _, _)| p.clone()).collect();
    let mut grouped: Grouped = BTreeMap::new();
    for (path, origin, note) in rules {
        let key = match path.strip_suffix("/**") {
            Some(stem) if bare.contains(stem) => stem.to_string(),
            Some("") if bare.contains("/") => "/".to_string(),
            _ => path,
        };
        let slot = grouped.entry(key).or_default();
        slot.0.push(origin);
        if slot.1.is_none() {
            slot.1 = note;
        }
    }
    grouped
}

#[cfg(test)]
#[path = "import_tests.rs"]
mod tests;
