//! Every key of config.toml is one twsrt reads: a key it does not know is
//! an error naming it, where the file writes it, and the nearest known key.
//! twsrt 3.3.3 ignored such keys, so `[target]` dropped every agent and
//! `[sandbox_override.yolo]` its overrides without a word.

use toml_edit::{Item, TableLike};

use super::Loader;
use super::sandbox_keys;
use crate::error::{Error, Result};
use crate::known_keys::{self, Unknown};

/// The top-level keys no agent owns (an agent's own tables follow them:
/// [`super::AgentTable`]).
pub const ROOT: &[&str] = &[
    "schema_version",
    "default_profile",
    "sources",
    "profiles",
    "targets",
    "sandbox_overrides",
    "managed",
];

/// The keys of one `[sources.<kind>]`.
pub const SOURCE: &[&str] = &["output", "fragments"];

/// The keys of `[sources.srt]`: srt grows settings faster than twsrt, so
/// its fragments may hold keys named in `allow_unknown_keys`.
pub const SRT_SOURCE: &[&str] = &["output", "fragments", "allow_unknown_keys"];

/// The keys of one `[sources.<kind>.fragments.<name>]`.
pub const FRAGMENT: &[&str] = &["path"];

impl Loader<'_> {
    /// Where `key` of `table` is written.
    pub(super) fn key_position(&self, table: &dyn TableLike, key: &str) -> Option<(usize, usize)> {
        let (key, _) = table.get_key_value(key)?;
        crate::tomltext::span_position(self.text, key.span())
    }

    pub(super) fn unknown_key(&self, position: Option<(usize, usize)>, message: String) -> Error {
        Error::UnknownKey {
            path: self.path.to_path_buf(),
            position,
            message,
        }
    }

    /// The first key of `table` (named `name` in messages: `the top level`,
    /// `[sources.srt]`) that is not in `known`.
    pub(super) fn check_keys(
        &self,
        table: &dyn TableLike,
        name: &str,
        known: &[&str],
    ) -> Result<()> {
        let Some((key, _)) = table.iter().find(|(key, _)| !known.contains(key)) else {
            return Ok(());
        };
        Err(self.unknown_key(
            self.key_position(table, key),
            format!(
                "unknown key \"{key}\" in {name}{}",
                known_keys::hint(key, known)
            ),
        ))
    }

    /// `[sandbox_overrides]`: the modes, and in each every key against
    /// Claude Code's sandbox settings.
    pub(super) fn check_override_keys(&self, table: &dyn TableLike) -> Result<()> {
        self.check_keys(table, "[sandbox_overrides]", sandbox_keys::MODES)?;
        for (mode, item) in table.iter() {
            let Some(json) = crate::tomltext::toml_to_json(item) else {
                continue;
            };
            let Some(unknown) = known_keys::first_unknown(&json, sandbox_keys::LEVELS, &[]) else {
                continue;
            };
            let position = locate(item, &unknown)
                .and_then(|span| crate::tomltext::span_position(self.text, Some(span)));
            return Err(self.unknown_key(
                position,
                format!(
                    "unknown key \"{}\" in [sandbox_overrides.{mode}]: Claude Code {} has \
                     no such sandbox setting and would ignore it{}",
                    unknown.dotted(),
                    sandbox_keys::CLAUDE_CODE_VERSION,
                    known_keys::hint(&unknown.key, unknown.known)
                ),
            ));
        }
        Ok(())
    }
}

/// The span of the key `unknown` names inside `item`, following its JSON
/// pointer through tables, arrays of tables and inline values.
fn locate(item: &Item, unknown: &Unknown) -> Option<std::ops::Range<usize>> {
    let mut node = Node::Item(item);
    for token in unknown.pointer.split('/').skip(1) {
        let token = token.replace("~1", "/").replace("~0", "~");
        node = node.child(&token)?;
    }
    let (key, _) = node.table()?.get_key_value(&unknown.key)?;
    key.span()
}

/// A place inside a TOML document.
#[derive(Clone, Copy)]
enum Node<'a> {
    Item(&'a Item),
    Table(&'a toml_edit::Table),
    Value(&'a toml_edit::Value),
}

impl<'a> Node<'a> {
    fn child(self, token: &str) -> Option<Node<'a>> {
        let index = || token.parse::<usize>().ok();
        match self {
            Node::Item(Item::ArrayOfTables(tables)) => tables.get(index()?).map(Node::Table),
            Node::Item(Item::Value(value)) | Node::Value(value) => match value {
                toml_edit::Value::Array(values) => values.get(index()?).map(Node::Value),
                toml_edit::Value::InlineTable(table) => table.get(token).map(Node::Value),
                _ => None,
            },
            Node::Item(item) => item.as_table_like()?.get(token).map(Node::Item),
            Node::Table(table) => table.get(token).map(Node::Item),
        }
    }

    fn table(self) -> Option<&'a dyn TableLike> {
        match self {
            Node::Item(item) => item.as_table_like(),
            Node::Table(table) => Some(table),
            Node::Value(value) => value.as_inline_table().map(|t| t as &dyn TableLike),
        }
    }
}
