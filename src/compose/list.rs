//! One composed list: its entries, packed, and the index that keeps them
//! unique.
//!
//! Policies are mostly long lists of strings. Kept as `serde_json` values,
//! each entry costs a 72-byte value and a heap string of its own: for a
//! large policy that is most of the memory the composition touches, and
//! fresh memory is the dearest thing at start-up. Here a string entry is 8
//! bytes pointing into one shared text, and only entries that are not
//! strings are values. A consumer that needs values gets them from
//! [`Items::to_values`]; the Claude preview and the rules read the strings
//! in place.

use hashbrown::HashTable;
use serde_json::Value;

use super::{Key, equality_key};

/// The entries of one list, in order.
#[derive(Debug, Clone, Default)]
pub struct Items {
    /// The string entries' bytes, back to back.
    text: String,
    entries: Vec<Entry>,
    /// The entries that are not strings.
    others: Vec<Value>,
}

/// `text[start..start + len]`, or `others[start]` when `len` is
/// [`OTHER`]: eight bytes an entry.
#[derive(Debug, Clone, Copy)]
struct Entry {
    start: u32,
    len: u32,
}

/// The `len` of an entry that is not a string.
const OTHER: u32 = u32::MAX;

/// One entry of a list.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Item<'a> {
    Str(&'a str),
    Other(&'a Value),
}

impl Item<'_> {
    pub fn to_value(self) -> Value {
        match self {
            Item::Str(s) => Value::String(s.to_string()),
            Item::Other(v) => v.clone(),
        }
    }
}

impl Items {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// An entry's item. Entries are only made by `push_str` and
    /// `push_other`, right after what they point at was stored, so they
    /// always point inside `text` and `others`.
    fn item(&self, entry: Entry) -> Item<'_> {
        let start = entry.start as usize;
        if entry.len == OTHER {
            Item::Other(&self.others[start])
        } else {
            Item::Str(&self.text[start..start + entry.len as usize])
        }
    }

    pub fn iter(&self) -> Iter<'_> {
        Iter {
            items: self,
            entries: self.entries.iter(),
        }
    }

    /// Every entry as a value, as `serde_json` holds a list.
    pub fn to_values(&self) -> Vec<Value> {
        self.iter().map(Item::to_value).collect()
    }

    /// Whether the entry at `i` equals `key` (Python's `==`).
    fn matches(&self, i: usize, key: &Key) -> bool {
        let Some(&Entry { start, len }) = self.entries.get(i) else {
            return false;
        };
        let start = start as usize;
        match key {
            // A string's key is always `Str`, anything else's always `Other`.
            Key::Str(s) if len != OTHER => {
                self.text.as_bytes().get(start..start + len as usize) == Some(s.as_bytes())
            }
            Key::Other(k) if len == OTHER => {
                self.others.get(start).map(equality_key).as_ref() == Some(k)
            }
            _ => false,
        }
    }

    fn push_str(&mut self, s: &str) {
        let start = u32::try_from(self.text.len());
        let len = u32::try_from(s.len());
        match (start, len) {
            (Ok(start), Ok(len)) if len != OTHER && start.checked_add(len).is_some() => {
                self.text.push_str(s);
                self.entries.push(Entry { start, len });
            }
            // Past 4 GiB of text (out of reach of a policy file): as a value.
            _ => self.push_other(Value::String(s.to_string())),
        }
    }

    fn push_other(&mut self, value: Value) {
        let start = u32::try_from(self.others.len()).unwrap_or(u32::MAX);
        self.others.push(value);
        self.entries.push(Entry { start, len: OTHER });
    }

    #[cfg(test)]
    pub(super) fn capacity(&self) -> (usize, usize) {
        (self.entries.capacity(), self.text.capacity())
    }
}

/// The entries of [`Items`], in order.
#[derive(Clone)]
pub struct Iter<'a> {
    items: &'a Items,
    entries: std::slice::Iter<'a, Entry>,
}

impl<'a> Iterator for Iter<'a> {
    type Item = Item<'a>;

    fn next(&mut self) -> Option<Item<'a>> {
        self.entries.next().map(|&entry| self.items.item(entry))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.entries.size_hint()
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// A composed list: its entries, for each the fragment it first came from,
/// and an index of them.
#[derive(Debug, Clone, Default)]
pub(super) struct List {
    pub(super) items: Items,
    /// Where each entry first came from, as runs: (first position, index of
    /// the fragment). A fragment's new entries are appended together, so a
    /// list has a run per fragment, not a number per entry.
    runs: Vec<(u32, u32)>,
    index: ArrayIndex,
}

impl List {
    /// Appends `text` from fragment `source` unless the list holds it
    /// already; whether it did.
    pub(super) fn push_str(&mut self, text: &str, source: u32) -> bool {
        let key = Key::Str(text);
        if !self.index.claim(&self.items, &key) {
            return false;
        }
        self.items.push_str(text);
        self.record(source);
        true
    }

    /// [`List::push_str`] for any value.
    pub(super) fn push_value(&mut self, value: Value, source: u32) -> bool {
        if let Value::String(text) = &value {
            return self.push_str(text, source);
        }
        let key = Key::Other(equality_key(&value));
        if !self.index.claim(&self.items, &key) {
            return false;
        }
        self.items.push_other(value);
        self.record(source);
        true
    }

    /// Notes that the entry just appended came from fragment `source`.
    fn record(&mut self, source: u32) {
        if self.runs.last().is_none_or(|&(_, last)| last != source) {
            let position = u32::try_from(self.items.len() - 1).unwrap_or(u32::MAX);
            self.runs.push((position, source));
        }
    }

    /// The index of the fragment the entry at `position` first came from.
    pub(super) fn source(&self, position: usize) -> Option<u32> {
        if position >= self.items.len() {
            return None;
        }
        let runs = self
            .runs
            .partition_point(|&(start, _)| start as usize <= position);
        Some(self.runs.get(runs.checked_sub(1)?)?.1)
    }

    /// Each entry with the index of the fragment it first came from, in
    /// order (walking the runs in step, no search per entry).
    pub(super) fn with_sources(&self) -> impl Iterator<Item = (Item<'_>, u32)> + '_ {
        let mut runs = self.runs.iter().peekable();
        let mut source = 0;
        self.items.iter().enumerate().map(move |(position, item)| {
            while let Some(&&(start, fragment)) = runs.peek() {
                if start as usize > position {
                    break;
                }
                source = fragment;
                runs.next();
            }
            (item, source)
        })
    }

    /// Makes room for `entries` more entries of `bytes` string bytes from
    /// the fragment being added, and for as many from each of the
    /// `fragments_to_come` (at least one: this one). A list then grows at
    /// most once per fragment that finds it full, instead of doubling and
    /// copying itself into fresh memory again and again; capacity never
    /// written costs no memory, so over-estimating is cheap.
    pub(super) fn make_room(&mut self, entries: usize, bytes: usize, fragments_to_come: usize) {
        let times = fragments_to_come.max(1);
        let (have, text) = (
            self.items.entries.capacity() - self.items.len(),
            self.items.text.capacity() - self.items.text.len(),
        );
        if have < entries {
            let all = entries.saturating_mul(times);
            let _ = self.items.entries.try_reserve(all);
            // The index is sized for half of that (but at least this
            // fragment's list): fragments of one policy overlap, and a table
            // never written is not free (its control bytes are set when it
            // is made).
            self.index.reserve((all / 2).max(entries));
        }
        if text < bytes {
            let _ = self.items.text.try_reserve(bytes.saturating_mul(times));
        }
    }

    /// The position of the string `text`, if the list has it.
    pub(super) fn position(&self, text: &str) -> Option<usize> {
        let key = Key::Str(text);
        self.index.find(&self.items, key.tag(), &key)
    }
}

/// The entries of one list, by [`Key`]: a SwissTable of (32 well-mixed bits
/// of the entry's hash, its position in the list). The bits are kept so a
/// probe compares them before it reads the entry, and the table grows
/// without hashing the entries again.
#[derive(Debug, Clone, Default)]
struct ArrayIndex {
    table: HashTable<(u32, u32)>,
}

/// The full hash hashbrown wants, from the 32 bits kept: it takes a bucket
/// from the low bits and a tag from the top seven.
fn spread(tag: u32) -> u64 {
    (u64::from(tag) << 32) | u64::from(tag)
}

impl ArrayIndex {
    /// Room for `more` entries without growing (best effort).
    fn reserve(&mut self, more: usize) {
        let _ = self.table.try_reserve(more, |&(t, _)| spread(t));
    }

    /// `Some(position)` of the entry of `items` equal to `key`.
    fn find(&self, items: &Items, tag: u32, key: &Key) -> Option<usize> {
        self.table
            .find(spread(tag), |&(t, i)| {
                t == tag && items.matches(i as usize, key)
            })
            .map(|&(_, i)| i as usize)
    }

    /// Whether `key` is new to `items`; if so, it is recorded as the entry
    /// about to be appended (at `items.len()`). One probe does both.
    fn claim(&mut self, items: &Items, key: &Key) -> bool {
        let tag = key.tag();
        let entry = self.table.entry(
            spread(tag),
            |&(t, i)| t == tag && items.matches(i as usize, key),
            |&(t, _)| spread(t),
        );
        match entry {
            hashbrown::hash_table::Entry::Occupied(_) => false,
            hashbrown::hash_table::Entry::Vacant(slot) => {
                // Lists of four billion entries are out of reach of a policy file.
                let position = u32::try_from(items.len()).unwrap_or(u32::MAX);
                slot.insert((tag, position));
                true
            }
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.table.len()
    }

    #[cfg(test)]
    fn capacity(&self) -> usize {
        self.table.capacity()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn strings_and_other_values_keep_their_order_and_python_equality() {
        let mut list = List::default();
        let pushed: Vec<bool> = [
            json!("a"),
            json!(1),
            json!("b"),
            json!(1.0),
            json!(true),
            json!("a"),
            json!({"k": [1]}),
            json!("1"),
        ]
        .into_iter()
        .enumerate()
        .map(|(i, v)| list.push_value(v, i as u32))
        .collect();
        assert_eq!(
            pushed,
            [true, true, true, false, false, false, true, true],
            "1 == 1.0 == True, as in Python"
        );
        assert_eq!(
            list.items.to_values(),
            [
                json!("a"),
                json!(1),
                json!("b"),
                json!({"k": [1]}),
                json!("1")
            ]
        );
        let sources: Vec<_> = (0..6).map(|i| list.source(i)).collect();
        assert_eq!(sources, [Some(0), Some(1), Some(2), Some(6), Some(7), None]);
        assert_eq!(
            list.runs.len(),
            5,
            "one run per fragment that added entries"
        );
        let walked: Vec<_> = list
            .with_sources()
            .map(|(_, source)| Some(source))
            .collect();
        assert_eq!(walked, sources[..5]);
        let strings: Vec<_> = list
            .items
            .iter()
            .filter(|item| matches!(item, Item::Str(_)))
            .collect();
        assert_eq!(strings, [Item::Str("a"), Item::Str("b"), Item::Str("1")]);
        assert_eq!(list.position("b"), Some(2));
        assert_eq!(list.position("1"), Some(4), "the string, not the number");
        assert_eq!(list.position("c"), None);
        // A string is never equal to a value that is not one.
        assert!(!list.push_str("b", 9));
        assert!(list.push_value(json!(["a"]), 9));
    }

    #[test]
    fn many_entries_stay_unique_through_table_growth() {
        let mut list = List::default();
        for round in 0..2 {
            for i in 0..5000 {
                let text = format!("/p/{i}");
                assert_eq!(list.push_str(&text, round), round == 0, "{text}");
            }
        }
        assert_eq!(list.items.len(), 5000);
        assert_eq!(list.index.len(), 5000);
        assert_eq!(list.position("/p/4999"), Some(4999));
    }

    #[test]
    fn making_room_reserves_for_the_fragments_to_come_once() {
        let mut list = List::default();
        list.make_room(100, 1000, 4);
        let (entries, text) = list.items.capacity();
        assert!(entries >= 400 && text >= 4000, "{entries} {text}");
        // The index for half of them (fragments overlap), at once.
        let index = list.index.capacity();
        assert!(index >= 200, "{index}");
        for i in 0..400 {
            list.push_str(&format!("{i:09}"), 0);
        }
        assert_eq!(list.items.capacity(), (entries, text), "no regrowth");
        assert!(list.index.capacity() > index, "the index grows past half");
        // Room to spare: nothing more is reserved.
        list.make_room(0, 0, 4);
        assert_eq!(list.items.capacity(), (entries, text));
    }

    #[test]
    fn the_first_fragment_is_indexed_without_the_table_growing() {
        let mut list = List::default();
        // The last fragment (none to come after it): room for its whole list.
        list.make_room(1000, 4000, 1);
        let capacity = list.index.capacity();
        assert!(capacity >= 1000);
        for i in 0..1000 {
            list.push_str(&i.to_string(), 0);
        }
        assert_eq!(list.index.capacity(), capacity);
    }
}
