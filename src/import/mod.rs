//! `twsrt import AGENT`: an agent's existing configuration turned back into
//! policy fragments.
//!
//! The inversion of a renderer is knowledge of its agent: each agent that
//! can be imported answers [`crate::agent::Agent::import`] with an
//! [`Importer`], which reads the agent's files and returns an [`Imported`]
//! policy in the neutral terms of [`crate::agent::import`] (srt list
//! entries and settings, bash rules, each with its origin, and what stays
//! in the agent's file). This module owns
//! the rest, the same for every agent: dropping what the current policy
//! already holds ([`run`]), the fragments' JSONC text ([`fragment`]), the
//! config.toml change ([`register`]), the conflict check by the real
//! compile ([`check`]), and the preview or the one transaction that writes
//! it all.

pub mod check;
pub mod fragment;
pub mod register;
mod run;
mod spelling;
pub mod srt;

pub use crate::agent::import::{
    Ctx, Entry, Fate, Imported, Importer, Left, List, Origin, Put, tilde,
};
pub use run::{Request, run};

#[cfg(test)]
mod tests;
