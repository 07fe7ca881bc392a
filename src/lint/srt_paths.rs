//! srt settings read as the sandbox reads them: keys srt does not know,
//! deny paths that go through a symlink (the sandbox matches the real path),
//! and write grants at or above home, `/` or a config root.

use super::coverage::{is_glob, normalize};
use super::input::{Frag, Input};
use super::words::{count, dotted, entries, quoted};
use crate::diag::{Code, Diagnostic, Severity};
use crate::source::SourceKind;
use crate::srt::schema as srt_schema;

/// One check at a time over every srt fragment in registry order (unused
/// ones included), the symlink check list by list.
pub fn check(input: &Input, out: &mut Vec<Diagnostic>) {
    let srt = || input.loaded().filter(|f| f.kind == SourceKind::Srt);
    for frag in srt() {
        unknown_keys(frag, out);
    }
    for index in 0..input.deny_rules().len() {
        for frag in srt() {
            symlinked(input, frag, index, out);
        }
    }
    for frag in srt() {
        broad_allow_write(input, frag, out);
    }
}

fn unknown_keys(frag: &Frag, out: &mut Vec<Diagnostic>) {
    let Some(doc) = frag.located.as_ref().map(|l| &l.value) else {
        return;
    };
    let mut items = Vec::new();
    for &(section, known) in srt_schema::LEVELS {
        let object = if section.is_empty() {
            doc.as_object()
        } else {
            doc.get(section).and_then(|v| v.as_object())
        };
        for key in object.into_iter().flat_map(|o| o.keys()) {
            if !known.contains(&key.as_str()) {
                let name = if section.is_empty() {
                    key.clone()
                } else {
                    format!("{section}.{key}")
                };
                items.push(quoted(&name));
            }
        }
    }
    if !items.is_empty() {
        let message = format!(
            "{} srt ignores and twsrt maps to no agent; Claude-only settings belong in [sandbox_overrides]",
            count(items.len(), "key", "keys")
        );
        out.push(
            Diagnostic::new(Severity::Warning, Code::UnknownSrtKey, &frag.shown, message)
                .with_notes(items),
        );
    }
}

/// A deny entry whose real path differs and that no entry of the same list,
/// in any registered fragment, covers in its real spelling.
fn symlinked(input: &Input, frag: &Frag, index: usize, out: &mut Vec<Diagnostic>) {
    let home = input.home.to_string_lossy();
    if let Some((pointer, rules)) = input.deny_rules().get(index) {
        let list = frag.list(pointer);
        let mut items = Vec::new();
        for entry in &list {
            if is_glob(entry)
                || !(entry.starts_with('~') || entry.starts_with('/'))
                || frag.ignores(entry)
            {
                continue;
            }
            let spelled = normalize(entry, &home);
            let real = crate::paths::resolve_symlinks(std::path::Path::new(&spelled));
            let real = normalize(&real.to_string_lossy(), &home);
            if real == spelled {
                continue;
            }
            // Is the real path one of the rules, or below one? (As in
            // 3.3.3, `/` itself does not count here.)
            let covered = rules.contains(real.as_str())
                || real
                    .match_indices('/')
                    .any(|(k, _)| k > 0 && rules.contains(&real[..k]));
            if !covered {
                items.push(format!("{} (-> {real})", quoted(entry)));
            }
        }
        if !items.is_empty() {
            let message = format!(
                "{}: {} through a symlink; the sandbox matches the real path, so list it too",
                dotted(pointer),
                entries(items.len())
            );
            out.push(
                Diagnostic::new(
                    Severity::Warning,
                    Code::SymlinkedDenyPath,
                    &frag.shown,
                    message,
                )
                .with_notes(items),
            );
        }
    }
}

/// Where the user reads why an allowWrite entry auto-approves Claude Code's
/// edits: a document shipped with twsrt and one of its section headings.
pub(super) const BROAD_WRITE_DOC: (&str, &str) =
    ("SECURITY_CONCEPT.md", "Claude Code: where a path points");

fn broad_allow_write(input: &Input, frag: &Frag, out: &mut Vec<Diagnostic>) {
    let home = input
        .home
        .to_string_lossy()
        .trim_end_matches('/')
        .to_string();
    let roots = [
        "/".to_string(),
        home.clone(),
        format!("{home}/.config"),
        format!("{home}/Library"),
    ];
    let items: Vec<String> = frag
        .list("/filesystem/allowWrite")
        .into_iter()
        .filter(|e| !is_glob(e) && !frag.ignores(e))
        .filter(|e| {
            let norm = normalize(e, &home);
            norm.starts_with('/')
                && roots
                    .iter()
                    .any(|r| *r == norm || norm == "/" || r.starts_with(&format!("{norm}/")))
        })
        .map(quoted)
        .collect();
    if !items.is_empty() {
        let (doc, section) = BROAD_WRITE_DOC;
        let message = format!(
            "filesystem.allowWrite: {} covering home, / or a config root; in Claude Code they also auto-approve edits ({doc} \"{section}\")",
            entries(items.len())
        );
        out.push(
            Diagnostic::new(
                Severity::Warning,
                Code::BroadAllowWrite,
                &frag.shown,
                message,
            )
            .with_notes(items),
        );
    }
}
