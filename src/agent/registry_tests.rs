//! The registry's invariants: what lets an agent be added as one module and
//! one `registry()` line.

use super::*;

#[test]
fn agent_names_and_target_keys_are_unique() {
    let mut names = names();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), registry().len());
    let mut keys: Vec<&str> = target_keys().iter().map(|k| k.name).collect();
    let all = keys.len();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), all, "a [targets] key declared twice");
}

#[test]
fn a_secondary_key_refines_a_primary_key_of_its_own_agent() {
    for agent in registry() {
        let (primary, rest) = agent.target_keys().split_first().expect("a primary key");
        assert_eq!(primary.needs, None, "{}", agent.name());
        assert_eq!(agent.target_key(), primary.name);
        for key in rest {
            let needs = key.needs.expect("a secondary key names its primary");
            assert!(
                agent.target_keys().iter().any(|k| k.name == needs),
                "{} needs {needs}, which {} does not declare",
                key.name,
                agent.name()
            );
        }
    }
}

#[test]
fn every_diagnostic_code_of_every_agent_is_unique_and_named_after_its_agent() {
    use crate::diag::Code;
    let mut names: Vec<&str> = Code::ALL.iter().map(|c| c.name()).collect();
    assert!(Code::ALL.iter().all(|c| !matches!(c, Code::Agent(_))));
    for agent in registry() {
        for code in agent.codes() {
            assert!(matches!(code, Code::Agent(_)), "{code}");
            let prefix = format!("{}-", agent.name());
            assert!(
                code.name().starts_with(&prefix),
                "{code} of {}",
                agent.name()
            );
            names.push(code.name());
        }
    }
    assert!(names.iter().all(|n| {
        n.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !n.ends_with('-')
    }));
    let count = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), count, "two codes share a name");
}

#[test]
fn the_agents_config_tables_have_keys_of_their_own() {
    let mut keys: Vec<&str> = config_tables().iter().map(|t| t.key).collect();
    assert!(!keys.is_empty());
    let all = keys.len();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), all, "two agents declare one table");
    // A table's key is no key config.toml itself reads.
    let text = "schema_version = 1\ndefault_profile = \"d\"\n[sources.srt]\noutput = \"o.json\"\n\
                [sources.srt.fragments.b]\npath = \"b.jsonc\"\n[profiles.d]\nsrt = [\"b\"]\n";
    let config = crate::config::parse(text, std::path::Path::new("/c/config.toml")).unwrap();
    assert_eq!(format!("{:?}", config.agent_tables), "[]");
    for key in keys {
        let err = crate::config::parse(
            &format!("{text}[{key}]\n"),
            std::path::Path::new("/c/config.toml"),
        )
        .unwrap_err();
        assert!(
            err.to_string().contains(&format!("unknown key \"{key}\"")),
            "{err}"
        );
    }
}
