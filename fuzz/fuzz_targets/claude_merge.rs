//! The Claude selective merge over arbitrary existing settings JSON.
//!
//! Input records: 0 the existing settings file's text; 1 options (first byte
//! `y`: yolo mode), then the mode's sandbox overrides as a JSON object; 2 the
//! composed srt document as JSON (pass-through keys); 3.. rule records.
//!
//! Properties (on the bytes `generate -w` writes): the file parses as JSON;
//! every top-level key other than `permissions` and `sandbox` keeps its value
//! and the top-level keys keep their order; inside `permissions` and `sandbox`
//! every key twsrt does not generate keeps its value, foreign `allow` entries
//! (all but `WebFetch(domain:...)` and `Edit(...)`) stay in order before the
//! generated ones, and the generated lists are
//! there. The merge refuses only the shapes it documents. The preview is
//! the generated settings, printed.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Value};
use twsrt::agent::claude::Claude;
use twsrt::agent::{Agent, Ctx};
use twsrt_fuzz::py_eq;

fuzz_target!(|data: &[u8]| {
    let records = twsrt_fuzz::records(data);
    let Ok(Value::Object(existing)) = serde_json::from_str::<Value>(&records[0]) else {
        return;
    };
    // Finding F1 (tests/fuzz_regressions.rs, fixed): the reader refuses a
    // number that overflows a double (it would be written back as
    // `Infinity`); this target parses the text itself, so it skips them too.
    if overflows(&Value::Object(existing.clone())) {
        return;
    }
    let options = records.get(1).map(String::as_str).unwrap_or("");
    let yolo = options.starts_with('y');
    let overrides = match serde_json::from_str::<Value>(options.get(1..).unwrap_or("")) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    };
    let srt = match records.get(2).map(|t| serde_json::from_str::<Value>(t)) {
        Some(Ok(v @ Value::Object(_))) => v,
        _ => Value::Object(Map::new()),
    };
    let rules = twsrt_fuzz::rules(records.get(3..).unwrap_or(&[]));

    let mut config = twsrt_fuzz::config();
    if yolo {
        config.overrides_yolo = overrides;
    } else {
        config.overrides_full = overrides;
    }
    let compiled = twsrt_fuzz::compiled(srt);
    let ctx = Ctx::with_rules(&config, &compiled, rules, yolo);
    let home = Path::new(twsrt_fuzz::DIR);
    set_home();
    let (generated, merged) = twsrt::agent::claude::fuzz_merge(&ctx, existing.clone(), home);
    // The agent refuses a `filesystem` override that is not an object.
    let Ok(preview) = Claude.preview(&ctx, &mut Vec::new()) else {
        let filesystem = ctx.config.overrides(yolo).get("filesystem");
        assert!(
            filesystem.is_some_and(|f| !f.is_object()),
            "preview refused"
        );
        return;
    };
    assert_eq!(
        preview,
        twsrt::pyjson::to_pretty(&Value::Object(generated.clone())),
        "the preview is not the generated settings"
    );
    let merged = match merged {
        Ok(m) => m,
        Err(e) => {
            assert!(
                refusable(&existing, &generated),
                "refused a mergeable file: {e}"
            );
            return;
        }
    };

    let mut text = twsrt::pyjson::to_pretty(&Value::Object(merged));
    text.push('\n');
    let written: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("the written file is not JSON: {e}\n{text}"));
    let Value::Object(written) = written else {
        panic!("the written file is not an object");
    };

    // Top level: foreign keys keep their value; existing keys keep their order.
    for (k, v) in &existing {
        if k != "permissions" && k != "sandbox" {
            assert!(
                written.get(k).is_some_and(|w| py_eq(w, v)),
                "top-level `{k}` changed"
            );
        }
    }
    let order: Vec<&String> = written
        .keys()
        .filter(|k| existing.contains_key(*k))
        .collect();
    let before: Vec<&String> = existing.keys().collect();
    assert_eq!(order, before, "top-level key order changed");

    let gen_perm = generated["permissions"]
        .as_object()
        .expect("generated permissions");
    let perm = written["permissions"]
        .as_object()
        .expect("permissions is an object");
    let old_perm = existing.get("permissions").and_then(Value::as_object);
    for (k, v) in old_perm.into_iter().flatten() {
        if !matches!(k.as_str(), "deny" | "ask" | "allow") {
            assert!(
                perm.get(k).is_some_and(|w| py_eq(w, v)),
                "permissions.{k} changed"
            );
        }
    }
    assert!(py_eq(&perm["deny"], &gen_perm["deny"]), "permissions.deny");
    match gen_perm.get("ask") {
        Some(ask) => assert!(py_eq(&perm["ask"], ask), "permissions.ask"),
        None => assert!(
            !perm.contains_key("ask"),
            "permissions.ask kept in yolo mode"
        ),
    }
    let foreign: Vec<Value> = old_perm
        .and_then(|p| p.get("allow"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|e| {
            !e.as_str()
                .is_some_and(|s| s.starts_with("WebFetch(domain:") || s.starts_with("Edit("))
        })
        .cloned()
        .collect();
    let mut expected = foreign;
    expected.extend(gen_perm["allow"].as_array().cloned().unwrap_or_default());
    assert!(
        py_eq(&perm["allow"], &Value::Array(expected)),
        "permissions.allow"
    );

    let gen_sandbox = generated["sandbox"].as_object().expect("generated sandbox");
    let sandbox = written["sandbox"]
        .as_object()
        .expect("sandbox is an object");
    let old_sandbox = existing.get("sandbox").and_then(Value::as_object);
    for (k, v) in old_sandbox.into_iter().flatten() {
        if !gen_sandbox.contains_key(k) {
            assert!(
                sandbox.get(k).is_some_and(|w| py_eq(w, v)),
                "sandbox.{k} changed"
            );
        }
    }
    for (k, v) in gen_sandbox {
        let w = &sandbox[k];
        if k == "network" || k == "filesystem" {
            let (w, v) = (w.as_object().unwrap(), v.as_object().unwrap());
            for (sk, sv) in v {
                assert!(w.get(sk).is_some_and(|x| py_eq(x, sv)), "sandbox.{k}.{sk}");
            }
            let old = old_sandbox
                .and_then(|s| s.get(k))
                .and_then(Value::as_object);
            for (sk, sv) in old.into_iter().flatten() {
                if !v.contains_key(sk) {
                    assert!(
                        w.get(sk).is_some_and(|x| py_eq(x, sv)),
                        "sandbox.{k}.{sk} lost"
                    );
                }
            }
        } else {
            assert!(py_eq(w, v), "sandbox.{k}");
        }
    }
});

fn overflows(v: &Value) -> bool {
    match v {
        Value::Number(n) => matches!(
            twsrt::pyjson::classify(n),
            twsrt::pyjson::PyNumber::Float(f) if !f.is_finite()
        ),
        Value::Array(a) => a.iter().any(overflows),
        Value::Object(m) => m.values().any(overflows),
        _ => false,
    }
}

/// The preview renders for `$HOME`: point it where `fuzz_merge` looks.
fn set_home() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    // SAFETY: set once, before anything reads the environment concurrently.
    ONCE.call_once(|| unsafe { std::env::set_var("HOME", twsrt_fuzz::DIR) });
}

/// The shapes the merge documents as refusals.
fn refusable(existing: &Map<String, Value>, generated: &Map<String, Value>) -> bool {
    let not_obj = |v: Option<&Value>| v.is_some_and(|v| !v.is_null() && !v.is_object());
    let perm = existing.get("permissions");
    if not_obj(perm) {
        return true;
    }
    let allow = perm.and_then(|p| p.get("allow"));
    if allow.is_some_and(|a| !a.is_null() && !a.is_array()) {
        return true;
    }
    let sandbox = existing.get("sandbox");
    if not_obj(sandbox) {
        return true;
    }
    let gen_sandbox = &generated["sandbox"];
    ["network", "filesystem"].iter().any(|k| {
        gen_sandbox.get(*k).is_some_and(|g| !g.is_object())
            || (gen_sandbox.get(*k).is_some() && not_obj(sandbox.and_then(|s| s.get(*k))))
    })
}
