//! Merge the managed fragment into an existing config.toml.
//!
//! Only the owned top-level keys and the `[permissions.twsrt]` tree change;
//! every other byte (comments, key order, blank lines, foreign tables and
//! their secrets) is kept. New keys and tables are placed, and blank lines
//! around them handled, the way the reference's TOML library does it, so the
//! output of both tools is the same file for common layouts.

use std::path::Path;

use toml_edit::{Decor, DocumentMut, Item, Key, Table};

use super::render::OWNED_KEYS;
use crate::error::{Error, Result};

/// Legacy top-level settings that make Codex ignore `default_permissions`.
pub const LEGACY_KEYS: [&str; 2] = ["sandbox_mode", "sandbox_workspace_write"];

/// Parse an existing config.toml. A syntax error names the file, line and
/// column only: the offending line may hold a credential.
pub fn parse_existing(text: &str, path: &Path) -> Result<DocumentMut> {
    crate::tomltext::parse_document(text, path)
}

pub fn reject_legacy(doc: &DocumentMut, path: &Path) -> Result<()> {
    let found: Vec<&str> = LEGACY_KEYS
        .into_iter()
        .filter(|k| doc.contains_key(k))
        .collect();
    if found.is_empty() {
        return Ok(());
    }
    Err(Error::target(
        path,
        format!(
            "legacy setting(s) {} cannot be combined with a Codex permission profile (Codex \
             would silently ignore default_permissions); remove them from this file",
            found.join(", ")
        ),
    ))
}

/// The fragment as a document (it is our own text, so it always parses).
pub fn fragment_doc(fragment: &str) -> Result<DocumentMut> {
    fragment.parse::<DocumentMut>().map_err(|e| {
        Error::Policy(format!(
            "internal error: generated Codex TOML is invalid: {e}"
        ))
    })
}

/// The merged file. `existing` is the current file's text ("" if missing).
pub fn merge(existing: &str, fragment: &str, path: &Path) -> Result<String> {
    let mut doc = parse_existing(existing, path)?;
    reject_legacy(&doc, path)?;
    let mut frag = fragment_doc(fragment)?;
    let Some(Item::Table(profile)) = frag
        .get_mut("permissions")
        .and_then(Item::as_table_mut)
        .and_then(|p| p.remove("twsrt"))
    else {
        return Err(Error::Policy(
            "internal error: no [permissions.twsrt] generated".into(),
        ));
    };
    check_permissions(&doc, path)?;
    let keys_at_end = set_owned_keys(&mut doc, &frag);
    let no_final_newline = !existing.is_empty() && !existing.ends_with('\n');
    place_profile(&mut doc, profile, keys_at_end, no_final_newline);
    super::feature::set(&mut doc, &frag, path)?;
    Ok(doc.to_string())
}

/// `permissions` must be a table twsrt can add `[permissions.twsrt]` to.
pub fn check_permissions(doc: &DocumentMut, path: &Path) -> Result<()> {
    match doc.get("permissions") {
        None | Some(Item::Table(_)) => Ok(()),
        Some(_) => Err(Error::target(
            path,
            "`permissions` is not written as tables (it is a value, an inline table or an \
             array of tables), so [permissions.twsrt] cannot be added; write each profile \
             as a [permissions.<name>] table",
        )),
    }
}

/// Set the owned keys. Existing ones keep their place, spacing and comment;
/// missing ones go after the last top-level key, before the comment lines
/// that run into the first table's header (they head that table), or at
/// the end of a document without tables. Returns whether they were
/// appended at the very end of the document.
fn set_owned_keys(doc: &mut DocumentMut, frag: &DocumentMut) -> bool {
    let mut missing = Vec::new();
    for (key, _) in OWNED_KEYS {
        let Some(new) = frag.get(key).and_then(Item::as_value).cloned() else {
            continue;
        };
        match doc.get_mut(key) {
            Some(Item::Value(old)) => {
                let decor = old.decor().clone();
                *old = new;
                *old.decor_mut() = decor;
            }
            Some(_) => {
                doc.remove(key);
                missing.push((key, new));
            }
            None => missing.push((key, new)),
        }
    }
    if missing.is_empty() {
        return false;
    }
    let headers = headers(doc);
    let gap = gap_before(doc, headers.first());
    let (head, mut tail) = match headers.first() {
        // A comment block that runs into the header of the user's first
        // table belongs to that table: the keys go before it, a blank line
        // between. (Before a `[permissions.*]` table, twsrt's own profile
        // among them, the keys follow the comment, as in 3.3.3.)
        Some(first) if has_comment(&gap) && !first.is_under_permissions() => {
            let (head, tail) = split_before_last_paragraph(&gap);
            let tail = if tail.is_empty() {
                tail
            } else {
                format!("\n{tail}")
            };
            (head, tail)
        }
        // Otherwise they follow the last comment (the gap stays when it
        // has none); without a table they end the document.
        _ => split_after_last_comment(&gap),
    };
    // Keys put right before a table header get a blank line between them
    // (not before a top-level `[[array]]` header, as in 3.3.3).
    if tail.is_empty() && headers.first().is_some_and(|h| !h.is_top_level_array()) {
        tail.push('\n');
    }
    set_gap_before(doc, headers.first(), tail);
    for (i, (key, value)) in missing.into_iter().enumerate() {
        let mut k = Key::new(key);
        if i == 0 && !head.is_empty() {
            k.leaf_decor_mut().set_prefix(head.clone());
        }
        doc.insert_formatted(&k, Item::Value(value));
    }
    headers.is_empty()
}

/// Replace `[permissions.twsrt]` in place, or add it after the other
/// permission profiles (at the end of the file when there are none).
fn place_profile(doc: &mut DocumentMut, profile: Table, keys_at_end: bool, no_final_newline: bool) {
    let order = headers(doc);
    match order.iter().position(Header::in_profile) {
        Some(first) => replace_profile(doc, profile, &order, first),
        None => add_profile(doc, profile, keys_at_end, no_final_newline),
    }
}

/// The new tree where the old one's first header (`order[first]`) is,
/// keeping the text before that header.
fn replace_profile(doc: &mut DocumentMut, profile: Table, order: &[Header], first: usize) {
    let anchor = order[first].pos;
    let keep_prefix = prefix_at(doc, &order[first]);
    let after = &order[first + 1..];
    let next = after.iter().find(|h| !h.in_profile());
    let later_profiles = after.iter().any(Header::is_foreign_profile);
    // The blank lines and comments between the old tree and what follows
    // stay as they are, so a file whose profile is already the generated
    // one merges into itself byte for byte. Only a following permission
    // profile that runs into the tree's last line is set off by a blank line.
    let gap = gap_before(doc, next);
    if gap.is_empty() && later_profiles {
        set_gap_before(doc, next, "\n".to_string());
    }
    let table = anchored(profile, anchor, keep_prefix);
    if let Some(slot) = permissions_mut(doc).and_then(|p| p.get_mut("twsrt")) {
        *slot = table;
    }
}

/// The new tree after the first run of other permission profiles, or at the
/// end of the file. The old one, if any, is inline or dotted keys (it has no
/// header) and is removed.
fn add_profile(doc: &mut DocumentMut, profile: Table, keys_at_end: bool, no_final_newline: bool) {
    if let Some(p) = permissions_mut(doc) {
        p.remove("twsrt");
    }
    let headers = headers(doc);
    let (anchor, next) = match last_of_first_profile_run(&headers) {
        Some(last) => (headers[last].pos, headers.get(last + 1)),
        None => (next_position(doc), None),
    };
    let gap = gap_before(doc, next);
    let prefix = if gap.is_empty() {
        if next.is_none() && no_final_newline && !keys_at_end {
            String::new()
        } else {
            "\n".to_string()
        }
    } else if !gap.ends_with('\n') || !ends_blank(&gap) {
        format!("{gap}\n")
    } else {
        gap
    };
    set_gap_before(doc, next, String::new());
    let table = anchored(profile, anchor, prefix);
    if let Some(p) = permissions_mut(doc) {
        p.insert("twsrt", table);
    }
}

/// The index of the last header in the first run of other permission
/// profiles' headers.
fn last_of_first_profile_run(headers: &[Header]) -> Option<usize> {
    let start = headers.iter().position(Header::is_foreign_profile)?;
    let len = headers[start..]
        .iter()
        .take_while(|h| h.is_foreign_profile())
        .count();
    Some(start + len - 1)
}

/// `profile` printed at `anchor` (with all its sub-tables) after `prefix`.
fn anchored(mut profile: Table, anchor: isize, prefix: String) -> Item {
    set_positions(&mut profile, anchor);
    profile.decor_mut().set_prefix(prefix);
    Item::Table(profile)
}

/// The `permissions` table, created (without a header) when missing.
/// `check_permissions` has refused every other shape.
fn permissions_mut(doc: &mut DocumentMut) -> Option<&mut Table> {
    if !doc.contains_key("permissions") {
        let mut table = Table::new();
        table.set_implicit(true);
        table.set_position(None);
        doc.insert("permissions", Item::Table(table));
    }
    doc.get_mut("permissions").and_then(Item::as_table_mut)
}

fn set_positions(table: &mut Table, pos: isize) {
    table.set_position(Some(pos));
    for (_, item) in table.iter_mut() {
        if let Item::Table(sub) = item {
            set_positions(sub, pos);
        }
    }
}

/// One step from a table to a child table.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Key(String),
    Aot(String, usize),
}

/// A table header the document prints, with the position it is sorted by.
#[derive(Debug, Clone)]
struct Header {
    pos: isize,
    path: Vec<Step>,
}

impl Header {
    fn is_under_permissions(&self) -> bool {
        self.path.first() == Some(&Step::Key("permissions".into()))
    }

    fn in_profile(&self) -> bool {
        self.is_under_permissions() && self.path.get(1) == Some(&Step::Key("twsrt".into()))
    }

    /// `[[name]]` at the top level (the root holds an array, not a table).
    fn is_top_level_array(&self) -> bool {
        matches!(self.path.as_slice(), [Step::Aot(..)])
    }

    fn is_foreign_profile(&self) -> bool {
        self.is_under_permissions() && !self.in_profile()
    }
}

/// Every printed table header in print order (as toml_edit orders them:
/// by position, a table without one inheriting its predecessor's).
fn headers(doc: &DocumentMut) -> Vec<Header> {
    let mut out = Vec::new();
    let mut last = 0;
    walk(doc.as_table(), &mut Vec::new(), &mut last, &mut out);
    out.sort_by_key(|h| h.pos);
    out
}

fn walk(table: &Table, path: &mut Vec<Step>, last: &mut isize, out: &mut Vec<Header>) {
    if !table.is_dotted() {
        if let Some(pos) = table.position() {
            *last = pos;
        }
        let hidden = table.is_implicit() && table.get_values().is_empty();
        if !path.is_empty() && !hidden {
            out.push(Header {
                pos: *last,
                path: path.clone(),
            });
        }
    }
    for (key, item) in table.iter() {
        match item {
            Item::Table(sub) => {
                path.push(Step::Key(key.to_string()));
                walk(sub, path, last, out);
                path.pop();
            }
            Item::ArrayOfTables(tables) => {
                for (i, sub) in tables.iter().enumerate() {
                    path.push(Step::Aot(key.to_string(), i));
                    walk(sub, path, last, out);
                    path.pop();
                }
            }
            _ => {}
        }
    }
}

fn next_position(doc: &DocumentMut) -> isize {
    headers(doc).iter().map(|h| h.pos).max().unwrap_or(0) + 1
}

fn table_at<'a>(doc: &'a DocumentMut, path: &[Step]) -> Option<&'a Table> {
    let mut table = doc.as_table();
    for step in path {
        table = match step {
            Step::Key(k) => table.get(k)?.as_table()?,
            Step::Aot(k, i) => table.get(k)?.as_array_of_tables()?.get(*i)?,
        };
    }
    Some(table)
}

fn table_at_mut<'a>(doc: &'a mut DocumentMut, path: &[Step]) -> Option<&'a mut Table> {
    let mut table = doc.as_table_mut();
    for step in path {
        table = match step {
            Step::Key(k) => table.get_mut(k)?.as_table_mut()?,
            Step::Aot(k, i) => table.get_mut(k)?.as_array_of_tables_mut()?.get_mut(*i)?,
        };
    }
    Some(table)
}

fn decor_text(decor: &Decor) -> String {
    decor
        .prefix()
        .and_then(|raw| raw.as_str())
        .unwrap_or("")
        .to_string()
}

/// The text printed before a table's header line (blank lines, comments).
fn prefix_at(doc: &DocumentMut, header: &Header) -> String {
    table_at(doc, &header.path)
        .map(|t| decor_text(t.decor()))
        .unwrap_or_default()
}

fn set_prefix_at(doc: &mut DocumentMut, header: &Header, prefix: String) {
    if let Some(t) = table_at_mut(doc, &header.path) {
        t.decor_mut().set_prefix(prefix);
    }
}

/// The text before `next`'s header, or after the document's last item when
/// nothing follows.
fn gap_before(doc: &DocumentMut, next: Option<&Header>) -> String {
    match next {
        Some(h) => prefix_at(doc, h),
        None => trailing(doc),
    }
}

fn set_gap_before(doc: &mut DocumentMut, next: Option<&Header>, gap: String) {
    match next {
        Some(h) => set_prefix_at(doc, h, gap),
        None => doc.set_trailing(gap),
    }
}

/// The text after the last item of the document.
fn trailing(doc: &DocumentMut) -> String {
    doc.trailing().as_str().unwrap_or("").to_string()
}

/// Split whitespace-and-comment text after its last blank line: the lines
/// after it run into what follows the text.
fn split_before_last_paragraph(gap: &str) -> (String, String) {
    let mut end = 0;
    let mut offset = 0;
    for line in gap.split_inclusive('\n') {
        offset += line.len();
        if line.trim().is_empty() {
            end = offset;
        }
    }
    (gap[..end].to_string(), gap[end..].to_string())
}

/// Split whitespace-and-comment text after its last comment line.
fn split_after_last_comment(gap: &str) -> (String, String) {
    let mut end = None;
    let mut offset = 0;
    for line in gap.split_inclusive('\n') {
        offset += line.len();
        if line.trim_start().starts_with('#') {
            end = Some(offset);
        }
    }
    match end {
        None => (String::new(), gap.to_string()),
        Some(end) => {
            let mut head = gap[..end].to_string();
            if !head.ends_with('\n') {
                head.push('\n');
            }
            (head, gap[end..].to_string())
        }
    }
}

/// Whether whitespace-and-comment text ends with a blank line.
fn ends_blank(gap: &str) -> bool {
    gap.split_inclusive('\n')
        .next_back()
        .is_some_and(|line| line.trim().is_empty())
}

fn has_comment(gap: &str) -> bool {
    gap.lines().any(|line| line.trim_start().starts_with('#'))
}
