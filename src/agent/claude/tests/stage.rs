//! `generate claude -w`: the merged file, the anchor, migration and errors.

use std::path::PathBuf;

use serde_json::Value;

use super::{Fixture, read, read_opt};
use crate::agent::claude::{generate, stage};
use crate::plan::{FileKind, Plan, Step};
use crate::pyjson::to_pretty;

fn staged(fixture: &Fixture, yolo: bool) -> crate::error::Result<Plan> {
    let mut plan = Plan::default();
    stage(&fixture.ctx(yolo), &mut plan, &fixture.home())?;
    Ok(plan)
}

/// [`staged`] with `--drop-foreign`.
fn staged_dropping(fixture: &Fixture, yolo: bool) -> crate::error::Result<Plan> {
    let mut plan = Plan::default();
    let mut ctx = fixture.ctx(yolo);
    ctx.drop_foreign = true;
    stage(&ctx, &mut plan, &fixture.home())?;
    Ok(plan)
}

fn write_step(plan: &Plan) -> (PathBuf, String) {
    plan.steps
        .iter()
        .find_map(|s| match s {
            Step::Write {
                path,
                content,
                kind: FileKind::AgentTarget,
            } => Some((path.clone(), String::from_utf8(content.clone()).unwrap())),
            _ => None,
        })
        .expect("a target write")
}

fn preview(fixture: &Fixture, yolo: bool) -> String {
    to_pretty(&Value::Object(generate(
        &fixture.ctx(yolo),
        &fixture.home(),
    )))
}

#[test]
fn merges_into_existing_files_like_the_reference() {
    for case in ["policy", "absent"] {
        let existing = read_opt(case, "existing.json").unwrap();
        for (yolo, mode) in [(false, "full"), (true, "yolo")] {
            let fixture = Fixture::case(case);
            // The "old" entries are what an earlier policy compiled to.
            fixture.previous(
                r#"{"filesystem": {"denyRead": ["/old"]}}"#,
                r#"{"deny": ["old"], "ask": ["oldask"]}"#,
            );
            let path = fixture.put(&format!("settings.{mode}.json"), &existing);
            // "absent" holds an `ask` entry no policy wrote: it is kept
            // beside twsrt's entries, and goes only with the user's consent.
            let plan = if case == "absent" {
                let kept = write_step(&staged(&fixture, yolo).unwrap()).1;
                let kept: Value = serde_json::from_str(&kept).unwrap();
                let ask = kept["permissions"]["ask"].as_array().unwrap();
                assert_eq!(ask.last(), Some(&Value::from("x")), "{case} {mode}");
                staged_dropping(&fixture, yolo).unwrap()
            } else {
                staged(&fixture, yolo).unwrap()
            };
            let (written, content) = write_step(&plan);
            assert_eq!(written, path);
            let expected = read(case, &format!("expected_merged_{mode}.json"));
            assert_eq!(content, expected, "{case} {mode}");
            // The dry run shows the generated document, not the merge.
            let shown: Vec<_> = plan.renderings().collect();
            assert_eq!(shown, [("claude", preview(&fixture, yolo).as_str())]);
        }
    }
}

#[test]
fn without_a_file_the_generated_document_is_written_and_linked() {
    let fixture = Fixture::case("policy");
    let plan = staged(&fixture, false).unwrap();
    let dir = fixture.claude_dir();
    assert_eq!(
        plan.steps,
        [
            Step::Write {
                path: dir.join("settings.full.json"),
                content: format!("{}\n", read("policy", "expected_full.json")).into_bytes(),
                kind: FileKind::AgentTarget,
            },
            Step::Symlink {
                link: dir.join("settings.json"),
                target: PathBuf::from("settings.full.json"),
            },
        ]
    );
    let plan = staged(&fixture, true).unwrap();
    assert_eq!(write_step(&plan).0, dir.join("settings.yolo.json"));
    assert_eq!(
        plan.steps.last(),
        Some(&Step::Symlink {
            link: dir.join("settings.json"),
            target: PathBuf::from("settings.yolo.json"),
        })
    );
}

#[test]
fn permissions_and_sandbox_are_appended_in_merge_order_when_absent() {
    let fixture = Fixture::case("absent");
    fixture.put("settings.full.json", "{}");
    let (_, content) = write_step(&staged(&fixture, false).unwrap());
    let doc: serde_json::Map<String, Value> = serde_json::from_str(&content).unwrap();
    assert_eq!(doc.keys().collect::<Vec<_>>(), ["permissions", "sandbox"]);
    let permissions: Vec<&String> = doc["permissions"].as_object().unwrap().keys().collect();
    assert_eq!(permissions, ["deny", "ask", "allow"]);
}

#[test]
fn a_regular_settings_json_is_migrated_and_merged() {
    let fixture = Fixture::case("absent");
    let anchor = fixture.put("settings.json", &read("absent", "existing.json"));
    // Its `ask` entry is not twsrt's: the yolo file, which has no ask list
    // of twsrt's, keeps it, and says so.
    let kept = staged(&fixture, true).unwrap();
    assert!(kept.removals.is_empty());
    let (_, content) = write_step(&kept);
    let content: Value = serde_json::from_str(&content).unwrap();
    assert_eq!(content["permissions"]["ask"], serde_json::json!(["x"]));
    assert!(
        kept.notes
            .iter()
            .any(|n| n.starts_with("claude: keeps permissions.ask x from ")),
        "{:?}",
        kept.notes
    );
    let plan = staged_dropping(&fixture, true).unwrap();
    assert_eq!(plan.removals.len(), 1);
    let target = fixture.claude_dir().join("settings.yolo.json");
    assert_eq!(
        plan.steps[0],
        Step::Migrate {
            from: anchor.clone(),
            to: target.clone(),
        }
    );
    assert_eq!(
        write_step(&plan),
        (target, read("absent", "expected_merged_yolo.json"))
    );
    assert_eq!(
        plan.steps[2],
        Step::Symlink {
            link: anchor,
            target: PathBuf::from("settings.yolo.json"),
        }
    );
}

#[test]
fn a_regular_settings_json_beside_an_existing_target_is_refused() {
    let fixture = Fixture::case("absent");
    fixture.put("settings.json", r#"{"env": {"KEY": "sk-do-not-print"}}"#);
    fixture.put("settings.full.json", "{}");
    let err = staged(&fixture, false).unwrap_err();
    assert_eq!(err.exit_code(), 1);
    let message = err.to_string();
    assert!(message.contains(&*fixture.claude_dir().join("settings.json").to_string_lossy()));
    assert!(
        message.contains(
            &*fixture
                .claude_dir()
                .join("settings.full.json")
                .to_string_lossy()
        )
    );
    assert!(!message.contains("sk-do-not-print"));
    // In yolo mode the yolo target does not exist yet: that is a migration.
    assert!(staged(&fixture, true).is_ok());
}

/// A link to the user's own file (a dotfiles repository) is what Claude
/// Code loads: its content is migrated into the target, the link
/// repointed, and the file itself left alone.
#[test]
fn an_anchor_linking_to_a_foreign_file_is_migrated_and_repointed() {
    let fixture = Fixture::case("absent");
    let other = fixture.put("other.json", r#"{"model": "other"}"#);
    let anchor = fixture.claude_dir().join("settings.json");
    std::os::unix::fs::symlink(&other, &anchor).unwrap();
    let plan = staged(&fixture, false).unwrap();
    let target = fixture.claude_dir().join("settings.full.json");
    let real = std::fs::canonicalize(&other).unwrap();
    assert_eq!(
        plan.steps[0],
        Step::Migrate {
            from: real.clone(),
            to: target.clone()
        }
    );
    let (_, content) = write_step(&plan);
    let doc: Value = serde_json::from_str(&content).unwrap();
    assert_eq!(doc["model"], "other");
    assert_eq!(
        plan.steps.last(),
        Some(&Step::Symlink {
            link: anchor.clone(),
            target: PathBuf::from("settings.full.json"),
        })
    );
    assert_eq!(plan.notes.len(), 1);
    assert!(
        plan.notes[0].contains(&*real.to_string_lossy()),
        "{:?}",
        plan.notes
    );
    // With the target there too, the linked file is adopted while the
    // target holds nothing of the user's it lacks.
    fixture.put("settings.full.json", r#"{"model": "other"}"#);
    let plan = staged(&fixture, false).unwrap();
    assert!(matches!(plan.steps[0], Step::Migrate { .. }));
    // Else the link is named, with what adopting it would lose.
    fixture.put("settings.full.json", r#"{"model": "mine"}"#);
    let err = staged(&fixture, false).unwrap_err().to_string();
    assert!(
        err.starts_with(&format!(
            "{}: is a symlink to {}",
            anchor.display(),
            real.display()
        )),
        "{err}"
    );
    assert!(
        err.contains("the linked file does not hold alike: model."),
        "{err}"
    );
}

/// A link to twsrt's own other mode, or a dangling one, is repointed; the
/// new target is the generated document, plus the denies twsrt did not
/// write into the other mode's file (a deny holds in both modes).
#[test]
fn an_anchor_linking_to_the_other_mode_or_nowhere_is_repointed() {
    let fixture = Fixture::case("absent");
    let anchor = fixture.claude_dir().join("settings.json");
    std::fs::create_dir_all(fixture.claude_dir()).unwrap();
    for linked in ["settings.yolo.json", "gone.json"] {
        let _ = std::fs::remove_file(&anchor);
        if linked == "settings.yolo.json" {
            fixture.put(linked, r#"{"permissions": {"deny": ["Bash(x)"]}}"#);
        }
        std::os::unix::fs::symlink(linked, &anchor).unwrap();
        let plan = staged(&fixture, false).unwrap();
        let written: Value = serde_json::from_str(&write_step(&plan).1).unwrap();
        let mut expected: Value = serde_json::from_str(&preview(&fixture, false)).unwrap();
        if linked == "settings.yolo.json" {
            let deny = expected["permissions"]["deny"].as_array_mut().unwrap();
            deny.push("Bash(x)".into());
            assert_eq!(plan.notes.len(), 1, "{:?}", plan.notes);
        } else {
            assert!(plan.notes.is_empty());
        }
        assert_eq!(written, expected, "{linked}");
        assert!(plan.removals.is_empty());
        assert!(!plan.steps.iter().any(|s| matches!(s, Step::Migrate { .. })));
    }
}

#[test]
fn a_yolo_target_in_another_directory_is_linked_by_its_full_path() {
    let fixture = Fixture::new(
        "{}",
        "{}",
        None,
        "claude_settings_yolo = \"elsewhere/y.json\"",
    );
    let plan = staged(&fixture, true).unwrap();
    let target = fixture.dir.path().join("elsewhere/y.json");
    assert_eq!(write_step(&plan).0, target);
    assert_eq!(
        plan.steps.last(),
        Some(&Step::Symlink {
            link: fixture.claude_dir().join("settings.json"),
            target,
        })
    );
}

#[test]
fn a_target_that_is_the_anchor_is_merged_in_place_without_a_link() {
    let fixture = Fixture::new(
        "{}",
        "{}",
        None,
        "claude_settings_yolo = \"claude/settings.json\"",
    );
    let anchor = fixture.put("settings.json", r#"{"model": "m"}"#);
    let plan = staged(&fixture, true).unwrap();
    assert_eq!(plan.steps.len(), 1);
    let (path, content) = write_step(&plan);
    assert_eq!(path, anchor);
    assert!(content.starts_with("{\n  \"model\": \"m\",\n  \"permissions\""));
}

#[test]
fn unreadable_existing_files_are_errors_that_name_the_file_only() {
    let bad = [
        r#"{"env": {"KEY": "sk-do-not-print"},}"#,
        r#"["sk-do-not-print"]"#,
        r#"{"env": {"KEY": "sk-do-not-print"}, "permissions": ["x"]}"#,
        r#"{"env": {"KEY": "sk-do-not-print"}, "permissions": {"allow": "Read"}}"#,
        r#"{"env": {"KEY": "sk-do-not-print"}, "sandbox": 3}"#,
        r#"{"env": {"KEY": "sk-do-not-print"}, "sandbox": "sk-do-not-print"}"#,
        r#"{"env": {"KEY": "sk-do-not-print"}, "permissions": "sk-do-not-print"}"#,
        r#"[{"permissions": {}}]"#,
        r#"{"env": {"KEY": "sk-do-not-print"}, "sandbox": {"network": []}}"#,
        "",
    ];
    for text in bad {
        let fixture = Fixture::case("absent");
        let path = fixture.put("settings.full.json", text);
        let err = staged(&fixture, false).unwrap_err();
        let message = err.to_string();
        assert_eq!(err.exit_code(), 1, "{message}");
        assert!(message.starts_with(&*path.to_string_lossy()), "{message}");
        assert!(!message.contains("sk-do-not-print"), "{message}");
    }
}

#[test]
fn deny_and_ask_of_any_type_are_replaced_and_null_sections_filled() {
    let fixture = Fixture::new("{}", r#"{"ask": ["a"]}"#, None, "");
    fixture.put(
        "settings.full.json",
        r#"{"permissions": {"deny": 5, "ask": "x", "allow": null}, "sandbox": null}"#,
    );
    let (_, content) = write_step(&staged(&fixture, false).unwrap());
    let doc: Value = serde_json::from_str(&content).unwrap();
    assert_eq!(doc["permissions"]["deny"], serde_json::json!([]));
    assert_eq!(
        doc["permissions"]["ask"],
        serde_json::json!(["Bash(a)", "Bash(a *)"])
    );
    assert_eq!(doc["permissions"]["allow"], serde_json::json!([]));
    assert_eq!(doc["sandbox"]["enabled"], Value::Bool(false));
}

#[test]
fn an_override_that_is_not_a_table_cannot_be_merged() {
    let fixture = Fixture::new(
        "{}",
        "{}",
        Some("[sandbox_overrides.full]\nnetwork = 7\n"),
        "",
    );
    assert!(staged(&fixture, false).is_ok());
    let path = fixture.put(
        "settings.full.json",
        r#"{"sandbox": {"network": {"a": 1}}}"#,
    );
    let message = staged(&fixture, false).unwrap_err().to_string();
    assert!(message.starts_with(&*path.to_string_lossy()), "{message}");
}

/// Every `Edit(...)` allow is twsrt's: the merge drops the file's own and
/// writes the generated ones after the allows it keeps (bare `Edit`,
/// other tools, non-strings).
#[test]
fn foreign_edit_allows_are_replaced_and_other_allows_kept() {
    let fixture = Fixture::new(
        r#"{"filesystem": {"allowWrite": ["~/dev"]}, "network": {"allowedDomains": ["a.com"]}}"#,
        "{}",
        None,
        "",
    );
    fixture.put(
        "settings.full.json",
        r#"{"permissions": {"allow": ["Edit(~/old)", "Edit", "Read", "Edit(~/dev)",
            "WebFetch(domain:old.com)", 5, "mcp__x"]}}"#,
    );
    let (_, content) = write_step(&staged(&fixture, false).unwrap());
    let doc: Value = serde_json::from_str(&content).unwrap();
    assert_eq!(
        doc["permissions"]["allow"],
        serde_json::json!([
            "Edit",
            "Read",
            5,
            "mcp__x",
            "Edit(~/dev)",
            "Edit(~/dev/**)",
            "WebFetch(domain:a.com)"
        ])
    );
}

/// The managed path lists an older twsrt (or a hand edit) left in the file
/// are emptied; other filesystem keys stay, but an `allowRead` the policy
/// does not have is removed (twsrt owns that list: a stale entry widens).
#[test]
fn path_lists_in_the_file_are_emptied_and_other_filesystem_keys_kept() {
    let fixture = Fixture::new(
        r#"{"filesystem": {"allowWrite": ["."], "denyRead": ["~/.ssh"]}}"#,
        "{}",
        None,
        "",
    );
    fixture.put(
        "settings.full.json",
        r#"{"sandbox": {"filesystem": {"allowWrite": ["."], "allowRead": ["/r"], "denyRead": ["~/.ssh"], "allowManagedReadPathsOnly": false}}}"#,
    );
    let (_, content) = write_step(&staged(&fixture, false).unwrap());
    let doc: Value = serde_json::from_str(&content).unwrap();
    assert_eq!(
        doc["sandbox"]["filesystem"],
        serde_json::json!({"allowWrite": [], "denyRead": [], "allowManagedReadPathsOnly": false, "denyWrite": []})
    );
}

/// The adoption check reads the generated lists as what the merged file
/// holds: the merge must replace each guarded list with the generated one.
#[test]
fn the_merge_writes_every_guarded_list_as_generated() {
    use crate::agent::claude::adoption::{GUARDED, list};
    for case in ["policy", "absent"] {
        let existing = read_opt(case, "existing.json").unwrap();
        for yolo in [false, true] {
            let fixture = Fixture::case(case);
            let doc: serde_json::Map<String, Value> = serde_json::from_str(&existing).unwrap();
            let generated = generate(&fixture.ctx(yolo), &fixture.home());
            let merged =
                crate::agent::claude::merge::merge(doc, &generated, std::path::Path::new("s.json"))
                    .unwrap();
            for section in GUARDED {
                assert_eq!(
                    list(&merged, section),
                    list(&generated, section),
                    "{case} {section}"
                );
            }
        }
    }
}

/// What `merge::leaves_unchanged` promises, which lets `generate -w` and
/// `diff` skip parsing a file that holds exactly what a new target gets:
/// merging the generated settings into that file gives it back byte for
/// byte, and `diff` finds no difference in it. Every recorded case, both
/// modes, with and without twsrt's hook entry.
#[test]
fn a_file_holding_the_generated_settings_merges_into_itself() {
    use crate::agent::claude::{diff, merge};
    for case in super::CASES {
        for hook in ["", "claude_hook = true", "claude_hook = \"sandbox\""] {
            let overrides = read_opt(case, "overrides.toml");
            let fixture = Fixture::new(
                &read(case, "srt.json"),
                &read(case, "bash.json"),
                overrides.as_deref(),
                hook,
            );
            for yolo in [false, true] {
                let ctx = fixture.ctx(yolo);
                let overrides = ctx.config.overrides(yolo);
                let mut generated = generate(&ctx, &fixture.home());
                // The test binary is not named `twsrt`: its hook entry is not
                // twsrt's, and the merge adds it again.
                // The "overrides" case makes `sandbox.network` a number in
                // full mode: the merge refuses it.
                let network_ok = overrides.get("network").is_none_or(Value::is_object);
                assert_eq!(
                    merge::leaves_unchanged(overrides, generated.get("hooks")),
                    hook.is_empty() && network_ok,
                    "{case} {hook:?} yolo={yolo}"
                );
                if let Some(command) = generated.pointer_mut_command() {
                    *command = Value::from("/usr/bin/twsrt -c /c.toml hook claude");
                }
                let text = to_pretty(&Value::Object(generated.clone()));
                let doc: serde_json::Map<String, Value> = serde_json::from_str(&text).unwrap();
                let merged = merge::merge(doc.clone(), &generated, std::path::Path::new("s.json"));
                if !network_ok {
                    assert!(merged.is_err(), "{case} yolo={yolo}");
                    continue;
                }
                assert!(merge::leaves_unchanged(overrides, generated.get("hooks")));
                let merged = to_pretty(&Value::Object(merged.unwrap()));
                assert_eq!(merged, text, "{case} {hook:?} yolo={yolo}");
                assert_eq!(
                    diff::entries(&generated, &doc),
                    diff::Entries::default(),
                    "{case} {hook:?} yolo={yolo}"
                );
            }
        }
    }
}

/// The file that holds what a new target gets is written back as it is
/// (and not parsed); one more byte, a foreign key, and it is merged: the
/// key stays, with the file's duplicate key resolved as Python does.
#[test]
fn only_a_file_holding_exactly_the_generated_settings_skips_the_merge() {
    let fixture = Fixture::case("policy");
    let text = preview(&fixture, false);
    let path = fixture.put("settings.full.json", &format!("{text}\n"));
    assert_eq!(
        write_step(&staged(&fixture, false).unwrap()),
        (path.clone(), format!("{text}\n"))
    );
    let foreign = format!("{{\"model\": \"a\", \"model\": \"b\",{}\n", &text[1..]);
    fixture.put("settings.full.json", &foreign);
    let (_, content) = write_step(&staged(&fixture, false).unwrap());
    assert!(
        content.starts_with("{\n  \"model\": \"b\",\n  \"permissions\": {"),
        "{content}"
    );
    assert_eq!(
        content.replacen("  \"model\": \"b\",\n", "", 1),
        format!("{text}\n")
    );
}

/// An override that makes `sandbox.network` a value is refused by the
/// merge; a file that already holds the generated settings (a new target
/// gets them unmerged) does not get past that refusal.
#[test]
fn a_network_override_the_merge_refuses_is_refused_over_the_generated_file() {
    let fixture = Fixture::new(
        &read("policy", "srt.json"),
        &read("policy", "bash.json"),
        Some("[sandbox_overrides.full]\nnetwork = \"none\"\n"),
        "",
    );
    let text = preview(&fixture, false);
    assert!(text.contains("\"network\": \"none\""), "{text}");
    fixture.put("settings.full.json", &format!("{text}\n"));
    let err = staged(&fixture, false).unwrap_err().to_string();
    assert!(err.contains("cannot merge sandbox.network"), "{err}");
}

/// The command of the first hook of twsrt's PreToolUse entry.
trait HookCommand {
    fn pointer_mut_command(&mut self) -> Option<&mut Value>;
}

impl HookCommand for serde_json::Map<String, Value> {
    fn pointer_mut_command(&mut self) -> Option<&mut Value> {
        self.get_mut("hooks")?
            .pointer_mut("/PreToolUse/0/hooks/0/command")
    }
}
