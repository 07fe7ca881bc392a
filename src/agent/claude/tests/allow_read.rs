//! srt's `filesystem.allowRead` in Claude's `sandbox.filesystem.allowRead`:
//! which entries are written, what is said, how the merge owns the list and
//! which way its drift points.

use serde_json::{Value, json};

use super::Fixture;
use crate::agent::claude::{Claude, diff, generate, stage};
use crate::agent::{Agent, AgentDiff, Warnings};
use crate::diag::Code;
use crate::drift::{Direction, Side};
use crate::plan::{Plan, Step};

const MIXED: &str = r#"{"filesystem": {"denyRead": ["~/.config", "/srv"],
    "allowRead": ["~/.config/app", "rel/x", "/srv/pub/*", "**/at", {"path": "/lit", "literal": true}, "~"]}}"#;

fn allow_read(fixture: &Fixture, yolo: bool) -> Value {
    generate(&fixture.ctx(yolo), &fixture.home())["sandbox"]["filesystem"]["allowRead"].clone()
}

fn warnings(fixture: &Fixture) -> Vec<String> {
    let mut warnings = Warnings::new();
    Claude.preview(&fixture.ctx(false), &mut warnings).unwrap();
    assert!(warnings.iter().all(|w| w.code == Code::SrtKeySkipped));
    crate::agent::messages(&warnings)
}

#[test]
fn absolute_and_home_entries_are_written_in_policy_order_and_the_rest_left_out() {
    let fixture = Fixture::new(MIXED, "{}", None, "");
    for yolo in [false, true] {
        assert_eq!(
            allow_read(&fixture, yolo),
            json!(["~/.config/app", "/srv/pub/*", "~"])
        );
    }
    let said = warnings(&fixture);
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(
        said[0].ends_with("so they stay closed to its commands: rel/x, **/at, {\"path\": \"/lit\", \"literal\": true}"),
        "{said:?}"
    );
    assert!(
        said[1].starts_with("srt filesystem.allowRead re-opens ~/.config/app, /srv/pub/*, ~ for Claude's sandboxed commands only: its Read tool keeps"),
        "{said:?}"
    );
    // The Read tool keeps its deny rules.
    let generated = generate(&fixture.ctx(false), &fixture.home());
    let deny = generated["permissions"]["deny"].as_array().unwrap();
    assert!(deny.contains(&json!("Read(~/.config/**)")), "{deny:?}");
}

#[test]
fn without_an_allow_read_nothing_is_written_or_said() {
    for srt in [
        r#"{"filesystem": {"denyRead": ["~/.ssh"]}}"#,
        r#"{"filesystem": {"allowRead": []}}"#,
    ] {
        let fixture = Fixture::new(srt, "{}", None, "");
        let generated = generate(&fixture.ctx(false), &fixture.home());
        assert!(
            generated["sandbox"]["filesystem"]
                .get("allowRead")
                .is_none(),
            "{generated:?}"
        );
        assert!(warnings(&fixture).is_empty());
    }
    // Only relative entries: none written, each named.
    let fixture = Fixture::new(r#"{"filesystem": {"allowRead": ["a"]}}"#, "{}", None, "");
    assert!(allow_read(&fixture, false).is_null());
    assert_eq!(warnings(&fixture).len(), 1);
}

fn written(fixture: &Fixture) -> Value {
    let mut plan = Plan::default();
    stage(&fixture.ctx(false), &mut plan, &fixture.home()).unwrap();
    let Some(Step::Write { content, .. }) = plan.steps.first() else {
        panic!("no write");
    };
    serde_json::from_slice(content).unwrap()
}

#[test]
fn the_merge_replaces_the_list_on_disk_and_removes_it_when_the_policy_has_none() {
    let on_disk =
        r#"{"sandbox": {"filesystem": {"allowRead": ["/stale", "/kept"], "denyRead": []}}}"#;
    let fixture = Fixture::new(
        r#"{"filesystem": {"allowRead": ["/kept"]}}"#,
        "{}",
        None,
        "",
    );
    fixture.put("settings.full.json", on_disk);
    assert_eq!(
        written(&fixture)["sandbox"]["filesystem"]["allowRead"],
        json!(["/kept"])
    );
    let fixture = Fixture::new("{}", "{}", None, "");
    fixture.put("settings.full.json", on_disk);
    let doc = written(&fixture);
    assert!(
        doc["sandbox"]["filesystem"].get("allowRead").is_none(),
        "{doc}"
    );
}

fn drift(fixture: &Fixture) -> Vec<(Side, String, Direction)> {
    fixture.link_anchor(false);
    let AgentDiff::Compared(differences) = diff(&fixture.ctx(false), &fixture.home()).unwrap()
    else {
        panic!("not compared");
    };
    differences
        .into_iter()
        .filter(|d| d.section == "sandbox.filesystem.allowRead")
        .map(|d| (d.side, d.shown, d.direction))
        .collect()
}

#[test]
fn an_entry_only_on_disk_widens_and_one_only_in_the_policy_narrows() {
    let fixture = Fixture::new(r#"{"filesystem": {"allowRead": ["/p"]}}"#, "{}", None, "");
    let generated = generate(&fixture.ctx(false), &fixture.home());
    let mut doc = generated.clone();
    doc["sandbox"]["filesystem"]["allowRead"] = json!(["/disk"]);
    fixture.put("settings.full.json", &Value::Object(doc).to_string());
    assert_eq!(
        drift(&fixture),
        [
            (
                Side::Missing,
                "filesystem.allowRead:/p".to_string(),
                Direction::Narrowing
            ),
            (
                Side::Extra,
                "filesystem.allowRead:/disk".to_string(),
                Direction::Widening
            ),
        ]
    );
    // The written file is clean.
    fixture.put("settings.full.json", &Value::Object(generated).to_string());
    assert!(drift(&fixture).is_empty());
}
