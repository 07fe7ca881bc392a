//! Structural composition of one source kind's fragments.
//!
//! Contract: fragments are added in profile order. Objects merge key by key
//! (a key keeps the position where it first appeared), arrays form a stable
//! de-duplicated union (first occurrence wins, equality as Python's `==`
//! decides it, see `compose/equality.rs`), equal scalars agree. Anything else is a
//! conflict that names the JSON pointer and exactly the two fragments whose
//! values disagree, because silently picking one value would change a
//! security policy behind the user's back.
//!
//! Every key and every list entry remembers the fragment that first set it,
//! so conflicts and the source kinds' opposing-action checks can name it.

mod equality;
#[cfg(test)]
mod tests;

use hashbrown::HashTable;
use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};

use serde_json::map::Entry;
use serde_json::{Map, Value};

use crate::error::{Error, Result};
pub use equality::{equality_key, type_name};

/// One parsed fragment, in profile order.
#[derive(Debug, Clone)]
pub struct ParsedFragment {
    pub path: PathBuf,
    pub value: Value,
}

/// Composes `fragments` in order. `profile` and `kind` only label errors.
pub fn compose(profile: &str, kind: &str, fragments: &[ParsedFragment]) -> Result<Value> {
    let mut composer = Composer::new(profile, kind);
    for fragment in fragments {
        composer.add(fragment.clone())?;
    }
    Ok(composer.finish().into_value())
}

/// Composes fragments one at a time, so that each fragment's value is moved
/// into the composition and gone before the next one is read.
pub struct Composer<'a> {
    profile: &'a str,
    kind: &'a str,
    /// The files added so far, in order (errors name them).
    paths: Vec<PathBuf>,
    /// The composition so far.
    doc: Map<String, Value>,
    /// See [`Composed::sources`].
    sources: FxHashMap<String, Vec<usize>>,
    /// How many fragments are to be added in all (0: not known).
    expected: usize,
    /// JSON pointer -> index of the fragment that first set it.
    origin: FxHashMap<String, usize>,
    /// JSON pointer of each list -> its entries' positions, by their
    /// [`equality::hash`]: a lookup compares the list's own entries, so no
    /// entry needs a key of its own.
    seen: FxHashMap<String, HashTable<usize>>,
}

/// A composed document, with the fragment each list entry came from.
#[derive(Debug, Clone)]
pub struct Composed {
    /// Always an object.
    value: Value,
    /// The fragment files, in the order they were added.
    paths: Vec<PathBuf>,
    /// JSON pointer of each list -> per entry, the index of the fragment
    /// that first listed it.
    sources: FxHashMap<String, Vec<usize>>,
}

impl Composed {
    /// The composed document (always an object).
    pub fn into_value(self) -> Value {
        self.value
    }

    /// The string entries of the list at `pointer`, in order, each with the
    /// file of the fragment that first listed it (none when there is no list).
    pub fn list<'s>(&'s self, pointer: &str) -> impl Iterator<Item = (&'s str, &'s Path)> {
        let items = self
            .value
            .pointer(pointer)
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        let sources = self.sources.get(pointer).map_or(&[][..], Vec::as_slice);
        items
            .iter()
            .zip(sources)
            .filter_map(move |(item, &source)| {
                Some((item.as_str()?, self.paths.get(source)?.as_path()))
            })
    }
}

impl<'a> Composer<'a> {
    /// `profile` and `kind` only label errors.
    pub fn new(profile: &'a str, kind: &'a str) -> Self {
        Composer {
            profile,
            kind,
            paths: Vec::new(),
            doc: Map::new(),
            sources: FxHashMap::default(),
            expected: 0,
            origin: FxHashMap::default(),
            seen: FxHashMap::default(),
        }
    }

    /// Tells the composer how many fragments will be added in all, so that
    /// a list that runs out of room makes room for what the fragments still
    /// to come may add, once, instead of doubling again and again: every
    /// doubling copies the list into fresh memory, and fresh memory is what
    /// a large policy pays most for (capacity never written costs nothing).
    pub fn expecting(mut self, fragments: usize) -> Self {
        self.expected = fragments;
        self
    }

    /// Merges the next fragment. After an error the composition is
    /// incomplete and must not be used.
    pub fn add(&mut self, fragment: ParsedFragment) -> Result<()> {
        let index = self.paths.len();
        self.paths.push(fragment.path);
        let Value::Object(map) = fragment.value else {
            // The fragment parser only returns objects; stay safe anyway.
            return Ok(());
        };
        let mut doc = std::mem::take(&mut self.doc);
        let result = self.merge_object(&mut doc, map, &mut String::new(), index);
        self.doc = doc;
        result
    }

    pub fn finish(self) -> Composed {
        Composed {
            value: Value::Object(self.doc),
            paths: self.paths,
            sources: self.sources,
        }
    }

    fn merge_object(
        &mut self,
        acc: &mut Map<String, Value>,
        new: Map<String, Value>,
        pointer: &mut String,
        index: usize,
    ) -> Result<()> {
        for (key, value) in new {
            let len = pointer.len();
            pointer.push('/');
            push_pointer_token(pointer, &key);
            match acc.entry(key) {
                Entry::Vacant(slot) => {
                    // A new key: an empty container of its kind is merged
                    // into, so that every key and list below it is recorded
                    // as this fragment's.
                    self.origin.insert(pointer.clone(), index);
                    let slot = slot.insert(match &value {
                        Value::Object(_) => Value::Object(Map::new()),
                        Value::Array(_) => Value::Array(Vec::new()),
                        _ => Value::Null,
                    });
                    match value {
                        Value::Object(_) | Value::Array(_) => {
                            self.merge_value(slot, value, pointer, index)?
                        }
                        scalar => *slot = scalar,
                    }
                }
                Entry::Occupied(slot) => {
                    self.merge_value(slot.into_mut(), value, pointer, index)?
                }
            }
            pointer.truncate(len);
        }
        Ok(())
    }

    fn merge_value(
        &mut self,
        existing: &mut Value,
        new: Value,
        pointer: &mut String,
        index: usize,
    ) -> Result<()> {
        match (existing, new) {
            (Value::Object(a), Value::Object(b)) => self.merge_object(a, b, pointer, index),
            (Value::Array(a), Value::Array(b)) => {
                self.union(a, b, pointer, index);
                Ok(())
            }
            (a, b) if type_name(a) != type_name(&b) => {
                Err(self.conflict(pointer, index, "values of different types"))
            }
            (a, b) if equality_key(a) == equality_key(&b) => Ok(()),
            _ => Err(self.conflict(pointer, index, "different values")),
        }
    }

    /// Appends the entries of `items` that the list `acc` at `pointer` does
    /// not hold yet, in order, as fragment `index`'s.
    fn union(&mut self, acc: &mut Vec<Value>, items: Vec<Value>, pointer: &str, index: usize) {
        if acc.capacity() - acc.len() < items.len() {
            // Room, not a requirement: if it cannot be had (an address-space
            // limit), the pushes below grow the list as usual.
            let to_come = self.expected.saturating_sub(index).max(1);
            let _ = acc.try_reserve(items.len().saturating_mul(to_come));
        }
        let seen = self.seen.entry(pointer.to_string()).or_default();
        // Room for every item at once: one rehash per fragment at most,
        // not one per doubling.
        seen.reserve(items.len(), |&at| equality::hash(&acc[at]));
        let sources = self.sources.entry(pointer.to_string()).or_default();
        for item in items {
            let hash = equality::hash(&item);
            if seen
                .find(hash, |&at| equality::equal(&acc[at], &item))
                .is_none()
            {
                seen.insert_unique(hash, acc.len(), |&at| equality::hash(&acc[at]));
                acc.push(item);
                sources.push(index);
            }
        }
    }

    /// The conflict at `pointer`: fragment `index` disagrees with the one
    /// that set the value there first.
    fn conflict(&self, pointer: &str, index: usize, what: &str) -> Error {
        let first = self.origin.get(pointer).copied().unwrap_or(0);
        let path = |i: usize| {
            self.paths
                .get(i)
                .map(|p| p.display().to_string())
                .unwrap_or_default()
        };
        Error::Policy(format!(
            "profile '{}', source '{}': {} and {} set {what} at {pointer}; \
             a profile cannot override a value, so make the fragments agree",
            self.profile,
            self.kind,
            path(first),
            path(index),
        ))
    }
}

/// RFC 6901: `~` becomes `~0`, `/` becomes `~1`.
fn push_pointer_token(pointer: &mut String, key: &str) {
    for c in key.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}
