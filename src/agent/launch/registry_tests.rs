//! The launch parts of the registry: every agent reads its own binary with
//! its own grammar, and a binary no agent claims is an error, never another
//! agent's checks.

use super::*;

fn argv(line: &[&str]) -> Vec<String> {
    line.iter().map(|w| w.to_string()).collect()
}

#[test]
fn every_agent_has_a_launch_part_with_its_own_binary_and_grammar() {
    let all = launchers();
    assert_eq!(
        all.len(),
        registry().len(),
        "an agent without a launch part"
    );
    let mut binaries: Vec<&str> = all.iter().map(|l| l.launch.binary()).collect();
    binaries.sort_unstable();
    binaries.dedup();
    assert_eq!(binaries.len(), all.len(), "two agents claim one binary");
    let mut places: Vec<u8> = all.iter().map(|l| l.launch.listed_at()).collect();
    places.sort_unstable();
    places.dedup();
    assert_eq!(
        places.len(),
        all.len(),
        "two agents share a place in the list"
    );
    for l in &all {
        let binary = l.launch.binary();
        assert_eq!(
            l.launch.grammar().name,
            binary,
            "the root table reads {binary}"
        );
        let found = agent_of(&argv(&[&format!("/usr/local/bin/{binary}")])).unwrap();
        assert_eq!(found.launch.binary(), binary);
        assert_eq!(found.agent.name(), l.agent.name());
        assert!(!dump_grammar(binary).unwrap().is_empty());
    }
}

#[test]
fn an_unknown_binary_is_an_error_not_another_agents_checks() {
    for line in [&["vim"][..], &["codex-wrapper"], &["Claude"], &[""], &[]] {
        let e = agent_of(&argv(line)).err().expect("an error");
        assert_eq!(e.exit_code(), EXIT_UNREADABLE, "{line:?}");
    }
    let e = agent_of(&argv(&["/usr/bin/vim", "--yolo"]))
        .err()
        .expect("an error");
    assert_eq!(
        e.to_string(),
        "unknown agent binary 'vim': twsrt can read the command lines of codex, claude, \
         copilot, gemini and opencode only"
    );
    let e = dump_grammar("vim").unwrap_err();
    assert_eq!(e.exit_code(), EXIT_UNREADABLE);
}

#[test]
fn a_value_is_shown_only_when_some_agent_has_the_word() {
    for l in launchers() {
        for word in l.launch.vocabulary() {
            assert_eq!(redact::shown(word), *word);
        }
    }
    assert_eq!(redact::shown("true"), "true");
    assert_eq!(redact::shown("SECRET"), "<value>");
}
