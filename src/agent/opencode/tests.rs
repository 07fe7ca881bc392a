//! The mapping, row by row; the preview's exact bytes; the merge and its
//! ordering traps, each checked with OpenCode's own rule (the last
//! matching entry decides); staging; diff with directions.

use serde_json::{Value, json};

use super::mapping::{self, Entry, Verdict};
use super::merge::{self, Rule};
use super::*;
use crate::compile::compile;
use crate::drift::{Direction, Side};
use crate::rules::{Action, Scope, SecurityRule};

fn rule(scope: Scope, action: Action, pattern: &str) -> SecurityRule<'_> {
    SecurityRule {
        scope,
        action,
        pattern,
    }
}

fn translate(rules: &[SecurityRule]) -> (Vec<Entry>, Vec<String>) {
    let mut warnings = Vec::new();
    let out = mapping::translate(rules, &mut warnings).unwrap();
    (out, crate::agent::messages(&warnings))
}

/// (key, pattern, action) of each entry.
fn shapes(entries: &[Entry]) -> Vec<(&str, &str, &str)> {
    entries
        .iter()
        .map(|e| (e.key, e.pattern.as_str(), e.verdict.as_str()))
        .collect()
}

/// What OpenCode decides for `key` and `text` under the config `doc`: the
/// last matching entry, `None` when none matches.
fn decides(doc: &Value, key: &str, text: &str) -> Option<Verdict> {
    merge::permission_rules(doc)
        .unwrap()
        .into_iter()
        .rev()
        .find(|r| pattern::matches(key, &r.key) && pattern::matches(text, &r.pattern))
        .map(|r| r.verdict)
}

fn merged(existing: Value, rules: &[SecurityRule]) -> merge::Merged {
    let (ours, _) = translate(rules);
    merge::merge(Some(&existing), &ours, &|_| false).unwrap()
}

const FORCE: &str = "git push --force";

#[test]
fn bash_deny_and_ask_are_command_patterns() {
    let rules = [
        rule(Scope::Execute, Action::Ask, "git push"),
        rule(Scope::Execute, Action::Deny, FORCE),
        rule(Scope::Execute, Action::Allow, "git status"),
    ];
    let (out, warnings) = translate(&rules);
    assert_eq!(
        shapes(&out),
        [
            ("bash", "git push *", "ask"),
            ("bash", "git push --force *", "deny")
        ]
    );
    assert_eq!(out[1].origin.list, "deny");
    assert_eq!(out[1].origin.rule, FORCE);
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].contains("as written"));
}

#[test]
fn a_deny_replaces_an_ask_of_the_same_command() {
    let rules = [
        rule(Scope::Execute, Action::Ask, "sudo"),
        rule(Scope::Execute, Action::Deny, "sudo"),
        rule(Scope::Execute, Action::Ask, "sudo"),
    ];
    assert_eq!(shapes(&translate(&rules).0), [("bash", "sudo *", "deny")]);
}

#[test]
fn a_compound_bash_rule_is_said_to_never_match() {
    let (_, warnings) = translate(&[rule(Scope::Execute, Action::Deny, "curl | sh")]);
    assert!(
        warnings[0].contains("never match: 'curl | sh'"),
        "{warnings:?}"
    );
}

#[test]
fn an_empty_command_or_a_nul_is_an_error() {
    let mut w = Vec::new();
    assert!(mapping::translate(&[rule(Scope::Execute, Action::Deny, "  ")], &mut w).is_err());
    assert!(mapping::translate(&[rule(Scope::Read, Action::Deny, "a\0b")], &mut w).is_err());
}

#[test]
fn deny_read_is_read_by_tail_and_external_directory() {
    let (out, warnings) = translate(&[rule(Scope::Read, Action::Deny, "~/.ssh")]);
    assert_eq!(
        shapes(&out),
        [
            ("read", ".ssh", "deny"),
            ("read", "*/.ssh", "deny"),
            ("read", ".ssh/*", "deny"),
            ("read", "*/.ssh/*", "deny"),
            ("external_directory", "~/.ssh/*", "deny"),
        ]
    );
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].contains("relative to the"));
}

#[test]
fn deny_write_is_edit_by_tail() {
    let (out, _) = translate(&[rule(Scope::Write, Action::Deny, "/etc/hosts")]);
    assert_eq!(
        shapes(&out),
        [
            ("edit", "etc/hosts", "deny"),
            ("edit", "*/etc/hosts", "deny"),
            ("edit", "etc/hosts/*", "deny"),
            ("edit", "*/etc/hosts/*", "deny"),
        ]
    );
}

#[test]
fn a_double_star_inside_a_path_also_matches_no_directory() {
    let (out, _) = translate(&[rule(Scope::Write, Action::Deny, "/p/**/x.key")]);
    let patterns: Vec<&str> = out.iter().map(|e| e.pattern.as_str()).collect();
    assert!(patterns.contains(&"*/p/**/x.key"));
    assert!(patterns.contains(&"*/p/x.key"));
    assert_eq!(out.len(), 8);
}

#[test]
fn tails_of_each_path_spelling() {
    assert_eq!(mapping::tail_of("~/.aws/"), ".aws");
    assert_eq!(mapping::tail_of("/etc/shadow"), "etc/shadow");
    assert_eq!(mapping::tail_of("./secrets"), "secrets");
    assert_eq!(mapping::tail_of("**/.env"), ".env");
    assert_eq!(mapping::tail_of("~"), "*");
    assert_eq!(mapping::tail_of("/"), "*");
}

#[test]
fn the_tail_patterns_match_the_paths_opencode_asks_with() {
    let (out, _) = translate(&[rule(Scope::Read, Action::Deny, "~/.docker/config.json")]);
    let doc = json!({"permission": {"read": out.iter().map(|e| (e.pattern.clone(), json!("deny"))).collect::<serde_json::Map<_, _>>()}});
    // The file as seen from a project elsewhere in home, from outside home,
    // from home itself; a project file of that name elsewhere is not it.
    for seen in [
        "../.docker/config.json",
        "../../../home/u/.docker/config.json",
        ".docker/config.json",
    ] {
        assert_eq!(decides(&doc, "read", seen), Some(Verdict::Deny), "{seen}");
    }
    assert_eq!(decides(&doc, "read", "app/config.json"), None);
}

#[test]
fn denied_domains_make_webfetch_ask_and_allowed_ones_are_said() {
    let rules = [
        rule(Scope::Network, Action::Deny, "evil.com"),
        rule(Scope::Network, Action::Deny, "*.bad.org"),
        rule(Scope::Network, Action::Allow, "github.com"),
    ];
    let (out, warnings) = translate(&rules);
    assert_eq!(shapes(&out), [("webfetch", "*", "ask")]);
    assert_eq!(warnings.len(), 2);
    assert!(warnings[0].contains("every fetch ask"));
    assert!(warnings[1].contains("1 allowedDomains entry is not"));
}

#[test]
fn the_preview_is_exact() {
    let rules = [
        rule(Scope::Execute, Action::Ask, "git push"),
        rule(Scope::Execute, Action::Deny, FORCE),
        rule(Scope::Read, Action::Deny, "~/.ssh"),
        rule(Scope::Network, Action::Deny, "evil.com"),
    ];
    let (ours, _) = translate(&rules);
    assert_eq!(
        preview_text(&ours).unwrap(),
        r#"{
  "permission": {
    "external_directory": {
      "~/.ssh/*": "deny"
    },
    "read": {
      ".ssh": "deny",
      "*/.ssh": "deny",
      ".ssh/*": "deny",
      "*/.ssh/*": "deny"
    },
    "bash": {
      "git push *": "ask",
      "git push --force *": "deny"
    },
    "webfetch": "ask"
  }
}"#
    );
}

#[test]
fn a_new_file_starts_with_the_schema() {
    let (ours, _) = translate(&[rule(Scope::Execute, Action::Deny, "sudo")]);
    let m = merge::merge(None, &ours, &|_| false).unwrap();
    assert_eq!(
        crate::pyjson::to_pretty(&m.value),
        "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"permission\": {\n    \
         \"bash\": {\n      \"sudo *\": \"deny\"\n    }\n  }\n}"
    );
}

#[test]
fn foreign_keys_and_entries_are_kept() {
    let existing = json!({
        "theme": "dark",
        "permission": {"lsp": "allow", "bash": {"npm test": "allow"}},
        "model": "x/y"
    });
    let m = merged(existing, &[rule(Scope::Execute, Action::Deny, FORCE)]);
    assert_eq!(
        m.value,
        json!({
            "theme": "dark",
            "permission": {"lsp": "allow", "bash": {"npm test": "allow", "git push --force *": "deny"}},
            "model": "x/y"
        })
    );
    assert!(m.foreign.is_empty());
    assert!(!m.reordered);
    // Key order kept too.
    let keys: Vec<&String> = m.value.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["theme", "permission", "model"]);
}

#[test]
fn trap_a_broad_allow_after_a_narrow_deny() {
    // Before: the allow after the deny wins (measured with the real client).
    let existing =
        json!({"permission": {"bash": {"git push --force *": "deny", "git *": "allow"}}});
    assert_eq!(
        decides(&existing, "bash", "git push --force"),
        Some(Verdict::Allow)
    );
    let m = merged(existing, &[rule(Scope::Execute, Action::Deny, FORCE)]);
    assert_eq!(
        m.value,
        json!({"permission": {"bash": {"git *": "allow", "git push --force *": "deny"}}})
    );
    assert_eq!(
        decides(&m.value, "bash", "git push --force"),
        Some(Verdict::Deny)
    );
    assert_eq!(
        decides(&m.value, "bash", "git status"),
        Some(Verdict::Allow)
    );
}

#[test]
fn trap_a_wildcard_key_after_twsrts_keys() {
    let existing = json!({"permission": {"read": {"notes/*": "allow"}, "*": "allow"}});
    let m = merged(existing, &[rule(Scope::Read, Action::Deny, "~/.ssh")]);
    let keys: Vec<&String> = m.value["permission"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["*", "external_directory", "read"]);
    assert_eq!(
        decides(&m.value, "read", "../.ssh/id_rsa"),
        Some(Verdict::Deny)
    );
    assert!(m.reordered, "the `*` key moved before read");
}

#[test]
fn trap_a_star_default_as_a_plain_action() {
    for existing in [
        json!({"permission": "allow"}),
        json!({"permission": {"bash": "allow"}}),
    ] {
        let m = merged(
            existing.clone(),
            &[rule(Scope::Execute, Action::Deny, "sudo")],
        );
        assert_eq!(decides(&m.value, "bash", "sudo rm"), Some(Verdict::Deny));
        assert_eq!(decides(&m.value, "bash", "ls"), Some(Verdict::Allow));
        assert!(m.foreign.is_empty());
    }
    let m = merged(
        json!({"permission": {"bash": "allow"}}),
        &[rule(Scope::Execute, Action::Deny, "sudo")],
    );
    assert_eq!(
        m.value,
        json!({"permission": {"bash": {"*": "allow", "sudo *": "deny"}}})
    );
}

#[test]
fn trap_twsrts_ask_after_a_foreign_deny() {
    // The user's own deny must not be undone by twsrt's ask.
    let existing = json!({"permission": {"bash": {"git push *": "deny"}}});
    let m = merged(
        existing,
        &[rule(Scope::Execute, Action::Ask, "git push origin")],
    );
    assert_eq!(
        m.value,
        json!({"permission": {"bash": {"git push origin *": "ask", "git push *": "deny"}}})
    );
    assert_eq!(
        decides(&m.value, "bash", "git push origin main"),
        Some(Verdict::Deny)
    );
}

#[test]
fn trap_a_wildcard_key_deny_twsrts_ask_would_undo_is_refused() {
    // `"*": "deny"` must come before twsrt's keys (a wildcard key after
    // them would decide), so twsrt's ask after it would win for git push.
    let existing = json!({"permission": {"*": "deny"}});
    let m = merged(existing, &[rule(Scope::Execute, Action::Ask, "git push")]);
    assert_eq!(
        m.foreign,
        [("permission.*".to_string(), "\"*\": \"deny\"".to_string())]
    );
    // A deny of twsrt's own needs no consent.
    let m = merged(
        json!({"permission": {"*": "deny"}}),
        &[rule(Scope::Execute, Action::Deny, "sudo")],
    );
    assert!(m.foreign.is_empty());
}

#[test]
fn trap_a_foreign_exception_after_a_foreign_deny_is_reported() {
    let existing = json!({"permission": {"read": {"*": "deny", "src/*": "allow"}}});
    let m = merged(existing, &[rule(Scope::Read, Action::Deny, "~/.ssh")]);
    assert!(m.reordered);
    // Narrower than before, never wider.
    assert_eq!(
        decides(&m.value, "read", "src/main.rs"),
        Some(Verdict::Deny)
    );
}

#[test]
fn weakening_a_foreign_deny_is_refused_unless_recorded() {
    let existing = json!({"permission": {"bash": {"sudo *": "deny"}}});
    let (ours, _) = translate(&[rule(Scope::Execute, Action::Ask, "sudo")]);
    let m = merge::merge(Some(&existing), &ours, &|_| false).unwrap();
    assert_eq!(
        m.foreign,
        [(
            "permission.bash".to_string(),
            "\"sudo *\": \"deny\"".to_string()
        )]
    );
    let recorded = |r: &Rule| r.pattern == "sudo *" && r.verdict == Verdict::Deny;
    let m = merge::merge(Some(&existing), &ours, &recorded).unwrap();
    assert!(m.foreign.is_empty());
    assert_eq!(m.value, json!({"permission": {"bash": {"sudo *": "ask"}}}));
}

#[test]
fn a_recorded_entry_the_policy_dropped_goes() {
    let existing = json!({"permission": {"bash": {"dd *": "deny", "make *": "allow"}}});
    let (ours, _) = translate(&[rule(Scope::Execute, Action::Deny, "sudo")]);
    let recorded = |r: &Rule| r.pattern == "dd *";
    let m = merge::merge(Some(&existing), &ours, &recorded).unwrap();
    assert_eq!(
        m.value,
        json!({"permission": {"bash": {"make *": "allow", "sudo *": "deny"}}})
    );
    assert!(m.foreign.is_empty());
    // Not recorded: the foreign deny stays.
    let m = merge::merge(Some(&existing), &ours, &|_| false).unwrap();
    assert_eq!(decides(&m.value, "bash", "dd if=x"), Some(Verdict::Deny));
}

#[test]
fn webfetch_keeps_the_strictest_action() {
    let rules = [rule(Scope::Network, Action::Deny, "evil.com")];
    for (have, want) in [("allow", "ask"), ("ask", "ask"), ("deny", "deny")] {
        let m = merged(json!({"permission": {"webfetch": have}}), &rules);
        assert_eq!(m.value["permission"]["webfetch"], want, "{have}");
    }
}

#[test]
fn the_merge_refuses_what_opencode_would_not_load() {
    let (ours, _) = translate(&[rule(Scope::Execute, Action::Deny, "sudo")]);
    for bad in [
        json!([]),
        json!({"permission": 3}),
        json!({"permission": {"bash": {"x": "maybe"}}}),
    ] {
        assert!(
            merge::merge(Some(&bad), &ours, &|_| false).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn per_agent_permissions_are_found() {
    let doc =
        json!({"agent": {"build": {"permission": {"bash": "allow"}}, "plan": {"model": "x"}}});
    assert_eq!(merge::agent_permissions(&doc), ["build"]);
    assert!(merge::agent_permissions(&json!({})).is_empty());
}

#[test]
fn drift_directions() {
    let (ours, _) = translate(&[
        rule(Scope::Execute, Action::Deny, FORCE),
        rule(Scope::Execute, Action::Ask, "npm install"),
    ]);
    let same = merge::merge(None, &ours, &|_| false).unwrap().value;
    assert!(drift::compare(&ours, &same).unwrap().is_empty());

    let edited = json!({"permission": {"bash": {
        "git push --force *": "deny",
        "git *": "allow",
        "rm *": "deny"
    }}});
    let found = drift::compare(&ours, &edited).unwrap();
    let shown: Vec<(&str, Side, Direction)> = found
        .iter()
        .map(|d| (d.shown.as_str(), d.side, d.direction))
        .collect();
    assert_eq!(
        shown,
        [
            (
                "permission.bash \"git push --force *\": \"deny\" (undone by permission.bash \
                 \"git *\": \"allow\" after it)",
                Side::Missing,
                Direction::Widening
            ),
            (
                "permission.bash \"npm install *\": \"ask\"",
                Side::Missing,
                Direction::Widening
            ),
            (
                "permission.bash \"git *\": \"allow\"",
                Side::Extra,
                Direction::Widening
            ),
            (
                "permission.bash \"rm *\": \"deny\"",
                Side::Extra,
                Direction::Narrowing
            ),
        ]
    );
}

#[test]
fn drift_sees_a_wildcard_key_undoing_a_deny() {
    let (ours, _) = translate(&[rule(Scope::Execute, Action::Deny, "sudo")]);
    let doc = json!({"permission": {"bash": {"sudo *": "deny"}, "*": "allow"}});
    let found = drift::compare(&ours, &doc).unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].direction, Direction::Widening);
    assert!(
        found[0]
            .shown
            .contains("undone by permission.* \"*\": \"allow\"")
    );
}

// Staging and diff through a config.toml.

const SRT: &str = r#"{"filesystem": {"denyRead": ["~/.ssh"], "allowWrite": ["."], "denyWrite": []}, "network": {"allowedDomains": [], "deniedDomains": []}}"#;
const BASH: &str = r#"{"deny": ["sudo"], "ask": []}"#;

fn setup(existing: Option<&str>) -> (tempfile::TempDir, Config) {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("opencode.json");
    if let Some(text) = existing {
        std::fs::write(&target, text).unwrap();
    }
    let cfg = format!(
        "schema_version = 1\ndefault_profile = \"d\"\n[sources.srt]\noutput = \"srt.json\"\n\
         [sources.srt.fragments.a]\npath = \"srt.jsonc\"\n[sources.bash]\noutput = \"bash.json\"\n\
         [sources.bash.fragments.a]\npath = \"bash.jsonc\"\n[profiles.d]\nsrt = [\"a\"]\nbash = [\"a\"]\n\
         [targets]\nopencode_config = {:?}\n",
        target.display().to_string()
    );
    std::fs::write(dir.path().join("srt.jsonc"), SRT).unwrap();
    std::fs::write(dir.path().join("bash.jsonc"), BASH).unwrap();
    let config = crate::config::parse(&cfg, &dir.path().join("config.toml")).unwrap();
    (dir, config)
}

fn staged(config: &Config, drop_foreign: bool) -> Result<(Plan, Vec<Code>)> {
    let compiled = compile(config, None).unwrap();
    let mut ctx = Ctx::new(config, &compiled, false);
    ctx.drop_foreign = drop_foreign;
    let mut plan = Plan::default();
    let mut warnings = Vec::new();
    stage(&ctx, &mut plan, &mut warnings)?;
    Ok((plan, warnings.iter().map(|w| w.code).collect()))
}

fn written(plan: &Plan, path: &Path) -> String {
    plan.steps
        .iter()
        .find_map(|s| match s {
            crate::plan::Step::Write {
                path: p, content, ..
            } if p == path => Some(String::from_utf8(content.clone()).unwrap()),
            _ => None,
        })
        .unwrap()
}

#[test]
fn stage_merges_a_commented_file_and_says_the_comments_go() {
    let (dir, config) = setup(Some(
        "{\n  // mine\n  \"theme\": \"x\",\n  \"permission\": {\"bash\": {\"ls *\": \"allow\",},},\n}\n",
    ));
    let (plan, codes) = staged(&config, false).unwrap();
    let text = written(&plan, &dir.path().join("opencode.json"));
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["theme"], "x");
    assert_eq!(
        doc["permission"]["bash"],
        json!({"ls *": "allow", "sudo *": "deny"})
    );
    assert!(text.ends_with("}\n"));
    assert!(codes.contains(&super::codes::COMMENTS_DROPPED));
    assert!(codes.contains(&super::codes::NO_SANDBOX));
}

#[test]
fn stage_refuses_to_weaken_a_foreign_deny_without_drop_foreign() {
    let (_dir, config) = setup(Some(
        r#"{"permission": {"external_directory": {"~/.ssh/*": "ask"}, "bash": {"sudo *": "allow", "ls *": "deny"}}}"#,
    ));
    // The foreign allow on twsrt's pattern is replaced (narrowing), the
    // foreign deny kept: nothing to refuse.
    assert!(staged(&config, false).is_ok());
    let (_dir, config) = setup(Some(r#"{"permission": {"bash": {"sudo *": "deny"}}}"#));
    assert!(
        staged(&config, false).is_ok(),
        "the same action is no weakening"
    );
    let compiled_ask = r#"{"deny": [], "ask": ["sudo"]}"#;
    let (dir, config) = setup(Some(r#"{"permission": {"bash": {"sudo *": "deny"}}}"#));
    std::fs::write(dir.path().join("bash.jsonc"), compiled_ask).unwrap();
    let err = staged(&config, false).unwrap_err().to_string();
    assert!(
        err.contains("permission.bash: \"sudo *\": \"deny\""),
        "{err}"
    );
    assert!(staged(&config, true).is_ok());
}

#[test]
fn diff_reports_a_missing_target_and_drift() {
    let (dir, config) = setup(None);
    let compiled = compile(&config, None).unwrap();
    let ctx = Ctx::new(&config, &compiled, false);
    assert!(matches!(
        diff(&ctx, &mut Vec::new()).unwrap(),
        AgentDiff::TargetMissing(_)
    ));
    std::fs::write(
        dir.path().join("opencode.json"),
        r#"{"permission": {"bash": {"*": "allow", "sudo *": "deny"}}}"#,
    )
    .unwrap();
    let AgentDiff::Compared(found) = diff(&ctx, &mut Vec::new()).unwrap() else {
        panic!("compared");
    };
    // The read entries are missing; `*` is an extra allow; sudo holds.
    assert!(found.iter().all(|d| d.direction == Direction::Widening));
    assert!(
        found
            .iter()
            .any(|d| d.shown == "permission.bash \"*\": \"allow\"")
    );
    assert!(!found.iter().any(|d| d.entry.contains("sudo")));
}

#[test]
fn the_target_must_be_json() {
    assert!(not_json(Path::new("/x/opencode.toml")).is_some());
    assert!(not_json(Path::new("/x/opencode.jsonc")).is_none());
}

#[test]
fn drift_counts_a_stricter_webfetch_as_narrowing() {
    let (ours, _) = translate(&[rule(Scope::Network, Action::Deny, "evil.com")]);
    let found = drift::compare(&ours, &json!({"permission": {"webfetch": "deny"}})).unwrap();
    let shown: Vec<(Side, Direction)> = found.iter().map(|d| (d.side, d.direction)).collect();
    assert_eq!(shown, [(Side::Extra, Direction::Narrowing)]);
    let found = drift::compare(&ours, &json!({"permission": {"webfetch": "allow"}})).unwrap();
    assert!(found.iter().all(|d| d.direction == Direction::Widening));
    assert_eq!(found.len(), 2);
}

// The deprecated `tools` map and `mode` agents (evaluated.rs).

#[test]
fn trap_a_tools_map_puts_a_wildcard_allow_after_twsrts_keys() {
    // OpenCode turns `tools` into permission keys placed before the
    // `permission` object's: `read` keeps the tools place, and `"*":
    // "allow"` comes after it. Measured with the real client: the read of
    // ~/.ssh/id_rsa ran.
    let (_dir, config) = setup(Some(
        r#"{"tools": {"read": true, "external_directory": true, "*": true}}"#,
    ));
    let err = staged(&config, true).unwrap_err().to_string();
    assert!(err.contains("undone by tools.* \"*\": \"allow\""), "{err}");
    assert!(err.contains("`tools`"), "{err}");
    // A tools entry that only denies, or names no wildcard after twsrt's
    // keys, leaves the entries in force.
    let (_dir, config) = setup(Some(
        r#"{"tools": {"*": true, "read": true, "bash": false}}"#,
    ));
    assert!(staged(&config, false).is_ok());
}

#[test]
fn drift_sees_tools_and_agent_permissions_undoing() {
    let (ours, _) = translate(&[rule(Scope::Execute, Action::Deny, "sudo")]);
    let clean = merge::merge(None, &ours, &|_| false).unwrap().value;
    for (extra, by) in [
        (json!({"tools": {"bash": true, "*": true}}), "tools.*"),
        (
            json!({"agent": {"build": {"permission": {"*": "allow"}}}}),
            "agent.build.permission.*",
        ),
        (
            json!({"mode": {"build": {"permission": {"bash": "allow"}}}}),
            "mode.build.permission.bash",
        ),
        (
            json!({"agent": {"plan": {"tools": {"bash": true}}}}),
            "agent.plan.tools.bash",
        ),
    ] {
        let mut doc = clean.clone();
        for (k, v) in extra.as_object().unwrap() {
            doc[k] = v.clone();
        }
        let found = drift::compare(&ours, &doc).unwrap();
        assert_eq!(found.len(), 1, "{doc}");
        assert_eq!(found[0].direction, Direction::Widening);
        assert!(
            found[0].shown.contains(&format!("undone by {by} ")),
            "{}",
            found[0].shown
        );
    }
}

#[test]
fn mode_agents_and_agent_tools_are_agent_permissions() {
    let doc = json!({"mode": {"build": {"permission": {"*": "allow"}}},
                     "agent": {"plan": {"tools": {"bash": true}}, "x": {"model": "m"}}});
    assert_eq!(merge::agent_permissions(&doc), ["plan", "mode.build"]);
}

#[test]
fn the_path_warning_names_the_grep_tool() {
    // Measured: `opencode debug agent build --tool grep` printed the lines
    // of a project `.env` under a `**/.env` denyRead; grep asks by its
    // search pattern, which no path rule can match.
    let (_, warnings) = translate(&[rule(Scope::Read, Action::Deny, "**/.env")]);
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("grep tool") && w.contains("twsrt run --srt")),
        "{warnings:?}"
    );
}
