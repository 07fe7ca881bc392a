//! `diff` directions: the stderr count of widening differences, `--json`
//! and `--fail-on`. The text report on stdout is pinned by `diff_report`.

use serde_json::{Value, json};

use crate::support::*;

const SRT_OUT: &str = ".srt-settings.json";

/// The base policy with Copilot written by `generate -w`.
fn written() -> Test {
    Test::with_policy()
        .config_append(COPILOT_ONLY)
        .args(&["generate", "-w"])
        .any_stderr()
        .run()
        .then()
}

fn edit(t: &Test, rel: &str, from: &str, to: &str) {
    let path = t.home().join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{from:?} not in {text}");
    std::fs::write(path, text.replace(from, to)).unwrap();
}

fn json(out: &Output) -> Value {
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout))
}

/// The object of target `name` in a `--json` document.
fn target<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["targets"]
        .as_array()
        .and_then(|ts| ts.iter().find(|t| t["name"] == name))
        .unwrap_or_else(|| panic!("no {name} in {doc}"))
}

#[test]
fn json_lists_every_target_with_its_status_and_directed_differences() {
    let t = written();
    edit(&t, COPILOT, "--deny-tool 'shell(rm)' \\\n", "");
    edit(&t, SRT_OUT, "\"~/.ssh\"", "\"~/.sshx\"");
    let out = t
        .args(&["diff", "--json"])
        .status(1)
        .any_stdout()
        .any_stderr()
        .unchanged()
        .run();
    let doc = json(&out);
    let names: Vec<&str> = doc["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["srt", "bash", "copilot"]);
    let srt = target(&doc, "srt");
    assert_eq!(srt["status"], "drift");
    assert_eq!(srt["path"], "{HOME}/.srt-settings.json");
    assert!(
        srt["differences"]
            .as_array()
            .unwrap()
            .contains(&json!({"section": "filesystem.denyRead", "entry": "~/.ssh",
                "side": "missing", "direction": "widening"})),
        "{srt}"
    );
    assert_eq!(target(&doc, "bash")["status"], "no drift");
    assert_eq!(target(&doc, "bash")["differences"], json!([]));
    assert_eq!(
        target(&doc, "copilot")["differences"],
        json!([{"section": "--deny-tool", "entry": "'shell(rm)'", "side": "missing",
            "direction": "widening"}])
    );
}

#[test]
fn a_missing_target_is_listed_as_missing_and_exits_2() {
    let t = written();
    std::fs::remove_file(t.home().join(COPILOT)).unwrap();
    let out = t
        .args(&["diff", "--json"])
        .status(2)
        .any_stdout()
        .stderr_contains("copilot target file not found")
        .any_stderr()
        .unchanged()
        .run();
    let copilot = target(&json(&out), "copilot").clone();
    assert_eq!(copilot["status"], "missing");
    assert_eq!(copilot["path"], "{HOME}/flags/copilot.txt");
}

#[test]
fn each_drifted_target_says_on_stderr_how_many_differences_widen() {
    let t = written();
    edit(&t, COPILOT, "--deny-tool 'shell(rm)' \\\n", "");
    edit(&t, COPILOT, "--allow-url", "--deny-url 'x' \\\n--allow-url");
    // srt ignores a key it does not know: a misspelled list enforces nothing.
    edit(
        &t,
        SRT_OUT,
        "\"denyRead\"",
        "\"denyread\": [], \"denyRead\"",
    );
    t.args(&["diff"])
        .status(1)
        .any_stdout()
        .stderr_contains("srt canonical: 1 of 1 differences widen")
        .stderr_contains("copilot: 1 of 2 differences widen")
        .lacks("bash canonical: 0")
        .any_stderr()
        .unchanged()
        .run();
}

#[test]
fn fail_on_widening_passes_drift_that_only_narrows() {
    let t = written();
    edit(&t, COPILOT, "--allow-url", "--deny-url 'x' \\\n--allow-url");
    let t = t
        .args(&["diff"])
        .status(1)
        .any_stdout()
        .any_stderr()
        .unchanged()
        .run()
        .then();
    t.args(&["diff", "--fail-on", "widening"])
        .status(0)
        .stdout_contains("copilot: 0 missing, 1 extra")
        .stderr_contains("copilot: 0 of 1 differences widen")
        .stderr_contains("narrows")
        .any_stderr()
        .unchanged()
        .run();
}

#[test]
fn fail_on_widening_fails_when_something_widens() {
    let t = written();
    edit(
        &t,
        COPILOT,
        "--allow-url",
        "--allow-url 'x' \\\n--allow-url",
    );
    t.args(&["diff", "--fail-on", "widening"])
        .status(1)
        .any_stdout()
        .stderr_contains("copilot: 1 of 1 differences widen")
        .lacks("narrows")
        .any_stderr()
        .unchanged()
        .run();
}

#[test]
fn the_kill_switch_turned_off_on_disk_widens_while_every_list_matches() {
    let t = Test::with_policy()
        .file(
            SRT_FRAGMENT,
            BASE_SRT.replacen('{', "{\"enabled\": true,", 1),
        )
        .args(&["generate", "-w"])
        .any_stderr()
        .run()
        .then();
    edit(&t, SRT_OUT, "\"enabled\": true", "\"enabled\": false");
    let out = t
        .args(&["diff", "--json", "--fail-on", "widening"])
        .status(1)
        .any_stdout()
        .any_stderr()
        .unchanged()
        .run();
    let srt = target(&json(&out), "srt").clone();
    assert_eq!(
        srt["differences"],
        json!([
            {"section": "enabled", "entry": "true", "side": "missing", "direction": "widening"},
            {"section": "enabled", "entry": "false", "side": "extra", "direction": "widening"}
        ])
    );
}

#[test]
fn an_unknown_fail_on_value_is_a_usage_error() {
    written()
        .args(&["diff", "--fail-on", "sometimes"])
        .status(2)
        .stderr_contains("sometimes")
        .any_stderr()
        .unchanged()
        .run();
}
