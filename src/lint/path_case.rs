//! Paths that name nothing on this machine as written, but something in
//! another letter case or Unicode normalisation (`~/.AWS` beside `~/.aws`,
//! a decomposed `café` beside the composed one). srt and the agents compare
//! names byte for byte, so such an entry protects a file that does not
//! exist while the one the user meant stays open.

use std::path::{Component, Path, PathBuf};

use unicode_normalization::UnicodeNormalization;

use super::coverage::{is_glob, normalize};
use super::input::{Frag, Input};
use super::words::{dotted, entries, quoted};
use crate::diag::{Code, Diagnostic, Severity};
use crate::source::SourceKind;

/// The path lists whose entries name files.
const LISTS: [&str; 4] = [
    "/filesystem/denyRead",
    "/filesystem/denyWrite",
    "/filesystem/allowWrite",
    "/filesystem/allowRead",
];

/// One finding per list of each srt fragment, naming each such entry and
/// the spelling that exists.
pub fn check(input: &Input, out: &mut Vec<Diagnostic>) {
    let home = input.home.to_string_lossy();
    for frag in input.loaded().filter(|f| f.kind == SourceKind::Srt) {
        for pointer in LISTS {
            list(frag, pointer, &home, out);
        }
    }
}

fn list(frag: &Frag, pointer: &str, home: &str, out: &mut Vec<Diagnostic>) {
    let mut items = Vec::new();
    for entry in frag.list(pointer) {
        if is_glob(entry)
            || !(entry.starts_with('~') || entry.starts_with('/'))
            || frag.ignores(entry)
        {
            continue;
        }
        if let Some(found) = other_spelling(Path::new(&normalize(entry, home))) {
            items.push(format!("{} (-> {})", quoted(entry), found.display()));
        }
    }
    if items.is_empty() {
        return;
    }
    let message = format!(
        "{}: {} naming nothing here as written, but an existing path in another letter case \
         or Unicode normalisation; srt and the agents compare names exactly, so the entry \
         protects nothing: write the existing spelling (a name not in NFC: rename the file \
         to the entry's spelling, the policy takes NFC only)",
        dotted(pointer),
        entries(items.len())
    );
    out.push(
        Diagnostic::new(
            Severity::Warning,
            Code::PathOtherSpelling,
            &frag.shown,
            message,
        )
        .with_notes(items),
    );
}

/// The existing path `path` names in another case or normalisation, when
/// `path` itself does not exist and each missing component has exactly
/// one such sibling; `None` otherwise.
pub fn other_spelling(path: &Path) -> Option<PathBuf> {
    if !path.is_absolute() || path.symlink_metadata().is_ok() {
        return None;
    }
    let mut found = PathBuf::new();
    let mut changed = false;
    for component in path.components() {
        let Component::Normal(name) = component else {
            found.push(component);
            continue;
        };
        let exact = found.join(name);
        if exact.symlink_metadata().is_ok() {
            found = exact;
            continue;
        }
        let wanted = folded(&name.to_string_lossy());
        let mut siblings = std::fs::read_dir(&found)
            .ok()?
            .flatten()
            .map(|e| e.file_name())
            .filter(|n| folded(&n.to_string_lossy()) == wanted);
        let sibling = siblings.next()?;
        if siblings.next().is_some() {
            return None;
        }
        found.push(sibling);
        changed = true;
    }
    changed.then_some(found)
}

/// A name compared without regard to letter case or normalisation.
fn folded(name: &str) -> String {
    name.nfc().flat_map(char::to_lowercase).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_case_or_normalisation_is_found_and_the_exact_one_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join(".aws/sub")).unwrap();
        std::fs::create_dir_all(root.join("caf\u{e9}")).unwrap();
        assert_eq!(other_spelling(&root.join(".aws")), None);
        assert_eq!(
            other_spelling(&root.join(".AWS/Sub")),
            Some(root.join(".aws/sub"))
        );
        assert_eq!(
            other_spelling(&root.join("cafe\u{301}")),
            Some(root.join("caf\u{e9}"))
        );
        assert_eq!(other_spelling(&root.join(".azure")), None);
        assert_eq!(other_spelling(Path::new("relative/x")), None);
    }

    #[test]
    fn two_siblings_that_fold_alike_are_no_answer() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["Keys", "KEYS"] {
            std::fs::create_dir(dir.path().join(name)).unwrap();
        }
        assert_eq!(other_spelling(&dir.path().join("keys")), None);
    }
}
