//! The KIND argument of `show` and `edit`: a configured source kind, one
//! twsrt knows but config.toml does not configure (a note, nothing to do),
//! or a word that names no kind (an error listing the configured ones).

use crate::config::Config;
use crate::error::{Error, Result};
use crate::source::SourceKind;
use crate::ui;

/// The configured kind `name` names, or `None` after a note when it is a
/// known kind without a `[sources.<kind>]` table; `verb` says what there is
/// nothing to do (`show`, `edit`).
pub fn configured(config: &Config, name: &str, verb: &str) -> Result<Option<SourceKind>> {
    match SourceKind::from_name(name) {
        Some(kind) if config.source(kind).is_some() => Ok(Some(kind)),
        Some(kind) => {
            ui::note(&format!(
                "nothing to {verb}: source kind '{k}' is not configured \
                 (add [sources.{k}] to config.toml to enable it)",
                k = kind.name()
            ));
            Ok(None)
        }
        None => Err(unknown(config, name)),
    }
}

/// An unknown kind names the kinds this config.toml configures, sorted.
fn unknown(config: &Config, name: &str) -> Error {
    let mut names: Vec<&str> = config.sources.iter().map(|s| s.kind.name()).collect();
    names.sort_unstable();
    Error::Policy(format!(
        "unknown source kind '{name}'; available: {}",
        names.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn config(bash: bool) -> Config {
        let mut text = String::from(
            "schema_version = 1\ndefault_profile = \"d\"\n[sources.srt.fragments.b]\npath = \"b.jsonc\"\n",
        );
        if bash {
            text.push_str("[sources.bash.fragments.b]\npath = \"c.jsonc\"\n");
        }
        text.push_str("[profiles.d]\nsrt = [\"b\"]\n");
        if bash {
            text.push_str("bash = [\"b\"]\n");
        }
        crate::config::parse(&text, Path::new("/x/config.toml")).unwrap()
    }

    #[test]
    fn a_configured_kind_is_chosen() {
        assert_eq!(
            configured(&config(true), "bash", "show").unwrap(),
            Some(SourceKind::Bash)
        );
    }

    #[test]
    fn a_known_kind_that_is_not_configured_is_nothing_to_do() {
        assert_eq!(configured(&config(false), "bash", "show").unwrap(), None);
    }

    #[test]
    fn an_unknown_kind_lists_the_configured_kinds_sorted() {
        let two = configured(&config(true), "foo", "show").unwrap_err();
        assert_eq!(
            two.to_string(),
            "unknown source kind 'foo'; available: bash, srt"
        );
        let one = configured(&config(false), "all", "show").unwrap_err();
        assert_eq!(one.to_string(), "unknown source kind 'all'; available: srt");
        assert_eq!(one.exit_code(), 1);
    }
}
