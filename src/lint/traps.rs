//! Path globs that do less than they look like, the four traps (one per entry, the first that
//! applies): `**/` anchored at the launch directory, `*` in an allow rule
//! (exact matches on macOS, dropped on Linux), `*` in a write deny (dropped
//! on Linux), and a `/**` suffix srt strips anyway.

use super::input::{Frag, Input};
use super::words::{dotted, entries, quoted};
use crate::diag::{Code, Diagnostic, Severity};
use crate::source::SourceKind;

const TRAP_LISTS: [&str; 4] = [
    "/filesystem/allowWrite",
    "/filesystem/denyWrite",
    "/filesystem/denyRead",
    "/filesystem/allowRead",
];

#[derive(Clone, Copy, PartialEq)]
enum Trap {
    CwdAnchored,
    NarrowAllow,
    LinuxDropsWrite,
    NoopSuffix,
}

const TRAPS: [Trap; 4] = [
    Trap::CwdAnchored,
    Trap::NarrowAllow,
    Trap::LinuxDropsWrite,
    Trap::NoopSuffix,
];

impl Trap {
    fn code(self) -> Code {
        match self {
            Trap::CwdAnchored => Code::CwdAnchoredGlob,
            Trap::NarrowAllow => Code::NarrowAllowGlob,
            Trap::LinuxDropsWrite => Code::LinuxDropsWriteGlob,
            Trap::NoopSuffix => Code::NoopGlobSuffix,
        }
    }

    fn severity(self) -> Severity {
        match self {
            Trap::CwdAnchored | Trap::NarrowAllow => Severity::Warning,
            Trap::LinuxDropsWrite | Trap::NoopSuffix => Severity::Info,
        }
    }

    fn says(self) -> &'static str {
        match self {
            Trap::CwdAnchored => "anchored at the launch directory, not global",
            Trap::NarrowAllow => {
                "granting only exact matches on macOS (dir/* = direct children, a/*/b = the \
                 directory b itself) and dropped on Linux; list directories instead"
            }
            Trap::LinuxDropsWrite => "dropped by srt on Linux, so the deny holds on macOS only",
            Trap::NoopSuffix => {
                "ending in /**, which srt strips; the bare directory is the same rule"
            }
        }
    }

    fn applies(self, pointer: &str, entry: &str) -> bool {
        let stem = entry.strip_suffix("/**").unwrap_or(entry);
        match self {
            Trap::CwdAnchored => entry.starts_with("**/"),
            Trap::NarrowAllow => pointer.starts_with("/filesystem/allow") && stem.contains('*'),
            Trap::LinuxDropsWrite => pointer == "/filesystem/denyWrite" && stem.contains('*'),
            Trap::NoopSuffix => entry.ends_with("/**"),
        }
    }
}

/// List by list, each fragment in registry order (unused ones included).
pub fn check(input: &Input, out: &mut Vec<Diagnostic>) {
    for pointer in TRAP_LISTS {
        for frag in input.loaded().filter(|f| f.kind == SourceKind::Srt) {
            list(frag, pointer, out);
        }
    }
}

/// One fragment's traps in one list, each entry under the first that applies.
fn list(frag: &Frag, pointer: &str, out: &mut Vec<Diagnostic>) {
    let mut found: Vec<(Trap, Vec<String>)> = TRAPS.iter().map(|t| (*t, Vec::new())).collect();
    for entry in frag.list(pointer) {
        if frag.ignores(entry) {
            continue;
        }
        if let Some(slot) = found.iter_mut().find(|(t, _)| t.applies(pointer, entry)) {
            slot.1.push(quoted(entry));
        }
    }
    for (trap, items) in found.into_iter().filter(|(_, i)| !i.is_empty()) {
        let message = format!(
            "{}: {} {}",
            dotted(pointer),
            entries(items.len()),
            trap.says()
        );
        out.push(
            Diagnostic::new(trap.severity(), trap.code(), &frag.shown, message).with_notes(items),
        );
    }
}
