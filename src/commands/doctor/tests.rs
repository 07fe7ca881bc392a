//! Each check on a small policy written to a temp dir: that it fires, with
//! its code, location and items, and that `// doctor-ignore` silences it
//! where the check honours the comment.

use super::check;
use super::context::Ctx;
use super::finding::{Finding, Severity};

/// A policy in a temp dir: config.toml and fragments under `cfg/`, HOME and
/// the working directory at `home/`.
struct Policy {
    dir: tempfile::TempDir,
}

const SRT_ONLY: &str = "schema_version = 1\ndefault_profile = \"default\"\n\
    [sources.srt]\noutput = \"out.json\"\n[sources.srt.fragments.base]\npath = \"srt/base.jsonc\"\n\
    [profiles.default]\nsrt = [\"base\"]\n";

impl Policy {
    fn new(config: &str) -> Self {
        let p = Policy {
            dir: tempfile::tempdir().unwrap(),
        };
        p.file("cfg/config.toml", config);
        std::fs::create_dir_all(p.home()).unwrap();
        p
    }

    /// The one-fragment srt policy with `base` as its fragment.
    fn srt(base: &str) -> Self {
        Policy::new(SRT_ONLY).with("cfg/srt/base.jsonc", base)
    }

    fn with(self, rel: &str, text: &str) -> Self {
        self.file(rel, text);
        self
    }

    fn file(&self, rel: &str, text: &str) {
        let path = self.dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text.replace("{HOME}", &self.home().to_string_lossy())).unwrap();
    }

    fn home(&self) -> std::path::PathBuf {
        self.dir.path().join("home")
    }

    fn findings(&self) -> Vec<Finding> {
        self.findings_in("home")
    }

    /// The findings with the working directory at `cwd` (relative to the temp dir).
    fn findings_in(&self, cwd: &str) -> Vec<Finding> {
        let config = crate::config::load(&self.dir.path().join("cfg/config.toml")).unwrap();
        let mut ctx = Ctx::new(&config);
        ctx.home = self.home();
        ctx.cwd = self.dir.path().join(cwd);
        check(&ctx)
    }

    /// `code location: item | item` per finding of `code`.
    fn of(&self, code: &str) -> Vec<String> {
        self.of_in(code, "home")
    }

    fn of_in(&self, code: &str, cwd: &str) -> Vec<String> {
        let home = self.home().to_string_lossy().into_owned();
        self.findings_in(cwd)
            .into_iter()
            .filter(|f| f.code == code)
            .map(|f| {
                format!("{} {}: {}", f.location, f.message, f.items.join(" | "))
                    .replace(&home, "{HOME}")
            })
            .collect()
    }
}

fn srt_lists(deny_read: &str, deny_write: &str, allow_write: &str) -> String {
    format!(
        "{{\n  \"filesystem\": {{\n    \"denyRead\": [\n{deny_read}\n    ],\n    \"denyWrite\": [\n{deny_write}\n    ],\n    \"allowWrite\": [\n{allow_write}\n    ]\n  }}\n}}\n"
    )
}

#[test]
fn fragment_load_reports_a_missing_and_an_invalid_fragment_and_skips_their_profiles() {
    let p = Policy::new(&SRT_ONLY.replace(
        "[profiles.default]",
        "[sources.srt.fragments.gone]\npath = \"srt/gone.jsonc\"\n[profiles.other]\nsrt = [\"gone\"]\n[profiles.default]",
    ))
    .with("cfg/srt/base.jsonc", "{\"filesystem\": {\"denyRead\": [\"a\",]}}");
    let loads = p.of("fragment-load");
    assert_eq!(loads.len(), 2, "{loads:?}");
    assert!(
        loads[0].starts_with("srt/base.jsonc ") && loads[0].contains("base.jsonc:1:"),
        "{loads:?}"
    );
    assert!(loads[0].contains(": invalid JSON: "), "{loads:?}");
    assert!(
        loads[1].contains("JSONC source not found: ") && loads[1].ends_with("gone.jsonc: "),
        "{loads:?}"
    );
    assert!(p.findings().iter().all(|f| f.code != "profile-compile"));
}

#[test]
fn profile_checks_name_the_profile_and_what_it_repeats() {
    let p = Policy::new(&SRT_ONLY.replace(
        "[profiles.default]\nsrt = [\"base\"]\n",
        "[sources.srt.fragments.orphan]\npath = \"srt/orphan.jsonc\"\n[sources.bash]\n\
         [sources.bash.fragments.b]\npath = \"bash/b.jsonc\"\n\
         [profiles.default]\nsrt = [\"base\"]\nbash = [\"b\"]\n\
         [profiles.work]\nextends = [\"default\"]\nsrt = [\"base\"]\n\
         [profiles.multi]\nextends = [\"default\", \"work\"]\n\
         [profiles.half]\nbash = [\"b\"]\n",
    ))
    .with("cfg/srt/base.jsonc", "{}")
    .with("cfg/srt/orphan.jsonc", "{}")
    .with("cfg/bash/b.jsonc", "{}");
    assert_eq!(
        p.of("profile-incomplete"),
        [
            "profile 'half' cannot be used on its own: Profile 'half' selects no fragments for source kind 'srt': "
        ]
    );
    assert_eq!(
        p.of("redundant-extends"),
        ["profile 'multi' extends 'default' is already inherited via 'work': "]
    );
    assert_eq!(
        p.of("inherited-fragment"),
        ["profile 'work' srt fragment 'base' is already inherited from 'default': "]
    );
    assert_eq!(
        p.of("unused-fragment"),
        ["srt/orphan.jsonc srt fragment 'orphan' is selected by no profile: "]
    );
}

#[test]
fn profile_compile_reports_the_compile_error_as_an_error() {
    let p = Policy::srt(&srt_lists("\"~/.c\"", "", "\"~/.c\""));
    let found = p.findings();
    let compile: Vec<_> = found
        .iter()
        .filter(|f| f.code == "profile-compile")
        .collect();
    assert_eq!(compile.len(), 1, "{found:?}");
    assert_eq!(
        (compile[0].severity, compile[0].location.as_str()),
        (Severity::Error, "profile 'default'")
    );
    assert!(
        compile[0].message.contains("~/.c"),
        "{}",
        compile[0].message
    );
}

#[test]
fn duplicate_rule_is_reported_at_the_last_fragment_unless_ignored_in_one() {
    let two = SRT_ONLY.replace(
        "srt = [\"base\"]",
        "srt = [\"base\", \"two\"]\n[sources.srt.fragments.two]\npath = \"srt/two.jsonc\"",
    );
    let two = two.replace("[profiles.default]\nsrt = [\"base\", \"two\"]\n[sources.srt.fragments.two]\npath = \"srt/two.jsonc\"",
        "[sources.srt.fragments.two]\npath = \"srt/two.jsonc\"\n[profiles.default]\nsrt = [\"base\", \"two\"]");
    let p = Policy::new(&two)
        .with(
            "cfg/srt/base.jsonc",
            &srt_lists("\"~/.a\",\n\"~/.b\" // doctor-ignore", "", ""),
        )
        .with(
            "cfg/srt/two.jsonc",
            &srt_lists("\"~/.b\",\n\"~/.a\"", "", ""),
        );
    assert_eq!(
        p.of("duplicate-rule"),
        ["srt/two.jsonc filesystem.denyRead: 1 entry also in srt/base.jsonc: '~/.a'"]
    );
}

#[test]
fn subsumed_rule_names_the_first_coverer_and_is_silenced_by_the_covered_entry() {
    let p = Policy::srt(&srt_lists(
        "\"~/.aws\",\n\"~/.aws/credentials\",\n\"~/.ssh\", // doctor-ignore\n\"~/.ssh/id\",\n\"~/.kube/config\", // doctor-ignore\n\"~/.kube\"",
        "",
        "",
    ));
    assert_eq!(
        p.of("subsumed-rule"),
        [
            "srt/base.jsonc filesystem.denyRead: 2 entries already covered: '~/.aws/credentials' by '~/.aws' | '~/.ssh/id' by '~/.ssh'"
        ]
    );
}

#[test]
fn subsumed_rule_covers_domains_and_commands_too() {
    let p = Policy::new(&SRT_ONLY.replace(
        "[profiles.default]\nsrt = [\"base\"]\n",
        "[sources.bash]\n[sources.bash.fragments.b]\npath = \"bash/b.jsonc\"\n[profiles.default]\nsrt = [\"base\"]\nbash = [\"b\"]\n",
    ))
    .with("cfg/srt/base.jsonc", "{\"network\": {\"allowedDomains\": [\"x.io\", \"*.x.io\", \"*.a.x.io\"]}}")
    .with("cfg/bash/b.jsonc", "{\"deny\": [\"rm\", \"rm -rf\", \"rmdir\"]}");
    assert_eq!(
        p.of("subsumed-rule"),
        [
            "srt/base.jsonc network.allowedDomains: 1 entry already covered: '*.a.x.io' by '*.x.io'",
            "bash/b.jsonc deny: 1 entry already covered: 'rm -rf' by 'rm'",
        ]
    );
}

#[test]
fn wildcard_apex_checks_the_whole_profile_and_honour_ignore() {
    let net = |allowed: &str, denied: &str| {
        format!(
            "{{\"network\": {{\n\"allowedDomains\": [\n{allowed}\n],\n\"deniedDomains\": [\n{denied}\n]}}}}\n"
        )
    };
    let p = Policy::srt(&net(
        "\"*.a.io\",\n\"*.b.io\", \"b.io\",\n\"*.c.io\" // doctor-ignore",
        "\"*.d.io\",\n\"*.e.io\" // doctor-ignore",
    ));
    assert_eq!(
        p.of("wildcard-apex"),
        [
            "srt/base.jsonc network.allowedDomains: 1 wildcard not matching the bare apex domain (add it where needed): '*.a.io' (a.io)"
        ]
    );
    assert_eq!(
        p.of("wildcard-deny-apex"),
        [
            "srt/base.jsonc network.deniedDomains: 1 wildcard leaving the bare apex domain not denied; list it too: '*.d.io' (d.io)"
        ]
    );
    assert_eq!(
        p.findings()
            .iter()
            .find(|f| f.code == "wildcard-apex")
            .map(|f| f.severity),
        Some(Severity::Info)
    );
}

#[test]
fn each_glob_trap_fires_once_per_entry_and_is_silenced_by_ignore() {
    let p = Policy::srt(&srt_lists(
        "\"**/.pem\",\n\"**/x/**\", // doctor-ignore\n\"~/q/**\"",
        "\"~/a*/**\",\n\"~/b/**\",\n\"~/c*\" // doctor-ignore",
        "\"~/w*\",\n\"~/v/**\",\n\"~/u*\" // doctor-ignore",
    ));
    assert_eq!(
        p.of("cwd-anchored-glob"),
        [
            "srt/base.jsonc filesystem.denyRead: 1 entry anchored at the launch directory, not global: '**/.pem'"
        ]
    );
    assert_eq!(p.of("narrow-allow-glob").len(), 1);
    assert!(p.of("narrow-allow-glob")[0].ends_with(": '~/w*'"));
    assert_eq!(
        p.of("linux-drops-write-glob"),
        [
            "srt/base.jsonc filesystem.denyWrite: 1 entry dropped by srt on Linux, so the deny holds on macOS only: '~/a*/**'"
        ]
    );
    let noop = p.of("noop-glob-suffix");
    assert_eq!(noop.len(), 3, "{noop:?}");
    assert!(
        noop[0].contains("allowWrite") && noop[0].ends_with("'~/v/**'"),
        "{noop:?}"
    );
    assert!(
        noop[1].contains("denyWrite") && noop[1].ends_with("'~/b/**'"),
        "{noop:?}"
    );
    assert!(
        noop[2].contains("denyRead") && noop[2].ends_with("'~/q/**'"),
        "{noop:?}"
    );
}

#[test]
fn unknown_srt_key_lists_top_level_then_network_then_filesystem_keys() {
    let p = Policy::srt(
        "{\"bogus\": 1, \"enabled\": true, \"filesystem\": {\"extra\": 2, \"denyRead\": []}, \"network\": {\"zzz\": 3, \"httpProxyPort\": 1}, \"ripgrep\": {}}",
    );
    assert_eq!(
        p.of("unknown-srt-key"),
        [
            "srt/base.jsonc 3 keys srt ignores and twsrt maps to no agent; Claude-only settings belong in [sandbox_overrides]: 'bogus' | 'network.zzz' | 'filesystem.extra'"
        ]
    );
}

#[test]
fn symlinked_deny_path_names_the_real_path_unless_listed_or_ignored() {
    let p = Policy::srt(&srt_lists(
        "\"~/link\",\n\"~/covered\",\n\"~/real2\",\n\"~/quiet\" // doctor-ignore",
        "",
        "",
    ));
    let home = p.home();
    for dir in ["real", "real2"] {
        std::fs::create_dir_all(home.join(dir)).unwrap();
    }
    std::os::unix::fs::symlink(home.join("real"), home.join("link")).unwrap();
    std::os::unix::fs::symlink(home.join("real2"), home.join("covered")).unwrap();
    std::os::unix::fs::symlink(home.join("real"), home.join("quiet")).unwrap();
    assert_eq!(
        p.of("symlinked-deny-path"),
        [
            "srt/base.jsonc filesystem.denyRead: 1 entry through a symlink; the sandbox matches the real path, so list it too: '~/link' (-> {HOME}/real)"
        ]
    );
}

#[test]
fn broad_allow_write_flags_grants_at_or_above_home_and_config_roots() {
    let p = Policy::srt(&srt_lists(
        "",
        "",
        "\"~\",\n\"~/.config\",\n\"~/dev\",\n\"/\", // doctor-ignore\n\"~/Library\"",
    ));
    assert_eq!(
        p.of("broad-allow-write"),
        [
            "srt/base.jsonc filesystem.allowWrite: 3 entries covering home, / or a config root; in Claude Code they also auto-approve edits (ADR 0002): '~' | '~/.config' | '~/Library'"
        ]
    );
}

#[test]
fn claude_relative_sandbox_path_reads_the_target_and_the_project_settings() {
    let config =
        format!("{SRT_ONLY}[targets]\nclaude_settings = \"{{HOME}}/.claude/settings.full.json\"\n");
    let p = Policy::new("").with("cfg/srt/base.jsonc", "{}");
    p.file("cfg/config.toml", &config);
    p.file(".unused", "");
    p.file(
        "home/.claude/settings.full.json",
        "{\"sandbox\": {\"filesystem\": {\"allowWrite\": [\"rel\", \"/abs\", \"~/t\"]}}}",
    );
    p.file(
        "home/.claude/settings.local.json",
        "{\"sandbox\": {\"filesystem\": {\"denyRead\": [\"./x\"]}}}",
    );
    assert_eq!(
        p.of("claude-relative-sandbox-path"),
        [
            "{HOME}/.claude/settings.full.json sandbox.filesystem.allowWrite: 1 entry anchored at the settings-file root, not the launch directory; use Read()/Edit() rules instead: 'rel'",
            "{HOME}/.claude/settings.local.json sandbox.filesystem.denyRead: 1 entry anchored at the settings-file root, not the launch directory; use Read()/Edit() rules instead: './x'",
        ]
    );
}

#[test]
fn an_ignore_comment_on_a_line_that_also_holds_a_key_silences_too() {
    // twsrt 3.3.3 reports '**/.env' here (doc/compatibility.md, doctor).
    let p = Policy::srt(
        "{\"filesystem\": {\n\"denyWrite\": [\"**/.env\"] // doctor-ignore: reviewed\n}}",
    );
    assert_eq!(p.of("cwd-anchored-glob"), Vec::<String>::new());
}

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
        p.of("codex-domains-ignored"),
        Vec::<String>::new(),
        "no managed config yet"
    );
    p.file("home/.codex/config.toml", "model = \"x\"\n");
    let found = p.of("codex-domains-ignored");
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
    assert_eq!(p.of("codex-domains-ignored"), Vec::<String>::new());
}

#[test]
fn codex_protected_path_flags_workspace_rules_in_git_codex_and_agents() {
    let p = codex_policy(&srt_lists(
        "\".git/hooks\",\n\"./.codex/x\",\n\".agents/q\", // doctor-ignore\n\"src/.git\"",
        "",
        "",
    ));
    let found = p.of("codex-protected-path");
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
    let found = p.of("codex-missing-parent");
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
    let found = p.of_in("codex-legacy-sandbox", "home/proj");
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
        p.findings().iter().all(|f| !f.code.starts_with("codex-")),
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
    assert_eq!(p.of("codex-missing-parent"), Vec::<String>::new());
    assert_eq!(p.of("duplicate-rule").len(), 1);
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
        .filter(|f| f.code.starts_with("codex-l"))
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
                "codex-legacy-sandbox",
                "~/repo/.codex/config.toml".to_string()
            ),
            (
                Severity::Warning,
                "codex-layer-override",
                "~/repo/sub/.codex/config.toml".to_string()
            ),
        ]
    );
}
