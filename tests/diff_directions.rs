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
    edit(&t, COPILOT, "--deny-tool 'shell(rm:*)' \\\n", "");
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
        json!([{"section": "--deny-tool", "entry": "'shell(rm:*)'", "side": "missing",
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
    edit(&t, COPILOT, "--deny-tool 'shell(rm:*)' \\\n", "");
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
        // One changed key is one difference; `policy` holds what the
        // policy has instead.
        json!([
            {"section": "enabled", "entry": "false", "side": "extra", "direction": "widening",
             "policy": "true"}
        ])
    );
}

/// The base policy with Codex and its rules written by `generate -w`.
fn codex_written() -> Test {
    Test::with_policy()
        .config_append(
            "\n[targets]\ncodex_config = \"~/.codex/config.toml\"\n\
             codex_rules = \"~/.codex/rules/twsrt.rules\"\n",
        )
        .args(&["generate", "-w"])
        .any_stderr()
        .run()
        .then()
}

const CODEX_CONFIG: &str = ".codex/config.toml";
const CODEX_RULES: &str = ".codex/rules/twsrt.rules";

#[test]
fn codex_drift_is_one_difference_per_value_and_per_rule() {
    let t = codex_written();
    // One deny dropped from the profile, one rule dropped from the rules.
    let config = std::fs::read_to_string(t.home().join(CODEX_CONFIG)).unwrap();
    let deny = config
        .lines()
        .find(|l| l.ends_with("= \"deny\"") && l.contains(".ssh"))
        .unwrap_or_else(|| panic!("no ~/.ssh deny in\n{config}"))
        .to_string();
    edit(&t, CODEX_CONFIG, &format!("{deny}\n"), "");
    let rules = std::fs::read_to_string(t.home().join(CODEX_RULES)).unwrap();
    let start = rules.find("prefix_rule(").unwrap();
    std::fs::write(t.home().join(CODEX_RULES), &rules[..start]).unwrap();
    let out = t
        .args(&["diff", "codex", "--json"])
        .status(1)
        .any_stdout()
        .any_stderr()
        .unchanged()
        .run();
    let key = deny.split(" = ").next().unwrap();
    let json_doc = json(&out);
    let t = out.then();
    assert_eq!(
        target(&json_doc, "codex")["differences"],
        json!([
            {"section": format!("permissions.twsrt.filesystem.{key}"), "entry": "deny",
             "side": "missing", "direction": "widening"},
            {"section": "rules", "entry": "[\"rm\"]", "side": "missing",
             "direction": "widening"}
        ])
    );
    // The text report keeps 3.3.3's lines; stderr names each change.
    t.args(&["diff", "codex"])
        .status(1)
        .stdout(
            "srt canonical: no drift\nbash canonical: no drift\n\
             codex: 2 missing, 2 extra  {HOME}/.codex/config.toml\n\
             \x20 + config:permissions.twsrt\n\
             \x20 + rules:{HOME}/.codex/rules/twsrt.rules\n\
             \x20 - config:permissions.twsrt\n\
             \x20 - rules:{HOME}/.codex/rules/twsrt.rules\n\
             \n\
             + missing from target   - in target, not in sources\n",
        )
        .stderr_contains(&format!(
            "Info: codex: permissions.twsrt.filesystem.{key} missing (the policy has deny) \
             (widening)\n\
             Info: codex: rules: [\"rm\"] missing (widening)\n\
             Info: codex: 2 of 2 differences widen\n"
        ))
        .any_stderr()
        .unchanged()
        .run();
}

#[test]
fn a_changed_codex_key_names_the_key_and_the_policy_value_not_the_one_on_disk() {
    let t = codex_written();
    edit(
        &t,
        CODEX_CONFIG,
        "approval_policy = \"on-request\"",
        "approval_policy = \"never\"",
    );
    let out = t
        .args(&["diff", "codex", "--json"])
        .status(1)
        .any_stdout()
        .any_stderr()
        .unchanged()
        .run();
    let json_doc = json(&out);
    let t = out.then();
    assert_eq!(
        target(&json_doc, "codex")["differences"],
        json!([{"section": "approval_policy", "entry": "never", "side": "extra",
                "direction": "widening", "policy": "on-request"}])
    );
    t.args(&["diff", "codex"])
        .status(1)
        .stdout_contains("  + config:approval_policy\n  - config:approval_policy\n")
        .stderr_contains(
            "Info: codex: approval_policy changed (the policy has on-request) (widening)\n\
             Info: codex: 1 of 1 differences widen\n",
        )
        .any_stderr()
        .unchanged()
        .run();
}

#[test]
fn srt_canonical_drift_names_each_entry_on_stderr_with_its_direction() {
    let t = written();
    edit(&t, SRT_OUT, "\"~/.ssh\"", "\"~/.sshx\"");
    edit(
        &t,
        SRT_OUT,
        "\"denyRead\"",
        "\"denyread\": [\"~/.gnupg\"], \"denyRead\"",
    );
    t.args(&["diff", "copilot"])
        .status(1)
        // stdout is 3.3.3's: the canonical line lists nothing.
        .stdout("srt canonical: drift\nbash canonical: no drift\ncopilot: no drift\n")
        .stderr_contains(
            "Info: srt canonical: filesystem.denyRead: ~/.ssh missing (widening)\n\
             Info: srt canonical: filesystem.denyWrite: ~/.ssh missing (widening)\n\
             Info: srt canonical: filesystem.denyRead: ~/.sshx extra (narrowing)\n\
             Info: srt canonical: filesystem.denyWrite: ~/.sshx extra (narrowing)\n\
             Info: srt canonical: filesystem.denyread: ~/.gnupg extra (widening)\n\
             Info: srt canonical: 3 of 5 differences widen\n",
        )
        .any_stderr()
        .unchanged()
        .run();
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
