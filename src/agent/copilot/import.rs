//! `twsrt import copilot`: Copilot CLI's launch flags (a flags file as
//! twsrt writes it, an alias, a shell line) or its settings file read back
//! into policy terms, the inverse of [`super::Copilot::flags`] and
//! [`super::settings`].
//!
//! - `--deny-tool 'shell(CMD)'` is a bash deny (twsrt writes an ask rule
//!   this way too: Copilot has no ask tier, so deny is the reading that
//!   keeps what the flag does), `--allow-tool 'shell(CMD)'` a bash allow;
//! - `--allow-url D` and `--deny-url D` (also `http://D`, the twin twsrt
//!   adds) the allowed and denied domains; the settings file's
//!   `allowedUrls` and `deniedUrls` the same;
//! - a tool allow without a command (`--allow-tool shell`, `write`) names
//!   no path: twsrt writes those for any allowWrite, so they are listed,
//!   not imported; `--yolo` and every other flag or word stay where they
//!   are.
//!
//! The words are split as a shell splits them ([`crate::shellwords`]),
//! line by line (a trailing `\` is dropped).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::agent::import::{Ctx, Entry, Imported, Importer, Left, List, Origin};
use crate::error::{Error, Result};

pub struct CopilotImport;

impl Importer for CopilotImport {
    fn import(&self, ctx: &Ctx) -> Result<Imported> {
        let path = source(ctx)?;
        let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
        let text =
            crate::text_position::utf8(bytes).map_err(|at| Error::jsonc_not_utf8(&path, at))?;
        let mut out = Imported {
            sources: vec![path.clone()],
            ..Imported::default()
        };
        if path.extension().is_some_and(|e| e == "json") {
            let doc = parse_settings(&text, &path)?;
            import_settings(&doc, &path, &mut out);
        } else {
            import_flags(&text, &path, &mut out)?;
        }
        Ok(out)
    }
}

/// `--from`, else the flags file config.toml names, else Copilot's own
/// settings file (the one `copilot_settings` names, or
/// `~/.copilot/settings.json`).
fn source(ctx: &Ctx) -> Result<PathBuf> {
    if let Some(from) = ctx.from {
        return Ok(from.to_path_buf());
    }
    let candidates = [
        ctx.config
            .targets
            .path("copilot_output")
            .map(Path::to_path_buf),
        ctx.config
            .targets
            .path("copilot_settings")
            .map(Path::to_path_buf),
        Some(ctx.home.join(".copilot").join("settings.json")),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|p| p.is_file())
        .ok_or_else(|| {
            Error::target(
                &ctx.home.join(".copilot").join("settings.json"),
                "does not exist and no flags file was found; name a file holding the \
                 Copilot flags (or the shell line that starts it) with --from",
            )
        })
}

/// Copilot's settings file as JSON: it reads JSONC with trailing commas
/// (doc/clients.md, "Copilot CLI settings file"), so this does too, and
/// one leading byte order mark is no part of the document.
fn parse_settings(text: &str, path: &Path) -> Result<Value> {
    let text = crate::bom::strip(text);
    let options = jsonc_parser::ParseOptions {
        allow_trailing_commas: true,
        ..crate::fragment::strict_options()
    };
    let value = jsonc_parser::parse_to_value(text, &options).map_err(|e| {
        let (line, column) = crate::text_position::line_column(text, e.range().start);
        Error::Jsonc {
            path: path.to_path_buf(),
            line,
            column,
            message: e.kind().to_string(),
        }
    })?;
    Ok(value.map_or(Value::Null, to_json))
}

fn to_json(value: jsonc_parser::JsonValue) -> Value {
    use jsonc_parser::JsonValue as J;
    match value {
        J::String(s) => Value::String(s.into_owned()),
        J::Number(n) => serde_json::from_str(n).unwrap_or(Value::Null),
        J::Boolean(b) => Value::Bool(b),
        J::Null => Value::Null,
        J::Array(items) => Value::Array(items.into_iter().map(to_json).collect()),
        J::Object(object) => Value::Object(
            object
                .into_iter()
                .map(|(k, v)| (k.into_owned(), to_json(v)))
                .collect(),
        ),
    }
}

/// The URL lists of Copilot's settings file.
pub fn import_settings(doc: &Value, path: &Path, out: &mut Imported) {
    let Some(root) = doc.as_object() else {
        return;
    };
    for (key, value) in root {
        let list = match key.as_str() {
            "allowedUrls" => List::AllowedDomains,
            "deniedUrls" => List::DeniedDomains,
            _ => {
                out.left.push(Left::kept(
                    key.as_str(),
                    Origin::new(path, format!("/{key}")),
                    "no policy meaning; twsrt keeps it",
                ));
                continue;
            }
        };
        for (i, item) in value.as_array().into_iter().flatten().enumerate() {
            if let Some(url) = item.as_str() {
                url_entry(list, url, Origin::new(path, format!("/{key}/{i}")), out);
            }
        }
    }
}

/// The flag whose values the next words are: Copilot's four rule flags
/// take one or more (commander's variadic options), up to the next word
/// that starts with `-` or the end of the command.
struct Pending {
    flag: String,
    line: usize,
    values: usize,
}

/// The flags of `text`, one shell line (or several) of them.
pub fn import_flags(text: &str, path: &Path, out: &mut Imported) -> Result<()> {
    let mut pending: Option<Pending> = None;
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        // One line per flag as twsrt writes them, each ending in ` \`:
        // every line is read on its own, so every flag keeps its line. A
        // line without the `\` ends the command.
        let line = line.trim_end();
        let (line, continued) = match line.strip_suffix('\\') {
            Some(rest) => (rest, true),
            None => (line, false),
        };
        let words = crate::shellwords::split(line)
            .map_err(|e| Error::target(path, format!("line {number}: {}", e.describe())))?;
        read_words(words, path, number, &mut pending, out);
        if !continued {
            end(pending.take(), path, out);
        }
    }
    end(pending, path, out);
    Ok(())
}

/// A value flag ends: without any value it is named.
fn end(pending: Option<Pending>, path: &Path, out: &mut Imported) {
    if let Some(p) = pending.filter(|p| p.values == 0) {
        out.left.push(Left::untranslatable(
            p.flag,
            Origin::new(path, format!("line {}", p.line)),
            "the flag's value is missing",
        ));
    }
}

/// The words of one line. A word that is a whole command line of its own
/// (the value of `alias cop='copilot ...'`, or `sh -c '...'`) is read as
/// the words it holds.
fn read_words(
    words: Vec<String>,
    path: &Path,
    line: usize,
    pending: &mut Option<Pending>,
    out: &mut Imported,
) {
    for word in words {
        let at = Origin::new(path, format!("line {line}"));
        if word.starts_with('-') {
            end(pending.take(), path, out);
        } else if let Some(p) = pending.as_mut() {
            p.values += 1;
            flag_value(&p.flag, &word, at, out);
            continue;
        }
        if let Some((flag, value)) = word.split_once('=')
            && takes_value(flag)
        {
            flag_value(flag, value, at, out);
            continue;
        }
        if word.contains(char::is_whitespace) {
            let inner = match word.split_once('=') {
                Some((name, value)) if !name.contains(char::is_whitespace) => value,
                _ => word.as_str(),
            };
            if let Ok(inner) = crate::shellwords::split(inner) {
                read_words(inner, path, line, pending, out);
                end(pending.take(), path, out);
            }
            continue;
        }
        if takes_value(&word) {
            *pending = Some(Pending {
                flag: word,
                line,
                values: 0,
            });
        } else if word.starts_with('-') {
            let reason = if word == "--yolo" {
                "the mode, not a rule: `generate --yolo` writes it"
            } else {
                "a flag without policy meaning; it stays on your command line"
            };
            out.left.push(Left::kept(word.as_str(), at, reason));
        }
    }
}

fn takes_value(flag: &str) -> bool {
    matches!(
        flag,
        "--deny-tool" | "--allow-tool" | "--deny-url" | "--allow-url"
    )
}

fn flag_value(flag: &str, value: &str, at: Origin, out: &mut Imported) {
    match flag {
        "--allow-url" => url_entry(List::AllowedDomains, value, at, out),
        "--deny-url" => url_entry(List::DeniedDomains, value, at, out),
        "--deny-tool" | "--allow-tool" => {
            let list = if flag == "--deny-tool" {
                List::BashDeny
            } else {
                List::BashAllow
            };
            match super::shell::rule_of(value) {
                Some(command) => out.add(Entry::listed(list, command, at)),
                _ => out.left.push(tool_left(flag, value, at)),
            }
        }
        _ => {}
    }
}

fn tool_left(flag: &str, value: &str, at: Origin) -> Left {
    let what = format!("{flag} '{value}'");
    if flag == "--allow-tool" {
        Left::untranslatable(
            what,
            at,
            "a tool allow names no path: twsrt writes --allow-tool shell, read, edit and write \
             for any allowWrite, so put the paths into an srt fragment's allowWrite",
        )
    } else {
        Left::untranslatable(
            what,
            at,
            "a tool deny without a shell command: the policy has no rule for a whole tool",
        )
    }
}

/// A URL pattern as a domain: the `http://` or `https://` twin is the
/// domain itself; another scheme, a path or a port-less form twsrt cannot
/// tell stays.
fn url_entry(list: List, url: &str, at: Origin, out: &mut Imported) {
    let domain = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .unwrap_or(url);
    if domain.contains("://") || domain.contains('/') || domain.is_empty() {
        out.left.push(Left::untranslatable(
            url,
            at,
            "a URL with another scheme or a path: srt's domain lists hold host names",
        ));
        return;
    }
    out.add(Entry::listed(list, domain, at));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::import::Fate;

    fn flags(text: &str) -> Imported {
        let mut out = Imported::default();
        import_flags(text, Path::new("/h/flags.txt"), &mut out).unwrap();
        out
    }

    #[test]
    fn a_shell_line_and_a_flags_file_give_the_same_rules() {
        let line = flags(
            "alias cp='copilot'\ncopilot --model gpt-5 --deny-tool 'shell(rm -rf)' \
             --allow-tool='shell(git status)' --allow-url github.com --deny-url evil.com \
             --deny-url http://evil.com --yolo\n",
        );
        let file = flags(
            "--deny-tool 'shell(rm -rf)' \\\n--allow-tool 'shell(git status)' \\\n\
             --allow-url 'github.com' \\\n--deny-url 'evil.com' \\\n--deny-url 'http://evil.com' \\\n",
        );
        for out in [&line, &file] {
            let list = |l| out.list(l).collect::<Vec<_>>();
            assert_eq!(list(List::BashDeny), ["rm -rf"]);
            assert_eq!(list(List::BashAllow), ["git status"]);
            assert_eq!(list(List::AllowedDomains), ["github.com"]);
            assert_eq!(list(List::DeniedDomains), ["evil.com"]);
        }
        assert_eq!(file.entries[0].origins[0].at, "line 1");
        assert_eq!(file.entries[3].origins.len(), 2);
        let kept: Vec<&str> = line.left.iter().map(|l| l.what.as_str()).collect();
        assert_eq!(kept, ["--model", "--yolo"]);
    }

    #[test]
    fn tool_allows_without_a_command_and_other_schemes_are_named() {
        let out = flags(
            "--allow-tool shell --allow-tool 'write' --deny-tool read --deny-url wss://x.io\n\
             --deny-tool\n--deny-tool 'shell(a)' 'shell(b)' --model x",
        );
        let left: Vec<(&str, Fate)> = out.left.iter().map(|l| (l.what.as_str(), l.fate)).collect();
        assert_eq!(
            left,
            [
                ("--allow-tool 'shell'", Fate::Untranslatable),
                ("--allow-tool 'write'", Fate::Untranslatable),
                ("--deny-tool 'read'", Fate::Untranslatable),
                ("wss://x.io", Fate::Untranslatable),
                ("--deny-tool", Fate::Untranslatable),
                ("--model", Fate::Kept),
            ]
        );
        assert!(out.left[0].reason.contains("allowWrite"));
        // One flag, several values (commander's variadic options).
        assert_eq!(out.list(List::BashDeny).collect::<Vec<_>>(), ["a", "b"]);
    }

    #[test]
    fn the_settings_file_url_lists_are_domains() {
        let doc = parse_settings(
            "{\n  // mine\n  \"allowedUrls\": [\"github.com\", \"https://docs.github.com\",],\n  \
             \"deniedUrls\": [\"evil.com\", \"http://evil.com\"],\n  \"theme\": \"dark\",\n}",
            Path::new("s.json"),
        )
        .unwrap();
        let mut out = Imported::default();
        import_settings(&doc, Path::new("/h/.copilot/settings.json"), &mut out);
        assert_eq!(
            out.list(List::AllowedDomains).collect::<Vec<_>>(),
            ["github.com", "docs.github.com"]
        );
        assert_eq!(
            out.list(List::DeniedDomains).collect::<Vec<_>>(),
            ["evil.com"]
        );
        assert_eq!(out.left[0].what, "theme");
    }
}
