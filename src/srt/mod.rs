//! Sandbox Runtime's own semantics, once: the keys its settings schema
//! knows ([`schema`]), which path entries are globs and how they match
//! ([`glob`]), how path entries resolve ([`path`]) and how domain entries
//! decide a connection ([`domain`]), what the declared credentials and
//! the strict allowlist are ([`credentials`]). `twsrt test` (the prover in
//! `crate::probe`), `explain` and the diff directions (`crate::drift`),
//! and doctor ask these modules, so they cannot
//! disagree about what srt does with an entry.
//!
//! What is modelled is srt 0.0.78 to 0.0.83 on Linux and macOS, as
//! measured in doc/clients.md ("Sandbox Runtime: what its proxy answers,
//! measured") and SECURITY_CONCEPT.md ("Sandbox Runtime versions: 0.0.78
//! and the newest, measured").

pub mod credentials;
pub mod domain;
pub mod domain_spelling;
pub mod glob;
pub mod path;
pub mod schema;
pub mod spelling;
