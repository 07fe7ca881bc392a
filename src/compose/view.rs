//! Composing a fragment read as a view of its text ([`Json`]): the same
//! composition as [`Composer::add`], but a list entry is looked up before it
//! is copied, so the entries that earlier fragments already listed (about
//! half of them in a policy of overlapping fragments) are never allocated,
//! moved or freed. Everything but objects and lists is turned into a value
//! and goes the common way, so conflicts and their messages are the same.

use std::path::PathBuf;

use serde_json::{Map, Value};

use super::{ArrayIndex, Composer, Key, push_pointer_token};
use crate::error::Result;
use crate::jsonc::Json;

impl Composer<'_> {
    /// [`Composer::add`] for a fragment read as a view of its text.
    pub fn add_view(&mut self, path: PathBuf, fragment: Json<'_>) -> Result<()> {
        let index = self.paths.len();
        self.paths.push(path);
        let Json::Object(members) = fragment else {
            // The JSONC parser only returns objects; keep composing safely anyway.
            return Ok(());
        };
        let mut acc = std::mem::take(&mut self.acc);
        let result = self.merge_object_view(&mut acc, members, &mut String::new(), index);
        self.acc = acc;
        result
    }

    fn merge_object_view(
        &mut self,
        acc: &mut Map<String, Value>,
        members: Vec<(std::borrow::Cow<'_, str>, Json<'_>)>,
        pointer: &mut String,
        index: usize,
    ) -> Result<()> {
        for (key, value) in members {
            let len = pointer.len();
            pointer.push('/');
            push_pointer_token(pointer, &key);
            match acc.get_mut(key.as_ref()) {
                None => {
                    self.origin.insert(pointer.clone(), index);
                    let value = self.fresh_view(value, pointer, index);
                    acc.insert(key.into_owned(), value);
                }
                Some(existing) => self.merge_value_view(existing, value, pointer, index)?,
            }
            pointer.truncate(len);
        }
        Ok(())
    }

    /// [`Composer::fresh`] for a view.
    fn fresh_view(&mut self, value: Json<'_>, pointer: &mut String, index: usize) -> Value {
        match value {
            Json::Object(members) => Value::Object(
                members
                    .into_iter()
                    .map(|(key, value)| {
                        let len = pointer.len();
                        pointer.push('/');
                        push_pointer_token(pointer, &key);
                        let value = self.fresh_view(value, pointer, index);
                        pointer.truncate(len);
                        (key.into_owned(), value)
                    })
                    .collect(),
            ),
            Json::Array(items) => {
                // A fragment's own duplicates go too (as in `ArrayIndex::dedup`).
                // The list starts with its room for the fragments to come
                // (see `make_room`): growing it later would copy it.
                let mut kept = Vec::new();
                self.make_room(&mut kept, items.len(), index);
                let mut seen = ArrayIndex::with_room(items.len());
                for item in items {
                    seen.push_view(&mut kept, item);
                }
                let len = kept.len();
                self.arrays.insert(pointer.clone(), seen);
                self.sources
                    .insert(pointer.clone(), vec![index as u32; len]);
                Value::Array(kept)
            }
            other => other.to_value(),
        }
    }

    /// [`Composer::merge_value`] for a view.
    fn merge_value_view(
        &mut self,
        existing: &mut Value,
        new: Json<'_>,
        pointer: &mut String,
        index: usize,
    ) -> Result<()> {
        match (existing, new) {
            (Value::Object(a), Json::Object(b)) => self.merge_object_view(a, b, pointer, index),
            (Value::Array(a), Json::Array(b)) => {
                self.union(a, b, pointer, index, ArrayIndex::push_view);
                Ok(())
            }
            (existing, new) => self.merge_value(existing, new.to_value(), pointer, index),
        }
    }
}

impl ArrayIndex {
    /// [`ArrayIndex::push_new`] for a view: a string is looked up as it
    /// stands in the text and copied only when it is new.
    fn push_view(&mut self, items: &mut Vec<Value>, item: Json<'_>) -> bool {
        match item {
            Json::String(text) => {
                let key = Key::Str(text.as_ref());
                let tag = key.tag();
                if self.find(items, tag, &key).is_ok() {
                    return false;
                }
                drop(key);
                self.insert(tag, items.len());
                items.push(Value::String(text.into_owned()));
                true
            }
            other => self.push_new(items, other.to_value()),
        }
    }
}
