//! `--scope` and `--root`, shared by generate, diff, show and doctor: which
//! layer of the agents' files a command works on; and `--root` alone
//! ([`RootArgs`]), shared by explain and audit, which read the installed
//! managed files beside the user layer.

use std::path::PathBuf;

use clap::Args;

use crate::agent::managed::{Root, Scope};
use crate::error::{Error, Result};

#[derive(Debug, Args)]
pub struct ScopeArgs {
    /// Which files: `user` (the default: each agent's user-level file) or
    /// `managed` (each agent's system-wide policy files under /etc, which
    /// rank above every user setting; writing them needs root).
    #[arg(long, value_enum, value_name = "SCOPE", default_value = "user")]
    pub scope: Scope,

    /// With --scope managed: the managed files under DIR instead of / (the
    /// tree a package or a configuration-management step installs:
    /// DIR/etc/claude-code/..., DIR/etc/codex/..., DIR/etc/gemini-cli/...).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

impl ScopeArgs {
    /// The managed root, `None` for the user scope; `--root` without
    /// `--scope managed` is a usage error (it would be silently ignored).
    pub fn managed_root(&self) -> Result<Option<Root>> {
        match (self.scope, &self.root) {
            (Scope::Managed, root) => Ok(Some(Root::new(root.as_deref()))),
            (Scope::User, None) => Ok(None),
            (Scope::User, Some(_)) => Err(Error::Usage(
                "--root applies to the managed files: add --scope managed".to_string(),
            )),
        }
    }
}

/// `--root` of the commands that read the installed managed files (the
/// layer above the user's) without writing them: explain and audit.
#[derive(Debug, Args)]
pub struct RootArgs {
    /// Read the agents' installed managed policy files under DIR instead of
    /// / (the tree `generate --scope managed --root DIR` builds:
    /// DIR/etc/claude-code/..., DIR/etc/codex/..., DIR/etc/gemini-cli/...).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

impl RootArgs {
    /// Where the installed managed files are read from.
    pub fn managed_root(&self) -> Root {
        Root::new(self.root.as_deref())
    }
}
