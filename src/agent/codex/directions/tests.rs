use serde_json::{Value, json};

use super::*;

use Direction::{Narrowing, Widening};

/// The direction of the whole profile and the paths that changed.
fn judged(policy: Value, disk: Value) -> (Direction, Vec<String>) {
    let changes = profile(Some(&policy), Some(&disk));
    let direction = changes.iter().fold(Narrowing, |d, c| d.or(c.direction));
    (direction, changes.into_iter().map(|c| c.path).collect())
}

#[test]
fn a_filesystem_deny_turned_into_read_or_write_widens() {
    for to in ["read", "write"] {
        let (direction, paths) = judged(
            json!({"filesystem": {"~/.ssh": "deny", "/etc": "read"}}),
            json!({"filesystem": {"~/.ssh": to, "/etc": "read"}}),
        );
        assert_eq!(
            (direction, paths),
            (Widening, vec!["filesystem.\"~/.ssh\"".into()])
        );
    }
    // Tighter than the policy, or a deny dropped.
    let fs = |v: Value| json!({"filesystem": v});
    assert_eq!(
        judged(fs(json!({"/x": "write"})), fs(json!({"/x": "read"}))).0,
        Narrowing
    );
    assert_eq!(
        judged(fs(json!({"/x": "read"})), fs(json!({"/x": "deny"}))).0,
        Narrowing
    );
    assert_eq!(judged(fs(json!({"/x": "deny"})), fs(json!({}))).0, Widening);
    assert_eq!(
        judged(fs(json!({"/x": "read"})), fs(json!({}))).0,
        Narrowing
    );
    assert_eq!(
        judged(fs(json!({})), fs(json!({"/y": "write"}))).0,
        Widening
    );
    assert_eq!(
        judged(fs(json!({})), fs(json!({"/y": "deny"}))).0,
        Narrowing
    );
}

#[test]
fn a_domain_allow_added_widens_and_a_deny_added_narrows() {
    let domains = |v: Value| json!({"network": {"domains": v}});
    let policy = domains(json!({"pastebin.com": "deny"}));
    assert_eq!(
        judged(
            policy.clone(),
            domains(json!({"pastebin.com": "deny", "x.io": "allow"}))
        )
        .0,
        Widening
    );
    assert_eq!(
        judged(policy.clone(), domains(json!({"pastebin.com": "allow"}))).0,
        Widening
    );
    assert_eq!(judged(policy, domains(json!({}))).0, Widening);
    assert_eq!(
        judged(domains(json!({})), domains(json!({"x.io": "deny"}))).0,
        Narrowing
    );
}

#[test]
fn network_and_socket_switches_widen_when_turned_on() {
    let net = |k: &str, v: bool| json!({"network": {k: v}});
    for key in ["enabled", "dangerously_allow_all_unix_sockets"] {
        assert_eq!(judged(net(key, false), net(key, true)).0, Widening, "{key}");
        assert_eq!(
            judged(net(key, true), net(key, false)).0,
            Narrowing,
            "{key}"
        );
    }
    // A workspace root added writes more.
    assert_eq!(
        judged(
            json!({"workspace_roots": {}}),
            json!({"workspace_roots": {"/": true}})
        )
        .0,
        Widening
    );
}

#[test]
fn the_description_changes_nothing_and_unknown_values_fail_closed() {
    assert_eq!(
        judged(json!({"description": "a"}), json!({"description": "b"})).0,
        Narrowing
    );
    assert_eq!(
        judged(
            json!({"extends": ":workspace"}),
            json!({"extends": ":danger"})
        )
        .0,
        Widening
    );
    assert_eq!(
        judged(
            json!({"filesystem": {"/x": "deny"}}),
            json!({"filesystem": {"/x": 1}})
        )
        .0,
        Widening
    );
}

#[test]
fn owned_keys_default_permissions_elsewhere_and_looser_approvals_widen() {
    let s = |v: &str| json!(v);
    assert_eq!(
        owned_key("default_permissions", Some(&s("twsrt")), Some(&s("other"))),
        Widening
    );
    assert_eq!(
        owned_key("default_permissions", Some(&s("twsrt")), None),
        Widening
    );
    let approval = |to: &str| owned_key("approval_policy", Some(&s("on-request")), Some(&s(to)));
    assert_eq!(approval("never"), Widening);
    assert_eq!(approval("on-failure"), Widening);
    assert_eq!(approval("untrusted"), Narrowing);
    assert_eq!(approval("sometimes"), Widening);
    let shell =
        |from: bool, to: bool| owned_key("allow_login_shell", Some(&json!(from)), Some(&json!(to)));
    assert_eq!(shell(false, true), Widening);
    assert_eq!(shell(true, false), Narrowing);
    assert_eq!(
        owned_key("approvals_reviewer", Some(&s("user")), Some(&s("auto"))),
        Widening
    );
}

#[test]
fn a_rules_file_is_read_rule_by_rule_and_named_by_pattern() {
    let text = "# header\n\nprefix_rule(\n    pattern = [\"rm\", \"-rf\"],\n    \
                decision = \"forbidden\",\n)\nprefix_rule(\n    pattern = [\"dd\"],\n    \
                # note\n    decision = \"allow\",\n)\n";
    let found = rules(text);
    let names: Vec<&str> = found.iter().map(|r| r.name.as_str()).collect();
    // No blank line between two rules still makes two; a comment inside a
    // rule is not part of its text.
    assert_eq!(names, ["[\"rm\", \"-rf\"]", "[\"dd\"]"]);
    assert_eq!(
        found[1].text,
        "prefix_rule(\n    pattern = [\"dd\"],\n    decision = \"allow\",\n)"
    );
    // Text before the first rule is read as a rule of its own.
    let loose = rules("x = 1\nprefix_rule(\n  pattern = [\"y\"],\n)\n");
    let names: Vec<&str> = loose.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["x = 1", "[\"y\"]"]);
    // Only a rule that forbids or prompts narrows when it is extra.
    assert_eq!(extra_rule(&found[0]), Narrowing);
    assert_eq!(extra_rule(&found[1]), Widening);
    assert_eq!(extra_rule(&loose[0]), Widening);
    let prompt = rules("prefix_rule(\n  pattern = [\"x\"],\n  decision = \"prompt\",\n)\n");
    assert_eq!(extra_rule(&prompt[0]), Narrowing);
}
