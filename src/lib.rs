//! twsrt: compile one security policy into each AI coding agent's configuration.
//!
//! The pipeline, one module per stage: [`config`] -> [`profile`] ->
//! [`fragment`] (strict JSONC) -> [`compose`] -> [`source`] (per-kind checks
//! and rules) -> [`compile`] (canonical documents and [`rules`]) -> [`agent`]
//! renderings -> a [`plan`] of files that is previewed, diffed or applied
//! ([`apply`]). [`cli`] and [`commands`] drive it; [`error`], [`ui`],
//! [`pyjson`], [`text_position`], [`shellwords`], [`tomltext`] and [`paths`] are shared
//! infrastructure.

pub mod agent;
pub mod apply;
pub mod argv;
pub mod bom;
pub mod bytewise;
pub mod cli;
pub mod commands;
pub mod compile;
pub mod compose;
pub mod config;
pub mod diag;
pub mod drift;
pub mod error;
pub mod explain;
pub mod fragment;
mod heap;
pub mod hook;
pub mod import;
pub mod known_keys;
pub mod lint;
pub mod paths;
pub mod plan;
pub mod probe;
pub mod profile;
pub mod pyjson;
pub mod rules;
pub mod shellwords;
pub mod source;
pub mod srt;
pub mod table;
#[cfg(test)]
mod test_rng;
pub mod text_position;
pub mod tomltext;
pub mod ui;
