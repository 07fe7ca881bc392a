//! `explain`: one row per layer and agent for a path, a domain or a
//! command; `--json`; exit 2 for a query that is none of them.

use serde_json::{Value, json};

use crate::support::*;

const POLICY: &str = r#"{
  "filesystem": {
    "denyRead": ["~/.ssh", "~/.aws"],
    "denyWrite": ["**/.env"],
    "allowWrite": ["~/work"]
  },
  "network": {
    "allowedDomains": ["*.example.org"],
    "deniedDomains": ["evil.com"]
  }
}"#;

const BASH: &str = r#"{
  "ask": ["git push"],
  "deny": ["rm", "git push --force"]
}"#;

fn policy() -> Test {
    Test::with_policy()
        .file(SRT_FRAGMENT, POLICY)
        .file(BASH_FRAGMENT, BASH)
}

fn explain(t: Test, args: &[&str]) -> Value {
    let mut all = vec!["explain", "--json"];
    all.extend_from_slice(args);
    // Agents without a target are named on stderr (`the_table_lists_...`).
    let out = t
        .args(&all)
        .stdout_contains("\"rows\"")
        .any_stderr()
        .unchanged()
        .run();
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout))
}

/// The row of `layer` for `access`, as (decision, rule, source).
fn row(doc: &Value, layer: &str, agent: &str, access: &str) -> (String, Value, Value) {
    let r = doc["rows"]
        .as_array()
        .and_then(|rows| {
            rows.iter()
                .find(|r| r["layer"] == layer && r["agent"] == agent && r["access"] == access)
        })
        .unwrap_or_else(|| panic!("no {layer}/{agent}/{access} row in {doc}"));
    (
        r["decision"].as_str().unwrap().to_string(),
        r["rule"].clone(),
        r["source"].clone(),
    )
}

fn deny(rule: &str, source: &str) -> (String, Value, Value) {
    ("deny".into(), json!(rule), json!(source))
}

#[test]
fn a_file_under_a_denied_directory_is_denied_by_the_directory_rule() {
    let doc = explain(policy(), &["~/.ssh/id_ed25519"]);
    assert_eq!(doc["query"], "~/.ssh/id_ed25519");
    assert_eq!(
        row(&doc, "srt", "srt", "read"),
        deny("~/.ssh", "srt/base.jsonc:3")
    );
    assert_eq!(
        row(&doc, "permissions", "claude", "read"),
        deny("~/.ssh", "srt/base.jsonc:3")
    );
    assert_eq!(
        row(&doc, "profile", "codex", "read"),
        deny("~/.ssh", "srt/base.jsonc:3")
    );
    // The compile write-denies every denyRead path.
    assert_eq!(
        row(&doc, "srt", "srt", "write"),
        deny("~/.ssh", "srt/base.jsonc:3 (denyRead)")
    );
    // Copilot's flags have no path rule, and an allowWrite makes twsrt
    // write `--allow-tool` for its file tools: they decide.
    let copilot = row(&doc, "flags", "copilot", "read");
    assert_eq!(copilot.0, "allow");
    let notes: Vec<&str> = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["agent"] == "copilot")
        .map(|r| r["note"].as_str().unwrap())
        .collect();
    assert_eq!(
        notes,
        [
            "--allow-tool 'read': no path rule stops it",
            "--allow-tool 'edit': no path rule stops it"
        ]
    );
    // Every layer, for read and then for write.
    assert_eq!(doc["rows"].as_array().unwrap().len(), 12);
}

#[test]
fn a_deny_glob_inside_an_allowwrite_dir_is_named_where_srt_cannot_enforce_it() {
    let doc = explain(policy(), &["~/work/app/.env"]);
    let rows = doc["rows"].as_array().unwrap();
    let srt_write = rows
        .iter()
        .find(|r| r["layer"] == "srt" && r["access"] == "write")
        .unwrap();
    if cfg!(target_os = "linux") {
        // srt drops glob patterns from its write lists here.
        assert_eq!(srt_write["decision"], "allow");
        assert_eq!(srt_write["rule"], "~/work");
        assert_eq!(srt_write["source"], "srt/base.jsonc:5");
        let note = srt_write["note"].as_str().unwrap();
        assert!(note.contains("**/.env") && note.contains("srt does not enforce this here"));
    } else {
        assert_eq!(srt_write["decision"], "deny");
    }
    // The agents' own rules match the glob.
    assert_eq!(
        row(&doc, "permissions", "claude", "write"),
        deny("**/.env", "srt/base.jsonc:4")
    );
    assert_eq!(
        row(&doc, "profile", "codex", "read"),
        deny("**/.env", "srt/base.jsonc:4")
    );
    // Next to the file, the allowWrite dir decides.
    let doc = explain(policy(), &["~/work/app/main.rs"]);
    assert_eq!(
        row(&doc, "srt", "srt", "write"),
        ("allow".into(), json!("~/work"), json!("srt/base.jsonc:5"))
    );
}

#[test]
fn a_symlinked_path_is_decided_by_where_it_leads() {
    let t = policy()
        .file("vault/aws/credentials", "[default]\n")
        .symlink(".aws", "vault/aws");
    let doc = explain(t, &["~/vault/aws/credentials"]);
    assert_eq!(
        row(&doc, "srt", "srt", "read"),
        deny("~/.aws", "srt/base.jsonc:3")
    );
}

#[test]
fn a_wildcard_domain_covers_its_subdomains_but_not_its_apex() {
    let doc = explain(policy(), &["api.example.org"]);
    let allowed = (
        "allow".into(),
        json!("*.example.org"),
        json!("srt/base.jsonc:8"),
    );
    assert_eq!(row(&doc, "srt", "srt", "network"), allowed);
    assert_eq!(row(&doc, "flags", "copilot", "network"), allowed);
    let apex = explain(policy(), &["example.org"]);
    assert_eq!(
        row(&apex, "srt", "srt", "network"),
        ("deny".into(), Value::Null, Value::Null)
    );
    assert_eq!(
        row(&apex, "permissions", "claude", "network").0,
        "not covered"
    );
    let denied = explain(policy(), &["evil.com"]);
    assert_eq!(
        row(&denied, "srt", "srt", "network"),
        deny("evil.com", "srt/base.jsonc:9")
    );
}

#[test]
fn a_denied_command_with_arguments_is_denied_by_its_longest_rule() {
    let doc = explain(policy(), &["--command", "git push --force origin main"]);
    for (layer, agent) in [
        ("permissions", "claude"),
        ("rules", "codex"),
        ("flags", "copilot"),
    ] {
        assert_eq!(
            row(&doc, layer, agent, "command"),
            deny("git push --force", "bash/base.jsonc:3"),
            "{layer}"
        );
    }
    assert_eq!(row(&doc, "srt", "srt", "command").0, "not covered");
    // An ask rule: Claude asks, Copilot has no ask tier.
    let ask = explain(policy(), &["--command", "git push origin"]);
    assert_eq!(
        row(&ask, "permissions", "claude", "command"),
        ("ask".into(), json!("git push"), json!("bash/base.jsonc:2"))
    );
    assert_eq!(row(&ask, "flags", "copilot", "command").0, "deny");
    assert_eq!(row(&ask, "rules", "codex", "command").0, "not covered");
}

#[test]
fn a_command_no_rule_covers_is_not_covered_anywhere() {
    let doc = explain(policy(), &["--command", "ls -la"]);
    let decisions: Vec<&str> = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["decision"].as_str().unwrap())
        .collect();
    // Only Copilot decides: its `--allow-tool 'shell'` lets through what
    // no `--deny-tool` stops.
    assert_eq!(
        decisions,
        [
            "not covered",
            "not covered",
            "not covered",
            "not covered",
            "not covered",
            "allow"
        ]
    );
    // "rm" covers "rm x" but not "rmdir x".
    let doc = explain(policy(), &["--command", "rmdir x"]);
    assert_eq!(
        row(&doc, "permissions", "claude", "command").0,
        "not covered"
    );
}

#[test]
fn the_table_lists_every_layer_with_its_rule_and_source() {
    policy()
        .args(&["explain", "evil.com"])
        .stdout(
            "explain evil.com\n\
             LAYER        AGENT    ACCESS   DECISION     RULE      SOURCE            NOTE\n\
             srt          srt      network  deny         evil.com  srt/base.jsonc:9\n\
             permissions  claude   network  deny         evil.com  srt/base.jsonc:9  permissions entry WebFetch(domain:evil.com)\n\
             sandbox      claude   network  not covered  -         -                 the Claude sandbox is off in this mode (sandbox.enabled)\n\
             profile      codex    network  deny         evil.com  srt/base.jsonc:9  enforced only with Codex's network_proxy feature\n\
             rules        codex    network  not covered  -         -                 execution rules only match commands\n\
             flags        copilot  network  deny         evil.com  srt/base.jsonc:9  --deny-url 'evil.com'\n",
        )
        .stderr(
            "Info: not configured in [targets]: claude, copilot, codex; their rows show what \
             `generate` would write for them\n",
        )
        .unchanged()
        .run();
    // With every agent configured, nothing is said; a URL asks about its host.
    policy()
        .targets()
        .args(&["explain", "https://Evil.com:8443/paste?x=1"])
        .stdout_contains("explain https://Evil.com:8443/paste?x=1\n")
        .stdout_contains("srt          srt      network  deny         evil.com")
        .unchanged()
        .run();
    policy()
        .args(&["explain", "https://[::1]/"])
        .status(2)
        .stderr(
            "Error: 'https://[::1]/' is a URL whose host '[::1]' is not a domain twsrt can \
             explain\n",
        )
        .unchanged()
        .run();
}

#[test]
fn a_query_that_is_no_path_domain_or_command_exits_2() {
    policy()
        .args(&["explain", "nonsense"])
        .status(2)
        .stderr_contains("'nonsense' is not a path, a domain or a command")
        .any_stderr()
        .unchanged()
        .run();
    policy()
        .args(&["explain", "--command", " "])
        .status(2)
        .any_stderr()
        .unchanged()
        .run();
}

#[test]
fn yolo_copilot_allows_what_no_deny_flag_stops() {
    let doc = explain(policy(), &["--yolo", "--command", "git push origin"]);
    assert_eq!(
        row(&doc, "flags", "copilot", "command"),
        ("allow".into(), Value::Null, Value::Null)
    );
    let doc = explain(policy(), &["--yolo", "--command", "rm -rf x"]);
    assert_eq!(row(&doc, "flags", "copilot", "command").0, "deny");
    let doc = explain(policy(), &["--yolo", "api.example.org"]);
    assert_eq!(row(&doc, "flags", "copilot", "network").0, "allow");
}

#[test]
fn the_guard_hook_row_appears_only_when_the_hook_is_installed() {
    let layers = |doc: &Value| -> Vec<String> {
        doc["rows"]
            .as_array()
            .map(|rows| rows.iter().map(|r| r["layer"].to_string()).collect())
            .unwrap_or_default()
    };
    let without = explain(policy(), &["--command", "cat ~/.ssh/id_rsa"]);
    assert!(
        !layers(&without).contains(&"\"hook\"".to_string()),
        "{without}"
    );

    let hooked = || policy().targets().config_append("claude_hook = true\n");
    // A command no Bash rule names: only the hook sees the file it opens.
    let doc = explain(hooked(), &["--command", "cat ~/.ssh/id_rsa"]);
    assert_eq!(row(&doc, "hook", "claude", "command").0, "deny", "{doc}");
    assert_eq!(
        row(&doc, "permissions", "claude", "command").0,
        "not covered",
        "{doc}"
    );
    // A path: the Read and Write events the file tools would send.
    let doc = explain(hooked(), &["~/.aws/config"]);
    assert_eq!(row(&doc, "hook", "claude", "read").0, "deny", "{doc}");
    assert_eq!(row(&doc, "hook", "claude", "write").0, "deny", "{doc}");
    let doc = explain(hooked(), &["~/work/notes.txt"]);
    assert_eq!(
        row(&doc, "hook", "claude", "read").0,
        "not covered",
        "{doc}"
    );
    // A recursive read above a denied directory asks in full mode and is
    // denied in yolo mode, where nobody is asked.
    let doc = explain(hooked(), &["--command", "grep -r key ~"]);
    assert_eq!(row(&doc, "hook", "claude", "command").0, "ask", "{doc}");
    let doc = explain(hooked(), &["--yolo", "--command", "grep -r key ~"]);
    assert_eq!(row(&doc, "hook", "claude", "command").0, "deny", "{doc}");
    // Domains are not the hook's business.
    let doc = explain(hooked(), &["evil.com"]);
    assert_eq!(row(&doc, "hook", "claude", "network").0, "not covered");
}

/// Gemini CLI's row follows its policy file: deny rules on its file tools
/// (denyRead for reads, denyWrite for writes), on web_fetch and on the
/// shell; ask rules only outside yolo; yolo runs the rest.
#[test]
fn the_gemini_row_appears_only_when_a_gemini_policy_is_compiled() {
    let doc = explain(policy(), &["~/.ssh/id_rsa"]);
    assert!(!doc["rows"].to_string().contains("\"gemini\""), "{doc}");
    let gemini = || {
        policy()
            .targets()
            .config_append("gemini_policy = \"~/.gemini/policies/twsrt.toml\"\n")
    };
    // A denyRead path is in the compiled denyWrite too.
    let doc = explain(gemini(), &["~/.ssh/id_rsa"]);
    assert_eq!(row(&doc, "policy", "gemini", "read").0, "deny", "{doc}");
    assert_eq!(row(&doc, "policy", "gemini", "write").0, "deny", "{doc}");
    let doc = explain(gemini(), &["~/work/.env"]);
    assert_eq!(
        row(&doc, "policy", "gemini", "read").0,
        "not covered",
        "{doc}"
    );
    assert_eq!(row(&doc, "policy", "gemini", "write").0, "deny", "{doc}");
    let doc = explain(gemini(), &["evil.com"]);
    assert_eq!(row(&doc, "policy", "gemini", "network").0, "deny", "{doc}");
    let doc = explain(gemini(), &["api.example.org"]);
    assert_eq!(
        row(&doc, "policy", "gemini", "network").0,
        "not covered",
        "{doc}"
    );
    let doc = explain(gemini(), &["--command", "git push origin"]);
    assert_eq!(row(&doc, "policy", "gemini", "command").0, "ask", "{doc}");
    let doc = explain(gemini(), &["--yolo", "--command", "git push origin"]);
    assert_eq!(row(&doc, "policy", "gemini", "command").0, "allow", "{doc}");
    let doc = explain(gemini(), &["--yolo", "--command", "rm -rf x"]);
    assert_eq!(row(&doc, "policy", "gemini", "command").0, "deny", "{doc}");
}

/// The Claude and Copilot rows are decided on what `generate` renders for
/// the mode: an entry a row names is in the rendered document, and a rule
/// the mode does not write decides nothing.
#[test]
fn the_agent_rows_agree_with_what_generate_renders_for_the_mode() {
    let generated = |yolo: bool| {
        let mut args = vec!["generate", "claude"];
        if yolo {
            args.push("--yolo");
        }
        policy()
            .targets()
            .args(&args)
            .any_stdout()
            .any_stderr()
            .run()
            .stdout
    };
    let (full, yolo) = (generated(false), generated(true));
    assert!(full.contains("\"Bash(git push *)\""), "{full}");
    assert!(!yolo.contains("\"ask\""), "{yolo}");
    // Full mode: the ask entry decides, and the row names it.
    let doc = explain(policy(), &["--command", "git push origin"]);
    assert_eq!(
        row(&doc, "permissions", "claude", "command"),
        ("ask".into(), json!("git push"), json!("bash/base.jsonc:2"))
    );
    let note = |doc: &Value, layer: &str, agent: &str| -> String {
        doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["layer"] == layer && r["agent"] == agent)
            .map(|r| r["note"].as_str().unwrap_or_default().to_string())
            .unwrap()
    };
    assert_eq!(
        note(&doc, "permissions", "claude"),
        "permissions entry Bash(git push *)"
    );
    // Yolo: the settings file has no ask list, so nothing asks.
    let doc = explain(policy(), &["--yolo", "--command", "git push origin"]);
    assert_eq!(
        row(&doc, "permissions", "claude", "command").0,
        "not covered",
        "{doc}"
    );
    // A deny the compile adds (the policy files) shows by itself.
    let doc = explain(policy(), &["~/.config/twsrt/config.toml"]);
    let (decision, rule, source) = row(&doc, "permissions", "claude", "write");
    assert_eq!(
        (decision.as_str(), rule, source),
        ("deny", json!("~/.config/twsrt/config.toml"), Value::Null)
    );
    assert!(
        full.contains("\"Edit(~/.config/twsrt/config.toml)\""),
        "{full}"
    );
    // Every entry a Claude row names is in the rendered file.
    for (query, yolo_mode) in [
        ("~/.ssh/id_ed25519", false),
        ("~/work/app/.env", true),
        ("evil.com", false),
        ("api.example.org", true),
    ] {
        let mut args = vec![query];
        if yolo_mode {
            args.insert(0, "--yolo");
        }
        let doc = explain(policy(), &args);
        let rendered = if yolo_mode { &yolo } else { &full };
        for r in doc["rows"].as_array().unwrap() {
            if let Some(entry) = r["note"]
                .as_str()
                .and_then(|n| n.strip_prefix("permissions entry "))
            {
                assert!(
                    rendered.contains(&format!("\"{entry}\"")),
                    "{entry} not in\n{rendered}"
                );
            }
        }
    }
}

/// Codex's rows read the profile and rules `generate codex` renders: a
/// `**/.env` deny is written under `":workspace_roots"`, so it holds inside
/// the workspace roots only; a policy file is a `read` entry, so it cannot
/// be written; a rule matches by its `pattern`.
#[test]
fn the_codex_rows_read_the_rendered_profile_and_rules() {
    let inside = explain(policy(), &["~/work/app/.env"]);
    assert_eq!(
        row(&inside, "profile", "codex", "read"),
        deny("**/.env", "srt/base.jsonc:4")
    );
    let outside = explain(policy(), &["~/elsewhere/.env"]);
    assert_eq!(row(&outside, "profile", "codex", "read").0, "allow");
    let config = explain(policy(), &["~/.config/twsrt/config.toml"]);
    assert_eq!(
        row(&config, "profile", "codex", "write"),
        (
            "deny".into(),
            json!("~/.config/twsrt/config.toml"),
            Value::Null
        )
    );
    assert_eq!(row(&config, "profile", "codex", "read").0, "allow");
    let doc = explain(policy(), &["--command", "rm -rf /"]);
    assert_eq!(
        row(&doc, "rules", "codex", "command"),
        deny("rm", "bash/base.jsonc:3")
    );
}

/// A policy Codex gets no profile for says so in its rows, and explain
/// still answers for every other layer.
#[test]
fn a_policy_codex_refuses_gives_no_codex_decision() {
    let t = Test::with_policy()
        .file(
            SRT_FRAGMENT,
            POLICY.replacen('{', "{\"enabled\": false,", 1),
        )
        .file(BASH_FRAGMENT, BASH);
    let doc = explain(t, &["~/.ssh/id_rsa"]);
    let (decision, _, _) = row(&doc, "profile", "codex", "read");
    assert_eq!(decision, "not covered", "{doc}");
    let note = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["agent"] == "codex" && r["layer"] == "profile")
        .and_then(|r| r["note"].as_str())
        .unwrap_or_default()
        .to_string();
    assert!(note.starts_with("Codex gets no profile: "), "{note}");
    assert_eq!(row(&doc, "srt", "srt", "read").0, "deny");
}

/// The Claude sandbox rows read the `sandbox` object and the permission
/// rules `generate` renders for the mode, not the srt settings: a yolo
/// override that replaces `sandbox.network` changes the yolo rows only,
/// and each domain the row names is in the rendered file.
#[test]
fn the_claude_sandbox_rows_read_the_rendered_sandbox_of_the_mode() {
    const OVERRIDE: &str = "\n[sandbox_overrides.full]\nenabled = true\n[sandbox_overrides.yolo]\nenabled = true\n\
        network = { allowedDomains = [\"*.example.org\"], deniedDomains = [\"api.example.org\"] }\n";
    let t = || policy().targets().config_append(OVERRIDE);
    let yolo = t()
        .args(&["generate", "claude", "--yolo"])
        .any_stdout()
        .any_stderr()
        .run();
    let yolo = format!("{}{}", yolo.stdout, yolo.stderr);
    assert!(yolo.contains("\"deniedDomains\""), "{yolo}");
    // srt itself lets api.example.org through (allowedDomains *.example.org).
    let full = explain(t(), &["api.example.org"]);
    assert_eq!(row(&full, "srt", "srt", "network").0, "allow");
    assert_eq!(row(&full, "sandbox", "claude", "network").0, "allow");
    let doc = explain(t(), &["--yolo", "api.example.org"]);
    let (decision, rule, _) = row(&doc, "sandbox", "claude", "network");
    assert_eq!(
        (decision.as_str(), rule),
        ("deny", json!("api.example.org"))
    );
    assert_eq!(row(&doc, "srt", "srt", "network").0, "allow");
    // Paths: the Read/Edit rules of the rendered file decide.
    let doc = explain(t(), &["~/.ssh/id_ed25519"]);
    assert_eq!(
        row(&doc, "sandbox", "claude", "read"),
        deny("~/.ssh", "srt/base.jsonc:3")
    );
    let full_render = t()
        .args(&["generate", "claude"])
        .any_stdout()
        .any_stderr()
        .run()
        .stdout;
    assert!(full_render.contains("\"Read(~/.ssh)\""), "{full_render}");
}

/// Gemini's row runs the policy file `generate gemini` renders through
/// Gemini's rule order, so it says what that file does where the policy
/// and the file differ: a compound command is checked part by part, a
/// bracket class is widened to any character, a relative deny holds at any
/// depth, a `~user` path (which the file cannot spell) denies nothing, and
/// a wildcard domain is decided for one subdomain.
#[test]
fn the_gemini_row_follows_the_rendered_policy_file_where_it_differs_from_the_policy() {
    let srt = r#"{
  "filesystem": {
    "denyRead": ["~/.config/[ab]pp", "secrets", "~bob/private"],
    "allowWrite": ["~/work"]
  },
  "network": { "deniedDomains": ["*.evil.com"] }
}"#;
    let gemini = || {
        Test::with_policy()
            .file(SRT_FRAGMENT, srt)
            .file(BASH_FRAGMENT, BASH)
            .targets()
            .config_append("gemini_policy = \"~/.gemini/policies/twsrt.toml\"\n")
    };
    let rendered = gemini()
        .args(&["generate", "gemini"])
        .any_stdout()
        .any_stderr()
        .run()
        .stdout;
    assert!(!rendered.contains("bob"), "{rendered}");
    // The bash rules: the srt layer knows no commands, the Gemini file
    // denies the `rm` part of a list.
    let doc = explain(gemini(), &["--command", "ls && rm -rf x"]);
    assert_eq!(
        row(&doc, "policy", "gemini", "command"),
        deny("rm", "bash/base.jsonc:3")
    );
    assert_eq!(
        row(&doc, "permissions", "claude", "command").0,
        "not covered",
        "{doc}"
    );
    // `[ab]` became "one character": `xpp` is denied too.
    let doc = explain(gemini(), &["~/.config/xpp/key"]);
    assert_eq!(
        row(&doc, "policy", "gemini", "read"),
        deny("~/.config/[ab]pp", "srt/base.jsonc:3")
    );
    assert_eq!(row(&doc, "srt", "srt", "read").0, "allow", "{doc}");
    // A relative deny: any directory's `secrets`, not only the working one's.
    let doc = explain(gemini(), &["/srv/other/secrets/token"]);
    assert_eq!(
        row(&doc, "policy", "gemini", "read"),
        deny("secrets", "srt/base.jsonc:3")
    );
    // The file has no rule for `~bob`.
    let doc = explain(gemini(), &["/home/bob/private/notes"]);
    let (decision, rule, _) = row(&doc, "policy", "gemini", "read");
    assert_eq!((decision.as_str(), rule), ("not covered", Value::Null));
    // `*.evil.com`: any subdomain is denied, the apex is not.
    let doc = explain(gemini(), &["*.evil.com"]);
    assert_eq!(
        row(&doc, "policy", "gemini", "network"),
        deny("*.evil.com", "srt/base.jsonc:6")
    );
    let doc = explain(gemini(), &["evil.com"]);
    assert_eq!(
        row(&doc, "policy", "gemini", "network").0,
        "not covered",
        "{doc}"
    );
}

/// With every layer shown, the rows come in one fixed order for each
/// access (srt, then Claude's, Codex's, Copilot's and Gemini's layers),
/// which is not the order `generate all` runs the agents in.
#[test]
fn every_layer_is_listed_in_one_fixed_order_for_each_access() {
    let t = policy()
        .targets()
        .config_append("claude_hook = true\ngemini_policy = \"~/.gemini/policies/twsrt.toml\"\n");
    let doc = explain(t, &["~/work/notes.txt"]);
    let rows: Vec<String> = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| format!("{} {} {}", r["access"], r["agent"], r["layer"]).replace('"', ""))
        .collect();
    let each = |access: &str| {
        [
            "srt srt",
            "claude permissions",
            "claude sandbox",
            "claude hook",
            "codex profile",
            "codex rules",
            "copilot flags",
            "gemini policy",
        ]
        .map(|layer| format!("{access} {layer}"))
    };
    let expected: Vec<String> = each("read").into_iter().chain(each("write")).collect();
    assert_eq!(rows, expected, "{doc}");
}

#[test]
fn the_guard_hook_row_shows_a_bash_deny_rule_matched_by_meaning() {
    let hooked = || {
        Test::with_policy()
            .file(SRT_FRAGMENT, POLICY)
            .file(BASH_FRAGMENT, r#"{"deny": ["rm -rf"]}"#)
            .targets()
            .config_append("claude_hook = true\n")
    };
    let doc = explain(hooked(), &["--command", "rm -fr x"]);
    // Claude's prefix rule `Bash(rm -rf:*)` does not match `rm -fr`.
    assert_eq!(
        row(&doc, "permissions", "claude", "command").0,
        "not covered",
        "{doc}"
    );
    assert_eq!(row(&doc, "hook", "claude", "command").0, "deny", "{doc}");
    assert!(
        doc.to_string()
            .contains("falls under the policy's bash deny rule 'rm -rf'"),
        "{doc}"
    );
    let doc = explain(hooked(), &["--command", "rm -r x"]);
    assert_eq!(
        row(&doc, "hook", "claude", "command").0,
        "not covered",
        "{doc}"
    );
}

/// The usage line names both forms of the query: a path, domain or URL,
/// or `--command`.
#[test]
fn the_usage_line_names_the_command_form() {
    Test::new()
        .args(&["explain", "--help"])
        .stdout_contains(
            "Usage: twsrt explain [OPTIONS] <PATH|DOMAIN|URL>\n       \
             twsrt explain [OPTIONS] --command <CMD>\n",
        )
        .run();
}

/// Where a wildcard (or a port) takes part, the Codex and Copilot domain
/// rows say they follow srt's matching (their own is not measured);
/// Claude's WebFetch rules go into srt's lists, so its rows need no such
/// note.
#[test]
fn domain_rows_with_a_wildcard_say_they_follow_srt_s_matching() {
    const SRT_NOTE: &str =
        "matched as srt matches domains (ports, `*`): this agent's own matching is not measured";
    let note = |doc: &Value, layer: &str, agent: &str| -> String {
        doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["layer"] == layer && r["agent"] == agent)
            .map(|r| r["note"].as_str().unwrap_or_default().to_string())
            .unwrap_or_else(|| panic!("no {layer}/{agent} row in {doc}"))
    };
    for query in ["api.example.org", "https://api.example.org:8443/x"] {
        let doc = explain(policy(), &[query]);
        for (layer, agent) in [("profile", "codex"), ("flags", "copilot")] {
            let got = note(&doc, layer, agent);
            assert!(got.ends_with(SRT_NOTE), "{query} {agent}: {got}");
        }
        assert!(!note(&doc, "permissions", "claude").contains(SRT_NOTE));
    }
    let doc = explain(policy(), &["evil.com"]);
    assert_eq!(
        note(&doc, "profile", "codex"),
        "enforced only with Codex's network_proxy feature"
    );
    assert_eq!(note(&doc, "flags", "copilot"), "--deny-url 'evil.com'");
}
