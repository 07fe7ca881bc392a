//! The top-level tables of config.toml that an agent owns (`[claude_sync]`
//! is Claude's). config.toml reads them without knowing the agents: each
//! agent declares its table ([`AgentTable`]: the key and the function that
//! reads it), the commands' loader passes the declarations in
//! ([`super::load`], [`super::parse_with`]), and the loader reads each one at
//! the place in the load order where the table's errors are reported,
//! holding the value for the agent ([`AgentTables::get`]). A key no
//! declaration names is an unknown top-level key like any other.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use toml_edit::{Item, TableLike};

use super::Loader;
use crate::error::{Error, Result};

/// A value an agent's table reader returns; the agent downcasts it back.
pub type TableValue = Arc<dyn Any + Send + Sync>;

/// One top-level table an agent owns.
pub struct AgentTable {
    /// The table's key (`claude_sync`).
    pub key: &'static str,
    /// Reads the table (present in config.toml) into the agent's value.
    pub read: fn(&TableReader<'_>, &Item) -> Result<TableValue>,
}

/// What a table reader may use of the loader: errors that name config.toml,
/// at the position a key is written.
pub struct TableReader<'a> {
    loader: &'a Loader<'a>,
}

impl TableReader<'_> {
    /// An error about config.toml without a position.
    pub fn err(&self, message: impl Into<String>) -> Error {
        self.loader.err(message)
    }

    /// Where `key` of `table` is written (line, column).
    pub fn key_position(&self, table: &dyn TableLike, key: &str) -> Option<(usize, usize)> {
        self.loader.key_position(table, key)
    }

    /// An unknown-key error at `position`.
    pub fn unknown_key(&self, position: Option<(usize, usize)>, message: String) -> Error {
        self.loader.unknown_key(position, message)
    }
}

/// The agents' tables config.toml holds, each read by its declaration.
#[derive(Clone, Default)]
pub struct AgentTables {
    tables: Vec<(&'static str, TableValue)>,
}

impl AgentTables {
    /// The value of the table `key`, when config.toml holds it and it was
    /// read as a `T`.
    pub fn get<T: Any>(&self, key: &str) -> Option<&T> {
        self.tables
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, value)| value.downcast_ref::<T>())
    }
}

impl fmt::Debug for AgentTables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.tables.iter().map(|(k, _)| k))
            .finish()
    }
}

impl<'a> Loader<'a> {
    /// Each declared table config.toml holds, read in declaration order.
    pub(super) fn agent_tables(&'a self, declared: &[&AgentTable]) -> Result<AgentTables> {
        let reader = TableReader { loader: self };
        let mut tables = Vec::new();
        for table in declared {
            if let Some(item) = self.root.get(table.key) {
                tables.push((table.key, (table.read)(&reader, item)?));
            }
        }
        Ok(AgentTables { tables })
    }
}
