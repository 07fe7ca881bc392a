//! `diff claude`: entry spellings against the recorded reference output.

use super::{CASES, Fixture, read_opt};
use crate::agent::AgentDiff;
use crate::agent::claude::diff;

/// The drift of the mode's target, with `settings.json` linked to it as
/// `generate -w` leaves it.
fn compared(fixture: &Fixture, yolo: bool) -> (Vec<String>, Vec<String>) {
    fixture.link_anchor(yolo);
    match diff(&fixture.ctx(yolo), &fixture.home()).unwrap().texts() {
        Some((mut missing, mut extra)) => {
            missing.sort();
            extra.sort();
            (missing, extra)
        }
        None => panic!("target missing"),
    }
}

/// The entries 3.3.3 reports too: [`compared`] without what issue 40 adds
/// (a file Claude Code drops, the foreign grants; their own tests are in
/// `tests/diff_grants.rs` and below).
fn compared_as_3_3_3(fixture: &Fixture, yolo: bool) -> (Vec<String>, Vec<String>) {
    const ADDED: [&str; 5] = [
        "schema:",
        "permissions.allow:[",
        "permissions.defaultMode:",
        "permissions.additionalDirectories:",
        "sandbox:",
    ];
    let (missing, mut extra) = compared(fixture, yolo);
    extra.retain(|e| !ADDED.iter().any(|a| e.starts_with(a)));
    // 3.3.3 does not tell a foreign deny or ask entry from its own.
    for e in &mut extra {
        if let Some(entry) = e.strip_suffix(FOREIGN) {
            *e = entry.to_string();
        }
    }
    extra.sort();
    (missing, extra)
}

const FOREIGN: &str = " (foreign, narrowing)";

/// An extra deny or ask entry that no policy of the record wrote is the
/// user's narrowing, which `generate -w` keeps; twsrt's own earlier entry
/// is plain drift a write clears.
#[test]
fn a_foreign_deny_or_ask_is_spelt_as_foreign_narrowing() {
    let fixture = Fixture::new("{}", r#"{"deny": ["rm"]}"#, None, "");
    fixture.put(
        "settings.full.json",
        r#"{"permissions": {"deny": ["Bash(rm)", "Bash(rm *)", "mcp__github__delete_repo"],
            "ask": ["WebSearch"]}}"#,
    );
    let (_, extra) = compared(&fixture, false);
    assert!(
        extra.contains(&format!("mcp__github__delete_repo{FOREIGN}")),
        "{extra:?}"
    );
    assert!(extra.contains(&format!("WebSearch{FOREIGN}")), "{extra:?}");
    fixture.previous("{}", r#"{"deny": ["old"]}"#);
    fixture.put(
        "settings.full.json",
        r#"{"permissions": {"deny": ["Bash(rm)", "Bash(rm *)", "Bash(old)"]}}"#,
    );
    let (_, extra) = compared(&fixture, false);
    assert!(extra.contains(&"Bash(old)".to_string()), "{extra:?}");
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
            let want = |sign: &str| -> Vec<String> {
                let mut entries: Vec<String> = expected
                    .lines()
                    .filter_map(|l| l.strip_prefix(sign))
                    .map(str::to_string)
                    .collect();
                entries.sort();
                entries
            };
            let (missing, extra) = compared_as_3_3_3(&fixture, yolo);
            assert_eq!(missing, want("  + "), "{case} {mode}");
            assert_eq!(extra, want("  - "), "{case} {mode}");
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
            // The full mode's overrides put `network = 7` into the sandbox:
            // a file Claude Code drops (generate and diff refuse it).
            let extra: Vec<String> = if case == "overrides" && !yolo {
                vec!["schema:/sandbox/network (Claude Code drops the whole file)".into()]
            } else {
                vec![]
            };
            assert_eq!(compared(&fixture, yolo), (vec![], extra), "{case} {name}");
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
            "sandbox": {"network": {"allowedDomains": [false]}, "enabled": false,
                        "filesystem": {"denyRead": [], "denyWrite": [], "allowWrite": []}}}"#,
    );
    let (missing, extra) = compared_as_3_3_3(&fixture, false);
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
    // Each domain twice, each command twice, `enabled`, the three path lists.
    assert_eq!(missing.len(), 32_000 * 2 + 32_000 * 2 + 1 + 3);
    assert!(extra.is_empty());
}

/// A section the merge would refuse is an error naming the file, not drift
/// (a `permissions` list is not an empty policy); a `sandbox.network` of the
/// wrong type is compared as empty.
#[test]
fn sections_of_the_wrong_type_are_refused_or_read_as_empty() {
    let fixture = Fixture::new(
        r#"{"network": {"allowedDomains": ["a.io"]}}"#,
        "{}",
        None,
        "",
    );
    for text in [
        r#"{"permissions": []}"#,
        r#"{"permissions": {"allow": "x"}}"#,
        r#"{"sandbox": "on"}"#,
    ] {
        fixture.put("settings.full.json", text);
        let err = diff(&fixture.ctx(false), &fixture.home()).unwrap_err();
        assert!(err.to_string().contains("settings.full.json"), "{err}");
    }
    fixture.put(
        "settings.full.json",
        r#"{"sandbox": {"network": "a.io", "enabled": false}}"#,
    );
    let (missing, extra) = compared_as_3_3_3(&fixture, false);
    assert_eq!(
        missing,
        [
            "WebFetch(domain:a.io)",
            "filesystem.config:allowWrite",
            "filesystem.config:denyRead",
            "filesystem.config:denyWrite",
            "network:a.io"
        ]
    );
    assert!(extra.is_empty(), "{extra:?}");
}

/// `Edit(...)` allows are compared like `WebFetch` ones (both are
/// twsrt's); other allows, a bare `Edit` included, are not.
#[test]
fn edit_allows_are_compared_and_other_grants_widen() {
    let fixture = Fixture::new(
        r#"{"filesystem": {"allowWrite": ["~/dev", "/tmp"]}}"#,
        "{}",
        None,
        "",
    );
    fixture.put(
        "settings.full.json",
        r#"{"permissions": {"allow": ["Edit(~/dev)", "Edit(~/dev/**)", "Edit(~/old)",
                                       "Edit", "Read", "Edit(/tmp)"]},
            "sandbox": {"enabled": false,
                        "filesystem": {"denyRead": [], "denyWrite": [], "allowWrite": []}}}"#,
    );
    let (missing, extra) = compared(&fixture, false);
    assert_eq!(missing, ["Edit(//tmp)", "Edit(//tmp/**)"]);
    // A bare `Edit` or `Read` allow runs the tool anywhere without asking.
    assert_eq!(
        extra,
        [
            "Edit(/tmp)",
            "Edit(~/old)",
            "permissions.allow:[3] Edit",
            "permissions.allow:[4] Read"
        ]
    );
}

/// A path left in a managed list on disk is drift: twsrt writes them empty.
#[test]
fn a_path_in_a_managed_list_on_disk_is_drift() {
    let fixture = Fixture::new(r#"{"filesystem": {"allowWrite": ["."]}}"#, "{}", None, "");
    fixture.put(
        "settings.full.json",
        r#"{"permissions": {"allow": ["Edit(.)", "Edit(./**)"]},
            "sandbox": {"enabled": false,
                        "filesystem": {"denyRead": [], "denyWrite": [], "allowWrite": ["."]}}}"#,
    );
    let (missing, extra) = compared(&fixture, false);
    assert_eq!(missing, ["filesystem.config:allowWrite"]);
    assert_eq!(extra, ["filesystem.config:allowWrite"]);
}

#[test]
fn each_claude_difference_gets_the_direction_of_its_section() {
    use crate::drift::{Direction::*, Side::*};
    let obj = |v: serde_json::Value| v.as_object().cloned().unwrap();
    let generated = obj(serde_json::json!({
        "permissions": {"deny": ["Read(~/.aws)"], "ask": ["Bash(git push)"],
            "allow": ["Edit(./**)"]},
        "sandbox": {"enabled": true, "network": {"allowedDomains": ["github.com"],
            "allowLocalBinding": false}},
    }));
    let on_disk = obj(serde_json::json!({
        "permissions": {"deny": ["Read(~/.kube)"], "ask": [],
            "allow": ["Edit(./**)", "Edit(/**)", "WebFetch(domain:x.io)"]},
        "sandbox": {"enabled": false, "network": {"allowedDomains": [],
            "allowLocalBinding": true}},
    }));
    let got: Vec<_> = diff::entries(&generated, &on_disk)
        .into_differences()
        .into_iter()
        .map(|d| (d.section, d.shown, d.side, d.direction))
        .collect();
    let row = |s: &str, e: &str, side, dir| (s.to_string(), e.to_string(), side, dir);
    assert_eq!(
        got,
        [
            row("permissions.deny", "Read(~/.aws)", Missing, Widening),
            row("permissions.ask", "Bash(git push)", Missing, Widening),
            row(
                "sandbox.network.allowedDomains",
                "network:github.com",
                Missing,
                Narrowing
            ),
            row(
                "sandbox.network.allowLocalBinding",
                "network.config:allowLocalBinding",
                Missing,
                Widening
            ),
            row(
                "sandbox.enabled",
                "sandbox.config:enabled",
                Missing,
                Widening
            ),
            row("permissions.deny", "Read(~/.kube)", Extra, Narrowing),
            row("permissions.allow", "Edit(/**)", Extra, Widening),
            row(
                "permissions.allow",
                "WebFetch(domain:x.io)",
                Extra,
                Widening
            ),
            row(
                "sandbox.network.allowLocalBinding",
                "network.config:allowLocalBinding",
                Extra,
                Widening
            ),
            row("sandbox.enabled", "sandbox.config:enabled", Extra, Widening),
        ]
    );
}

/// A rule in two sections is reported once for each, in the order of the
/// sections, whatever came before it.
#[test]
fn a_rule_in_two_sections_is_reported_for_each_in_order() {
    use crate::drift::Side::*;
    let obj = |v: serde_json::Value| v.as_object().cloned().unwrap();
    let generated = obj(serde_json::json!({
        "permissions": {"deny": ["Read(~/.aws)", "Bash(rm)"], "ask": ["Bash(rm)"]},
    }));
    let on_disk = obj(serde_json::json!({
        "permissions": {"deny": ["Read(~/.kube)", "Bash(cp)"], "ask": ["Bash(cp)"]},
    }));
    let got: Vec<_> = diff::entries(&generated, &on_disk)
        .into_differences()
        .into_iter()
        .map(|d| (d.side, d.section, d.shown))
        .collect();
    let row = |side, s: &str, e: &str| (side, s.to_string(), e.to_string());
    assert_eq!(
        got,
        [
            row(Missing, "permissions.deny", "Read(~/.aws)"),
            row(Missing, "permissions.deny", "Bash(rm)"),
            row(Missing, "permissions.ask", "Bash(rm)"),
            row(Extra, "permissions.deny", "Read(~/.kube)"),
            row(Extra, "permissions.deny", "Bash(cp)"),
            row(Extra, "permissions.ask", "Bash(cp)"),
        ]
    );
}

/// Two hundred thousand differences in one comparison: the comparison is one
/// pass over each side, so this is quick; any per-entry search through the
/// others (a quadratic comparison, 2·10¹⁰ steps here) would not finish in a
/// test run.
#[test]
fn two_hundred_thousand_differences_compare_in_one_pass() {
    const N: usize = 100_000;
    let document = |stem: &str| {
        let rules = (0..N).map(|i| serde_json::Value::String(format!("Read({stem}{i})")));
        let permissions = serde_json::json!({"deny": rules.collect::<Vec<_>>()});
        let mut root = serde_json::Map::new();
        root.insert("permissions".into(), permissions);
        root
    };
    let got = diff::entries(&document("/g"), &document("/d")).into_differences();
    assert_eq!(got.len(), 2 * N);
    assert_eq!(got[N - 1].shown, format!("Read(/g{})", N - 1));
    assert_eq!(got[N].shown, "Read(/d0)");
    assert!(
        got[..N]
            .iter()
            .all(|d| d.side == crate::drift::Side::Missing)
    );
    assert!(got[N..].iter().all(|d| d.side == crate::drift::Side::Extra));
}
