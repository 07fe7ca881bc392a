//! Gemini CLI launch findings, one test per gap: extensions the policy
//! never saw.

use crate::agent::launch::fixture::gaps::*;

#[test]
fn gemini_extensions_the_user_may_have_disabled() {
    assert_eq!(
        summary(&["gemini", "-e", "ext-a"], false),
        one(Severity::Warning, "-e <value>"),
    );
    assert_eq!(
        summary(&["gemini", "--extensions=a,b"], false),
        one(Severity::Warning, "--extensions=<value>"),
    );
    // `none` switches every extension off.
    assert!(summary(&["gemini", "-e", "NONE"], false).is_empty());
}
