//! `twsrt profiles`: every profile with what it extends and the fragments
//! it resolves to per source kind, as a table ([`table`]).

mod fit;
mod table;

use clap::Args;

use crate::commands::Global;
use crate::config::{Config, ProfileDef};
use crate::error::Result;
use crate::ui;

use table::{Cell, Column, Style, Table};

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
    let table = profile_table(&config);
    if ui::stdout_styled() {
        ui::data(table.boxed(terminal_columns()).trim_end_matches('\n'));
    } else {
        ui::data(table.plain().trim_end_matches('\n'));
    }
    Ok(0)
}

/// The width of the terminal on stdout: `COLUMNS` when set (as twsrt
/// 3.3.3 reads it), else what `stty size` reports for the terminal (stdout
/// handed to it as its input; no terminal-size dependency for one table).
/// Unknown (`None`, the table keeps its natural width) when neither says.
fn terminal_columns() -> Option<usize> {
    use std::os::fd::AsFd;
    let from_env = std::env::var("COLUMNS").ok();
    if let Some(columns) = from_env.and_then(|c| c.trim().parse().ok()) {
        return Some(columns);
    }
    let tty = std::io::stdout().as_fd().try_clone_to_owned().ok()?;
    let out = std::process::Command::new("stty")
        .arg("size")
        .stdin(tty)
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let columns: usize = text.split_whitespace().nth(1)?.parse().ok()?;
    (out.status.success() && columns > 0).then_some(columns)
}

/// The marker after the default profile's name, explained by the footer.
const DEFAULT_MARK: &str = " *";
const FOOTER: &str = "* default profile";

fn profile_table(config: &Config) -> Table {
    let mut columns = vec![
        Column::new("Profile", Style::BoldCyan).no_wrap(),
        Column::new("Extends", Style::Magenta),
    ];
    columns.extend(
        config
            .sources
            .iter()
            .map(|s| Column::new(s.kind.name(), Style::Plain)),
    );
    let mut profiles: Vec<&(String, ProfileDef)> = config.profiles.iter().collect();
    profiles.sort_by(|a, b| a.0.cmp(&b.0));
    let rows = profiles
        .into_iter()
        .map(|(name, def)| profile_row(config, name, def))
        .collect();
    Table::new(columns, rows, FOOTER)
}

fn profile_row(config: &Config, name: &str, def: &ProfileDef) -> Vec<Cell> {
    let mut row = vec![if *name == config.default_profile {
        Cell::styled(&format!("{name}{DEFAULT_MARK}"), Style::BoldGreen)
    } else {
        Cell::text(name)
    }];
    row.push(Cell::text(&def.extends.join(", ")));
    match crate::profile::resolve(config, Some(name)) {
        Ok(resolved) => {
            for source in &config.sources {
                let own = def.selections.get(&source.kind);
                let names = resolved.fragments(source.kind).iter().map(|f| {
                    let is_own = own.is_some_and(|sel| sel.contains(&f.name));
                    (
                        f.name.as_str(),
                        if is_own { Style::Plain } else { Style::Dim },
                    )
                });
                row.push(Cell::list(names));
            }
        }
        Err(e) => {
            row.push(Cell::styled(&format!("invalid: {e}"), Style::Red));
            row.extend(config.sources.iter().skip(1).map(|_| Cell::text("")));
        }
    }
    row
}

#[cfg(test)]
mod tests;
