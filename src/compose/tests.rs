use super::*;
use crate::jsonc::Json;
use crate::source::SourceKind;
use crate::test_rng::Rng;
use serde_json::json;

fn frag(name: &str, text: &str) -> ParsedFragment {
    ParsedFragment {
        name: name.into(),
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
                name: format!("f{f}"),
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

/// What compile does, fragment by fragment: the composition or the first
/// error (a conflict, then an opposing-action error).
fn incremental(kind: SourceKind, frags: &[ParsedFragment]) -> std::result::Result<String, String> {
    let mut composer = Composer::new("p", kind.name()).expecting(frags.len());
    for f in frags {
        composer.add(f.clone()).map_err(|e| e.to_string())?;
    }
    let composed = composer.finish();
    kind.check_opposing_composed("p", &composed)
        .map_err(|e| e.to_string())?;
    Ok(serde_json::to_string(&composed.to_value()).unwrap())
}

/// The same, the way it was specified: compose everything, then check the
/// fragments for opposing actions.
fn in_one_go(kind: SourceKind, frags: &[ParsedFragment]) -> std::result::Result<String, String> {
    let value = compose("p", kind.name(), frags).map_err(|e| e.to_string())?;
    kind.check_opposing("p", frags).map_err(|e| e.to_string())?;
    Ok(serde_json::to_string(&value).unwrap())
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
                    name: format!("f{i}"),
                    path: PathBuf::from(format!("/f/f{i}.jsonc")),
                    value,
                }
            })
            .collect();
        if frags.iter().any(|f| kind.validate(f).is_err()) {
            continue;
        }
        let expected = in_one_go(kind, &frags);
        errors += usize::from(expected.is_err());
        assert_eq!(incremental(kind, &frags), expected, "{frags:#?}");
    }
    assert!(errors > 300, "only {errors} error cases");
}

#[test]
fn lookups_name_the_first_fragment_that_listed_an_entry() {
    let frags = [
        frag("a", r#"{"l": ["x", "y", "x", 1, "z", "y"]}"#),
        frag("b", r#"{"l": ["w", "z", "v"], "m": ["x"]}"#),
    ];
    let mut composer = Composer::new("p", "srt");
    for f in &frags {
        composer.add(f.clone()).unwrap();
    }
    let composed = composer.finish();
    // A fragment's own duplicates go, in place and in order.
    assert_eq!(
        composed.to_value()["l"],
        json!(["x", "y", 1, "z", "w", "v"])
    );
    let source = |pointer: &str, text: &str| {
        composed
            .lookup(pointer)?
            .source_of(text)
            .map(|p| p.display().to_string())
    };
    assert_eq!(source("/l", "z").as_deref(), Some("/f/a.jsonc"));
    assert_eq!(source("/l", "w").as_deref(), Some("/f/b.jsonc"));
    assert_eq!(source("/m", "x").as_deref(), Some("/f/b.jsonc"));
    // Only strings are looked up, and only in the list named.
    assert_eq!(source("/l", "1"), None);
    assert_eq!(source("/l", "q"), None);
    assert_eq!(source("/m", "y"), None);
    assert_eq!(source("/nothing", "x"), None);
}

#[test]
fn a_list_is_sized_once_for_the_fragments_to_come() {
    let list = |from: usize| {
        let items: Vec<String> = (from..from + 100).map(|i| format!("\"e{i}\"")).collect();
        frag(
            &format!("f{from}"),
            &format!(r#"{{"l": [{}]}}"#, items.join(",")),
        )
    };
    let frags: Vec<_> = (0..4).map(|i| list(i * 50)).collect();
    let mut composer = Composer::new("p", "srt").expecting(frags.len());
    composer.add(frags[0].clone()).unwrap();
    let capacity = |c: &Composer| c.lists["/l"].items.capacity().0;
    // Room for this fragment's 100 entries and as many from each of the 3 to come.
    let first = capacity(&composer);
    assert!(first >= 400, "{first}");
    for f in &frags[1..] {
        composer.add(f.clone()).unwrap();
        assert_eq!(capacity(&composer), first, "no regrowth");
    }
    let composed = composer.finish();
    assert_eq!(composed.list_len("/l"), 250);
    // Without a count, the list grows as entries come.
    let mut plain = Composer::new("p", "srt");
    plain.add(frags[0].clone()).unwrap();
    assert!(capacity(&plain) < 400);
}

#[test]
fn a_view_list_starts_with_room_for_the_fragments_to_come() {
    let texts: Vec<String> = (0..4)
        .map(|f| {
            let items: Vec<String> = (f * 50..f * 50 + 100)
                .map(|i| format!("\"e{i}\""))
                .collect();
            format!(r#"{{"l": [{}]}}"#, items.join(","))
        })
        .collect();
    let mut composer = Composer::new("p", "srt").expecting(texts.len());
    let capacity = |c: &Composer| c.lists["/l"].items.capacity().0;
    let mut first = None;
    for (i, text) in texts.iter().enumerate() {
        let view = crate::jsonc::parse_view(text).unwrap();
        composer
            .add_view(PathBuf::from(format!("/f/{i}")), view)
            .unwrap();
        // Room for 100 entries from each of the 4 fragments, at once.
        let now = capacity(&composer);
        assert_eq!(
            *first.get_or_insert(now),
            now,
            "no regrowth after fragment {i}"
        );
    }
    assert_eq!(first, Some(400));
    assert_eq!(composer.finish().list_len("/l"), 250);
}

/// Composing fragments as views of their text gives exactly what composing
/// their values gives: the same document, the same sources, the same
/// conflicts with the same messages, for lists of mixed types (Python
/// equality: 1, 1.0 and true are one entry), nested objects and scalars of
/// every type at the same pointer.
#[test]
fn composing_views_agrees_with_composing_values() {
    let mut rng = Rng(0x0bad_cafe_f00d_1234);
    let pool = [
        json!("a"),
        json!("b"),
        json!("\u{e9}"),
        json!(""),
        json!(1),
        json!(1.0),
        json!(true),
        json!(null),
        json!({"k": [1, "a"]}),
        json!({"k": [1.0, "a"]}),
        json!([1, "a"]),
        json!([]),
    ];
    let scalars = [
        json!(1),
        json!(2.5),
        json!("s"),
        json!(false),
        json!(null),
        json!({"o": 1}),
        json!([1]),
    ];
    let mut errors = 0;
    for _ in 0..3_000 {
        let frags: Vec<ParsedFragment> = (0..1 + rng.below(4))
            .map(|i| {
                let mut value = json!({});
                for key in ["l", "m"] {
                    if rng.below(3) > 0 {
                        let items: Vec<Value> = (0..rng.below(6))
                            .map(|_| pool[rng.below(pool.len() as u64) as usize].clone())
                            .collect();
                        if key == "m" {
                            value["m"] = json!({ "n": items });
                        } else {
                            value[key] = Value::Array(items);
                        }
                    }
                }
                if rng.below(3) == 0 {
                    value["s"] = scalars[rng.below(scalars.len() as u64) as usize].clone();
                }
                ParsedFragment {
                    name: format!("f{i}"),
                    path: PathBuf::from(format!("/f/f{i}.jsonc")),
                    value,
                }
            })
            .collect();
        let by_values = {
            let mut composer = Composer::new("p", "srt").expecting(frags.len());
            frags
                .iter()
                .try_for_each(|f| composer.add(f.clone()))
                .map(|()| composer.finish())
                .map_err(|e| e.to_string())
        };
        let by_views = {
            let mut composer = Composer::new("p", "srt").expecting(frags.len());
            frags
                .iter()
                .try_for_each(|f| composer.add_view(f.path.clone(), Json::of(&f.value)))
                .map(|()| composer.finish())
                .map_err(|e| e.to_string())
        };
        match (by_values, by_views) {
            (Ok(a), Ok(b)) => {
                assert_eq!(
                    serde_json::to_string(&a.to_value()).unwrap(),
                    serde_json::to_string(&b.to_value()).unwrap(),
                    "{frags:#?}"
                );
                for pointer in ["/l", "/m/n"] {
                    let sources = |c: &Composed| -> Vec<(String, String)> {
                        c.list(pointer)
                            .map(|(v, p)| (v.to_string(), p.display().to_string()))
                            .collect()
                    };
                    assert_eq!(sources(&a), sources(&b), "{frags:#?}");
                    for text in ["a", "b", "\u{e9}", ""] {
                        let source = |c: &Composed| {
                            c.lookup(pointer)
                                .and_then(|l| l.source_of(text).map(|p| p.to_path_buf()))
                        };
                        assert_eq!(source(&a), source(&b), "{pointer} {text:?} {frags:#?}");
                    }
                }
            }
            (Err(a), Err(b)) => {
                errors += 1;
                assert_eq!(a, b, "{frags:#?}");
            }
            (a, b) => panic!(
                "values {:?}, views {:?}: {frags:#?}",
                a.map(|c| c.to_value()),
                b.map(|c| c.to_value())
            ),
        }
    }
    assert!(errors > 300, "only {errors} conflicts");
}

#[test]
fn packed_lists_are_read_in_place_and_agree_with_the_value() {
    let frags = [
        frag(
            "a",
            r#"{"s": 1, "o": {"l": ["x", 2, "y"], "in": {"k": ["p"]}}, "top": ["t"]}"#,
        ),
        frag(
            "b",
            r#"{"o": {"l": ["y", "z", {"q": [1]}], "in": {"k": ["r"]}}}"#,
        ),
    ];
    let mut composer = Composer::new("p", "srt");
    for f in &frags {
        composer.add(f.clone()).unwrap();
    }
    let composed = composer.finish();
    let value = composed.to_value();
    assert_eq!(
        value,
        json!({"s": 1, "o": {"l": ["x", 2, "y", "z", {"q": [1]}], "in": {"k": ["p", "r"]}},
               "top": ["t"]})
    );
    // A list is handed out packed, its strings in place.
    match composed.node("/o/l") {
        Some(Node::List(items)) => {
            assert_eq!(items.len(), 5);
            assert_eq!(items.iter().nth(1), Some(Item::Other(&json!(2))));
            assert_eq!(Value::Array(items.to_values()), value["o"]["l"]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        composed.strings("/o/l").collect::<Vec<_>>(),
        ["x", "y", "z"]
    );
    // A value with lists inside is built with them; one without is borrowed.
    match composed.node("/o/in") {
        Some(Node::Value(Cow::Owned(v))) => assert_eq!(v, value["o"]["in"]),
        other => panic!("{other:?}"),
    }
    match composed.node("/s") {
        Some(Node::Value(Cow::Borrowed(v))) => assert_eq!(*v, json!(1)),
        other => panic!("{other:?}"),
    }
    assert!(composed.node("/nothing").is_none());
    assert!(composed.is_object("") && composed.is_object("/o"));
    assert!(!composed.is_object("/o/l") && !composed.is_object("/s"));
    // A document given as a value reads the same.
    let whole = Composed::from_value(value.clone());
    assert!(whole.lists.is_empty() && !composed.lists.is_empty());
    assert!(whole.strings("/o/l").eq(composed.strings("/o/l")));
    assert_eq!(
        whole.node("/o/l").unwrap().as_value().into_owned(),
        value["o"]["l"]
    );
    assert!(whole.strings("/s").next().is_none());
    assert_eq!(compose("p", "srt", &frags).unwrap(), value);
}

#[test]
fn every_byte_of_a_key_counts_in_its_hash() {
    // A hash that skipped some bytes (a word boundary, the tail) would
    // still be correct, but would put every such pair in one bucket.
    for len in 1..40 {
        let base = "k".repeat(len);
        let tag = Key::Str(&base).tag();
        for at in 0..len {
            let mut other = base.clone().into_bytes();
            other[at] = b'j';
            let other = String::from_utf8(other).unwrap();
            assert_ne!(Key::Str(&other).tag(), tag, "len {len}, byte {at}");
        }
        // Length counts too (a zero-padded tail must not equal a zero byte).
        let padded = format!("{base}\0");
        assert_ne!(Key::Str(&padded).tag(), tag, "len {len}");
        // The same text as a string and as another value's key differ.
        assert_ne!(Key::Other(base.clone()).tag(), tag);
    }
}
