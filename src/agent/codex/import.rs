//! `twsrt import codex`: a Codex config.toml permission profile and its
//! `.rules` files read back into policy terms, the inverse of
//! [`super::render`] and [`super::policy`].
//!
//! - the profile `default_permissions` names (or the only one):
//!   `filesystem` `"p" = "deny"` is a denyRead (also for a glob, which
//!   twsrt writes for a glob denyWrite too: the stricter reading),
//!   `"read"` a denyWrite, `"write"` an allowWrite; the
//!   `":workspace_roots"` table's relative paths the same, relative;
//!   `workspace_roots` entries allowWrite paths; `network.domains` the
//!   allowed and denied domains; `network.unix_sockets` and
//!   `dangerously_allow_all_unix_sockets` srt's `allowUnixSockets` and
//!   `allowAllUnixSockets`;
//! - `prefix_rule(pattern = [...], decision = ...)`: `forbidden` is a bash
//!   deny, `prompt` an ask, `allow` an allow; the words joined as a shell
//!   would split them back, one rule per alternative.
//!
//! `sandbox_mode` and `[sandbox_workspace_write]` are read by
//! [`super::import_sandbox`]; `approval_policy` and every other key stay in
//! the file.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::import_rules::{self, PrefixRule};
use crate::agent::import::{Ctx, Entry, Imported, Importer, Left, List, Origin};
use crate::error::{Error, Result};

pub struct CodexImport;

impl Importer for CodexImport {
    fn import(&self, ctx: &Ctx) -> Result<Imported> {
        let (config, rules) = sources(ctx)?;
        let mut out = Imported::default();
        if let Some(path) = config {
            let text = read(&path)?;
            let doc = crate::tomltext::parse_document(&text, &path)?;
            let json = crate::tomltext::toml_to_json(doc.as_item()).unwrap_or(Value::Null);
            import_config(&json, &path, &mut out);
            out.sources.push(path);
        }
        for path in rules {
            let text = read(&path)?;
            import_rules(&text, &path, &mut out);
            out.sources.push(path);
        }
        Ok(out)
    }
}

/// The config.toml and the rules files to read: `--from` (a `.rules` file
/// or a config.toml), else the targets config.toml names, else Codex's
/// own (`~/.codex/config.toml`, every `~/.codex/rules/*.rules`).
fn sources(ctx: &Ctx) -> Result<(Option<PathBuf>, Vec<PathBuf>)> {
    if let Some(from) = ctx.from {
        return Ok(if from.extension().is_some_and(|e| e == "rules") {
            (None, vec![from.to_path_buf()])
        } else {
            (Some(from.to_path_buf()), Vec::new())
        });
    }
    let home = ctx.home.join(".codex");
    let config = ctx
        .config
        .targets
        .path("codex_config")
        .map_or_else(|| home.join("config.toml"), Path::to_path_buf);
    let rules = match ctx.config.targets.path("codex_rules") {
        Some(path) => vec![path.to_path_buf()]
            .into_iter()
            .filter(|p| p.exists())
            .collect(),
        None => {
            let dir = home.join("rules");
            let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
                .into_iter()
                .flatten()
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "rules"))
                .collect();
            found.sort();
            found
        }
    };
    let config = config.exists().then_some(config);
    if config.is_none() && rules.is_empty() {
        return Err(Error::target(
            &home.join("config.toml"),
            "does not exist and no .rules file was found; name the Codex config.toml or \
             .rules file to import with --from",
        ));
    }
    Ok((config, rules))
}

fn read(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    crate::text_position::utf8(bytes).map_err(|at| Error::toml_not_utf8(path, at))
}

/// The permission profile of config.toml `doc`, read from `path`.
pub fn import_config(doc: &Value, path: &Path, out: &mut Imported) {
    let Some(root) = doc.as_object() else {
        return;
    };
    let profiles = root.get("permissions").and_then(Value::as_object);
    let chosen = root
        .get("default_permissions")
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| {
            let names: Vec<&String> = profiles.into_iter().flat_map(|p| p.keys()).collect();
            (names.len() == 1).then(|| names[0].clone())
        });
    for (key, value) in root {
        let at = Origin::new(path, format!("/{key}"));
        match key.as_str() {
            "permissions" => {}
            "default_permissions" => out.left.push(Left::untranslatable(
                key.as_str(),
                at,
                "twsrt sets it to its own profile, \"twsrt\", on generate -w",
            )),
            "approval_policy" | "approvals_reviewer" | "allow_login_shell" => {
                out.left.push(Left::untranslatable(
                    key.as_str(),
                    at,
                    format!(
                        "no policy meaning; twsrt writes its own value on generate -w (was {value})"
                    ),
                ))
            }
            "sandbox_mode" => super::import_sandbox::sandbox_mode(value, at, out),
            "sandbox_workspace_write" => super::import_sandbox::workspace_write(value, path, out),
            _ => out.left.push(Left::kept(
                key.as_str(),
                at,
                "no policy meaning; twsrt keeps it",
            )),
        }
    }
    for (name, profile) in profiles.into_iter().flatten() {
        let at = Origin::new(path, format!("/permissions/{name}"));
        match (Some(name) == chosen.as_ref(), profile.as_object()) {
            (true, Some(profile)) => read_profile(profile, path, name, out),
            _ => out.left.push(Left::kept(
                format!("[permissions.{name}]"),
                at,
                "not the profile default_permissions names; twsrt keeps it",
            )),
        }
    }
}

fn read_profile(profile: &Map<String, Value>, path: &Path, name: &str, out: &mut Imported) {
    let base = format!("/permissions/{name}");
    for (key, value) in profile {
        let pointer = format!("{base}/{key}");
        match (key.as_str(), value) {
            ("filesystem", Value::Object(fs)) => filesystem(fs, path, &pointer, out),
            ("workspace_roots", Value::Object(roots)) => {
                for (root, on) in roots {
                    if on == &Value::Bool(true) {
                        let at = Origin::new(path, format!("{pointer}/{}", escape(root)));
                        out.add(Entry::listed(List::AllowWrite, root.as_str(), at));
                    }
                }
            }
            ("network", Value::Object(network)) => read_network(network, path, &pointer, out),
            _ => out.left.push(Left::kept(
                format!("permissions.{name}.{key}"),
                Origin::new(path, pointer),
                "no policy meaning; twsrt keeps it",
            )),
        }
    }
}

fn access_list(access: &str) -> Option<List> {
    match access {
        "deny" => Some(List::DenyRead),
        "read" => Some(List::DenyWrite),
        "write" => Some(List::AllowWrite),
        _ => None,
    }
}

fn filesystem(fs: &Map<String, Value>, path: &Path, pointer: &str, out: &mut Imported) {
    for (key, value) in fs {
        let at = Origin::new(path, format!("{pointer}/{}", escape(key)));
        match value {
            Value::String(access) if !key.starts_with(':') => match access_list(access) {
                Some(list) => out.add(Entry::listed(list, key.as_str(), at)),
                None => out.left.push(unknown_access(key, access, at)),
            },
            Value::Object(inside) if key == ":workspace_roots" => {
                for (glob, access) in inside {
                    let at = Origin::new(path, format!("{}/{}", at.at, escape(glob)));
                    match access.as_str().and_then(access_list) {
                        Some(list) => out.add(Entry::listed(list, glob.as_str(), at)),
                        None => out.left.push(unknown_access(glob, &access.to_string(), at)),
                    }
                }
            }
            _ => out.left.push(Left::untranslatable(
                format!("filesystem \"{key}\""),
                at,
                "a Codex special path or value the policy has no list for",
            )),
        }
    }
}

fn unknown_access(key: &str, access: &str, at: Origin) -> Left {
    Left::untranslatable(
        format!("filesystem \"{key}\" = {access}"),
        at,
        "an access other than deny, read or write",
    )
}

fn read_network(network: &Map<String, Value>, path: &Path, pointer: &str, out: &mut Imported) {
    for (key, value) in network {
        let at = Origin::new(path, format!("{pointer}/{key}"));
        match (key.as_str(), value) {
            ("enabled", _) => {}
            ("dangerously_allow_all_unix_sockets", Value::Bool(on)) => out.add(Entry::setting(
                "/network/allowAllUnixSockets",
                Value::Bool(*on),
                at,
            )),
            ("domains", Value::Object(domains)) => {
                for (domain, decision) in domains {
                    let at = Origin::new(path, format!("{}/{}", at.at, escape(domain)));
                    match decision.as_str() {
                        Some("allow") => {
                            out.add(Entry::listed(List::AllowedDomains, domain.as_str(), at))
                        }
                        Some("deny") => {
                            out.add(Entry::listed(List::DeniedDomains, domain.as_str(), at))
                        }
                        _ => out.left.push(Left::untranslatable(
                            format!("domain \"{domain}\" = {decision}"),
                            at,
                            "a decision other than allow or deny",
                        )),
                    }
                }
            }
            ("unix_sockets", Value::Object(sockets)) => {
                let allowed: Vec<Value> = sockets
                    .iter()
                    .filter(|(_, v)| v.as_str() == Some("allow"))
                    .map(|(k, _)| Value::String(k.clone()))
                    .collect();
                if !allowed.is_empty() {
                    out.add(Entry::setting(
                        "/network/allowUnixSockets",
                        Value::Array(allowed),
                        at,
                    ));
                }
            }
            _ => out.left.push(Left::kept(
                format!("network.{key}"),
                at,
                "a Codex network setting srt does not have; twsrt keeps it",
            )),
        }
    }
}

/// RFC 6901 escaping of one pointer token.
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The `prefix_rule`s of the rules file `text`, read from `path`.
pub fn import_rules(text: &str, path: &Path, out: &mut Imported) {
    let read = import_rules::read(text);
    for rule in &read.rules {
        let at = Origin::new(path, format!("line {}", rule.line));
        let list = match rule.decision.as_str() {
            "forbidden" => List::BashDeny,
            "prompt" => List::BashAsk,
            "allow" => List::BashAllow,
            other => {
                out.left.push(Left::untranslatable(
                    format!("prefix_rule decision \"{other}\""),
                    at,
                    "a decision other than forbidden, prompt or allow",
                ));
                continue;
            }
        };
        for words in expand(rule) {
            let command: Vec<String> = words.iter().map(|w| crate::shellwords::quote(w)).collect();
            out.add(Entry::listed(list, command.join(" "), at.clone()));
        }
    }
    for (line, what) in read.unread {
        out.left.push(Left::untranslatable(
            what,
            Origin::new(path, format!("line {line}")),
            "the rest of the file was not read: move its rules into a bash fragment by hand",
        ));
    }
}

/// Every word list a pattern with alternatives stands for.
pub(super) fn expand(rule: &PrefixRule) -> Vec<Vec<String>> {
    rule.pattern
        .iter()
        .fold(vec![Vec::new()], |acc, alternatives| {
            acc.iter()
                .flat_map(|prefix| {
                    alternatives.iter().map(move |word| {
                        let mut next = prefix.clone();
                        next.push(word.clone());
                        next
                    })
                })
                .collect()
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::import::{Fate, Put};

    fn config(text: &str) -> Imported {
        let doc = crate::tomltext::parse_document(text, Path::new("c.toml")).unwrap();
        let json = crate::tomltext::toml_to_json(doc.as_item()).unwrap();
        let mut out = Imported::default();
        import_config(&json, Path::new("/h/.codex/config.toml"), &mut out);
        out
    }

    #[test]
    fn the_default_profile_is_read_into_srt_lists() {
        let out = config(
            r#"model = "o3"
sandbox_mode = "workspace-write"
approval_policy = "never"
default_permissions = "mine"

[permissions.mine.workspace_roots]
"~/dev" = true

[permissions.mine.filesystem]
"~/.ssh" = "deny"
"~/.gitconfig" = "read"
"/tmp/x" = "write"

[permissions.mine.filesystem.":workspace_roots"]
"**/.env" = "deny"
"build/" = "write"

[permissions.mine.network.domains]
"github.com" = "allow"
"evil.com" = "deny"

[permissions.mine.network.unix_sockets]
"/var/run/docker.sock" = "allow"

[permissions.other.filesystem]
"/" = "write"
"#,
        );
        let list = |l| out.list(l).collect::<Vec<_>>();
        assert_eq!(list(List::DenyRead), ["~/.ssh", "**/.env"]);
        assert_eq!(list(List::DenyWrite), ["~/.gitconfig"]);
        // sandbox_mode = "workspace-write" is the working directory.
        assert_eq!(list(List::AllowWrite), [".", "~/dev", "/tmp/x", "build/"]);
        assert_eq!(list(List::AllowedDomains), ["github.com"]);
        assert_eq!(list(List::DeniedDomains), ["evil.com"]);
        assert!(out.entries.iter().any(|e| e.value
            == Put::Setting(
                "/network/allowUnixSockets".into(),
                serde_json::json!(["/var/run/docker.sock"])
            )));
        assert_eq!(out.entries[0].origins[0].at, "/sandbox_mode");
        let origin = &out.entries[1].origins[0];
        assert_eq!(origin.at, "/permissions/mine/workspace_roots/~0~1dev");
        let left = |what: &str| out.left.iter().find(|l| l.what == what).map(|l| l.fate);
        assert_eq!(left("sandbox_mode"), Some(Fate::Remove));
        assert_eq!(left("model"), Some(Fate::Kept));
        assert_eq!(left("approval_policy"), Some(Fate::Untranslatable));
        assert_eq!(left("default_permissions"), Some(Fate::Untranslatable));
        assert_eq!(left("[permissions.other]"), Some(Fate::Kept));
    }

    #[test]
    fn prefix_rules_are_bash_rules_of_their_decision() {
        let mut out = Imported::default();
        import_rules(
            "prefix_rule(pattern = [\"git\", \"push\"], decision = \"forbidden\")\n\
             prefix_rule(pattern = [\"gh\", [\"pr\", \"issue\"]], decision = \"prompt\")\n\
             prefix_rule(pattern = [\"echo\", \"a b\"], decision = \"allow\")\n\
             prefix_rule(pattern = [\"x\"], decision = \"maybe\")\n",
            Path::new("/h/.codex/rules/default.rules"),
            &mut out,
        );
        assert_eq!(out.list(List::BashDeny).collect::<Vec<_>>(), ["git push"]);
        assert_eq!(
            out.list(List::BashAsk).collect::<Vec<_>>(),
            ["gh pr", "gh issue"]
        );
        assert_eq!(
            out.list(List::BashAllow).collect::<Vec<_>>(),
            ["echo 'a b'"]
        );
        assert_eq!(out.entries[1].origins[0].at, "line 2");
        assert_eq!(out.left[0].what, "prefix_rule decision \"maybe\"");
        assert_eq!(out.left[0].fate, Fate::Untranslatable);
    }
}
