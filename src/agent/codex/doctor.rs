//! Codex's doctor checks: what twsrt knows about Codex 0.171 (measured by
//! `make test-clients`, see doc/clients.md and SECURITY_CONCEPT.md) and
//! 3.3.3 does not check. Only when `[targets] codex_config` is set. Each
//! entry is named with its `file:line:column`.
//!
//! * codex-domains-ignored: domain lists Codex ignores because the managed
//!   config.toml (once it exists) does not turn its `network_proxy` feature on;
//! * codex-protected-path: a workspace-relative rule inside `.git`, `.codex`
//!   or `.agents`, which Codex keeps read-only and fails to start its
//!   sandbox for where the path does not exist (`gap-protected`);
//! * codex-missing-parent: two or more rules under one directory that does
//!   not exist, which stops Codex's sandbox inside a writable place
//!   (`gap-parent`);
//! * codex-legacy-sandbox: `sandbox_mode` or `sandbox_workspace_write` in a
//!   Codex config layer, which silently switches the generated permission
//!   profile off;
//! * codex-layer-override: a key of the generated profile set by a layer
//!   twsrt does not write;
//! * codex-glob-walk: deny globs, which Codex expands only when a command
//!   starts (the generator's own warning, [`crate::agent::limits`]);
//! * codex-compound-rule: bash deny rules joining commands, which no Codex
//!   rule can match (the generator's own warning, [`super::joined`]).
//!
//! The layers are the ones `audit` reads, from the same functions
//! ([`super::layers`]): `$CODEX_HOME/config.toml` (else `~/.codex`), the
//! managed config, the project files from the repository root down.

use crate::agent::codex::codes;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::layers;
use super::merge::LEGACY_KEYS;
use super::policy::network_proxy_enabled;
use crate::diag::{Code, Diagnostic, Severity};
use crate::lint::{Frag, Input, count, dotted, entries, quoted};
use crate::source::SourceKind;

const FS_LISTS: [&str; 4] = [
    "/filesystem/denyRead",
    "/filesystem/denyWrite",
    "/filesystem/allowWrite",
    "/filesystem/allowRead",
];
const PROTECTED: [&str; 3] = [".git", ".codex", ".agents"];

pub fn check(input: &Input, out: &mut Vec<Diagnostic>) {
    let Some(managed) = input.config.targets.path("codex_config") else {
        return;
    };
    let selected: Vec<&Frag> = input
        .loaded()
        .filter(|f| f.kind == SourceKind::Srt && selected(input, f))
        .collect();
    domains_ignored(managed, &selected, out);
    for frag in &selected {
        protected(frag, out);
    }
    missing_parents(input, out);
    legacy_layers(input, managed, out);
    crate::agent::limits::doctor_findings(
        &super::Codex,
        input,
        &[codes::GLOB_WALK, Code::SrtKeySkipped, codes::COMPOUND_RULE],
        out,
    );
}

fn selected(input: &Input, frag: &Frag) -> bool {
    input.config.profiles.iter().any(|(_, d)| {
        d.selections
            .get(&frag.kind)
            .is_some_and(|s| s.contains(&frag.name))
    })
}

/// `'value' (file:line:column)` for the entries of `pointer` that `keep`.
fn located_items(frag: &Frag, pointer: &str, keep: impl Fn(&str) -> bool) -> Vec<String> {
    let Some(located) = &frag.located else {
        return Vec::new();
    };
    located
        .list(pointer)
        .filter(|s| !frag.ignores(&s.value) && keep(&s.value))
        .map(|s| {
            format!(
                "{} ({}:{}:{})",
                quoted(&s.value),
                frag.path.display(),
                s.line,
                s.column
            )
        })
        .collect()
}

fn push(
    out: &mut Vec<Diagnostic>,
    code: Code,
    frag: &Frag,
    pointer: &str,
    items: Vec<String>,
    says: &str,
) {
    if items.is_empty() {
        return;
    }
    let message = format!("{}: {} {says}", dotted(pointer), entries(items.len()));
    out.push(Diagnostic::new(Severity::Warning, code, &frag.shown, message).with_notes(items));
}

fn domains_ignored(managed: &Path, frags: &[&Frag], out: &mut Vec<Diagnostic>) {
    // Before the first `generate codex -w` there is no layer to read the
    // feature from; `generate` itself warns then.
    let Ok(text) = std::fs::read_to_string(managed) else {
        return;
    };
    if network_proxy_enabled(&text) {
        return;
    }
    let says = format!(
        "Codex ignores: its network_proxy feature is off in {} ([features] network_proxy = true enforces them)",
        managed.display()
    );
    for frag in frags {
        for pointer in ["/network/allowedDomains", "/network/deniedDomains"] {
            let items = located_items(frag, pointer, |_| true);
            push(out, codes::DOMAINS_IGNORED, frag, pointer, items, &says);
        }
    }
}

fn protected(frag: &Frag, out: &mut Vec<Diagnostic>) {
    for pointer in FS_LISTS {
        let items = located_items(frag, pointer, |v| {
            let rel = v.trim_start_matches("./");
            !v.starts_with('/')
                && !v.starts_with('~')
                && PROTECTED.contains(&rel.split('/').next().unwrap_or(""))
        });
        push(
            out,
            codes::PROTECTED_PATH,
            frag,
            pointer,
            items,
            "inside .git, .codex or .agents, which Codex keeps read-only; its sandbox does not start in a workspace without the path",
        );
    }
}

/// The missing directories holding two or more distinct non-glob rules of
/// one profile, then every rule below one of them.
fn missing_parents(input: &Input, out: &mut Vec<Diagnostic>) {
    let home = input.home.to_string_lossy().into_owned();
    // Rules share directories: each one is looked up once.
    let mut exists: HashMap<PathBuf, bool> = HashMap::new();
    for name in input.profile_names() {
        let frags: Vec<&Frag> = input
            .resolved(name, SourceKind::Srt)
            .into_iter()
            .filter(|f| f.located.is_some())
            .collect();
        let mut dirs_of: HashMap<&str, Vec<String>> = HashMap::new();
        let mut counts: HashMap<String, usize> = HashMap::new();
        for v in frags
            .iter()
            .flat_map(|f| FS_LISTS.iter().flat_map(|p| f.list(p)))
        {
            if dirs_of.contains_key(v) {
                continue;
            }
            let dirs = missing_dirs(v, &home, &mut exists);
            for d in &dirs {
                *counts.entry(d.clone()).or_default() += 1;
            }
            dirs_of.insert(v, dirs);
        }
        let flagged: HashSet<&str> = dirs_of
            .iter()
            .filter(|(_, dirs)| dirs.iter().any(|d| counts[d] >= 2))
            .map(|(v, _)| *v)
            .collect();
        for f in &frags {
            for pointer in FS_LISTS {
                let items = located_items(f, pointer, |v| flagged.contains(v));
                push(
                    out,
                    codes::MISSING_PARENT,
                    f,
                    pointer,
                    items,
                    "under a directory that does not exist and holds another rule; Codex fails to \
                     start its sandbox in a writable place there (create the directory)",
                );
            }
        }
    }
}

/// The directories above a non-glob rule that do not exist: for `~/` and
/// absolute rules on this machine now, for workspace-relative ones every
/// parent (it may be missing in some workspace).
fn missing_dirs(value: &str, home: &str, exists: &mut HashMap<PathBuf, bool>) -> Vec<String> {
    if crate::lint::is_glob(value) {
        return Vec::new();
    }
    let relative = !value.starts_with('/') && !value.starts_with('~');
    let norm = crate::lint::normalize(value, home);
    if relative {
        return norm
            .match_indices('/')
            .map(|(k, _)| format!("./{}", &norm[..k]))
            .collect();
    }
    let mut out = Vec::new();
    for dir in Path::new(&norm).ancestors().skip(1) {
        let found = *exists
            .entry(dir.to_path_buf())
            .or_insert_with(|| dir.exists());
        if dir.as_os_str().is_empty() || found {
            break;
        }
        out.push(dir.display().to_string());
    }
    out
}

/// The Codex layers this directory's launch loads (the ones `audit` reads,
/// from the same function), each key that overrides the generated profile
/// with its position: the legacy sandbox keys as `codex-legacy-sandbox`, the
/// keys twsrt writes set by another layer as `codex-layer-override`; an
/// error where the profile is switched off, a warning where it is widened.
fn legacy_layers(input: &Input, managed: &Path, out: &mut Vec<Diagnostic>) {
    let launch = layers::Launch {
        cwd: input.cwd.clone(),
        codex_home: layers::codex_home(&input.home),
        managed: Some(managed.to_path_buf()),
        profiles: Vec::new(),
    };
    for layer in layers::layers(&launch) {
        let Ok(text) = std::fs::read_to_string(&layer.path) else {
            continue;
        };
        let Ok(doc) = toml_edit::Document::parse(text.as_str()) else {
            continue;
        };
        let shown = layer.path.display().to_string();
        let mut legacy = Vec::new();
        let mut owned = Vec::new();
        for o in layers::overrides(doc.as_table(), &layer.source) {
            let (line, column) = crate::text_position::line_column(&text, o.offset);
            let item = format!("{} ({shown}:{line}:{column})", quoted(&o.key));
            if LEGACY_KEYS.iter().any(|k| o.key.ends_with(k)) {
                legacy.push(item);
            } else {
                owned.push((item, o.effect));
            }
        }
        if !legacy.is_empty() {
            let message = format!(
                "{} switching the generated permission profile off: Codex ignores default_permissions while one is set",
                count(legacy.len(), "legacy setting", "legacy settings")
            );
            out.push(
                Diagnostic::new(Severity::Error, codes::LEGACY_SANDBOX, &shown, message)
                    .with_notes(legacy),
            );
        }
        if !owned.is_empty() {
            let off = owned.iter().any(|(_, e)| *e == layers::Effect::SwitchesOff);
            let severity = if off {
                Severity::Error
            } else {
                Severity::Warning
            };
            let message = format!(
                "{} overriding the permission profile twsrt generates in a layer twsrt does not write",
                count(owned.len(), "setting", "settings")
            );
            let items = owned.into_iter().map(|(i, _)| i).collect();
            out.push(
                Diagnostic::new(severity, codes::LAYER_OVERRIDE, &shown, message).with_notes(items),
            );
        }
    }
}

#[cfg(test)]
#[path = "doctor_tests.rs"]
mod tests;
