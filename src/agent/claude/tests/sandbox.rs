//! The `sandbox` section: the managed path lists are always empty, and what
//! the agent says about overrides that set them.

use serde_json::{Value, json};

use super::Fixture;
use crate::agent::claude::{Claude, generate};
use crate::agent::{Agent, Warnings};

const POLICY: &str = r#"{"filesystem": {"denyRead": ["~/.ssh"], "denyWrite": ["**/.env"],
    "allowWrite": [".", "/tmp"], "allowRead": ["/r"]},
    "network": {"allowedDomains": ["a.com"], "allowMachLookup": ["com.x"]}}"#;

/// Overrides that set every managed list (and one other key) in both modes.
const OVERRIDES: &str = r#"[sandbox_overrides.full]
enabled = false
[sandbox_overrides.full.filesystem]
allowWrite = ["/full"]
allowRead = ["/keep"]
[sandbox_overrides.yolo]
filesystem = { denyWrite = ["/w"], denyRead = ["/r"], allowWrite = ["/a"] }
"#;

fn filesystem(fixture: &Fixture, yolo: bool) -> Value {
    generate(&fixture.ctx(yolo), &fixture.home())["sandbox"]["filesystem"].clone()
}

#[test]
fn no_generated_filesystem_list_holds_a_path() {
    let plain = Fixture::new(POLICY, "{}", None, "");
    let overridden = Fixture::new(POLICY, "{}", Some(OVERRIDES), "");
    // The policy's allowRead is the one list passed through, first.
    for yolo in [false, true] {
        assert_eq!(
            filesystem(&plain, yolo),
            json!({"allowRead": ["/r"], "denyRead": [], "denyWrite": [], "allowWrite": []})
        );
    }
    // An override's own keys stay, in its order (its allowRead wins over
    // the policy's); the managed lists are emptied where it has them and
    // appended where it does not.
    let full = filesystem(&overridden, false);
    assert_eq!(
        full,
        json!({"allowWrite": [], "allowRead": ["/keep"], "denyRead": [], "denyWrite": []})
    );
    let keys: Vec<&String> = full.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["allowWrite", "allowRead", "denyRead", "denyWrite"]);
    // Without one of its own, the override gets the policy's allowRead
    // after its keys.
    let yolo = filesystem(&overridden, true);
    assert_eq!(
        yolo,
        json!({"denyWrite": [], "denyRead": [], "allowWrite": [], "allowRead": ["/r"]})
    );
    let keys: Vec<&String> = yolo.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["denyWrite", "denyRead", "allowWrite", "allowRead"]);
}

#[test]
fn filesystem_sits_after_network_and_mach_lookup_is_passed_through() {
    let fixture = Fixture::new(POLICY, "{}", None, "");
    let generated = generate(&fixture.ctx(false), &fixture.home());
    let keys: Vec<&String> = generated["sandbox"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["network", "filesystem", "enabled"]);
    assert_eq!(
        generated["sandbox"]["network"]["allowMachLookup"],
        json!(["com.x"])
    );
}

fn warnings_of(fixture: &Fixture, yolo: bool) -> Vec<String> {
    let mut warnings = Warnings::new();
    Claude.preview(&fixture.ctx(yolo), &mut warnings).unwrap();
    let mut staged = Warnings::new();
    let mut plan = crate::plan::Plan::default();
    Claude
        .stage(&fixture.ctx(yolo), &mut plan, &mut staged)
        .unwrap();
    assert_eq!(staged, warnings);
    // The policy's allowRead warning (SrtKeySkipped) is not about overrides.
    warnings.retain(|w| w.code != crate::diag::Code::SrtKeySkipped);
    assert!(
        warnings
            .iter()
            .all(|w| w.code == crate::agent::claude::codes::OVERRIDE_IGNORED)
    );
    crate::agent::messages(&warnings)
}

#[test]
fn an_override_of_a_managed_list_is_warned_about_by_its_key() {
    let fixture = Fixture::new(POLICY, "{}", Some(OVERRIDES), "");
    let full = warnings_of(&fixture, false);
    assert_eq!(full.len(), 1, "{full:?}");
    assert!(
        full[0].starts_with("sandbox_overrides.full.filesystem.allowWrite has no effect"),
        "{full:?}"
    );
    assert!(full[0].contains("srt fragments"), "{full:?}");
    let yolo = warnings_of(&fixture, true);
    let named: Vec<&str> = yolo.iter().map(|w| w.split(' ').next().unwrap()).collect();
    assert_eq!(
        named,
        [
            "sandbox_overrides.yolo.filesystem.denyRead",
            "sandbox_overrides.yolo.filesystem.denyWrite",
            "sandbox_overrides.yolo.filesystem.allowWrite",
        ]
    );
    // Keys Claude Code reads from the override as given raise nothing.
    let quiet = Fixture::new(
        POLICY,
        "{}",
        Some("[sandbox_overrides.full.filesystem]\nallowRead = [\"/x\"]\n"),
        "",
    );
    assert!(warnings_of(&quiet, false).is_empty());
}

#[test]
fn a_filesystem_override_that_is_not_a_table_is_an_error_naming_it() {
    for value in ["\"x\"", "[]", "1"] {
        let fixture = Fixture::new(
            POLICY,
            "{}",
            Some(&format!("[sandbox_overrides.yolo]\nfilesystem = {value}\n")),
            "",
        );
        let mut warnings = Warnings::new();
        let err = Claude
            .preview(&fixture.ctx(true), &mut warnings)
            .unwrap_err();
        assert_eq!(err.exit_code(), 1);
        let message = err.to_string();
        assert!(
            message.contains("sandbox_overrides.yolo.filesystem"),
            "{message}"
        );
        assert!(message.contains("config.toml"), "{message}");
        let mut plan = crate::plan::Plan::default();
        assert!(
            Claude
                .stage(&fixture.ctx(true), &mut plan, &mut warnings)
                .is_err()
        );
        assert!(Claude.diff(&fixture.ctx(true), &mut warnings).is_err());
        // The other mode does not use it.
        assert!(Claude.preview(&fixture.ctx(false), &mut warnings).is_ok());
    }
}
