//! One test per finding of the fuzz targets (`fuzz/`, `make fuzz`), through
//! the library API. Each names the target that found it.

use std::path::Path;

use serde_json::{Value, json};
use twsrt::agent::claude::Claude;
use twsrt::agent::copilot::Copilot;
use twsrt::agent::{Agent, Ctx};
use twsrt::compile::compile;
use twsrt::compose::{ParsedFragment, compose};
use twsrt::config::Config;
use twsrt::plan::Plan;

/// A policy in `dir`: one srt and one bash fragment, every target inside `dir`.
fn policy(dir: &Path, srt: &str, bash: &str) -> Config {
    let text = "schema_version = 1\ndefault_profile = \"p\"\n\
         [sources.srt]\noutput = \"srt.json\"\n[sources.srt.fragments.a]\npath = \"srt.jsonc\"\n\
         [sources.bash]\noutput = \"bash.json\"\n[sources.bash.fragments.b]\npath = \"bash.jsonc\"\n\
         [profiles.p]\nsrt = [\"a\"]\nbash = [\"b\"]\n\
         [targets]\nclaude_settings = \"claude/settings.full.json\"\n\
         copilot_output = \"flags\"\n";
    std::fs::write(dir.join("srt.jsonc"), srt).unwrap();
    std::fs::write(dir.join("bash.jsonc"), bash).unwrap();
    twsrt::config::parse(text, &dir.join("config.toml")).unwrap()
}

/// claude_merge: an existing settings file holding a number that overflows a
/// double (`1e400`) was written back with `Infinity`, which is not JSON, so
/// Claude Code could no longer read its settings. The merge must refuse such
/// a file (as strict JSONC refuses the literal, doc/compatibility.md #7) or
/// write it as JSON.
///
/// Fix suggestion (src/agent/claude/existing.rs, `read`): after parsing,
/// refuse a float literal that is not finite
/// (`pyjson::classify(n)` is `PyNumber::Float(f)` with `!f.is_finite()`):
/// `Error::target(path, "holds a number too large for a double (1e400 and the
/// like); fix it first")`. The error must not echo the value.
#[test]
fn claude_merge_never_writes_infinity() {
    let dir = tempfile::tempdir().unwrap();
    let config = policy(dir.path(), "{}", "{}");
    std::fs::create_dir(dir.path().join("claude")).unwrap();
    std::fs::write(
        dir.path().join("claude/settings.full.json"),
        r#"{"model": "opus", "limits": [1e400, -1E999]}"#,
    )
    .unwrap();
    let compiled = compile(&config, None).unwrap();
    let ctx = Ctx::new(&config, &compiled, false);
    let mut plan = Plan::default();
    // Refused: rewritten as Python prints it, the number would be `Infinity`.
    let err = Claude
        .stage(&ctx, &mut plan, &mut Vec::new())
        .expect_err("an overflowing number is refused");
    assert!(
        err.to_string()
            .ends_with("holds a number too large for a 64-bit float; fix or remove it first"),
        "{err}"
    );
    assert!(plan.steps.is_empty());
    // The error names the file, not the value.
    assert!(!err.to_string().contains("1e400"), "{err}");
}

fn fragments(values: &[Value]) -> Vec<ParsedFragment> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| ParsedFragment {
            path: format!("f{i}.jsonc").into(),
            value: v.clone(),
        })
        .collect()
}

/// Whether a list the composition unions (one reached through objects)
/// holds two equal entries.
fn has_duplicates(v: &Value) -> bool {
    match v {
        Value::Array(items) => {
            let keys: Vec<String> = items.iter().map(twsrt::compose::equality_key).collect();
            let unique: std::collections::HashSet<&String> = keys.iter().collect();
            unique.len() != keys.len()
        }
        Value::Object(m) => m.values().any(has_duplicates),
        _ => false,
    }
}

/// compose_fragments: lists inside list items were de-duplicated only in the
/// items of the fragment that created the list, and only after the items were
/// compared; so a composition could hold duplicate entries (`[[3], [3]]`)
/// and composing a composition again changed it.
///
/// Fix suggestion (src/compose.rs), either of:
/// * treat list items as atomic values: `dedup_fresh` does not recurse into
///   the items of an array (objects outside arrays still recurse); or
/// * de-duplicate an item's nested lists before comparing it (`dedup_fresh`
///   maps the items first, then filters by `Key`), and pass every item a later
///   fragment adds through `dedup_fresh` too (`seen.push_new(a,
///   dedup_fresh(item))` in `merge_value`).
#[test]
fn composition_has_no_duplicates_and_is_a_fixed_point() {
    let cases = [
        vec![json!({"x": [[3, 3], [3]]})],
        vec![json!({"x": [1]}), json!({"x": [[2, 2]]})],
        vec![json!({"x": [{"a": [1, 1]}]}), json!({"x": [{"a": [1]}]})],
    ];
    for case in cases {
        let composed = compose("p", "srt", &fragments(&case)).unwrap();
        assert!(!has_duplicates(&composed), "{case:?} -> {composed}");
        let again = compose("p", "srt", &fragments(std::slice::from_ref(&composed))).unwrap();
        assert_eq!(
            twsrt::pyjson::to_pretty(&again),
            twsrt::pyjson::to_pretty(&composed),
            "composing {composed} again changed it"
        );
    }
}

/// copilot_render: a pattern holding NUL was quoted into a flag, but no
/// command line can carry NUL (the shell cuts the argument short, leaving a
/// different pattern). Fixed: the Copilot rendering refuses it.
#[test]
fn copilot_refuses_a_nul_in_a_flag_value() {
    let dir = tempfile::tempdir().unwrap();
    let config = policy(dir.path(), "{}", r#"{"deny": ["rm\u0000 -rf"]}"#);
    let compiled = compile(&config, None).unwrap();
    let ctx = Ctx::new(&config, &compiled, false);
    let err = Copilot.preview(&ctx, &mut Vec::new()).unwrap_err();
    assert!(err.to_string().contains("NUL"), "{err}");
    let staged = Copilot
        .stage(&ctx, &mut Plan::default(), &mut Vec::new())
        .expect_err("-w refuses it too");
    assert_eq!(staged.to_string(), err.to_string());
    // A NUL in a rule Copilot does not render is no concern of its.
    let config = policy(dir.path(), "{}", r#"{"allow": ["rm\u0000 -rf"]}"#);
    let compiled = compile(&config, None).unwrap();
    let ctx = Ctx::new(&config, &compiled, false);
    assert!(Copilot.preview(&ctx, &mut Vec::new()).is_ok());
}

/// copilot_render: a pattern holding a line break is written inside its
/// quotes across two lines, and `diff copilot` read the file line by line, so
/// it reported drift right after `generate -w`. Fixed: a line break inside a
/// quoted value continues the flag.
#[test]
fn copilot_diff_reads_back_values_with_line_breaks() {
    let dir = tempfile::tempdir().unwrap();
    let config = policy(
        dir.path(),
        // A domain with a line break is refused since issue 41: the bash
        // rules carry the line breaks.
        r#"{"network": {"deniedDomains": ["x.io"]}}"#,
        r#"{"deny": ["line one\nline 'two'", "plain"]}"#,
    );
    let compiled = compile(&config, None).unwrap();
    let ctx = Ctx::new(&config, &compiled, false);
    let rendering = Copilot.preview(&ctx, &mut Vec::new()).unwrap();
    std::fs::write(dir.path().join("flags"), format!("{rendering}\n")).unwrap();
    assert_eq!(
        Copilot.diff(&ctx, &mut Vec::new()).unwrap().texts(),
        Some((vec![], vec![]))
    );
    // No value with a line break reaches a flag any more (a domain with one
    // is refused, a bash rule's blank runs, line breaks among them, are one
    // space), and a changed value is still drift.
    assert!(rendering.contains("shell(line one line"), "{rendering}");
    let edited = rendering.replace("plain", "plane");
    std::fs::write(dir.path().join("flags"), format!("{edited}\n")).unwrap();
    let Some((missing, extra)) = Copilot.diff(&ctx, &mut Vec::new()).unwrap().texts() else {
        panic!("compared expected");
    };
    assert_eq!(missing.len(), 1, "{missing:?}");
    assert_eq!(extra.len(), 1, "{extra:?}");
}

/// codex_merge: merging into a file whose `[permissions.twsrt]` has no
/// sub-tables, followed by a blank line and a foreign table, keeps the blank
/// line, and the next merge changes nothing. (twsrt 1.0.0 and 3.3.3 dropped
/// that blank line on the second run, so `generate -w` rewrote a file `diff`
/// called clean: doc/compatibility.md, row 61.)
#[test]
fn codex_merge_is_stable_after_the_first_run() {
    let dir = tempfile::tempdir().unwrap();
    let config = policy(
        dir.path(),
        r#"{"filesystem": {"denyRead": ["~/.ssh"]}, "network": {"allowedDomains": ["github.com"]}}"#,
        "{}",
    );
    let compiled = compile(&config, None).unwrap();
    let ctx = Ctx::new(&config, &compiled, false);
    let fragment = twsrt::agent::codex::fuzz_fragment(&ctx).unwrap();
    let merge = |text: &str| twsrt::agent::codex::fuzz_merge(text, &fragment).unwrap();
    let first = merge("[permissions.twsrt]\nextends = \"x\"\n\n[foo]\na = 1\n");
    assert!(
        first.ends_with(
            "\"github.com\" = \"allow\"\n\n[foo]\na = 1\n\n[features]\nnetwork_proxy = true\n"
        ),
        "{first}"
    );
    assert_eq!(merge(&first), first);
}
