//! The registered canonical source kinds. Each kind has its own file with its
//! schema checks, its opposing-action checks and its translation into rules.

pub mod bash;
pub mod srt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SourceKind {
    Srt,
    Bash,
}

impl SourceKind {
    /// Registry order: the order sources are compiled, written and diffed.
    pub const ALL: [SourceKind; 2] = [SourceKind::Srt, SourceKind::Bash];

    pub fn name(self) -> &'static str {
        match self {
            SourceKind::Srt => "srt",
            SourceKind::Bash => "bash",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    pub fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|k| k.name()).collect()
    }
}

use std::path::Path;

use crate::compose::{Composed, ParsedFragment};
use crate::error::{Error, Result};
use crate::jsonc::Json;

/// A rule list: an array of non-empty strings.
pub(crate) fn string_list(path: &Path, key: &str, value: &Json) -> Result<()> {
    let Some(items) = value.as_array() else {
        return Err(Error::fragment(
            path,
            format!("`{key}` must be a list of strings"),
        ));
    };
    for (i, item) in items.iter().enumerate() {
        let text = match item {
            Json::String(s) => Some(s.as_ref()),
            _ => None,
        };
        match text {
            None => {
                return Err(Error::fragment(
                    path,
                    format!("`{key}` must be a list of strings; entry {i} is not a string"),
                ));
            }
            Some("") => {
                return Err(Error::fragment(
                    path,
                    format!("`{key}` entry {i} is an empty pattern"),
                ));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// `first` and `second` name a list and the fragment file it is in.
pub(crate) fn opposing(
    profile: &str,
    kind: SourceKind,
    value: &str,
    first: (&str, &Path),
    second: (&str, &Path),
) -> Error {
    Error::Policy(format!(
        "profile '{profile}', source '{}': '{value}' is in {} ({}) and in {} ({}); \
         one value cannot be both",
        kind.name(),
        first.0,
        first.1.display(),
        second.0,
        second.1.display(),
    ))
}

impl SourceKind {
    /// Schema checks on one parsed fragment.
    pub fn validate(self, fragment: &ParsedFragment) -> Result<()> {
        self.validate_view(&fragment.path, &Json::of(&fragment.value))
    }

    /// Schema checks on a fragment read as a view of its text (the way
    /// compile reads fragments): the same checks and messages.
    pub fn validate_view(self, path: &Path, fragment: &Json) -> Result<()> {
        match self {
            SourceKind::Srt => srt::validate(path, fragment),
            SourceKind::Bash => bash::validate(path, fragment),
        }
    }

    pub fn check_opposing(self, profile: &str, fragments: &[ParsedFragment]) -> Result<()> {
        match self {
            SourceKind::Srt => srt::check_opposing(profile, fragments),
            SourceKind::Bash => bash::check_opposing(profile, fragments),
        }
    }

    /// [`SourceKind::check_opposing`] on the composition of the fragments:
    /// the same verdict (the first offending entry in fragment order is the
    /// first occurrence of its value, which the composed list keeps, with the
    /// fragment it came from), without keeping the fragments around.
    pub fn check_opposing_composed(self, profile: &str, composed: &Composed) -> Result<()> {
        match self {
            SourceKind::Srt => srt::check_opposing_composed(profile, composed),
            SourceKind::Bash => bash::check_opposing_composed(profile, composed),
        }
    }

    /// The rules of `composed`, in order, without the lists whose (scope,
    /// action) `keep` refuses.
    pub fn rule_iter(
        self,
        composed: &Composed,
        keep: impl Fn(crate::rules::Scope, crate::rules::Action) -> bool,
    ) -> impl Iterator<Item = crate::rules::SecurityRule<'_>> {
        let (srt, bash) = match self {
            SourceKind::Srt => (Some(srt::rule_iter(composed, keep)), None),
            SourceKind::Bash => (None, Some(bash::rule_iter(composed, keep))),
        };
        srt.into_iter().flatten().chain(bash.into_iter().flatten())
    }
}
