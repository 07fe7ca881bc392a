use super::*;
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
