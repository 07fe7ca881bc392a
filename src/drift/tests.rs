use serde_json::{Value, json};

use super::canonical::{BASH_SCHEMA, SRT_SCHEMA, compare};
use super::*;

use Direction::{Narrowing, Widening};
use Side::{Extra, Missing};

/// (section, entry, side, direction) of each difference, in order; a
/// changed value's entry reads `DISK instead of POLICY`.
fn found(policy: Value, disk: Value) -> Vec<(String, String, Side, Direction)> {
    compare(&policy, &disk, SRT_SCHEMA)
        .into_iter()
        .map(|d| {
            let entry = match &d.policy {
                Some(p) => format!("{} instead of {p}", d.entry),
                None => d.entry,
            };
            (d.section, entry, d.side, d.direction)
        })
        .collect()
}

fn one(
    section: &str,
    entry: &str,
    side: Side,
    direction: Direction,
) -> (String, String, Side, Direction) {
    (section.into(), entry.into(), side, direction)
}

#[test]
fn a_deny_entry_missing_on_disk_widens_and_an_extra_one_narrows() {
    for list in ["denyRead", "denyWrite"] {
        let policy = json!({"filesystem": {list: ["~/.aws"]}});
        let disk = json!({"filesystem": {list: ["~/.kube"]}});
        let section = format!("filesystem.{list}");
        assert_eq!(
            found(policy, disk),
            [
                one(&section, "~/.aws", Missing, Widening),
                one(&section, "~/.kube", Extra, Narrowing)
            ]
        );
    }
    let policy = json!({"network": {"deniedDomains": ["evil.com"]}});
    assert_eq!(
        found(policy, json!({"network": {}})),
        [one("network.deniedDomains", "evil.com", Missing, Widening)]
    );
}

#[test]
fn an_allow_entry_extra_on_disk_widens_and_a_missing_one_narrows() {
    for (parent, list) in [
        ("filesystem", "allowWrite"),
        ("filesystem", "allowRead"),
        ("network", "allowedDomains"),
        ("network", "allowUnixSockets"),
    ] {
        let policy = json!({parent: {list: ["a"]}});
        let disk = json!({parent: {list: ["b"]}});
        let section = format!("{parent}.{list}");
        assert_eq!(
            found(policy, disk),
            [
                one(&section, "a", Missing, Narrowing),
                one(&section, "b", Extra, Widening)
            ]
        );
    }
}

#[test]
fn the_kill_switch_is_judged_on_its_own_and_asymmetrically() {
    // On in the policy, off or absent on disk: every list is bypassed.
    assert_eq!(
        found(json!({"enabled": true}), json!({"enabled": false})),
        [one("enabled", "false instead of true", Extra, Widening)]
    );
    assert_eq!(
        found(json!({"enabled": true}), json!({})),
        [one("enabled", "true", Missing, Widening)]
    );
    // Turning enforcement on where the policy leaves it off narrows.
    assert_eq!(
        found(json!({"enabled": false}), json!({"enabled": true})),
        [one("enabled", "true instead of false", Extra, Narrowing)]
    );
    assert_eq!(
        found(json!({}), json!({"enabled": true})),
        [one("enabled", "true", Extra, Narrowing)]
    );
}

#[test]
fn looseners_turned_on_widen_and_turned_off_narrow() {
    for (parent, key) in [
        ("network", "allowLocalBinding"),
        ("network", "allowAllUnixSockets"),
        ("", "enableWeakerNestedSandbox"),
        ("", "enableWeakerNetworkIsolation"),
    ] {
        let nest = |v: Value| {
            if parent.is_empty() {
                json!({key: v})
            } else {
                json!({parent: {key: v}})
            }
        };
        let section = if parent.is_empty() {
            key.to_string()
        } else {
            format!("{parent}.{key}")
        };
        assert_eq!(
            found(nest(json!(false)), nest(json!(true))),
            [one(&section, "true instead of false", Extra, Widening)],
            "{key}"
        );
        assert_eq!(
            found(nest(json!(true)), nest(json!(false))),
            [one(&section, "false instead of true", Extra, Narrowing)],
            "{key}"
        );
    }
}

#[test]
fn keys_srt_does_not_know_widen_at_every_level() {
    let policy = json!({"filesystem": {"denyRead": []}});
    let disk = json!({"filesystem": {"denyRead": [], "denyread": ["~/.aws"]}, "enabeld": true,
        "network": {"allowedDomain": ["x"]}});
    assert_eq!(
        found(policy, disk),
        [
            one("filesystem.denyread", "~/.aws", Extra, Widening),
            one("enabeld", "true", Extra, Widening),
            one("network.allowedDomain", "x", Extra, Widening),
        ]
    );
    // Known keys the policy does not set are judged by their meaning.
    assert_eq!(
        found(json!({}), json!({"filesystem": {"denyWrite": ["/x"]}})),
        [one("filesystem.denyWrite", "/x", Extra, Narrowing)]
    );
}

#[test]
fn bash_lists_ask_and_deny_restrict_allow_grants() {
    let policy = json!({"allow": ["ls"], "ask": ["git push"], "deny": ["rm"]});
    let disk = json!({"allow": ["ls", "curl"], "ask": [], "deny": [], "allw": ["x"]});
    let got: Vec<_> = compare(&policy, &disk, BASH_SCHEMA)
        .into_iter()
        .map(|d| (d.section, d.side, d.direction))
        .collect();
    assert_eq!(
        got,
        [
            ("allow".to_string(), Extra, Widening),
            ("ask".to_string(), Missing, Widening),
            ("deny".to_string(), Missing, Widening),
            ("allw".to_string(), Extra, Widening),
        ]
    );
}

#[test]
fn the_same_entries_in_another_order_narrow() {
    assert_eq!(
        found(
            json!({"filesystem": {"denyRead": ["a", "b"]}}),
            json!({"filesystem": {"denyRead": ["b", "a"]}})
        ),
        [one("filesystem.denyRead", "(order)", Extra, Narrowing)]
    );
}

#[test]
fn values_the_model_does_not_know_fail_closed() {
    assert_eq!(
        found(
            json!({"network": {"httpProxyPort": 8080}}),
            json!({"network": {"httpProxyPort": 9090}})
        ),
        [one(
            "network.httpProxyPort",
            "9090 instead of 8080",
            Extra,
            Widening
        )]
    );
    assert_eq!(value_change("x", Some(&json!("a")), None), Widening);
    assert_eq!(entry_direction(None, Missing), Widening);
    assert_eq!(entry_direction(None, Extra), Widening);
    assert_eq!(list_meaning("mystery"), None);
}

#[test]
fn a_whole_list_replaced_is_judged_by_its_entries() {
    let list = |v: &[&str]| json!(v);
    let change = |key, a: &[&str], b: &[&str]| value_change(key, Some(&list(a)), Some(&list(b)));
    assert_eq!(change("denyRead", &["a"], &[]), Widening);
    assert_eq!(change("denyRead", &["a"], &["a", "b"]), Narrowing);
    assert_eq!(change("allowWrite", &["a"], &["a", "b"]), Widening);
    assert_eq!(change("allowWrite", &["a", "b"], &["a"]), Narrowing);
    assert_eq!(change("excludedCommands", &[], &["docker"]), Widening);
}

#[test]
fn flag_lists_read_by_their_name() {
    assert_eq!(list_meaning("--deny-tool"), Some(Meaning::Restricts));
    assert_eq!(list_meaning("--deny-url"), Some(Meaning::Restricts));
    assert_eq!(list_meaning("--allow-tool"), Some(Meaning::Grants));
    assert_eq!(list_meaning("--allow-url"), Some(Meaning::Grants));
    assert_eq!(list_meaning("--yolo"), None);
}

#[test]
fn a_value_of_another_shape_is_one_difference_and_the_policy_entries_are_named() {
    // A string where the list belongs: each policy entry is missing, the
    // string is one extra difference; never the whole list as one entry.
    assert_eq!(
        found(
            json!({"filesystem": {"denyRead": ["~/.aws", "~/.ssh"]}}),
            json!({"filesystem": {"denyRead": "~/.aws"}})
        ),
        [
            one("filesystem.denyRead", "~/.aws", Missing, Widening),
            one("filesystem.denyRead", "~/.ssh", Missing, Widening),
            one("filesystem.denyRead", "~/.aws", Extra, Widening),
        ]
    );
    // A document that is not an object: every key of the policy is named.
    assert_eq!(
        found(
            json!({"network": {"deniedDomains": ["x"]}, "enabled": true}),
            json!([])
        ),
        [
            one("network.deniedDomains", "x", Missing, Widening),
            one("enabled", "true", Missing, Widening),
            one("(document)", "[]", Extra, Widening),
        ]
    );
    // Nothing is ever an empty entry.
    let odd = compare(&json!({"a": {"b": []}}), &json!({"a": 3}), SRT_SCHEMA);
    assert!(odd.iter().all(|d| !d.entry.is_empty()), "{odd:?}");
}

#[test]
fn unpaired_pairs_equal_entries_once_each_and_keeps_each_sides_order() {
    let want = ["a", "b", "b", "c"];
    let have = ["b", "d", "a", "d"];
    let (missing, extra) = unpaired(&want, &have, |s| s.to_string());
    assert_eq!(missing, [&"b", &"c"]);
    assert_eq!(extra, [&"d", &"d"]);
    // Large lists in one pass: 200,000 entries each, all paired but one.
    let want: Vec<String> = (0..200_000).map(|i| format!("r{i}")).collect();
    let mut have = want.clone();
    have.reverse();
    have[0] = "other".into();
    let (missing, extra) = unpaired(&want, &have, Clone::clone);
    assert_eq!(missing, [&"r199999".to_string()]);
    assert_eq!(extra, [&"other".to_string()]);
}

#[test]
fn unpaired_as_sets_pairs_a_key_the_other_side_holds_at_all_and_keeps_every_copy_left() {
    let want = ["a", "b", "b", "c", "c"];
    let have = ["b", "d", "a", "d"];
    let (missing, extra) = unpaired_as(&want, &have, |s| s.to_string(), Pairing::Set);
    assert_eq!(missing, [&"c", &"c"]);
    assert_eq!(extra, [&"d", &"d"]);
    let (missing, extra) = unpaired_as(&["x", "x"], &["x"], |s| s.to_string(), Pairing::Set);
    assert!(missing.is_empty() && extra.is_empty());
}

#[test]
fn a_strict_allowlist_turned_off_on_disk_widens() {
    let on = json!(true);
    let off = json!(false);
    assert_eq!(value_change("strictAllowlist", Some(&on), None), Widening);
    assert_eq!(
        value_change("strictAllowlist", Some(&on), Some(&off)),
        Widening
    );
    assert_eq!(value_change("strictAllowlist", None, Some(&on)), Narrowing);
    // A credentials object changed in any way fails closed.
    assert_eq!(
        value_change(
            "credentials",
            Some(&json!({"envVars": []})),
            Some(&json!({}))
        ),
        Widening
    );
}
