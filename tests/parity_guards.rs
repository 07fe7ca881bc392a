//! The replay's rule for the agents' guard files (issue 27 item 8,
//! doc/compatibility.md row 34): the port write-denies every file a
//! configured `[targets]` key writes (both modes), which 3.3.3 does not. Like the http twins, the
//! reference's side is rewritten before comparing (expected stdout, expected
//! files, and the `home/` files 3.3.3 wrote, so a `diff` scenario keeps the
//! drift it was recorded with): each guard spelling joins
//!
//! - a multi-line `"denyWrite": [` list (the srt settings), sorted;
//! - the write-only `Edit(...)` run of a multi-line `"deny": [` list
//!   (Claude permissions), sorted by path;
//! - the `= "read"` run of `[permissions.twsrt.filesystem]` (Codex), sorted.
//!
//! The guard files are read from the scenario's config.toml by this
//! module's own reading of `[targets]`, not by the port's code. The port's
//! output is never rewritten, so a port without the guard fails every
//! scenario with a configured agent.

use std::path::{Component, Path, PathBuf};

use toml_edit::DocumentMut;

/// The keys with a yolo file derived from them when their `_yolo` key is unset.
const YOLO_PAIRS: [&str; 4] = [
    "claude_settings",
    "copilot_output",
    "copilot_settings",
    "gemini_policy",
];

/// The guard spellings (as rules write them: `~/...` under `home`) of the
/// scenario in `home` run with `args`.
pub fn guard_spellings(home: &Path, args: &[String]) -> Vec<String> {
    let config = args
        .iter()
        .position(|a| a == "-c" || a == "--config")
        .and_then(|i| args.get(i + 1))
        .map_or_else(
            || home.join(".config/twsrt/config.toml"),
            |c| resolve(c, home, home),
        );
    let Ok(text) = std::fs::read_to_string(&config) else {
        return Vec::new();
    };
    let Ok(doc) = text.parse::<DocumentMut>() else {
        return Vec::new();
    };
    let Some(targets) = doc.get("targets").and_then(|t| t.as_table_like()) else {
        return Vec::new();
    };
    let dir = config.parent().unwrap_or(home).to_path_buf();
    let path_of = |key: &str| {
        targets
            .get(key)
            .and_then(|v| v.as_str())
            .filter(|s| !s.is_empty())
            .map(|s| resolve(s, home, &dir))
    };
    let mut files = Vec::new();
    for (key, _) in targets.iter() {
        if let Some(path) = path_of(key) {
            files.push(path);
        }
    }
    for key in YOLO_PAIRS {
        if let (Some(path), None) = (path_of(key), path_of(&format!("{key}_yolo"))) {
            files.push(twsrt::paths::yolo_variant(&path));
        }
    }
    let real_home = std::fs::canonicalize(home).unwrap_or_else(|_| home.to_path_buf());
    let mut spellings = Vec::new();
    for file in files {
        let resolved = twsrt::paths::resolve_symlinks(&file);
        for path in [file, resolved] {
            let spelled = [home, real_home.as_path()]
                .iter()
                .find_map(|h| path.strip_prefix(h).ok())
                .map_or_else(
                    || path.display().to_string(),
                    |rest| format!("~/{}", rest.display()),
                );
            if !spellings.contains(&spelled) {
                spellings.push(spelled);
            }
        }
    }
    spellings
}

/// `~`, `~/x`, an absolute path, or one relative to `dir`; `.` and `..`
/// removed.
fn resolve(text: &str, home: &Path, dir: &Path) -> PathBuf {
    let raw = if text == "~" {
        home.to_path_buf()
    } else if let Some(rest) = text.strip_prefix("~/") {
        home.join(rest)
    } else if Path::new(text).is_absolute() {
        PathBuf::from(text)
    } else {
        dir.join(text)
    };
    let mut out = PathBuf::new();
    for part in raw.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// `text` with `guards` added where the port adds them (module docs).
pub fn with_guards(text: &str, guards: &[String]) -> String {
    if guards.is_empty() {
        return text.to_string();
    }
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        out.push(line.to_string());
        i += 1;
        let trimmed = line.trim();
        if trimmed == "\"denyWrite\": [" || trimmed == "\"deny\": [" {
            let end = (i..lines.len())
                .find(|&j| lines[j].trim_start().starts_with(']'))
                .unwrap_or(lines.len());
            // A blank line (left by a scenario's edit) is dropped.
            let entries: Option<Vec<String>> = lines[i..end]
                .iter()
                .filter(|l| !l.trim().is_empty())
                .map(|l| json_entry(l))
                .collect();
            if let Some(entries) = entries.filter(|e| !e.is_empty()) {
                let indent = leading(
                    lines[i..end]
                        .iter()
                        .find(|l| !l.trim().is_empty())
                        .unwrap_or(&""),
                );
                let merged = if trimmed == "\"denyWrite\": [" {
                    sorted_union(entries, guards.iter().cloned(), |e| (e.clone(), false))
                } else {
                    claude_deny(entries, guards)
                };
                let n = merged.len();
                for (k, entry) in merged.iter().enumerate() {
                    let comma = if k + 1 < n { "," } else { "" };
                    out.push(format!("{indent}{}{comma}", py_json(entry)));
                }
                i = end;
            }
        } else if trimmed == "[permissions.twsrt.filesystem]" {
            let end = (i..lines.len())
                .find(|&j| lines[j].trim().is_empty() || lines[j].starts_with('['))
                .unwrap_or(lines.len());
            out.extend(codex_entries(&lines[i..end], guards));
            i = end;
        }
    }
    let out = out.join("\n");
    if out != text {
        return out;
    }
    compact_srt(text, guards).unwrap_or(out)
}

/// An srt settings file on one line (a scenario's reformatted output):
/// its `filesystem.denyWrite` gains the guards, sorted, and the document is
/// printed again on one line (`serde_json`'s compact form, both sides alike).
fn compact_srt(text: &str, guards: &[String]) -> Option<String> {
    if text.trim_end().contains('\n') {
        return None;
    }
    let mut doc: serde_json::Value = serde_json::from_str(text).ok()?;
    let list = doc.pointer_mut("/filesystem/denyWrite")?.as_array_mut()?;
    let entries: Vec<String> = list
        .iter()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    let merged = sorted_union(entries, guards.iter().cloned(), |e| (e.clone(), false));
    *list = merged.into_iter().map(serde_json::Value::String).collect();
    let mut out = serde_json::to_string(&doc).ok()?;
    if text.ends_with('\n') {
        out.push('\n');
    }
    Some(out)
}

/// One `"string",` list line, decoded.
fn json_entry(line: &str) -> Option<String> {
    let t = line.trim();
    serde_json::from_str::<String>(t.strip_suffix(',').unwrap_or(t)).ok()
}

fn leading(line: &str) -> &str {
    &line[..line.len() - line.trim_start().len()]
}

/// `entries` and `extra`, each once, sorted by `key`.
fn sorted_union(
    mut entries: Vec<String>,
    extra: impl Iterator<Item = String>,
    key: impl Fn(&String) -> (String, bool),
) -> Vec<String> {
    for e in extra {
        if !entries.contains(&e) {
            entries.push(e);
        }
    }
    entries.sort_by_key(key);
    entries.dedup();
    entries
}

/// Claude's deny list: the guards join the `Edit(...)` entries that are not
/// a denyRead path's pair, sorted by path (`Edit(//abs)` is `/abs`).
fn claude_deny(entries: Vec<String>, guards: &[String]) -> Vec<String> {
    let inner = |e: &str, head: &str| e.strip_prefix(head)?.strip_suffix(')').map(str::to_string);
    if !entries.iter().any(|e| e.starts_with("Edit(")) {
        return entries;
    }
    let reads: Vec<String> = entries.iter().filter_map(|e| inner(e, "Read(")).collect();
    let write_only = |e: &String| inner(e, "Edit(").is_some_and(|p| !reads.contains(&p));
    let start = entries.iter().position(write_only).unwrap_or_else(|| {
        entries
            .iter()
            .position(|e| !e.starts_with("Read(") && !e.starts_with("Edit("))
            .unwrap_or(entries.len())
    });
    let end = (start..entries.len())
        .find(|&k| !write_only(&entries[k]))
        .unwrap_or(entries.len());
    let run: Vec<String> = entries[start..end].to_vec();
    let edits = guards.iter().map(|g| {
        if g.starts_with('/') {
            format!("Edit(/{g})")
        } else {
            format!("Edit({g})")
        }
    });
    let key = |e: &String| {
        let p = inner(e, "Edit(").unwrap_or_default();
        let p = p.strip_prefix("//").map_or(p.clone(), |r| format!("/{r}"));
        match p.strip_suffix("/**") {
            Some(base) => (base.to_string(), true),
            None => (p, false),
        }
    };
    let merged = sorted_union(run, edits, key);
    let mut out = entries[..start].to_vec();
    out.extend(merged);
    out.extend(entries[end..].iter().cloned());
    out
}

/// `[permissions.twsrt.filesystem]`'s lines with each guard as `= "read"`.
fn codex_entries(lines: &[&str], guards: &[String]) -> Vec<String> {
    let parsed: Vec<Option<(String, &str)>> = lines
        .iter()
        .map(|l| {
            let (key, value) = l.split_once(" = ")?;
            Some((serde_json::from_str::<String>(key).ok()?, value))
        })
        .collect();
    let present: Vec<&String> = parsed.iter().flatten().map(|(k, _)| k).collect();
    let is_read = |k: usize| matches!(&parsed[k], Some((_, "\"read\"")));
    let start = (0..lines.len())
        .find(|&k| is_read(k))
        .unwrap_or(lines.len());
    let end = (start..lines.len())
        .find(|&k| !is_read(k))
        .unwrap_or(lines.len());
    let mut run: Vec<String> = parsed[start..end]
        .iter()
        .flatten()
        .map(|(k, _)| k.clone())
        .collect();
    for g in guards {
        if !present.contains(&g) && !run.contains(g) {
            run.push(g.clone());
        }
    }
    run.sort();
    let mut out: Vec<String> = lines[..start].iter().map(|l| l.to_string()).collect();
    out.extend(run.iter().map(|k| {
        format!(
            "{} = \"read\"",
            serde_json::to_string(k).unwrap_or_default()
        )
    }));
    out.extend(lines[end..].iter().map(|l| l.to_string()));
    out
}

/// A JSON string as the port prints it: non-ASCII as `\uXXXX`.
fn py_json(s: &str) -> String {
    let plain = serde_json::to_string(s).unwrap_or_default();
    let mut out = String::with_capacity(plain.len());
    for c in plain.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut buf = [0u16; 2];
            for unit in c.encode_utf16(&mut buf) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out
}

#[test]
fn each_shape_gets_the_guards_where_the_port_puts_them() {
    let guards = vec![
        "~/.claude/settings.json".to_string(),
        "~/.codex/config.toml".to_string(),
    ];
    let srt = "{\n  \"filesystem\": {\n    \"denyWrite\": [\n      \"~/.bashrc\",\n      \"~/.srt-settings.json\"\n    ]\n  }\n}\n";
    assert_eq!(
        with_guards(srt, &guards),
        "{\n  \"filesystem\": {\n    \"denyWrite\": [\n      \"~/.bashrc\",\n      \"~/.claude/settings.json\",\n      \"~/.codex/config.toml\",\n      \"~/.srt-settings.json\"\n    ]\n  }\n}\n"
    );
    let claude = "    \"deny\": [\n      \"Read(~/.ssh)\",\n      \"Edit(~/.ssh)\",\n      \"Edit(~/.bashrc)\",\n      \"Edit(~/.srt-settings.json)\",\n      \"Bash(rm)\"\n    ],";
    assert_eq!(
        with_guards(claude, &guards),
        "    \"deny\": [\n      \"Read(~/.ssh)\",\n      \"Edit(~/.ssh)\",\n      \"Edit(~/.bashrc)\",\n      \"Edit(~/.claude/settings.json)\",\n      \"Edit(~/.codex/config.toml)\",\n      \"Edit(~/.srt-settings.json)\",\n      \"Bash(rm)\"\n    ],"
    );
    let codex = "[permissions.twsrt.filesystem]\n\"~/.ssh\" = \"deny\"\n\"~/.bashrc\" = \"read\"\n\"~/.srt-settings.json\" = \"read\"\n\n[x]";
    assert_eq!(
        with_guards(codex, &guards),
        "[permissions.twsrt.filesystem]\n\"~/.ssh\" = \"deny\"\n\"~/.bashrc\" = \"read\"\n\"~/.claude/settings.json\" = \"read\"\n\"~/.codex/config.toml\" = \"read\"\n\"~/.srt-settings.json\" = \"read\"\n\n[x]"
    );
    // A Claude allow list and an empty sandbox list are left alone.
    let other = "    \"allow\": [\n      \"Edit(.)\"\n    ],\n      \"denyWrite\": [],";
    assert_eq!(with_guards(other, &guards), other);
}
