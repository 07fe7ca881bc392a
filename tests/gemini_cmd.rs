//! The Gemini CLI agent through the built binary: preview, `-w`, `diff`
//! (exit 0 clean, 1 drift, 2 missing, with directions), `--yolo`, and
//! `generate all` with every agent.

use serde_json::Value;

use crate::support::*;

const GEMINI_ONLY: &str = "\n[targets]\ngemini_policy = \"~/.gemini/policies/twsrt.toml\"\n";
const POLICY: &str = ".gemini/policies/twsrt.toml";
const POLICY_YOLO: &str = ".gemini/policies/twsrt.yolo.toml";
const NO_SANDBOX: &str =
    "Start it as `twsrt run --srt -- gemini` to put it inside Sandbox Runtime.";

fn gemini() -> Test {
    Test::with_policy().config_append(GEMINI_ONLY)
}

/// The base policy with Gemini written by `generate gemini -w`.
fn written() -> Test {
    gemini()
        .args(&["generate", "gemini", "-w"])
        .any_stderr()
        .run()
        .then()
}

#[test]
fn the_preview_prints_the_policy_file_and_writes_nothing() {
    let out = gemini()
        .args(&["generate", "gemini"])
        .any_stdout()
        .lacks(NO_SANDBOX)
        .stderr_contains("Would write agent target: {HOME}/.gemini/policies/twsrt.toml\n")
        .stderr_contains(PREVIEW_END)
        .unchanged()
        .run();
    let doc: toml_edit::DocumentMut = out.stdout.parse().unwrap();
    let rules = doc["rule"].as_array_of_tables().unwrap();
    let field = |key: &str| -> Vec<String> {
        rules
            .iter()
            .filter_map(|r| r.get(key).and_then(|v| v.as_str()).map(str::to_string))
            .collect()
    };
    // bash deny rm, ask git push; denyRead ~/.ssh on reads (2 rules) and
    // writes, the policy files write-denied; deniedDomains evil.com.
    assert_eq!(field("commandPrefix"), ["git push", "rm"]);
    assert_eq!(
        field("decision")
            .iter()
            .filter(|d| *d == "ask_user")
            .count(),
        1
    );
    let home = out.home().display().to_string();
    let patterns = field("argsPattern");
    assert!(
        patterns
            .iter()
            .any(|p| p.contains(&format!("\"{}/\\.ssh[/\"]", home.replace('.', "\\.")))),
        "{patterns:?}"
    );
    assert!(
        patterns
            .iter()
            .any(|p| p.contains("[eE][vV][iI][lL]\\.[cC][oO][mM]"))
    );
    assert!(out.stdout.ends_with("\"\n"), "one newline after the file");
}

#[test]
fn write_creates_the_file_the_preview_showed() {
    let preview = gemini()
        .args(&["generate", "gemini"])
        .any_stdout()
        .any_stderr()
        .run();
    let shown = preview.stdout.clone();
    let out = preview
        .then()
        .args(&["generate", "gemini", "-w"])
        .stderr_contains("Wrote: {HOME}/.gemini/policies/twsrt.toml\n")
        .stderr_contains("Info: Restart Gemini CLI to load the updated policy.\n")
        .lacks(NO_SANDBOX)
        .run();
    assert_eq!(out.read(POLICY), shown);
    // The same policy writes the same bytes.
    let again = out
        .then()
        .args(&["generate", "gemini", "-w"])
        .any_stderr()
        .run();
    assert_eq!(again.read(POLICY), shown);
}

#[test]
fn diff_exits_0_when_clean_1_on_drift_and_2_when_missing() {
    gemini()
        .args(&["diff", "gemini"])
        .status(2)
        .any_stdout()
        .stderr_contains(
            "Error: gemini target file not found: {HOME}/.gemini/policies/twsrt.toml; run `twsrt generate -w gemini` to write it\n",
        )
        .unchanged()
        .run();
    let t = written();
    let out = t
        .args(&["diff", "gemini"])
        .stdout("srt canonical: no drift\nbash canonical: no drift\ngemini: no drift\n")
        .stderr_contains("Warning: 1 allowedDomains entr(ies) have no Gemini CLI counterpart")
        .lacks(NO_SANDBOX)
        .unchanged()
        .run();
    let t = out.then();
    let path = t.home().join(POLICY);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace("commandPrefix = \"rm\"", "commandPrefix = \"rmx\""),
    )
    .unwrap();
    let out = t
        .args(&["diff", "gemini"])
        .status(1)
        .stdout_contains("gemini: 1 missing, 1 extra  {HOME}/.gemini/policies/twsrt.toml\n")
        .stdout_contains("\"commandPrefix\": \"rm\"")
        .stdout_contains("\"commandPrefix\": \"rmx\"")
        .stderr_contains("gemini: 1 of 2 differences widen")
        .unchanged()
        .run();
    // --json: the missing deny widens, the extra one narrows.
    let out = out
        .then()
        .args(&["diff", "gemini", "--json"])
        .status(1)
        .any_stdout()
        .any_stderr()
        .run();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let gemini = doc["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "gemini")
        .unwrap();
    assert_eq!(gemini["status"], "drift");
    let directions: Vec<(&str, &str)> = gemini["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["side"].as_str().unwrap(),
                d["direction"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        directions,
        [("missing", "widening"), ("extra", "narrowing")],
        "{gemini}"
    );
}

#[test]
fn yolo_writes_its_own_file_without_ask_rules() {
    let out = gemini()
        .args(&["generate", "gemini", "--yolo", "-w"])
        .stderr_contains("Wrote: {HOME}/.gemini/policies/twsrt.yolo.toml\n")
        .stderr_contains("Gemini CLI loads every .toml file in {HOME}/.gemini/policies")
        .lacks(NO_SANDBOX)
        .run();
    let yolo = out.read(POLICY_YOLO);
    assert!(
        !yolo.contains("ask_user") && yolo.contains("commandPrefix = \"rm\""),
        "{yolo}"
    );
    assert!(!out.path(POLICY).exists());
    out.then()
        .args(&["diff", "gemini", "--yolo"])
        .stdout("srt canonical: no drift\nbash canonical: no drift\ngemini: no drift\n")
        .any_stderr()
        .unchanged()
        .run();
}

#[test]
fn generate_all_writes_gemini_beside_every_other_agent() {
    let out = Test::with_policy()
        .config_append(&format!("{TARGETS}gemini_policy = \"~/{POLICY}\"\n"))
        .args(&["generate", "-w"])
        .stderr_contains("Wrote: {HOME}/.gemini/policies/twsrt.toml\n")
        .stderr_contains("Wrote: {HOME}/flags/copilot.txt\n")
        .stderr_contains("Wrote: {HOME}/.codex/config.toml\n")
        .stderr_contains("Wrote: {HOME}/.claude/settings.full.json\n")
        .run();
    assert!(out.read(POLICY).contains("[[rule]]"));
    out.then()
        .args(&["diff"])
        .stdout_contains("gemini: no drift\n")
        .any_stderr()
        .unchanged()
        .run();
}

#[test]
fn gemini_is_opt_in_and_its_yolo_key_needs_the_primary() {
    Test::with_policy()
        .args(&["generate", "gemini"])
        .stderr_contains(
            "Info: gemini skipped: [targets].gemini_policy is not set in config.toml\n",
        )
        .stderr_contains(PREVIEW_END)
        .lacks("[[rule]]")
        .unchanged()
        .run();
    Test::with_policy()
        .config_append("\n[targets]\ngemini_policy_yolo = \"~/y.toml\"\n")
        .args(&["generate", "gemini"])
        .status(1)
        .stderr_contains("targets.gemini_policy_yolo requires gemini_policy")
        .unchanged()
        .run();
    // Gemini would never read a file that does not end in .toml.
    Test::with_policy()
        .config_append("\n[targets]\ngemini_policy = \"~/.gemini/policies/twsrt\"\n")
        .args(&["generate", "gemini", "-w"])
        .status(1)
        .stderr(
            "Error: {HOME}/.config/twsrt/config.toml: targets.gemini_policy must end in .toml: \
             Gemini CLI loads only .toml files from its policy directory, so \
             {HOME}/.gemini/policies/twsrt would never be read\n",
        )
        .unchanged()
        .run();
}

/// Gemini's agent limits (no sandbox of its own, text matching) are
/// printed with -v, and `twsrt doctor` lists them with their codes.
#[test]
fn the_agent_limits_show_with_verbose_and_in_doctor() {
    let out = gemini()
        .args(&["generate", "gemini", "-v"])
        .any_stdout()
        .stderr_contains(NO_SANDBOX)
        .stderr_contains("Warning: Gemini CLI matches bash rules against the command's text")
        .unchanged()
        .run();
    out.then()
        .args(&["doctor"])
        .stdout_contains("gemini\n  warning  gemini-command-text ")
        .stdout_contains("  warning  gemini-no-sandbox ")
        .stdout_contains(NO_SANDBOX)
        .unchanged()
        .run();
}
