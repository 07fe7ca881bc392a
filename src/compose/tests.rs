use super::*;
use crate::source::SourceKind;
use crate::test_rng::Rng;
use serde_json::json;

fn frag(name: &str, text: &str) -> ParsedFragment {
    ParsedFragment {
        path: PathBuf::from(format!("/f/{name}.jsonc")),
        value: serde_json::from_str(text).unwrap(),
    }
}

fn compose_texts(texts: &[&str]) -> Result<Value> {
    let frags: Vec<_> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| frag(&format!("f{i}"), t))
        .collect();
    compose("p", "srt", &frags)
}

#[test]
fn objects_merge_and_arrays_union_in_first_seen_order() {
    let v = compose_texts(&[
        r#"{"a": {"x": [1, "s"]}, "b": true}"#,
        r#"{"c": 2, "a": {"x": ["s", 3], "y": "z"}}"#,
    ])
    .unwrap();
    assert_eq!(
        v,
        json!({"a": {"x": [1, "s", 3], "y": "z"}, "b": true, "c": 2})
    );
    let keys: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, vec!["a", "b", "c"]);
}

#[test]
fn union_uses_python_equality() {
    // Python: 1 == 1.0 == True, and dict equality ignores key order.
    let v = compose_texts(&[
        r#"{"x": [1, {"a": 1, "b": 2}]}"#,
        r#"{"x": [1.0, true, "1", {"b": 2, "a": 1}, 2.5, 2.5]}"#,
    ])
    .unwrap();
    assert_eq!(
        crate::pyjson::to_pretty(&v["x"]).replace([' ', '\n'], ""),
        r#"[1,{"a":1,"b":2},"1",2.5]"#
    );
}

#[test]
fn a_fragment_own_duplicates_are_removed() {
    let v = compose_texts(&[r#"{"d": ["~/.ssh", "~/.ssh", "~/.aws"]}"#]).unwrap();
    assert_eq!(v, json!({"d": ["~/.ssh", "~/.aws"]}));
}

#[test]
fn equal_scalars_agree_including_float_spellings() {
    let v = compose_texts(&[r#"{"a": 1.0, "s": "x"}"#, r#"{"a": 1.00, "s": "x"}"#]).unwrap();
    assert_eq!(v["s"], json!("x"));
}

#[test]
fn unequal_scalars_name_pointer_and_both_fragments() {
    let msg = compose_texts(&[r#"{"y": {"a/b~c": 1}}"#, r#"{"y": {"a/b~c": 2}}"#])
        .unwrap_err()
        .to_string();
    for fact in ["/y/a~1b~0c", "/f/f0.jsonc", "/f/f1.jsonc", "'p'", "'srt'"] {
        assert!(msg.contains(fact), "{msg} lacks {fact}");
    }
}

#[test]
fn bool_int_and_float_are_three_types() {
    for (a, b) in [
        ("true", "1"),
        ("1", "1.0"),
        ("[1]", "{}"),
        ("\"1\"", "1"),
        ("null", "0"),
    ] {
        let err = compose_texts(&[&format!(r#"{{"k": {a}}}"#), &format!(r#"{{"k": {b}}}"#)]);
        let msg = err.unwrap_err().to_string();
        assert!(
            msg.contains("different types") && msg.contains("/k"),
            "{a} vs {b}: {msg}"
        );
    }
}

#[test]
fn the_pointer_names_the_fragment_that_first_set_the_value() {
    let msg = compose_texts(&[r#"{"a": 1}"#, r#"{"b": 1}"#, r#"{"b": 2}"#])
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("/f/f1.jsonc") && msg.contains("/f/f2.jsonc") && !msg.contains("f0"),
        "{msg}"
    );
}

#[test]
fn composition_is_linear_in_entries() {
    // 8 fragments x 8,000 entries with heavy overlap: must not be quadratic.
    let frags: Vec<_> = (0..8)
        .map(|f| {
            let items: Vec<Value> = (0..8000)
                .map(|i| json!(format!("/p/{}", i + f * 4000)))
                .collect();
            ParsedFragment {
                path: PathBuf::from("x"),
                value: json!({"filesystem": {"denyRead": items}}),
            }
        })
        .collect();
    let v = compose("p", "srt", &frags).unwrap();
    assert_eq!(
        v["filesystem"]["denyRead"].as_array().unwrap().len(),
        7 * 4000 + 8000
    );
}

/// What compile does: the opposing-action check on the fragments, then the
/// composition fragment by fragment; the composition or the first error.
fn incremental(kind: SourceKind, frags: &[ParsedFragment]) -> std::result::Result<String, String> {
    kind.check_opposing("p", frags).map_err(|e| e.to_string())?;
    let mut composer = Composer::new("p", kind.name());
    for f in frags {
        composer.add(f.clone()).map_err(|e| e.to_string())?;
    }
    Ok(serde_json::to_string(&composer.finish().into_value()).unwrap())
}

/// The same, the way it was specified: look for opposing actions with the
/// oracle [`opposing_by_occurrences`], then compose everything at once.
fn in_one_go(kind: SourceKind, frags: &[ParsedFragment]) -> std::result::Result<String, String> {
    opposing_by_occurrences(kind, frags)?;
    let value = compose("p", kind.name(), frags).map_err(|e| e.to_string())?;
    Ok(serde_json::to_string(&value).unwrap())
}

/// The oracle for the opposing-action checks, spelled out as twsrt 3.3.3
/// was observed to report: list every occurrence of a value (fragment by
/// fragment, in each fragment list by list), and report the first one whose
/// nearest earlier occurrence of the same value is in another list of its
/// group, naming that earlier occurrence's list and fragment.
fn opposing_by_occurrences(
    kind: SourceKind,
    frags: &[ParsedFragment],
) -> std::result::Result<(), String> {
    let groups: &[&[&str]] = match kind {
        SourceKind::Srt => &[
            &["/network/allowedDomains", "/network/deniedDomains"],
            &["/filesystem/allowWrite", "/filesystem/denyWrite"],
        ],
        SourceKind::Bash => &[&["/allow", "/ask", "/deny"]],
    };
    for lists in groups {
        let mut seen: Vec<(String, &str, &ParsedFragment)> = Vec::new();
        for f in frags {
            for list in lists.iter() {
                let values = f.value.pointer(list).and_then(Value::as_array);
                for value in values.into_iter().flatten().filter_map(Value::as_str) {
                    let earlier = seen.iter().rev().find(|(v, _, _)| v == value);
                    if let Some(&(_, other, before)) = earlier
                        && other != *list
                    {
                        let name = |pointer: &str| pointer[1..].replace('/', ".");
                        return Err(crate::source::opposing(
                            "p",
                            kind,
                            value,
                            (&name(other), &before.path),
                            (&name(list), &f.path),
                        )
                        .to_string());
                    }
                    seen.push((value.to_string(), list, f));
                }
            }
        }
    }
    Ok(())
}

/// The reported value, lists and files follow the fragments' order, not the
/// lists' order: a denial in an earlier fragment is named first, and the
/// latest fragment that listed the value before the clash is the one named.
#[test]
fn an_opposing_value_is_reported_in_fragment_order() {
    let err = |kind: SourceKind, texts: &[&str]| {
        let frags: Vec<_> = texts
            .iter()
            .enumerate()
            .map(|(i, t)| frag(&format!("f{i}"), t))
            .collect();
        kind.check_opposing("p", &frags).unwrap_err().to_string()
    };
    let says = |value: &str, first: (&str, usize), second: (&str, usize)| {
        format!(
            "profile 'p', source '{{}}': '{value}' is in {} (/f/f{}.jsonc) and in {} \
             (/f/f{}.jsonc); one value cannot be both",
            first.0, first.1, second.0, second.1
        )
    };
    let srt = |m: String| m.replace("{}", "srt");
    let bash = |m: String| m.replace("{}", "bash");
    assert_eq!(
        err(
            SourceKind::Srt,
            &[
                r#"{"network": {"deniedDomains": ["x", "y"]}}"#,
                r#"{"network": {"allowedDomains": ["y"]}}"#,
                r#"{"network": {"allowedDomains": ["x"]}}"#,
            ]
        ),
        srt(says(
            "y",
            ("network.deniedDomains", 0),
            ("network.allowedDomains", 1)
        ))
    );
    // The same list again only moves the value to the later fragment.
    assert_eq!(
        err(
            SourceKind::Srt,
            &[
                r#"{"network": {"allowedDomains": ["*"]}}"#,
                r#"{"network": {"allowedDomains": ["*"]}}"#,
                r#"{"network": {"deniedDomains": ["*"]}}"#,
            ]
        ),
        srt(says(
            "*",
            ("network.allowedDomains", 1),
            ("network.deniedDomains", 2)
        ))
    );
    // Domains are checked before paths, whatever the fragment order.
    assert_eq!(
        err(
            SourceKind::Srt,
            &[
                r#"{"filesystem": {"allowWrite": ["/p"], "denyWrite": ["/p"]}}"#,
                r#"{"network": {"allowedDomains": ["d"], "deniedDomains": ["d"]}}"#,
            ]
        ),
        srt(says(
            "d",
            ("network.allowedDomains", 1),
            ("network.deniedDomains", 1)
        ))
    );
    // bash: fragment by fragment, allow then ask then deny inside each.
    assert_eq!(
        err(
            SourceKind::Bash,
            &[
                r#"{"deny": ["rm"]}"#,
                r#"{"allow": ["ls"], "ask": ["rm", "ls"]}"#
            ]
        ),
        bash(says("rm", ("deny", 0), ("ask", 1)))
    );
}

#[test]
fn incremental_composition_agrees_with_composing_in_one_go() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let pool = ["a", "b", "c", "d", "e", "f", "g", "h"];
    let mut errors = 0;
    for round in 0..3_000 {
        let kind = if round % 2 == 0 {
            SourceKind::Srt
        } else {
            SourceKind::Bash
        };
        let lists: &[&str] = match kind {
            SourceKind::Srt => &[
                "/network/allowedDomains",
                "/network/deniedDomains",
                "/filesystem/allowWrite",
                "/filesystem/denyWrite",
                "/filesystem/denyRead",
                "/x/other",
            ],
            SourceKind::Bash => &["/allow", "/ask", "/deny"],
        };
        let frags: Vec<ParsedFragment> = (0..1 + rng.below(5))
            .map(|i| {
                let mut value = json!({});
                for list in lists {
                    if rng.below(3) == 0 {
                        continue;
                    }
                    let items: Vec<Value> = (0..rng.below(5))
                        .map(|_| json!(pool[rng.below(pool.len() as u64) as usize]))
                        .collect();
                    let mut parts = list.split('/').skip(1).collect::<Vec<_>>();
                    let last = parts.pop().unwrap();
                    let mut target = &mut value;
                    for part in parts {
                        target = target
                            .as_object_mut()
                            .unwrap()
                            .entry(part)
                            .or_insert(json!({}));
                    }
                    target[last] = Value::Array(items);
                }
                if kind == SourceKind::Srt && rng.below(4) == 0 {
                    value["enabled"] = json!(rng.below(2) == 0);
                }
                if kind == SourceKind::Srt && rng.below(8) == 0 {
                    value["network"]["httpProxyPort"] = json!(8080 + rng.below(2));
                }
                ParsedFragment {
                    path: PathBuf::from(format!("/f/f{i}.jsonc")),
                    value,
                }
            })
            .collect();
        if frags
            .iter()
            .any(|f| kind.validate(&f.path, &f.value, &[]).is_err())
        {
            continue;
        }
        let expected = in_one_go(kind, &frags);
        errors += usize::from(expected.is_err());
        assert_eq!(incremental(kind, &frags), expected, "{frags:#?}");
    }
    assert!(errors > 300, "only {errors} error cases");
}

#[test]
fn list_entries_name_the_first_fragment_that_listed_them() {
    let frags = [
        frag("a", r#"{"l": ["x", "y", "x", 1, "z", "y"]}"#),
        frag("b", r#"{"l": ["w", "z", "v"], "m": ["x"]}"#),
    ];
    let mut composer = Composer::new("p", "srt");
    for f in &frags {
        composer.add(f.clone()).unwrap();
    }
    let composed = composer.finish();
    let listed = |pointer: &str| -> Vec<(String, String)> {
        composed
            .list(pointer)
            .map(|(v, p)| (v.to_string(), p.display().to_string()))
            .collect()
    };
    let pair = |v: &str, p: &str| (v.to_string(), format!("/f/{p}.jsonc"));
    // Only strings, in order, each once.
    assert_eq!(
        listed("/l"),
        [
            pair("x", "a"),
            pair("y", "a"),
            pair("z", "a"),
            pair("w", "b"),
            pair("v", "b")
        ]
    );
    assert_eq!(listed("/m"), [pair("x", "b")]);
    assert_eq!(listed("/nothing"), []);
    // A fragment's own duplicates go, in place and in order.
    assert_eq!(
        composed.into_value()["l"],
        json!(["x", "y", 1, "z", "w", "v"])
    );
}

/// The conflict at `pointer` of fragments `texts` names exactly `first` and
/// `second` (indexes into `texts`) and no other fragment.
#[track_caller]
fn conflict_names(texts: &[&str], pointer: &str, first: usize, second: usize) {
    let message = compose_texts(texts).unwrap_err().to_string();
    let expected = format!(
        "profile 'p', source 'srt': /f/f{first}.jsonc and /f/f{second}.jsonc set different values \
         at {pointer}; a profile cannot override a value, so make the fragments agree"
    );
    assert_eq!(message, expected);
}

#[test]
fn a_conflict_names_the_two_fragments_that_disagree() {
    let other = r#"{"other": 1}"#;
    // The object appears first in the second, third and last fragment.
    conflict_names(
        &[other, r#"{"o": {"k": 1}}"#, r#"{"o": {"k": 2}}"#],
        "/o/k",
        1,
        2,
    );
    conflict_names(
        &[other, other, r#"{"o": {"k": 1}}"#, r#"{"o": {"k": 2}}"#],
        "/o/k",
        2,
        3,
    );
    conflict_names(
        &[
            other,
            r#"{"x": 1}"#,
            r#"{"o": {"k": 1}}"#,
            "{}",
            r#"{"o": {"k": 2}}"#,
        ],
        "/o/k",
        2,
        4,
    );
    // Nested objects: the value was set by a fragment that only added a
    // key to an object another fragment created.
    conflict_names(
        &[
            r#"{"o": {"a": 1}}"#,
            r#"{"o": {"b": {"c": {"d": true}}}}"#,
            r#"{"o": {"b": {"c": {"d": false}}}}"#,
        ],
        "/o/b/c/d",
        1,
        2,
    );
    conflict_names(
        &[
            other,
            r#"{"o": {"n": {"a": 1}}}"#,
            r#"{"o": {"n": {"b": 2}}}"#,
            r#"{"o": {"n": {"b": 3}}}"#,
        ],
        "/o/n/b",
        2,
        3,
    );
    // Keys that need JSON-pointer escapes.
    conflict_names(
        &[other, r#"{"a/b": {"~c": 1}}"#, r#"{"a/b": {"~c": 2}}"#],
        "/a~1b/~0c",
        1,
        2,
    );
}

/// Room made for the fragments to come is a wish: a count that cannot be
/// had (here, more than the address space) changes nothing.
#[test]
fn room_for_fragments_to_come_that_cannot_be_had_is_not_an_error() {
    let mut composer = Composer::new("p", "srt").expecting(usize::MAX);
    for name in ["a", "b"] {
        composer
            .add(frag(name, r#"{"l": ["x", "y", "z"]}"#))
            .unwrap();
    }
    assert_eq!(
        composer.finish().into_value(),
        json!({"l": ["x", "y", "z"]})
    );
}
