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
