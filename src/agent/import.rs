//! The neutral terms of `twsrt import`: what an agent's [`Importer`]
//! returns when it reads the agent's configuration back into policy terms
//! (srt list entries and settings, bash rules, each with its origin, and the
//! items left in the agent's file). The agents produce it; `crate::import`
//! turns it into fragments and the config.toml change.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::config::Config;
use crate::error::Result;
use crate::source::SourceKind;

/// A policy list an imported entry goes into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum List {
    DenyRead,
    DenyWrite,
    AllowWrite,
    AllowRead,
    AllowedDomains,
    DeniedDomains,
    BashAllow,
    BashAsk,
    BashDeny,
}

impl List {
    /// The source kind whose fragment holds the list.
    pub fn kind(self) -> SourceKind {
        match self {
            List::BashAllow | List::BashAsk | List::BashDeny => SourceKind::Bash,
            _ => SourceKind::Srt,
        }
    }

    /// The list's JSON pointer in its kind's document.
    pub fn pointer(self) -> &'static str {
        match self {
            List::DenyRead => "/filesystem/denyRead",
            List::DenyWrite => "/filesystem/denyWrite",
            List::AllowWrite => "/filesystem/allowWrite",
            List::AllowRead => "/filesystem/allowRead",
            List::AllowedDomains => "/network/allowedDomains",
            List::DeniedDomains => "/network/deniedDomains",
            List::BashAllow => "/allow",
            List::BashAsk => "/ask",
            List::BashDeny => "/deny",
        }
    }

    pub const ALL: [List; 9] = [
        List::DenyRead,
        List::DenyWrite,
        List::AllowWrite,
        List::AllowRead,
        List::AllowedDomains,
        List::DeniedDomains,
        List::BashAllow,
        List::BashAsk,
        List::BashDeny,
    ];
}

/// Where an imported value was read: the file and a place in it (a JSON
/// pointer, or `line N`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub file: PathBuf,
    pub at: String,
}

impl Origin {
    pub fn new(file: &Path, at: impl Into<String>) -> Self {
        Origin {
            file: file.to_path_buf(),
            at: at.into(),
        }
    }
}

/// What an imported entry sets.
#[derive(Debug, Clone, PartialEq)]
pub enum Put {
    /// One entry of a policy list.
    Entry(List, String),
    /// An srt setting (a scalar or a list copied as it is), at its pointer
    /// in the srt document (`/network/allowLocalBinding`).
    Setting(String, Value),
}

/// One imported entry with where it came from (one or more places: a
/// `Read` and an `Edit` rule of the same path are one denyRead) and, when
/// the agent read it differently from how it is written, what it means.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub value: Put,
    pub origins: Vec<Origin>,
    pub note: Option<String>,
}

impl Entry {
    pub fn listed(list: List, text: impl Into<String>, origin: Origin) -> Self {
        Entry {
            value: Put::Entry(list, text.into()),
            origins: vec![origin],
            note: None,
        }
    }

    pub fn setting(pointer: impl Into<String>, value: Value, origin: Origin) -> Self {
        Entry {
            value: Put::Setting(pointer.into(), value),
            origins: vec![origin],
            note: None,
        }
    }

    pub fn noted(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }
}

/// What happens to an item import does not translate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// twsrt never writes it: it stays in the agent's file as it is.
    Kept,
    /// It sits where twsrt writes, but has no policy meaning twsrt can
    /// express: the next `generate -w` refuses to remove it (the adoption
    /// guard) until `--drop-foreign` accepts its removal.
    Untranslatable,
    /// A legacy setting whose meaning import took where it could: `generate
    /// -w` refuses while it is in the file, so the user deletes it.
    Remove,
}

/// An item of the agent's file that import leaves there, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Left {
    pub what: String,
    pub origin: Origin,
    pub fate: Fate,
    pub reason: String,
}

impl Left {
    pub fn kept(what: impl Into<String>, origin: Origin, reason: impl Into<String>) -> Self {
        Left {
            what: what.into(),
            origin,
            fate: Fate::Kept,
            reason: reason.into(),
        }
    }

    pub fn remove(what: impl Into<String>, origin: Origin, reason: impl Into<String>) -> Self {
        Left {
            what: what.into(),
            origin,
            fate: Fate::Remove,
            reason: reason.into(),
        }
    }

    pub fn untranslatable(
        what: impl Into<String>,
        origin: Origin,
        reason: impl Into<String>,
    ) -> Self {
        Left {
            what: what.into(),
            origin,
            fate: Fate::Untranslatable,
            reason: reason.into(),
        }
    }
}

/// An agent's configuration, inverted: the entries for the fragments, in
/// the order found, and what stays in the agent's files.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Imported {
    /// The files read.
    pub sources: Vec<PathBuf>,
    pub entries: Vec<Entry>,
    pub left: Vec<Left>,
}

impl Imported {
    /// Add `entry`, or when the same value is there already, its origins to
    /// that one (a `Read` and an `Edit` deny of one path).
    pub fn add(&mut self, entry: Entry) {
        match self.entries.iter_mut().find(|e| e.value == entry.value) {
            Some(existing) => {
                existing.origins.extend(entry.origins);
                if existing.note.is_none() {
                    existing.note = entry.note;
                }
            }
            None => self.entries.push(entry),
        }
    }

    /// The entries of `list`, in order.
    pub fn list(&self, list: List) -> impl Iterator<Item = &str> {
        self.entries.iter().filter_map(move |e| match &e.value {
            Put::Entry(l, text) if *l == list => Some(text.as_str()),
            _ => None,
        })
    }
}

/// What an importer may look at besides its file.
pub struct Ctx<'a> {
    /// config.toml, loaded.
    pub config: &'a Config,
    /// Where `~` points.
    pub home: &'a Path,
    /// `--from`: read this file instead of the agent's own.
    pub from: Option<&'a Path>,
}

/// An agent's import: its configuration back into policy terms.
pub trait Importer {
    /// Read the agent's configuration (`ctx.from`, or the files the agent
    /// loads) into policy terms. Reads only.
    fn import(&self, ctx: &Ctx) -> Result<Imported>;
}

/// `path` as the user would write it: `~/...` under `home`, else as it is.
pub fn tilde(path: &Path, home: &Path) -> String {
    match path.strip_prefix(home) {
        Ok(rest) if !home.as_os_str().is_empty() && rest.as_os_str().is_empty() => "~".into(),
        Ok(rest) if !home.as_os_str().is_empty() => format!("~/{}", rest.display()),
        _ => path.display().to_string(),
    }
}

#[cfg(test)]
#[path = "import_tests.rs"]
mod tests;
