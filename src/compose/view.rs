//! Composing a fragment read as a view of its text ([`Json`]): the same
//! composition as [`Composer::add`], but a list entry is looked up before it
//! is copied, so the entries that earlier fragments already listed (about
//! half of them in a policy of overlapping fragments) are never copied at
//! all, and a new string is copied once, into its list's text. Everything
//! but objects and lists is turned into a value and goes the common way, so
//! conflicts and their messages are the same.

use std::path::PathBuf;

use serde_json::{Map, Value};

use super::{Composer, push_pointer_token};
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
                self.union_view(pointer, items, index);
                Value::Array(Vec::new())
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
            (Value::Array(_), Json::Array(b)) => {
                self.union_view(pointer, b, index);
                Ok(())
            }
            (existing, new) => self.merge_value(existing, new.to_value(), pointer, index),
        }
    }

    /// [`Composer::union`] for a view: a string is looked up as it stands
    /// in the text and copied only when it is new.
    fn union_view(&mut self, pointer: &str, items: Vec<Json<'_>>, index: usize) {
        let bytes = items
            .iter()
            .map(|item| match item {
                Json::String(text) => text.len(),
                _ => 0,
            })
            .sum();
        let list = self.list_at(pointer, items.len(), bytes, index);
        for item in items {
            match item {
                Json::String(text) => list.push_str(&text, index as u32),
                other => list.push_value(other.to_value(), index as u32),
            };
        }
    }
}
