//! Structural composition of one source kind's fragments.
//!
//! Objects merge recursively, arrays form a stable de-duplicated union (first
//! occurrence wins), equal scalars agree. Anything else is a conflict that
//! names the JSON pointer and both fragments, because silently picking one
//! value would change a security policy behind the user's back.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::pyjson::{PyNumber, classify};

/// One parsed fragment, in profile order.
#[derive(Debug, Clone)]
pub struct ParsedFragment {
    pub name: String,
    pub path: PathBuf,
    pub value: Value,
}

/// Compose fragments in order. `profile` and `kind` only label errors.
pub fn compose(profile: &str, kind: &str, fragments: &[ParsedFragment]) -> Result<Value> {
    let mut composer = Composer::new(profile, kind);
    for fragment in fragments {
        composer.add(fragment.clone())?;
    }
    Ok(composer.finish().value)
}

/// Composes fragments one at a time, so that each fragment's value is merged
/// (moved, not copied) and gone before the next one is read: the peak memory
/// is the composition plus one fragment. [`compose`] is this, in one go.
pub struct Composer<'a> {
    profile: &'a str,
    kind: &'a str,
    /// The files added so far, in order (errors name them).
    paths: Vec<PathBuf>,
    acc: Map<String, Value>,
    /// JSON pointer -> index of the fragment that first set it.
    origin: FxHashMap<String, usize>,
    /// JSON pointer -> the entries of the array there, kept across fragments so
    /// each union costs the size of the new list, not of the whole union.
    arrays: FxHashMap<String, ArrayIndex>,
    /// JSON pointer of an array under an object key -> for each entry, the
    /// fragment it first came from.
    sources: FxHashMap<String, Vec<u32>>,
    /// How many fragments will be added in all (0: unknown), to size lists.
    expected: usize,
}

/// A composed document, with the fragment each list entry came from.
pub struct Composed {
    pub value: Value,
    paths: Vec<PathBuf>,
    sources: FxHashMap<String, Vec<u32>>,
    /// The composition's own index of each list, kept for lookups.
    arrays: FxHashMap<String, ArrayIndex>,
}

impl Composed {
    /// The string entries of the list at `pointer` (an RFC 6901 JSON pointer),
    /// in order, each with the file of the first fragment that listed it.
    pub fn list<'s>(&'s self, pointer: &str) -> impl Iterator<Item = (&'s str, &'s Path)> {
        let sources = self.sources.get(pointer).map_or(&[][..], Vec::as_slice);
        self.items(pointer)
            .iter()
            .zip(sources)
            .filter_map(|(item, &source)| {
                Some((item.as_str()?, self.paths[source as usize].as_path()))
            })
    }

    /// Lookups in the list at `pointer`, through the index the composition
    /// built anyway (no table of its own); `None` when there is no list.
    pub fn lookup(&self, pointer: &str) -> Option<ListLookup<'_>> {
        Some(ListLookup {
            items: self.items(pointer),
            index: self.arrays.get(pointer)?,
            sources: self.sources.get(pointer)?,
            paths: &self.paths,
        })
    }

    /// How many entries the list at `pointer` has.
    pub fn list_len(&self, pointer: &str) -> usize {
        self.items(pointer).len()
    }

    fn items(&self, pointer: &str) -> &[Value] {
        self.value
            .pointer(pointer)
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice)
    }
}

/// One composed list, ready for lookups (see [`Composed::lookup`]).
pub struct ListLookup<'c> {
    items: &'c [Value],
    index: &'c ArrayIndex,
    sources: &'c [u32],
    paths: &'c [PathBuf],
}

impl<'c> ListLookup<'c> {
    /// The file of the first fragment that listed the string `text`, if the
    /// list has it.
    pub fn source_of(&self, text: &str) -> Option<&'c Path> {
        let position = self.index.position(self.items, text)?;
        let source = *self.sources.get(position)?;
        self.paths.get(source as usize).map(PathBuf::as_path)
    }
}

impl<'a> Composer<'a> {
    /// `profile` and `kind` only label errors.
    pub fn new(profile: &'a str, kind: &'a str) -> Self {
        Composer {
            profile,
            kind,
            paths: Vec::new(),
            acc: Map::new(),
            origin: FxHashMap::default(),
            arrays: FxHashMap::default(),
            sources: FxHashMap::default(),
            expected: 0,
        }
    }

    /// Tells the composer how many fragments will be added in all. A list
    /// then grows at most once per fragment that finds it full, by that
    /// fragment's list times the fragments still to come, instead of
    /// doubling and copying itself into fresh memory again and again.
    /// Capacity never written costs no memory (pages are only touched when
    /// written), so over-estimating is cheap.
    pub fn expecting(mut self, fragments: usize) -> Self {
        self.expected = fragments;
        self
    }

    /// Makes room in `items` for `incoming` more entries from fragment
    /// `index`, and for as many from each fragment after it. Best effort: a
    /// reservation that cannot be had is skipped, and the list grows as
    /// usual.
    fn make_room(&self, items: &mut Vec<Value>, incoming: usize, index: usize) {
        if items.capacity() - items.len() < incoming {
            let remaining = self.expected.saturating_sub(index).max(1);
            let _ = items.try_reserve(incoming.saturating_mul(remaining));
        }
    }

    /// Merges the next fragment. After an error the composition is
    /// incomplete and must not be used.
    pub fn add(&mut self, fragment: ParsedFragment) -> Result<()> {
        let index = self.paths.len();
        self.paths.push(fragment.path);
        let Value::Object(map) = fragment.value else {
            // The JSONC parser only returns objects; keep composing safely anyway.
            return Ok(());
        };
        let mut acc = std::mem::take(&mut self.acc);
        let result = self.merge_object(&mut acc, map, &mut String::new(), index);
        self.acc = acc;
        result
    }

    pub fn finish(self) -> Composed {
        Composed {
            value: Value::Object(self.acc),
            paths: self.paths,
            sources: self.sources,
            arrays: self.arrays,
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
            match acc.get_mut(&key) {
                None => {
                    self.origin.insert(pointer.clone(), index);
                    let value = self.fresh(value, pointer, index);
                    acc.insert(key, value);
                }
                Some(existing) => self.merge_value(existing, value, pointer, index)?,
            }
            pointer.truncate(len);
        }
        Ok(())
    }

    /// A value new to the composition: de-duplicated, with its lists'
    /// entries attributed to fragment `index`.
    fn fresh(&mut self, value: Value, pointer: &mut String, index: usize) -> Value {
        match value {
            Value::Object(map) => Value::Object(
                map.into_iter()
                    .map(|(key, value)| {
                        let len = pointer.len();
                        pointer.push('/');
                        push_pointer_token(pointer, &key);
                        let value = self.fresh(value, pointer, index);
                        pointer.truncate(len);
                        (key, value)
                    })
                    .collect(),
            ),
            Value::Array(mut items) => {
                let seen = ArrayIndex::dedup(&mut items);
                let len = items.len();
                self.make_room(&mut items, len, index + 1);
                self.arrays.insert(pointer.clone(), seen);
                self.sources
                    .insert(pointer.clone(), vec![index as u32; items.len()]);
                Value::Array(items)
            }
            other => other,
        }
    }

    /// Appends to the list `a` at `pointer` the entries of fragment `index`'s
    /// list `b` that it does not hold yet, through `push` (which looks an
    /// entry up and appends it when it is new), and records where they came
    /// from.
    fn union<T>(
        &mut self,
        a: &mut Vec<Value>,
        b: Vec<T>,
        pointer: &str,
        index: usize,
        push: impl Fn(&mut ArrayIndex, &mut Vec<Value>, T) -> bool,
    ) {
        self.make_room(a, b.len(), index);
        let seen = match self.arrays.get_mut(pointer) {
            Some(seen) => seen,
            None => self
                .arrays
                .entry(pointer.to_string())
                .or_insert_with(|| ArrayIndex::of(a, b.len())),
        };
        let mut sources = self.sources.get_mut(pointer);
        a.reserve(b.len());
        for item in b {
            if push(seen, a, item)
                && let Some(sources) = sources.as_mut()
            {
                sources.push(index as u32);
            }
        }
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
                self.union(a, b, pointer, index, ArrayIndex::push_new);
                Ok(())
            }
            (a, b) if type_name(a) != type_name(&b) => {
                Err(self.conflict(pointer, index, "values of different types"))
            }
            (a, b) => {
                if equality_key(a) == equality_key(&b) {
                    Ok(())
                } else {
                    Err(self.conflict(pointer, index, "different values"))
                }
            }
        }
    }

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

/// The entries of one composed array, by [`Key`]: an open-addressing table of
/// (the high half of the hash, position in the array), eight bytes a slot.
struct ArrayIndex {
    slots: Vec<(u32, u32)>,
    len: usize,
}

const EMPTY_SLOT: u32 = u32::MAX;

impl ArrayIndex {
    /// Removes later duplicates from a fragment's own list, in place and in
    /// order, and returns the index of what is left. (The reference copies a
    /// fragment's list as is: a documented divergence, see
    /// doc/compatibility.md.) List items are atomic values, as in the
    /// reference: a list inside an item is kept as written, so composing a
    /// composition again changes nothing.
    fn dedup(items: &mut Vec<Value>) -> Self {
        let mut index = ArrayIndex::with_room(items.len());
        let mut kept = 0;
        for i in 0..items.len() {
            let key = Key::of(&items[i]);
            let tag = key.tag();
            if index.find(&items[..kept], tag, &key).is_err() {
                drop(key);
                // Survivors move down over the duplicates, keeping their order.
                items.swap(kept, i);
                index.insert(tag, kept);
                kept += 1;
            }
        }
        items.truncate(kept);
        index
    }

    fn with_room(entries: usize) -> Self {
        ArrayIndex {
            slots: vec![(0, EMPTY_SLOT); (entries * 4 / 3 + 1).next_power_of_two().max(16)],
            len: 0,
        }
    }

    /// The position in `items` of the string `text`, if it is there.
    fn position(&self, items: &[Value], text: &str) -> Option<usize> {
        let key = Key::Str(text);
        self.find(items, key.tag(), &key).ok()
    }

    /// The index of `items` (already free of duplicates), with room for `more`.
    fn of(items: &[Value], more: usize) -> Self {
        let mut index = ArrayIndex::with_room(items.len() + more);
        for (i, item) in items.iter().enumerate() {
            let key = Key::of(item);
            let tag = key.tag();
            if index.find(items, tag, &key).is_err() {
                index.insert(tag, i);
            }
        }
        index
    }

    /// `Ok(position)` of the equal entry in `items`, else `Err(slot)` for it.
    fn find(&self, items: &[Value], tag: u32, key: &Key) -> std::result::Result<usize, usize> {
        let mask = self.slots.len() - 1;
        let mut slot = tag as usize & mask;
        loop {
            let (t, i) = self.slots[slot];
            if i == EMPTY_SLOT {
                return Err(slot);
            }
            if t == tag && Key::of(&items[i as usize]) == *key {
                return Ok(i as usize);
            }
            slot = (slot + 1) & mask;
        }
    }

    fn insert(&mut self, tag: u32, position: usize) {
        // At most three quarters full: probes stay short, and the table is a
        // third smaller than at half full (fresh memory is dear).
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            let grown = vec![(0, EMPTY_SLOT); self.slots.len() * 2];
            let old = std::mem::replace(&mut self.slots, grown);
            for (t, i) in old.into_iter().filter(|&(_, i)| i != EMPTY_SLOT) {
                self.place(t, i);
            }
        }
        // Arrays of four billion entries are out of reach of a policy file.
        self.place(tag, u32::try_from(position).unwrap_or(EMPTY_SLOT - 1));
        self.len += 1;
    }

    fn place(&mut self, tag: u32, position: u32) {
        let mask = self.slots.len() - 1;
        let mut slot = tag as usize & mask;
        while self.slots[slot].1 != EMPTY_SLOT {
            slot = (slot + 1) & mask;
        }
        self.slots[slot] = (tag, position);
    }

    /// Appends `item` to `items` unless an equal entry is there already;
    /// whether it did.
    fn push_new(&mut self, items: &mut Vec<Value>, item: Value) -> bool {
        let key = Key::of(&item);
        let tag = key.tag();
        if self.find(items, tag, &key).is_ok() {
            return false;
        }
        drop(key);
        self.insert(tag, items.len());
        items.push(item);
        true
    }
}

/// FxHash (rustc's hasher): a multiply and a rotate per word. Policy files are
/// the user's own input, so hash flooding is not a concern; speed is.
#[derive(Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(FX_SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 59));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // hashbrown takes its bucket from the low bits and its tag from the top ones.
        self.hash.rotate_left(26)
    }
}

pub type FxBuildHasher = BuildHasherDefault<FxHasher>;
pub type FxHashMap<K, V> = HashMap<K, V, FxBuildHasher>;
pub type FxHashSet<T> = HashSet<T, FxBuildHasher>;

/// A hashable stand-in for Python equality. Strings, by far the most common
/// list entries, are hashed in place; other values through [`equality_key`].
/// The two variants never collide: a top-level string is always `Str`.
#[derive(Hash, PartialEq, Eq)]
enum Key<'a> {
    Str(&'a str),
    Other(String),
}

impl<'a> Key<'a> {
    fn of(v: &'a Value) -> Self {
        match v {
            Value::String(s) => Key::Str(s),
            other => Key::Other(equality_key(other)),
        }
    }

    /// 32 well-mixed bits of the hash (the array index masks their low bits).
    fn tag(&self) -> u32 {
        (self.hash64() >> 32) as u32
    }

    /// A well-mixed 64-bit hash.
    fn hash64(&self) -> u64 {
        let mut h = FxHasher::default();
        self.hash(&mut h);
        // murmur3's finalizer
        let mut x = h.hash;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        x ^ (x >> 33)
    }
}

/// The JSON type as the reference distinguishes it: booleans, integers and
/// floats are three different types.
fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(n) => match classify(n) {
            PyNumber::Int(_) => "int",
            PyNumber::Float(_) => "float",
        },
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A string equal for two values exactly when Python's `==` says they are
/// equal (so `1`, `1.0` and `true` are one entry in a union, and object key
/// order does not matter).
pub fn equality_key(v: &Value) -> String {
    let mut out = String::new();
    write_key(v, &mut out);
    out
}

fn write_key(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push('n'),
        Value::Bool(b) => out.push_str(if *b { "#1" } else { "#0" }),
        Value::Number(n) => {
            out.push('#');
            match classify(n) {
                PyNumber::Int(text) => out.push_str(&text),
                PyNumber::Float(f) if f.fract() == 0.0 && f.is_finite() => {
                    // Integral floats equal the integer with the same value.
                    out.push_str(&format!("{:.0}", if f == 0.0 { 0.0 } else { f }));
                }
                PyNumber::Float(f) => out.push_str(&format!("{f:e}")),
            }
        }
        Value::String(s) => {
            out.push('s');
            out.push_str(&s.len().to_string());
            out.push(':');
            out.push_str(s);
        }
        Value::Array(items) => {
            out.push('[');
            for item in items {
                write_key(item, out);
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, String)> =
                map.iter().map(|(k, v)| (k, equality_key(v))).collect();
            entries.sort();
            out.push('{');
            for (k, v) in entries {
                out.push_str(&k.len().to_string());
                out.push(':');
                out.push_str(k);
                out.push_str(&v);
                out.push(',');
            }
            out.push('}');
        }
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

mod view;

#[cfg(test)]
mod tests;
