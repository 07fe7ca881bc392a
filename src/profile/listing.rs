//! `twsrt profiles`' table: one row per profile, sorted by name, with what
//! it extends and the fragments it resolves to per source kind (own
//! fragments plain, inherited ones dim), rendered by [`crate::table`].

use crate::config::{Config, ProfileDef};
use crate::table::{Cell, Column, Style, Table};

/// The marker after the default profile's name, explained by the footer.
const DEFAULT_MARK: &str = " *";
const FOOTER: &str = "* default profile";

pub fn profile_table(config: &Config) -> Table {
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
#[path = "listing_tests.rs"]
mod tests;
