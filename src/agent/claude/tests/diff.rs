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
fn sixty_four_thousand_entries_compare_quickly() {
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
    let start = std::time::Instant::now();
    let (missing, extra) = compared(&fixture, false);
    assert_eq!(missing.len(), 32_000 * 2 + 32_000 * 2 + 1);
    assert!(extra.is_empty());
    assert!(start.elapsed().as_secs() < 20);
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

/// The comparison against the renderer's description of the generated
/// document agrees with the one against the built document.
#[test]
fn comparing_without_building_agrees_with_comparing_the_document() {
    use crate::agent::claude::{generate, input, render};
    use serde_json::{Map, Value};

    let mut fixtures: Vec<Fixture> = CASES.iter().map(|case| Fixture::case(case)).collect();
    for overrides in [
        "[sandbox_overrides.full]\nnetwork = \"x\"\nfilesystem = { denyRead = [1, \"a\"] }\n\
         enabled = true\n[sandbox_overrides.yolo]\nnetwork = { allowedDomains = [\"a.b\", 3], \
         httpProxyPort = 1 }\nfilesystem = []\n",
        "[sandbox_overrides.full]\n[sandbox_overrides.yolo]\n",
    ] {
        fixtures.push(Fixture::new(
            r#"{"enabled": true, "ignoreViolations": {"*": ["/x"]},
                "network": {"allowedDomains": ["a.b", "c.d"], "allowLocalBinding": null,
                            "httpProxyPort": 8080, "allowUnixSockets": []},
                "filesystem": {"denyRead": ["~/.ssh", "*.pem"], "allowWrite": ["."]}}"#,
            r#"{"ask": ["git push"], "deny": ["rm -rf", "rm -rf"], "allow": ["ls"]}"#,
            Some(overrides),
            "",
        ));
    }
    let sorted = |mut e: diff::Entries| {
        e.missing.sort();
        e.extra.sort();
        e
    };
    let mut compared = 0;
    for fixture in &fixtures {
        for yolo in [false, true] {
            let ctx = fixture.ctx(yolo);
            let home = fixture.home();
            let document = generate(&ctx, &home);
            let mut disks: Vec<Map<String, Value>> = vec![
                Map::new(),
                document.clone(),
                serde_json::from_str(
                    r#"{"permissions": {"deny": [5, "Bash(rm -rf)", "x"], "ask": "no",
                        "allow": ["WebFetch(domain:a.b)", "WebFetch(domain:z)", "Read"]},
                        "sandbox": {"network": {"allowedDomains": ["a.b", false, "q"],
                        "httpProxyPort": 8080.0, "allowLocalBinding": null},
                        "filesystem": {"denyRead": ["~/.ssh", "*.pem"], "allowWrite": 1},
                        "enabled": true, "ignoreViolations": {"*": ["/x"]}}}"#,
                )
                .unwrap(),
                serde_json::from_str(r#"{"permissions": [], "sandbox": {"network": 1}}"#).unwrap(),
            ];
            // The generated document, its lists edited: reversed, shortened,
            // grown in the middle, with duplicates.
            let edits: [fn(&mut Vec<Value>); 5] = [
                |l| l.reverse(),
                |l| {
                    if !l.is_empty() {
                        l.remove(0);
                    }
                },
                |l| l.insert(l.len() / 2, Value::String("Bash(new)".into())),
                |l| {
                    let copy = l.clone();
                    l.extend(copy);
                },
                |l| {
                    if l.len() > 2 {
                        l.swap(1, 2);
                        l.pop();
                    }
                },
            ];
            for edit in edits {
                let mut disk = document.clone();
                for section in ["deny", "allow", "ask"] {
                    if let Some(Value::Array(list)) =
                        disk.get_mut("permissions").and_then(|p| p.get_mut(section))
                    {
                        edit(list);
                    }
                }
                if let Some(Value::Array(list)) = disk
                    .get_mut("sandbox")
                    .and_then(|s| s.get_mut("network"))
                    .and_then(|n| n.get_mut("allowedDomains"))
                {
                    edit(list);
                }
                disks.push(disk);
            }
            for case in CASES {
                for mode in ["full", "yolo"] {
                    if let Some(text) = read_opt(case, &format!("disk_{mode}.json")) {
                        disks.push(serde_json::from_str(&text).unwrap());
                    }
                }
            }
            for disk in &disks {
                let input = input(&ctx, &home);
                let whole = Value::Object(disk.clone());
                let view = crate::jsonc::Json::of(&whole);
                let text = serde_json::to_string(disk).unwrap();
                let parsed = crate::jsonc::parse_plain_json_view(&text).unwrap();
                assert_eq!(parsed, view);
                assert_eq!(
                    sorted(diff::entries_generated(&render::generated(&input), &view)),
                    sorted(diff::entries(&document, disk)),
                    "yolo {yolo}, disk {disk:?}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 50);
}
