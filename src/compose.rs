//! Structural composition of one source kind's fragments.
//!
//! Objects merge recursively, arrays form a stable de-duplicated union (first
//! occurrence wins), equal scalars agree. Anything else is a conflict that
//! names the JSON pointer and both fragments, because silently picking one
//! value would change a security policy behind the user's back.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::pyjson::{PyNumber, classify};

use list::List;
pub use list::{Item, Items};

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
    Ok(composer.finish().to_value())
}

/// Composes fragments one at a time, so that each fragment's value is merged
/// (moved, not copied) and gone before the next one is read: the peak memory
/// is the composition plus one fragment. [`compose`] is this, in one go.
pub struct Composer<'a> {
    profile: &'a str,
    kind: &'a str,
    /// The files added so far, in order (errors name them).
    paths: Vec<PathBuf>,
    /// The document without its lists: each list is an empty array here,
    /// and its entries are in `lists`.
    acc: Map<String, Value>,
    /// JSON pointer -> index of the fragment that first set it.
    origin: FxHashMap<String, usize>,
    /// JSON pointer -> the list there (every array under object keys).
    lists: FxHashMap<String, List>,
    /// How many fragments will be added in all (0: unknown), to size lists.
    expected: usize,
}

/// A composed document, with the fragment each list entry came from.
///
/// The lists are kept packed ([`Items`]): what only reads the strings of a
/// list (the rules, the Claude preview) reads them in place, and the whole
/// document is built as a value only for what needs one
/// ([`Composed::to_value`]).
#[derive(Debug, Clone, Default)]
pub struct Composed {
    /// The document with each list of `lists` as an empty array.
    skeleton: Value,
    lists: FxHashMap<String, List>,
    paths: Vec<PathBuf>,
}

/// A part of a composed document: a value, or one of its packed lists.
#[derive(Debug, Clone)]
pub enum Node<'a> {
    Value(Cow<'a, Value>),
    List(&'a Items),
}

impl Node<'_> {
    /// The part as a value: borrowed where it is one, a list's entries
    /// copied into one.
    pub fn as_value(&self) -> Cow<'_, Value> {
        match self {
            Node::Value(value) => Cow::Borrowed(value.as_ref()),
            Node::List(items) => Cow::Owned(Value::Array(items.to_values())),
        }
    }
}

impl Composed {
    /// An empty document (`null`, no lists).
    pub const EMPTY: Composed = Composed {
        skeleton: Value::Null,
        lists: HashMap::with_hasher(BuildHasherDefault::new()),
        paths: Vec::new(),
    };

    /// A document that is a value already, with no packed lists (as tests
    /// and the fuzz targets build them).
    pub fn from_value(value: Value) -> Self {
        Composed {
            skeleton: value,
            ..Composed::default()
        }
    }

    /// The whole document as a value.
    pub fn to_value(&self) -> Value {
        let mut value = self.skeleton.clone();
        self.fill(&mut value, "");
        value
    }

    /// Puts the entries of the lists under `prefix` into `value`, a copy of
    /// the skeleton at `prefix`.
    fn fill(&self, value: &mut Value, prefix: &str) {
        for (pointer, list) in &self.lists {
            let Some(rest) = pointer.strip_prefix(prefix) else {
                continue;
            };
            if !rest.starts_with('/') {
                continue;
            }
            if let Some(slot) = value.pointer_mut(rest) {
                *slot = Value::Array(list.items.to_values());
            }
        }
    }

    /// The part of the document at `pointer` (an RFC 6901 JSON pointer
    /// other than the root): a packed list as it is, anything else as a
    /// value (borrowed unless lists lie inside it).
    pub fn node(&self, pointer: &str) -> Option<Node<'_>> {
        if let Some(list) = self.lists.get(pointer) {
            return Some(Node::List(&list.items));
        }
        let value = self.skeleton.pointer(pointer)?;
        let inside = |p: &String| {
            p.strip_prefix(pointer)
                .is_some_and(|rest| rest.starts_with('/'))
        };
        if self.lists.keys().any(inside) {
            let mut value = value.clone();
            self.fill(&mut value, pointer);
            Some(Node::Value(Cow::Owned(value)))
        } else {
            Some(Node::Value(Cow::Borrowed(value)))
        }
    }

    /// Whether there is an object at `pointer` ("" is the root).
    pub fn is_object(&self, pointer: &str) -> bool {
        self.skeleton.pointer(pointer).is_some_and(Value::is_object)
    }

    /// The string entries of the list at `pointer`, in order (none when
    /// there is no list).
    pub fn strings(&self, pointer: &str) -> Strings<'_> {
        match self.lists.get(pointer) {
            Some(list) => Strings::Packed(list.items.iter()),
            None => Strings::Values(
                self.skeleton
                    .pointer(pointer)
                    .and_then(Value::as_array)
                    .map_or(&[][..], Vec::as_slice)
                    .iter(),
            ),
        }
    }

    /// The string entries of the list at `pointer`, in order, each with the
    /// file of the first fragment that listed it.
    pub fn list<'s>(&'s self, pointer: &str) -> impl Iterator<Item = (&'s str, &'s Path)> {
        self.lists.get(pointer).into_iter().flat_map(move |list| {
            list.with_sources().filter_map(|(item, source)| match item {
                Item::Str(text) => Some((text, self.paths.get(source as usize)?.as_path())),
                Item::Other(_) => None,
            })
        })
    }

    /// Lookups in the list at `pointer`, through the index the composition
    /// built anyway (no table of its own); `None` when there is no list.
    pub fn lookup(&self, pointer: &str) -> Option<ListLookup<'_>> {
        Some(ListLookup {
            list: self.lists.get(pointer)?,
            paths: &self.paths,
        })
    }

    /// How many entries the list at `pointer` has.
    pub fn list_len(&self, pointer: &str) -> usize {
        self.lists.get(pointer).map_or(0, |list| list.items.len())
    }
}

/// The string entries of a list, as [`Composed::strings`] reads them.
#[derive(Clone)]
pub enum Strings<'a> {
    Packed(list::Iter<'a>),
    Values(std::slice::Iter<'a, Value>),
}

impl<'a> Iterator for Strings<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        match self {
            Strings::Packed(items) => items.find_map(|item| match item {
                Item::Str(text) => Some(text),
                Item::Other(_) => None,
            }),
            Strings::Values(values) => values.find_map(Value::as_str),
        }
    }
}

/// One composed list, ready for lookups (see [`Composed::lookup`]).
pub struct ListLookup<'c> {
    list: &'c List,
    paths: &'c [PathBuf],
}

impl<'c> ListLookup<'c> {
    /// The file of the first fragment that listed the string `text`, if the
    /// list has it.
    pub fn source_of(&self, text: &str) -> Option<&'c Path> {
        let position = self.list.position(text)?;
        let source = self.list.source(position)?;
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
            lists: FxHashMap::default(),
            expected: 0,
        }
    }

    /// Tells the composer how many fragments will be added in all, so that
    /// a list grows at most once per fragment that finds it full: it makes
    /// room for each fragment's list times the fragments still to come.
    pub fn expecting(mut self, fragments: usize) -> Self {
        self.expected = fragments;
        self
    }

    /// How many fragments, counting fragment `index`, are still to come.
    fn to_come(&self, index: usize) -> usize {
        self.expected.saturating_sub(index).max(1)
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
            skeleton: Value::Object(self.acc),
            lists: self.lists,
            paths: self.paths,
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

    /// A value new to the composition: its lists go to `lists`, their
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
            Value::Array(items) => {
                self.union(pointer, items, index);
                Value::Array(Vec::new())
            }
            other => other,
        }
    }

    /// The list at `pointer` (a new one if there is none yet), with room
    /// made for `entries` more entries of `bytes` string bytes from fragment
    /// `index`.
    fn list_at(&mut self, pointer: &str, entries: usize, bytes: usize, index: usize) -> &mut List {
        let to_come = self.to_come(index);
        // One key per list and fragment: the copy of the pointer costs
        // nothing that counts.
        let list = self.lists.entry(pointer.to_string()).or_default();
        list.make_room(entries, bytes, to_come);
        list
    }

    /// Adds fragment `index`'s list `items` to the list at `pointer`: the
    /// entries it does not hold yet, in order.
    fn union(&mut self, pointer: &str, items: Vec<Value>, index: usize) {
        let bytes = items.iter().filter_map(Value::as_str).map(str::len).sum();
        let list = self.list_at(pointer, items.len(), bytes, index);
        for item in items {
            list.push_value(item, index as u32);
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
            (Value::Array(_), Value::Array(b)) => {
                self.union(pointer, b, index);
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
#[derive(PartialEq, Eq)]
enum Key<'a> {
    Str(&'a str),
    Other(String),
}

impl Key<'_> {
    /// 32 well-mixed bits of the hash (the array index masks their low bits).
    fn tag(&self) -> u32 {
        (self.hash64() >> 32) as u32
    }

    /// A well-mixed 64-bit hash. The two variants start from different
    /// seeds, so equal texts of the two kinds hash apart.
    fn hash64(&self) -> u64 {
        let (bytes, seed) = match self {
            Key::Str(s) => (s.as_bytes(), 0),
            Key::Other(k) => (k.as_bytes(), FX_SEED),
        };
        let mut h = FxHasher {
            hash: seed ^ bytes.len() as u64,
        };
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            h.add(u64::from_le_bytes(word.try_into().unwrap_or([0; 8])));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            // The last eight bytes when there are that many (re-reading a
            // few is cheaper than copying the rest out), else the rest
            // padded with zeros (the length is in the seed).
            let last = match bytes.len().checked_sub(8).and_then(|at| bytes.get(at..)) {
                Some(tail) => tail.try_into().unwrap_or([0; 8]),
                None => {
                    let mut last = [0u8; 8];
                    last[..rest.len()].copy_from_slice(rest);
                    last
                }
            };
            h.add(u64::from_le_bytes(last));
        }
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

mod list;
mod view;

#[cfg(test)]
mod tests;
