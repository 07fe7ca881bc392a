//! Copilot's files on disk against the generated ones: the flags file
//! read back into its flags ([`flag_lines`]), and the differences of the
//! flags and of the settings file's owned URL lists, each list paired as a
//! set through [`crate::drift::unpaired_as`] (Copilot reads both as sets).

use crate::agent::AgentDiff;
use crate::drift::{self, Difference, Pairing, Side};

/// The flags in a written file, one per entry, without the ` \`
/// continuation. A line break inside a quoted value (a pattern may hold one)
/// continues the flag, so a value written with a line break reads back whole.
pub(super) fn flag_lines(text: &str) -> Vec<&str> {
    let mut flags = Vec::new();
    // Where the flag being read starts; it runs to the end of the current
    // line (its lines are consecutive in `text`).
    let mut start = None;
    let mut in_quote = false;
    let mut offset = 0;
    for line in text.split('\n') {
        let line_start = offset;
        offset += line.len() + 1;
        let mut chars = line.chars();
        while let Some(c) = chars.next() {
            match c {
                '\'' => in_quote = !in_quote,
                '\\' if !in_quote => {
                    chars.next();
                }
                _ => {}
            }
        }
        let from = *start.get_or_insert(line_start);
        if in_quote {
            continue;
        }
        let flag = text[from..line_start + line.len()].trim();
        let flag = flag.strip_suffix('\\').unwrap_or(flag).trim_end();
        if !flag.is_empty() {
            flags.push(flag);
        }
        start = None;
    }
    // An unclosed quote: what is left is one (broken) flag.
    if let Some(from) = start {
        let flag = text[from..].trim();
        if !flag.is_empty() {
            flags.push(flag);
        }
    }
    flags
}

/// The flags as sets: generated but not in the file are missing, in the
/// file but not generated are extra (each once), paired by
/// [`drift::unpaired_as`]. A file twsrt wrote holds the flags in the order
/// they are generated, so when both sides are the same list nothing more
/// is looked at. A `--deny-*` flag restricts and an `--allow-*` flag grants
/// (see [`crate::drift`]); any other flag fails closed.
pub(super) fn compare(generated: &[String], existing: &[&str]) -> AgentDiff {
    let want: Vec<&str> = generated.iter().map(String::as_str).collect();
    if want == existing {
        return AgentDiff::Compared(Vec::new());
    }
    let (missing, extra) = drift::unpaired_as(&want, existing, |f| f.to_string(), Pairing::Set);
    let mut differences = Vec::new();
    for (side, flags) in [(Side::Missing, missing), (Side::Extra, extra)] {
        for flag in flags {
            let (name, value) = flag.split_once(' ').unwrap_or((flag, ""));
            let direction = drift::entry_direction(drift::list_meaning(name), side);
            differences.push(Difference::new(name, value, flag, side, direction));
        }
    }
    differences.sort_by(|a, b| (a.side, &a.shown).cmp(&(b.side, &b.shown)));
    differences.dedup_by(|a, b| (a.side, &a.shown) == (b.side, &b.shown));
    AgentDiff::Compared(differences)
}

/// The differences of one owned settings list `key` (`want` generated,
/// `have` on disk), as sets ([`Pairing::Set`]: Copilot reads the lists as
/// sets), missing entries first, each side in its own order.
pub(super) fn list(key: &str, want: &[String], have: &[String]) -> Vec<Difference> {
    let meaning = drift::list_meaning(key);
    let (missing, extra) = drift::unpaired_as(want, have, String::clone, Pairing::Set);
    let mut differences = Vec::new();
    for (side, entries) in [(Side::Missing, missing), (Side::Extra, extra)] {
        for entry in entries {
            let direction = drift::entry_direction(meaning, side);
            differences.push(Difference::new(
                key,
                entry,
                &format!("{key}:{entry}"),
                side,
                direction,
            ));
        }
    }
    differences
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drift::Direction;

    #[test]
    fn a_settings_list_compares_as_a_set_every_copy_of_an_unpaired_entry_reported() {
        let strings = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let got: Vec<_> = list(
            "deniedUrls",
            &strings(&["a.io", "b.io", "b.io"]),
            &strings(&["b.io", "c.io", "c.io"]),
        )
        .into_iter()
        .map(|d| (d.side, d.shown, d.direction))
        .collect();
        assert_eq!(
            got,
            [
                (Side::Missing, "deniedUrls:a.io".into(), Direction::Widening),
                (Side::Extra, "deniedUrls:c.io".into(), Direction::Narrowing),
                (Side::Extra, "deniedUrls:c.io".into(), Direction::Narrowing),
            ]
        );
        assert!(list("allowedUrls", &strings(&["x"]), &strings(&["x", "x"])).is_empty());
    }
}
