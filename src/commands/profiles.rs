//! `twsrt profiles`: every profile with what it extends and the fragments
//! it resolves to per source kind, as a table
//! ([`crate::profile::listing`]).

use clap::Args;

use crate::commands::Global;
use crate::error::Result;
use crate::ui;

/// List every profile and the fragments it resolves to.
///
/// One row per profile, sorted by name: the profile (the default one marked
/// `NAME *`), the profiles it extends, then one column per source kind in
/// config.toml order listing the resolved fragments, inheritance included
/// (on a terminal, fragments the profile selects itself are plain and
/// inherited ones dim). A profile that cannot be resolved on its own shows
/// `invalid: REASON` in the first kind column.
///
/// On a terminal the table is box-drawn; when stdout is not a terminal or
/// NO_COLOR is set it is plain text: a header line, one line per profile,
/// each column starting at its header's offset, columns at least two spaces
/// apart, then the line `* default profile`.
///
/// Exit codes: 0 listed; 1 config.toml cannot be loaded; 2 a usage error.
#[derive(Debug, Args)]
pub struct ProfilesArgs {}

pub fn run(global: &Global, _args: &ProfilesArgs) -> Result<i32> {
    let config = crate::commands::load_config(&global.config_path)?;
    let table = crate::profile::listing::profile_table(&config);
    if ui::stdout_styled() {
        ui::data(
            table
                .boxed(crate::table::terminal_columns())
                .trim_end_matches('\n'),
        );
    } else {
        ui::data(table.plain().trim_end_matches('\n'));
    }
    Ok(0)
}
