//! How finding messages count and quote entries, shared by every check
//! (the generic ones here and the agents' own).

/// `1 entry`, `2 entries` (the noun is given in both forms).
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `N entry/entries`.
pub fn entries(n: usize) -> String {
    count(n, "entry", "entries")
}

/// A value as the notes show it: in single quotes.
pub fn quoted(value: &str) -> String {
    format!("'{value}'")
}

/// `/filesystem/denyRead` as the messages name it: `filesystem.denyRead`.
pub fn dotted(pointer: &str) -> String {
    pointer.trim_start_matches('/').replace('/', ".")
}
