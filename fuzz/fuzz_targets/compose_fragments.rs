//! Composing an arbitrary set of fragments, with the source kind's checks.
//!
//! Input: records (see the crate docs); the first byte of the first record
//! picks the kind (even: srt, odd: bash), every other record is one
//! fragment's JSONC text (records that do not parse are left out).
//!
//! Properties: no panic; the streaming `Composer` gives what `compose`
//! gives; whether composing succeeds does not depend on the fragment order; a composition is an object holding every value of every
//! fragment, composing it alone or again with the fragments changes nothing,
//! and it prints as JSON that parses back; rules come from exactly the rule
//! lists.
#![no_main]

use std::path::PathBuf;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use twsrt::compose::{Composer, ParsedFragment, compose};
use twsrt::source::SourceKind;
use twsrt_fuzz::py_eq;

fuzz_target!(|data: &[u8]| {
    let records = twsrt_fuzz::records(data);
    let kind = match records[0].as_bytes().first() {
        Some(b) if b % 2 == 1 => SourceKind::Bash,
        _ => SourceKind::Srt,
    };
    let fragments: Vec<ParsedFragment> = records[1..]
        .iter()
        .take(8)
        .enumerate()
        .filter_map(|(i, text)| {
            let path = PathBuf::from(format!("f{i}.jsonc"));
            let value = twsrt::fragment::parse(text, &path).ok()?;
            Some(ParsedFragment {
                path,
                value,
            })
        })
        .collect();
    check(kind, &fragments);
});

fn pretty(v: &Value) -> String {
    twsrt::pyjson::to_pretty(v)
}

fn check(kind: SourceKind, fragments: &[ParsedFragment]) {
    let valid = fragments.iter().all(|f| kind.validate(&f.path, "", &f.value, &[]).is_ok());
    let composed = compose("p", kind.name(), fragments);
    let mut reversed = fragments.to_vec();
    reversed.reverse();
    assert_eq!(
        composed.is_ok(),
        compose("p", kind.name(), &reversed).is_ok(),
        "success depends on the fragment order"
    );
    // The streaming composer `compile` uses gives what `compose` gives, and
    // the opposing check on the composition gives the fragments' verdict.
    let mut composer = Composer::new("p", kind.name());
    let streamed = fragments.iter().try_for_each(|f| composer.add(f.clone()));
    match (&composed, &streamed) {
        (Ok(_), Ok(())) => {}
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "Composer error"),
        _ => panic!("Composer disagrees: {composed:?} / {streamed:?}"),
    }
    if let (Ok(value), Ok(())) = (&composed, streamed) {
        let streamed = composer.finish();
        if valid {
            // The opposing check runs on what compile composes; it must
            // not panic, and the rules come from the composed value.
            let _ = kind.check_opposing("p", &streamed);
        }
        assert_eq!(pretty(value), pretty(&streamed.into_value()), "Composer differs");
    }
    let Ok(composed) = composed else {
        return;
    };
    assert!(composed.is_object());

    // Composing the result alone, or once more after the fragments, is a no-op.
    let me = ParsedFragment {
        path: PathBuf::from("composed.jsonc"),
        value: composed.clone(),
    };
    let alone = compose("p", kind.name(), std::slice::from_ref(&me)).expect("composing alone");
    let mut again = fragments.to_vec();
    again.push(me);
    let again = compose("p", kind.name(), &again).expect("composing again");
    // Finding F2 (tests/fuzz_regressions.rs, fixed): list items are atomic.
    assert_eq!(
        pretty(&alone),
        pretty(&composed),
        "composition is not a fixed point"
    );
    assert_eq!(
        pretty(&again),
        pretty(&composed),
        "composing again changed it"
    );

    for f in fragments {
        contains(&composed, &f.value, &mut String::new());
    }

    let text = pretty(&composed);
    let back = twsrt::fragment::parse(&text, &PathBuf::from("out.json"))
        .unwrap_or_else(|e| panic!("canonical text does not parse: {e}\n{text}"));
    assert_eq!(pretty(&back), text, "canonical text is not stable");

    if valid {
        let rules = kind.rules(&composed);
        assert_eq!(rules.len(), rule_strings(kind, &composed), "rule count");
        assert!(rules.iter().all(|r| !r.pattern.is_empty()));
    }
}

/// Every value in `part` is in `whole` at the same place: scalars equal,
/// array items present, objects recursively.
fn contains(whole: &Value, part: &Value, pointer: &mut String) {
    match (whole, part) {
        (Value::Object(w), Value::Object(p)) => {
            for (k, v) in p {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(k);
                let Some(wv) = w.get(k) else {
                    panic!("{pointer} lost");
                };
                contains(wv, v, pointer);
                pointer.truncate(len);
            }
        }
        (Value::Array(w), Value::Array(p)) => {
            for item in p {
                assert!(
                    w.iter().any(|x| py_eq(x, item)),
                    "{pointer}: an item was lost"
                );
            }
        }
        (w, p) => assert!(py_eq(w, p), "{pointer}: value changed"),
    }
}

fn rule_strings(kind: SourceKind, v: &Value) -> usize {
    let lists: &[(&str, &str)] = match kind {
        SourceKind::Srt => &[
            ("filesystem", "denyRead"),
            ("filesystem", "denyWrite"),
            ("filesystem", "allowWrite"),
            ("network", "allowedDomains"),
            ("network", "deniedDomains"),
        ],
        SourceKind::Bash => &[("", "allow"), ("", "ask"), ("", "deny")],
    };
    lists
        .iter()
        .map(|(section, key)| {
            let parent = if section.is_empty() {
                Some(v)
            } else {
                v.get(*section)
            };
            parent
                .and_then(|p| p.get(*key))
                .and_then(Value::as_array)
                .map_or(0, |a| a.iter().filter(|x| x.is_string()).count())
        })
        .sum()
}
