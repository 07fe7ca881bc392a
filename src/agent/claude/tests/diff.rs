//! `diff claude`: entry spellings against the recorded reference output.

use super::{CASES, Fixture, read_opt};
use crate::agent::AgentDiff;
use crate::agent::claude::diff;

fn compared(fixture: &Fixture, yolo: bool) -> (Vec<String>, Vec<String>) {
    match diff(&fixture.ctx(yolo), &fixture.home()).unwrap() {
        AgentDiff::Compared {
            mut missing,
            mut extra,
        } => {
            missing.sort();
            extra.sort();
            (missing, extra)
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn every_recorded_drift_is_reported_like_the_reference() {
    let mut checked = 0;
    for case in CASES {
        for (yolo, mode) in [(false, "full"), (true, "yolo")] {
            let Some(disk) = read_opt(case, &format!("disk_{mode}.json")) else {
                continue;
            };
            let fixture = Fixture::case(case);
            fixture.put(&format!("settings.{mode}.json"), &disk);
            let expected = read_opt(case, &format!("expected_diff_{mode}.txt")).unwrap();
            let want = |sign: &str, tail: &str| -> Vec<String> {
                expected
                    .lines()
                    .filter_map(|l| l.strip_prefix(sign)?.strip_suffix(tail))
                    .map(str::to_string)
                    .collect()
            };
            let (missing, extra) = compared(&fixture, yolo);
            assert_eq!(
                missing,
                want("  + ", " (missing from existing)"),
                "{case} {mode}"
            );
            assert_eq!(
                extra,
                want("  - ", " (in existing, not in sources)"),
                "{case} {mode}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 6);
}

#[test]
fn a_freshly_written_target_has_no_drift() {
    for case in CASES {
        let fixture = Fixture::case(case);
        for (yolo, name) in [(false, "settings.full.json"), (true, "settings.yolo.json")] {
            let mut plan = crate::plan::Plan::default();
            crate::agent::claude::stage(&fixture.ctx(yolo), &mut plan, &fixture.home()).unwrap();
            let Some(crate::plan::Step::Write { content, .. }) = plan.steps.first() else {
                panic!("no write");
            };
            fixture.put(name, std::str::from_utf8(content).unwrap());
            assert_eq!(compared(&fixture, yolo), (vec![], vec![]), "{case} {name}");
        }
    }
}

#[test]
fn a_missing_target_is_reported_even_when_settings_json_exists() {
    let fixture = Fixture::case("drift");
    fixture.put(
        "settings.json",
        &read_opt("drift", "disk_full.json").unwrap(),
    );
    match diff(&fixture.ctx(false), &fixture.home()).unwrap() {
        AgentDiff::TargetMissing(message) => {
            let target = fixture.claude_dir().join("settings.full.json");
            assert!(message.contains(&*target.to_string_lossy()), "{message}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_invalid_target_is_an_error_naming_it() {
    let fixture = Fixture::case("drift");
    let path = fixture.put("settings.full.json", r#"{"env": {"K": "sk-do-not-print"}"#);
    let err = diff(&fixture.ctx(false), &fixture.home()).unwrap_err();
    assert_eq!(err.exit_code(), 1);
    let message = err.to_string();
    assert!(message.starts_with(&*path.to_string_lossy()), "{message}");
    assert!(!message.contains("sk-do-not-print"), "{message}");
}

#[test]
fn non_string_entries_read_as_python_prints_them() {
    let fixture = Fixture::new("{}", "{}", None, "");
    fixture.put(
        "settings.full.json",
        r#"{"permissions": {"deny": [5, true, null, 1.5], "allow": [7, "Read"]},
            "sandbox": {"network": {"allowedDomains": [false]}, "enabled": false}}"#,
    );
    let (missing, extra) = compared(&fixture, false);
    assert!(missing.is_empty(), "{missing:?}");
    assert_eq!(extra, ["1.5", "5", "None", "True", "network:False"]);
}

#[test]
fn sixty_four_thousand_entries_compare_in_full() {
    let domains: Vec<String> = (0..32_000).map(|i| format!("\"d{i}.example\"")).collect();
    let commands: Vec<String> = (0..32_000).map(|i| format!("\"cmd{i}\"")).collect();
    let fixture = Fixture::new(
        &format!(
            r#"{{"network": {{"allowedDomains": [{}]}}}}"#,
            domains.join(",")
        ),
        &format!(r#"{{"deny": [{}]}}"#, commands.join(",")),
        None,
        "",
    );
    fixture.put("settings.full.json", "{}");
    let (missing, extra) = compared(&fixture, false);
    assert_eq!(missing.len(), 32_000 * 2 + 32_000 * 2 + 1);
    assert!(extra.is_empty());
}

#[test]
fn sections_of_the_wrong_type_read_as_empty() {
    let fixture = Fixture::new(
        r#"{"network": {"allowedDomains": ["a.io"]}}"#,
        "{}",
        None,
        "",
    );
    fixture.put(
        "settings.full.json",
        r#"{"permissions": [], "sandbox": {"network": "a.io", "enabled": false}}"#,
    );
    let (missing, extra) = compared(&fixture, false);
    assert_eq!(missing, ["WebFetch(domain:a.io)", "network:a.io"]);
    assert!(extra.is_empty(), "{extra:?}");
}
