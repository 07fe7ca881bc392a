//! The config.toml change an import makes: each new fragment declared under
//! `[sources.KIND.fragments.NAME]` (its source created when config.toml has
//! none of that kind) and appended to the profile's list of that kind.
//! Edited with toml_edit, so every comment, key and table of the file stays
//! where it was; a new fragment table goes right after the last fragment
//! table of its kind.

use std::path::Path;

use toml_edit::{Array, DocumentMut, Item, Table, value};

use crate::error::{Error, Result};
use crate::source::SourceKind;

/// One fragment to declare: its kind, name and path as config.toml spells
/// it (relative to config.toml's directory).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declared {
    pub kind: SourceKind,
    pub name: String,
    pub path: String,
}

/// `text` (config.toml, read from `config_path`) with `fragments` declared
/// and selected by `profile`. A fragment name config.toml already declares
/// is refused: an import never replaces a fragment.
pub fn register(
    text: &str,
    config_path: &Path,
    profile: &str,
    fragments: &[Declared],
) -> Result<String> {
    let mut doc = crate::tomltext::parse_document(text, config_path)?;
    for fragment in fragments {
        declare(&mut doc, config_path, fragment)?;
        select(&mut doc, config_path, profile, fragment)?;
    }
    Ok(doc.to_string())
}

fn declare(doc: &mut DocumentMut, config_path: &Path, fragment: &Declared) -> Result<()> {
    let kind = fragment.kind.name();
    let not_a_table = |key: &str| Error::config(config_path, format!("{key} must be a table"));
    // A new source goes after the last table under [sources].
    let sources_end = doc
        .get_mut("sources")
        .and_then(Item::as_table_mut)
        .map(max_position)
        .filter(|p| *p > 0)
        .unwrap_or_else(|| max_position(doc.as_table_mut()));
    let is_new = doc.get("sources").and_then(|s| s.get(kind)).is_none();
    if is_new {
        shift_positions(doc, sources_end);
    }
    let sources = table_at(doc.as_table_mut(), "sources").ok_or_else(|| not_a_table("sources"))?;
    let source = table_at(sources, kind).ok_or_else(|| not_a_table(&format!("sources.{kind}")))?;
    if is_new {
        source.set_implicit(false);
        source.set_position(Some(sources_end + 1));
    }
    let after = source
        .get("fragments")
        .and_then(Item::as_table)
        .and_then(|fragments| {
            fragments
                .iter()
                .filter_map(|(_, item)| item.as_table()?.position())
                .max()
        })
        .or(source.position());
    let fragments = table_at(source, "fragments")
        .ok_or_else(|| not_a_table(&format!("sources.{kind}.fragments")))?;
    if fragments.contains_key(&fragment.name) {
        return Err(Error::config(
            config_path,
            format!(
                "sources.{kind}.fragments.{} exists already; import never replaces a \
                 fragment (rename or remove it first)",
                fragment.name
            ),
        ));
    }
    let mut table = Table::new();
    table.insert("path", value(fragment.path.as_str()));
    if let Some(at) = after {
        shift_positions(doc, at);
        table.set_position(Some(at + 1));
    }
    let Some(fragments) = doc
        .get_mut("sources")
        .and_then(|s| s.get_mut(kind))
        .and_then(|s| s.get_mut("fragments"))
        .and_then(Item::as_table_mut)
    else {
        return Err(not_a_table(&format!("sources.{kind}.fragments")));
    };
    fragments.insert(&fragment.name, Item::Table(table));
    Ok(())
}

fn select(
    doc: &mut DocumentMut,
    config_path: &Path,
    profile: &str,
    fragment: &Declared,
) -> Result<()> {
    let kind = fragment.kind.name();
    let key = format!("profiles.{profile}");
    let profiles = doc
        .get_mut("profiles")
        .and_then(Item::as_table_like_mut)
        .ok_or_else(|| Error::config(config_path, "profiles must be a table"))?;
    let table = profiles
        .get_mut(profile)
        .and_then(Item::as_table_like_mut)
        .ok_or_else(|| Error::config(config_path, format!("{key} is not defined")))?;
    let list = table
        .entry(kind)
        .or_insert_with(|| value(Array::new()))
        .as_array_mut()
        .ok_or_else(|| Error::config(config_path, format!("{key}.{kind} must be a list")))?;
    list.push(fragment.name.as_str());
    Ok(())
}

/// `parent[key]` as a table, created (without a position) when absent;
/// `None` when it holds something else.
fn table_at<'t>(parent: &'t mut Table, key: &str) -> Option<&'t mut Table> {
    parent
        .entry(key)
        .or_insert_with(|| {
            let mut table = Table::new();
            table.set_implicit(true);
            Item::Table(table)
        })
        .as_table_mut()
}

/// Every table of `doc` with its position, depth first.
fn for_each_table(table: &mut Table, f: &mut dyn FnMut(&mut Table)) {
    f(table);
    for (_, item) in table.iter_mut() {
        if let Item::Table(inner) = item {
            for_each_table(inner, f);
        }
    }
}

/// The largest table position under `table` (0 when none has one).
fn max_position(table: &mut Table) -> isize {
    let mut max = 0;
    for_each_table(table, &mut |t| {
        if let Some(p) = t.position() {
            max = max.max(p);
        }
    });
    max
}

/// Move every table after position `at` one place down, making room at
/// `at + 1`.
fn shift_positions(doc: &mut DocumentMut, at: isize) {
    for_each_table(doc.as_table_mut(), &mut |t| {
        if let Some(p) = t.position().filter(|p| *p > at) {
            t.set_position(Some(p + 1));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: &str = r#"# my policy
schema_version = 1
default_profile = "default"

[sources.srt]
output = "out/srt.json"

# the base sandbox
[sources.srt.fragments.base]
path = "srt/base.jsonc"

[profiles.default]
srt = ["base"] # always

[targets]
"#;

    fn srt(name: &str) -> Declared {
        Declared {
            kind: SourceKind::Srt,
            name: name.into(),
            path: format!("srt/{name}.jsonc"),
        }
    }

    #[test]
    fn a_fragment_goes_after_its_kinds_last_fragment_and_into_the_profile() {
        let bash = Declared {
            kind: SourceKind::Bash,
            name: "imported-agent".into(),
            path: "bash/imported-agent.jsonc".into(),
        };
        let text = register(
            CONFIG,
            Path::new("config.toml"),
            "default",
            &[srt("imported-agent"), bash],
        )
        .unwrap();
        assert_eq!(
            text,
            r#"# my policy
schema_version = 1
default_profile = "default"

[sources.srt]
output = "out/srt.json"

# the base sandbox
[sources.srt.fragments.base]
path = "srt/base.jsonc"

[sources.srt.fragments.imported-agent]
path = "srt/imported-agent.jsonc"

[sources.bash]

[sources.bash.fragments.imported-agent]
path = "bash/imported-agent.jsonc"

[profiles.default]
srt = ["base", "imported-agent"] # always
bash = ["imported-agent"]

[targets]
"#
        );
        crate::config::parse(&text, Path::new("/p/config.toml")).unwrap();
    }

    #[test]
    fn a_declared_fragment_is_refused_and_an_unknown_profile_too() {
        let err = register(CONFIG, Path::new("c.toml"), "default", &[srt("base")]).unwrap_err();
        assert!(
            err.to_string()
                .contains("sources.srt.fragments.base exists already"),
            "{err}"
        );
        assert_eq!(err.exit_code(), 1);
        let err = register(CONFIG, Path::new("c.toml"), "work", &[srt("x")]).unwrap_err();
        assert!(
            err.to_string().contains("profiles.work is not defined"),
            "{err}"
        );
    }
}
