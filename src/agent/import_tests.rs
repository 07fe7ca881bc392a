//! The neutral model of an import.

use std::path::Path;

use super::*;

fn origin(at: &str) -> Origin {
    Origin::new(Path::new("/home/u/.agent/settings.json"), at)
}

#[test]
fn the_same_value_twice_is_one_entry_with_both_origins() {
    let mut imported = Imported::default();
    imported.add(Entry::listed(List::DenyRead, "~/.aws", origin("/a")));
    imported.add(Entry::listed(List::DenyRead, "~/.aws", origin("/b")).noted("n"));
    imported.add(Entry::listed(List::DenyWrite, "~/.aws", origin("/c")));
    assert_eq!(imported.entries.len(), 2);
    assert_eq!(imported.entries[0].origins, [origin("/a"), origin("/b")]);
    assert_eq!(imported.entries[0].note.as_deref(), Some("n"));
}

#[test]
fn a_path_under_home_is_spelt_with_a_tilde() {
    let home = Path::new("/home/u");
    assert_eq!(tilde(Path::new("/home/u/.agent/x"), home), "~/.agent/x");
    assert_eq!(tilde(Path::new("/home/u"), home), "~");
    assert_eq!(tilde(Path::new("/home/user2/x"), home), "/home/user2/x");
    assert_eq!(tilde(Path::new("/etc/x"), Path::new("")), "/etc/x");
}
