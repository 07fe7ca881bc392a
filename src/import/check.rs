//! Whether the policy with the imported fragments still compiles: the
//! changed config.toml is loaded as it would be written, each new fragment
//! is read from a private scratch directory instead of its place (nothing
//! is written beside the policy before the transaction), and the profile is
//! compiled by [`crate::compile`], so an imported allow the policy denies, a
//! value set twice or a read-denied path that is write-allowed is the same
//! error, naming both fragments, that `generate` would report. The scratch
//! paths in an error are put back to the fragments' real paths.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::paths::scratch::Scratch;

/// Compile `profile` of the config.toml `config_text` (to be written at
/// `config_path`) with each `(path, text)` of `fragments` in place.
pub fn check(
    config_text: &str,
    config_path: &Path,
    profile: &str,
    fragments: &[(PathBuf, String)],
) -> Result<()> {
    let scratch = Scratch::new("twsrt-import").map_err(|e| Error::io(&std::env::temp_dir(), e))?;
    let mut config = crate::config::parse(config_text, config_path)?;
    let mut moved = Vec::new();
    for (i, (real, text)) in fragments.iter().enumerate() {
        let name = real.file_name().map(PathBuf::from).unwrap_or_default();
        let stand_in = scratch.path.join(i.to_string()).join(name);
        if let Some(dir) = stand_in.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        std::fs::write(&stand_in, text).map_err(|e| Error::io(&stand_in, e))?;
        for source in &mut config.sources {
            for fragment in &mut source.fragments {
                if &fragment.path == real {
                    fragment.path = stand_in.clone();
                }
            }
        }
        moved.push((stand_in, real.clone()));
    }
    crate::agent::check_targets(&config)?;
    config.guard_files = crate::agent::guard_files(&config);
    config.guard_rules = crate::agent::guard_rules(&config);
    match crate::compile::compile(&config, Some(profile)) {
        Ok(_) => Ok(()),
        Err(err) => Err(relocate(err, &moved)),
    }
}

/// `err` with every scratch path put back to the real one.
fn relocate(err: Error, moved: &[(PathBuf, PathBuf)]) -> Error {
    let text = |s: String| {
        moved.iter().fold(s, |s, (from, to)| {
            s.replace(&from.display().to_string(), &to.display().to_string())
        })
    };
    let path = |p: PathBuf| {
        moved
            .iter()
            .find(|(from, _)| *from == p)
            .map_or(p.clone(), |(_, to)| to.clone())
    };
    match err {
        Error::Policy(message) => Error::Policy(text(message)),
        Error::Fragment { path: p, message } => Error::Fragment {
            path: path(p),
            message: text(message),
        },
        Error::Jsonc {
            path: p,
            line,
            column,
            message,
        } => Error::Jsonc {
            path: path(p),
            line,
            column,
            message,
        },
        Error::UnknownKey {
            path: p,
            position,
            message,
        } => Error::UnknownKey {
            path: path(p),
            position,
            message: text(message),
        },
        Error::Config { path: p, message } => Error::Config {
            path: path(p),
            message: text(message),
        },
        other => other,
    }
}
