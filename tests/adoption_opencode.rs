//! OpenCode adoption: right after `generate -w`, `diff --fail-on widening`
//! passes for a user's own permission entries. A user's bash allow that the
//! policy grants too (OpenCode 1.18.33 loads the entries as written, in
//! order: `opencode debug config`) is not widening; one the policy does not
//! grant, or one a generated deny or ask could match, still is.

use crate::support::*;

const OPENCODE_ONLY: &str = "\n[targets]\nopencode_config = \"~/.config/opencode/opencode.json\"\n";
const OPENCODE: &str = ".config/opencode/opencode.json";

fn user_file(bash: &str) -> String {
    format!(
        "{{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"permission\": {{\n    \
         \"bash\": {{{bash}, \"*\": \"ask\"}},\n    \"edit\": \"ask\"\n  }}\n}}\n"
    )
}

fn adopted(bash_policy: &str, user_bash: &str) -> Output {
    Test::with_policy()
        .file(BASH_FRAGMENT, bash_policy)
        .config_append(OPENCODE_ONLY)
        .file(OPENCODE, user_file(user_bash))
        .args(&["generate", "-w", "opencode"])
        .any_stderr()
        .run()
}

#[test]
fn a_user_allow_the_policy_grants_too_is_not_widening() {
    let policy = r#"{"allow": ["git status"], "ask": ["git push"], "deny": ["rm -rf"]}"#;
    for user in [
        r#""git status": "allow""#,
        r#""git status *": "allow""#,
        r#""git status --short": "allow""#,
    ] {
        let out = adopted(policy, user);
        out.then()
            .args(&["diff", "--fail-on", "widening", "opencode"])
            .stdout_contains("permission.bash")
            .stderr_contains("Info: opencode: 0 of 4 differences widen")
            .any_stdout()
            .any_stderr()
            .run();
    }
}

#[test]
fn a_user_allow_the_policy_does_not_grant_still_widens() {
    let policy = r#"{"allow": ["git"], "ask": ["git push"], "deny": ["rm -rf"]}"#;
    for user in [
        // Not granted at all.
        r#""curl *": "allow""#,
        // A wildcard inside: more than the rule names.
        r#""git*": "allow""#,
        // Granted, but a generated ask matches it.
        r#""git push --force": "allow""#,
    ] {
        let out = adopted(policy, user);
        out.then()
            .args(&["diff", "--fail-on", "widening", "opencode"])
            .status(1)
            .stderr_contains("Info: opencode: 1 of 4 differences widen")
            .any_stdout()
            .any_stderr()
            .run();
    }
}
