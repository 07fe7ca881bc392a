//! The Codex renderers over arbitrary rule strings.
//!
//! Input records: 0 ignored (options); 1.. rule records.
//!
//! Properties: the managed config fragment is TOML whose domain and path
//! keys are exactly the rule strings; the `.rules` file has one
//! `prefix_rule` per bash deny rule, every line has balanced quotes and
//! brackets, and its `pattern` and `match` lists decode to the rule's words
//! (as Python's `shlex.split` makes them) and the rule itself; a rule is
//! refused only when it cannot be split or holds no word.
#![no_main]

use std::collections::HashSet;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toml_edit::{DocumentMut, Item};
use twsrt::agent::codex::Codex;
use twsrt::agent::{Agent, Ctx};
use twsrt::rules::{Action, Scope, SecurityRule};

fuzz_target!(|data: &[u8]| {
    let records = twsrt_fuzz::records(data);
    let rules = twsrt_fuzz::rules(records.get(1..).unwrap_or(&[]));
    let config = twsrt_fuzz::config();
    check_fragment(&config, &rules);
    // The rules file alone (path rules can make the whole preview fail).
    let deny: Vec<SecurityRule> = rules
        .iter()
        .filter(|r| r.is(Scope::Execute, Action::Deny))
        .cloned()
        .collect();
    check_rules(&config, &deny);
});

fn check_fragment(config: &twsrt::config::Config, rules: &[SecurityRule]) {
    let compiled = twsrt_fuzz::compiled(Value::Object(Default::default()));
    let ctx = Ctx::with_rules(config, &compiled, rules.to_vec(), false);
    let Ok(fragment) = twsrt::agent::codex::fuzz_fragment(&ctx) else {
        return;
    };
    let doc: DocumentMut = fragment
        .parse()
        .unwrap_or_else(|e| panic!("the fragment is not TOML: {e}\n{fragment}"));
    let profile = &doc["permissions"]["twsrt"];
    let keys = |item: Option<&Item>| -> Vec<String> {
        item.and_then(Item::as_table_like)
            .map(|t| t.iter().map(|(k, _)| k.to_string()).collect())
            .unwrap_or_default()
    };
    let domains: HashSet<String> = keys(profile.get("network").and_then(|n| n.get("domains")))
        .into_iter()
        .collect();
    let expected: HashSet<String> = rules
        .iter()
        .filter(|r| r.scope == Scope::Network)
        .map(|r| r.pattern.to_string())
        .collect();
    assert_eq!(domains, expected, "domain keys");
    let patterns: HashSet<&str> = rules.iter().map(|r| r.pattern).collect();
    for key in keys(profile.get("filesystem")) {
        if key != ":workspace_roots" {
            assert!(
                patterns.contains(key.as_str()),
                "filesystem key {key:?} is no rule"
            );
        }
    }
    for key in keys(profile.get("workspace_roots")) {
        assert!(
            patterns.iter().any(|p| p.starts_with(key.as_str())),
            "workspace root {key:?} is no rule"
        );
    }
}

fn check_rules(config: &twsrt::config::Config, deny: &[SecurityRule]) {
    let compiled = twsrt_fuzz::compiled(Value::Object(Default::default()));
    let ctx = Ctx::with_rules(config, &compiled, deny.to_vec(), false);
    let preview = match Codex.preview(&ctx, &mut Vec::new()) {
        Ok(p) => p,
        Err(e) => {
            let splittable = deny
                .iter()
                .all(|r| twsrt_fuzz::shlex_split(r.pattern).is_some_and(|w| !w.is_empty()));
            assert!(!splittable, "refused splittable rules: {e}");
            return;
        }
    };
    let marker = format!("\n--- rules: {}/twsrt.rules ---\n", twsrt_fuzz::DIR);
    let (_, rules_text) = preview.split_once(&marker).expect("rules section");

    let mut blocks = Vec::new();
    let mut current: Option<(Vec<String>, Vec<String>)> = None;
    for line in rules_text.lines() {
        check_line(line);
        let list = |prefix: &str| -> Option<Vec<String>> {
            let rest = line.strip_prefix(prefix)?;
            let rest = rest.strip_suffix(',').expect("list line ends with a comma");
            Some(serde_json::from_str(rest).unwrap_or_else(|e| panic!("{e}: {line}")))
        };
        if line == "prefix_rule(" {
            assert!(current.is_none(), "nested prefix_rule");
            current = Some((Vec::new(), Vec::new()));
        } else if let Some(words) = list("    pattern = ") {
            current.as_mut().expect("inside a rule").0 = words;
        } else if let Some(m) = list("    match = ") {
            current.as_mut().expect("inside a rule").1 = m;
        } else if line == ")" {
            blocks.push(current.take().expect("closing a rule"));
        } else {
            assert!(
                line.is_empty()
                    || line.starts_with('#')
                    || line == "    decision = \"forbidden\","
                    || line == "    justification = \"Generated from twsrt Bash intent.\",",
                "unexpected line: {line:?}"
            );
        }
    }
    assert!(current.is_none(), "unclosed prefix_rule");
    assert_eq!(blocks.len(), deny.len(), "one prefix_rule per deny rule");
    for ((pattern, matched), rule) in blocks.iter().zip(deny) {
        let words = twsrt_fuzz::shlex_split(rule.pattern).expect("rendered, so splittable");
        assert_eq!(pattern, &words, "pattern words of {:?}", rule.pattern);
        assert_eq!(
            matched,
            &vec![rule.pattern.to_string()],
            "match of {:?}",
            rule.pattern
        );
    }
}

/// Quotes and brackets balance on every line (strings are JSON strings; a
/// line may open `prefix_rule(` or close it with `)`).
fn check_line(line: &str) {
    let mut depth: i32 = 0;
    let mut in_string = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if in_string {
            match c {
                '\\' => {
                    chars.next().expect("escape at end of line");
                }
                '"' => in_string = false,
                c if (c as u32) < 0x20 => panic!("raw control character in {line:?}"),
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '[' | '(' => depth += 1,
            ']' | ')' => {
                depth -= 1;
                assert!(depth >= -1, "brackets close too often: {line:?}");
            }
            _ => {}
        }
    }
    assert!(!in_string, "string not closed on its line: {line:?}");
    let opens_or_closes = line == "prefix_rule(" || line == ")";
    assert!(
        depth == 0 || opens_or_closes,
        "unbalanced brackets: {line:?}"
    );
}
