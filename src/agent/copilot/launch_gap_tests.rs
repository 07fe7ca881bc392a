//! Copilot CLI launches that add code the policy never saw or run on their
//! own.

use crate::agent::launch::fixture::gaps::*;

#[test]
fn copilot_flags_that_add_code_or_run_on_their_own() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["copilot", "--additional-mcp-config", "@m.json"],
            "--additional-mcp-config <value>",
        ),
        (&["copilot", "--plugin-dir", "./p"], "--plugin-dir <value>"),
        (&["copilot", "--autopilot"], "--autopilot"),
        (&["copilot", "--mode", "autopilot"], "--mode autopilot"),
    ];
    for (line, flag) in cases {
        assert_eq!(
            summary(line, false),
            one(Severity::Warning, flag),
            "{line:?}"
        );
    }
    assert!(summary(&["copilot", "--mode", "plan"], false).is_empty());
}
