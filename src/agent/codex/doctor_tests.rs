//! The Codex doctor checks on a small policy (`crate::lint::tests::Policy`):
//! each fires with its entries' positions, only with a Codex target, and
//! reads the config layers `audit` reads.

use crate::agent::codex::codes;
use crate::diag::{Code, Severity};
use crate::lint::tests::{Policy, SRT_ONLY, srt_lists};

const CODEX: &str = "[targets]\ncodex_config = \"{HOME}/.codex/config.toml\"\n";

fn codex_policy(base: &str) -> Policy {
    let p = Policy::new("").with("cfg/srt/base.jsonc", base);
    p.file("cfg/config.toml", &format!("{SRT_ONLY}{CODEX}"));
    p
}

#[test]
fn codex_domains_ignored_fires_while_the_managed_config_lacks_network_proxy() {
    let p = codex_policy(
        "{\"network\": {\n  \"allowedDomains\": [\"a.io\",\n    \"b.io\" // doctor-ignore\n  ]}}",
    );
    assert_eq!(
        p.of(codes::DOMAINS_IGNORED),
        Vec::<String>::new(),
        "no managed config yet"
    );
    p.file("home/.codex/config.toml", "model = \"x\"\n");
    let found = p.of(codes::DOMAINS_IGNORED);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].ends_with(
            ": 'a.io' ({HOME}/../cfg/srt/base.jsonc:2:22)"
                .replace("{HOME}/..", &p.dir.path().to_string_lossy())
                .as_str()
        ),
        "{found:?}"
    );
    p.file(
        "home/.codex/config.toml",
        "[features]\nnetwork_proxy = true\n",
    );
    assert_eq!(p.of(codes::DOMAINS_IGNORED), Vec::<String>::new());
}

#[test]
fn codex_protected_path_flags_workspace_rules_in_git_codex_and_agents() {
    let p = codex_policy(&srt_lists(
        "\".git/hooks\",\n\"./.codex/x\",\n\".agents/q\", // doctor-ignore\n\"src/.git\"",
        "",
        "",
    ));
    let found = p.of(codes::PROTECTED_PATH);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("2 entries")
            && found[0].contains("'.git/hooks' (")
            && found[0].contains("'./.codex/x' ("),
        "{found:?}"
    );
    assert!(
        !found[0].contains(".agents/q") && !found[0].contains("src/.git"),
        "{found:?}"
    );
}

#[test]
fn codex_missing_parent_flags_two_rules_under_one_missing_directory() {
    let p = codex_policy(&srt_lists(
        "\"~/.kube/a\",\n\"~/.kube/b\",\n\"~/.aws/x\",\n\"~/.gone/c\", // doctor-ignore\n\"~/.gone/d\"",
        "",
        "",
    ));
    let found = p.of(codes::MISSING_PARENT);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("'~/.kube/a' (")
            && found[0].contains("'~/.kube/b' (")
            && found[0].contains("'~/.gone/d' ("),
        "{found:?}"
    );
    assert!(
        !found[0].contains("~/.aws/x") && !found[0].contains("~/.gone/c"),
        "{found:?}"
    );
}

#[test]
fn codex_legacy_sandbox_is_found_in_every_layer_with_its_position() {
    let p = codex_policy("{}");
    p.file("home/.codex/config.toml", "model = \"x\"\nsandbox_mode = \"read-only\"\n[profiles.fast]\nsandbox_workspace_write = {}\n");
    p.file(
        "home/proj/.codex/config.toml",
        "\n\n  sandbox_workspace_write = {}\n",
    );
    let found = p.of_in(codes::LEGACY_SANDBOX, "home/proj");
    assert_eq!(
        found,
        [
            "{HOME}/.codex/config.toml 2 legacy settings switching the generated permission profile off: Codex ignores default_permissions while one is set: 'sandbox_mode' ({HOME}/.codex/config.toml:2:1) | 'profiles.fast.sandbox_workspace_write' ({HOME}/.codex/config.toml:4:1)",
            "{HOME}/proj/.codex/config.toml 1 legacy setting switching the generated permission profile off: Codex ignores default_permissions while one is set: 'sandbox_workspace_write' ({HOME}/proj/.codex/config.toml:3:3)",
        ]
    );
}

#[test]
fn the_codex_checks_need_a_codex_target() {
    let p = Policy::srt(
        "{\"network\": {\"allowedDomains\": [\"a.io\"]}, \"filesystem\": {\"denyRead\": [\".git/x\"]}}",
    );
    p.file("home/.codex/config.toml", "sandbox_mode = \"read-only\"\n");
    assert!(
        p.findings()
            .iter()
            .all(|f| !f.code.name().starts_with("codex-")),
        "{:?}",
        p.findings()
    );
}

#[test]
fn codex_missing_parent_counts_a_rule_two_fragments_share_once() {
    let config = SRT_ONLY.replace(
        "[profiles.default]\nsrt = [\"base\"]",
        "[sources.srt.fragments.two]\npath = \"srt/two.jsonc\"\n[profiles.default]\nsrt = [\"base\", \"two\"]",
    );
    let p = Policy::new("")
        .with("cfg/srt/base.jsonc", &srt_lists("\"~/.solo/x\"", "", ""))
        .with("cfg/srt/two.jsonc", &srt_lists("\"~/.solo/x\"", "", ""));
    p.file("cfg/config.toml", &format!("{config}{CODEX}"));
    assert_eq!(p.of(codes::MISSING_PARENT), Vec::<String>::new());
    assert_eq!(p.of(Code::DuplicateRule).len(), 1);
}

#[test]
fn codex_layers_are_the_ones_audit_reads_with_the_same_weight() {
    // A repository root above the working directory: its .codex/config.toml
    // loads too; a switched-off profile is an error, a widening a warning.
    let p = codex_policy("{}");
    p.file("home/repo/.git/HEAD", "ref: x\n");
    p.file(
        "home/repo/.codex/config.toml",
        "sandbox_mode = \"read-only\"\n",
    );
    p.file(
        "home/repo/sub/.codex/config.toml",
        "approval_policy = \"never\"\n",
    );
    p.file("home/repo/sub/deep/.keep", "");
    let found = p.findings_in("home/repo/sub/deep");
    let codex: Vec<_> = found
        .iter()
        .filter(|f| f.code.name().starts_with("codex-l"))
        .map(|f| {
            (
                f.severity,
                f.code,
                f.location.replace(&*p.home().to_string_lossy(), "~"),
            )
        })
        .collect();
    assert_eq!(
        codex,
        [
            (
                Severity::Error,
                codes::LEGACY_SANDBOX,
                "~/repo/.codex/config.toml".to_string()
            ),
            (
                Severity::Warning,
                codes::LAYER_OVERRIDE,
                "~/repo/sub/.codex/config.toml".to_string()
            ),
        ]
    );
}

#[test]
fn the_agents_checks_run_in_registry_order_after_the_generic_ones() {
    // One warning of each: a generic one, Claude's, Codex's.
    let p = codex_policy(&srt_lists("", "", "\"~\""));
    p.file(
        "home/proj/.claude/settings.local.json",
        "{\"sandbox\": {\"filesystem\": {\"denyRead\": [\"rel\"]}}}",
    );
    p.file("home/.codex/config.toml", "model = \"x\"\n");
    p.file(
        "home/proj/.codex/config.toml",
        "approval_policy = \"never\"\n",
    );
    let codes: Vec<Code> = p
        .findings_in("home/proj")
        .into_iter()
        .filter(|f| f.severity == Severity::Warning)
        .map(|f| f.code)
        .collect();
    assert_eq!(
        codes,
        [
            Code::BroadAllowWrite,
            crate::agent::claude::codes::RELATIVE_SANDBOX_PATH,
            codes::LAYER_OVERRIDE
        ]
    );
}
