//! Each check on a small policy written to a temp dir: that it fires, with
//! its code, location and items, and that `// doctor-ignore` silences it
//! where the check honours the comment.

use super::Input;
use crate::diag::{Code, Diagnostic, Severity};

/// A policy in a temp dir: config.toml and fragments under `cfg/`, HOME and
/// the working directory at `home/`. The agents' doctor tests use it too.
pub(crate) struct Policy {
    pub dir: tempfile::TempDir,
}

pub(crate) const SRT_ONLY: &str = "schema_version = 1\ndefault_profile = \"default\"\n\
    [sources.srt]\noutput = \"out.json\"\n[sources.srt.fragments.base]\npath = \"srt/base.jsonc\"\n\
    [profiles.default]\nsrt = [\"base\"]\n";

impl Policy {
    pub fn new(config: &str) -> Self {
        let p = Policy {
            dir: tempfile::tempdir().unwrap(),
        };
        p.file("cfg/config.toml", config);
        std::fs::create_dir_all(p.home()).unwrap();
        p
    }

    /// The one-fragment srt policy with `base` as its fragment.
    pub fn srt(base: &str) -> Self {
        Policy::new(SRT_ONLY).with("cfg/srt/base.jsonc", base)
    }

    pub fn with(self, rel: &str, text: &str) -> Self {
        self.file(rel, text);
        self
    }

    pub fn file(&self, rel: &str, text: &str) {
        let path = self.dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text.replace("{HOME}", &self.home().to_string_lossy())).unwrap();
    }

    pub fn home(&self) -> std::path::PathBuf {
        self.dir.path().join("home")
    }

    pub fn findings(&self) -> Vec<Diagnostic> {
        self.findings_in("home")
    }

    /// The findings with the working directory at `cwd` (relative to the temp dir).
    pub fn findings_in(&self, cwd: &str) -> Vec<Diagnostic> {
        let config = crate::config::load(
            &self.dir.path().join("cfg/config.toml"),
            &crate::agent::config_tables(),
        )
        .unwrap();
        let mut input = Input::new(&config);
        input.home = self.home();
        input.cwd = self.dir.path().join(cwd);
        super::check(&input, crate::agent::doctor_checks)
    }

    /// `code location: item | item` per finding of `code`.
    pub fn of(&self, code: Code) -> Vec<String> {
        self.of_in(code, "home")
    }

    pub fn of_in(&self, code: Code, cwd: &str) -> Vec<String> {
        let home = self.home().to_string_lossy().into_owned();
        self.findings_in(cwd)
            .into_iter()
            .filter(|f| f.code == code)
            .map(|f| {
                format!("{} {}: {}", f.location, f.message, f.notes.join(" | "))
                    .replace(&home, "{HOME}")
            })
            .collect()
    }
}

pub(crate) fn srt_lists(deny_read: &str, deny_write: &str, allow_write: &str) -> String {
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
    let loads = p.of(Code::FragmentLoad);
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
    assert!(p.findings().iter().all(|f| f.code != Code::ProfileCompile));
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
        p.of(Code::ProfileIncomplete),
        [
            "profile 'half' cannot be used on its own: Profile 'half' selects no fragments for source kind 'srt': "
        ]
    );
    assert_eq!(
        p.of(Code::RedundantExtends),
        ["profile 'multi' extends 'default' is already inherited via 'work': "]
    );
    assert_eq!(
        p.of(Code::InheritedFragment),
        ["profile 'work' srt fragment 'base' is already inherited from 'default': "]
    );
    assert_eq!(
        p.of(Code::UnusedFragment),
        ["srt/orphan.jsonc srt fragment 'orphan' is selected by no profile: "]
    );
}

#[test]
fn profile_compile_reports_the_compile_error_as_an_error() {
    let p = Policy::srt(&srt_lists("\"~/.c\"", "", "\"~/.c\""));
    let found = p.findings();
    let compile: Vec<_> = found
        .iter()
        .filter(|f| f.code == Code::ProfileCompile)
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
        p.of(Code::DuplicateRule),
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
        p.of(Code::SubsumedRule),
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
        p.of(Code::SubsumedRule),
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
        p.of(Code::WildcardApex),
        [
            "srt/base.jsonc network.allowedDomains: 1 wildcard not matching the bare apex domain (add it where needed): '*.a.io' (a.io)"
        ]
    );
    assert_eq!(
        p.of(Code::WildcardDenyApex),
        [
            "srt/base.jsonc network.deniedDomains: 1 wildcard leaving the bare apex domain not denied; list it too: '*.d.io' (d.io)"
        ]
    );
    assert_eq!(
        p.findings()
            .iter()
            .find(|f| f.code == Code::WildcardApex)
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
        p.of(Code::CwdAnchoredGlob),
        [
            "srt/base.jsonc filesystem.denyRead: 1 entry anchored at the launch directory, not global: '**/.pem'"
        ]
    );
    assert_eq!(p.of(Code::NarrowAllowGlob).len(), 1);
    assert!(p.of(Code::NarrowAllowGlob)[0].ends_with(": '~/w*'"));
    assert_eq!(
        p.of(Code::LinuxDropsWriteGlob),
        [
            "srt/base.jsonc filesystem.denyWrite: 1 entry dropped by srt on Linux, so the deny holds on macOS only: '~/a*/**'"
        ]
    );
    let noop = p.of(Code::NoopGlobSuffix);
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
        p.of(Code::UnknownSrtKey),
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
        p.of(Code::SymlinkedDenyPath),
        [
            "srt/base.jsonc filesystem.denyRead: 1 entry through a symlink; the sandbox matches the real path, so list it too: '~/link' (-> {HOME}/real)"
        ]
    );
}

#[test]
fn a_path_that_exists_only_in_another_case_or_normalisation_is_named_with_it() {
    let p = Policy::srt(&srt_lists(
        "\"~/.AWS\",\n\"~/caf\u{e9}\",\n\"~/.ssh\",\n\"~/.Quiet\" // doctor-ignore",
        "",
        "",
    ));
    for dir in [".aws", "cafe\u{301}", ".ssh", ".quiet"] {
        std::fs::create_dir_all(p.home().join(dir)).unwrap();
    }
    assert_eq!(
        p.of(Code::PathOtherSpelling),
        [
            "srt/base.jsonc filesystem.denyRead: 2 entries naming nothing here as written, but an existing path in another letter case or Unicode normalisation; srt and the agents compare names exactly, so the entry protects nothing: write the existing spelling (a name not in NFC: rename the file to the entry's spelling, the policy takes NFC only): '~/.AWS' (-> {HOME}/.aws) | '~/caf\u{e9}' (-> {HOME}/cafe\u{301})"
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
        p.of(Code::BroadAllowWrite),
        [
            "srt/base.jsonc filesystem.allowWrite: 3 entries covering home, / or a config root; in Claude Code they also auto-approve edits (SECURITY_CONCEPT.md \"Claude Code: where a path points\"): '~' | '~/.config' | '~/Library'"
        ]
    );
}

#[test]
fn an_ignore_comment_on_a_line_that_also_holds_a_key_silences_too() {
    // twsrt 3.3.3 reports '**/.env' here (doc/compatibility.md, doctor).
    let p = Policy::srt(
        "{\"filesystem\": {\n\"denyWrite\": [\"**/.env\"] // doctor-ignore: reviewed\n}}",
    );
    assert_eq!(p.of(Code::CwdAnchoredGlob), Vec::<String>::new());
}

#[test]
fn the_document_a_finding_cites_is_shipped_with_the_cited_section() {
    let (doc, section) = super::srt_paths::BROAD_WRITE_DOC;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(doc);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.lines()
            .any(|l| l.starts_with('#') && l.trim_start_matches('#').trim() == section),
        "{doc} has no section \"{section}\""
    );
}
