//! Codex generation checked against outputs recorded from the reference
//! (twsrt 3.3.3) by `testdata/record.sh`. In recorded text `{D}` stands for
//! the test's temporary directory (the reference ran with HOME there).
//!
//! A recorded case feeds the documents the reference compiled
//! (`testdata/<case>/srt.json`, `bash.json`) to the agent as they are: what
//! the compiler adds or reorders (sorted lists, the policy files under
//! `~/.config/twsrt` in denyWrite) is its own tested job, and the Codex output
//! is a function of the compiled documents.

use std::path::{Path, PathBuf};

use tempfile::TempDir;

use super::*;
use crate::compile::{Canonical, Compiled};
use crate::plan::Step;
use crate::source::SourceKind;

mod merge_cases;

/// The policy of every Codex fixture, its sources and profile written as
/// inline tables (config.toml accepts either spelling).
const CONFIG: &str = r#"schema_version = 1
default_profile = "default"
sources.srt = { output = "out/srt.json", fragments.base.path = "srt.jsonc" }
sources.bash = { output = "out/bash.json", fragments.base.path = "bash.jsonc" }
profiles.default = { srt = ["base"], bash = ["base"] }
[sandbox_overrides.yolo]
enabled = true
autoAllowBashIfSandboxed = true
allowUnsandboxedCommands = false
[sandbox_overrides.full]
enabled = false
"#;

const BOTH_TARGETS: &str =
    "codex_config = \".codex/config.toml\"\ncodex_rules = \".codex/rules/twsrt.rules\"\n";

/// The managed config.toml the `merge` case writes into a fresh file; the
/// merge cases were recorded with it.
const MERGE_FRAGMENT: &str = include_str!("testdata/merge/fragment.toml");

const EMPTY_SRT: &str = r#"{"filesystem": {"allowWrite": [], "denyWrite": [], "denyRead": []}, "network": {"allowedDomains": [], "deniedDomains": []}}"#;

const LEGACY_REMINDER: &str = "A legacy sandbox_mode setting (or the --sandbox flag) in any other \
     Codex config layer silently switches the twsrt permission profile off; twsrt checks only the \
     managed config.toml, so run `codex doctor` after changing other layers.";
const RULES_REMINDER: &str = "Codex execution rules are consulted only for requests to run \
     outside the sandbox; commands inside the sandbox never see them.";
/// Measured with Codex 0.171: deny globs are expanded when a command starts.
fn glob_warning(globs: &str) -> String {
    format!(
        "Codex (measured with 0.171) expands deny globs only when a command starts, by walking \
         every workspace root: a command can still create a new matching file and write to it, \
         and a file that vanishes during the walk (common in /tmp) makes the command fail; keep \
         busy directories out of allowWrite: {globs}"
    )
}
const NETWORK_PROXY_REMINDER: &str = "Codex (measured with 0.171) enforces the allow/deny lists \
     in [permissions.twsrt.network.domains] only when its experimental network_proxy feature is \
     on, and the managed config.toml does not enable it: sandboxed commands can reach any host. \
     Add `[features]` `network_proxy = true` to that file to enforce the lists.";

struct Fixture {
    dir: TempDir,
    config: Config,
    compiled: Compiled,
}

impl Fixture {
    /// The policy fragments `srt` and `bash` compiled (for the errors and
    /// values the compile passes through).
    fn new(srt: &str, bash: &str) -> Self {
        let (dir, config) = Self::config(srt, bash, BOTH_TARGETS);
        let compiled = crate::compile::compile(&config, None).unwrap();
        Fixture {
            dir,
            config,
            compiled,
        }
    }

    /// A recorded case with both Codex targets.
    fn case(name: &str) -> Self {
        Self::case_with_targets(name, BOTH_TARGETS)
    }

    /// A recorded case: the compiled documents the reference produced, and
    /// the directories its `home.txt` lists created in the temp directory.
    fn case_with_targets(name: &str, targets: &str) -> Self {
        let (dir, config) = Self::config("{}", "{}", targets);
        let d = dir.path().to_str().unwrap();
        let document = |file: &str| {
            let text = read(name, file).replace("{D}", d);
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}/{file}: {e}"))
        };
        let mut compiled = crate::compile::compile(&config, None).unwrap();
        compiled.canonical = vec![
            Canonical::new(SourceKind::Srt, "srt.json".into(), document("srt.json")),
            Canonical::new(SourceKind::Bash, "bash.json".into(), document("bash.json")),
        ];
        // The recorded policy files lie in ~/.config/twsrt, which existed
        // where the reference ran.
        std::fs::create_dir_all(dir.path().join(".config/twsrt")).unwrap();
        for line in read_opt(name, "home.txt").unwrap_or_default().lines() {
            match line.split_once(' ') {
                Some(("dir", p)) => std::fs::create_dir_all(dir.path().join(p)).unwrap(),
                _ => panic!("bad home.txt line {line:?}"),
            }
        }
        Fixture {
            dir,
            config,
            compiled,
        }
    }

    fn config(srt: &str, bash: &str, targets: &str) -> (TempDir, Config) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("srt.jsonc"), srt).unwrap();
        std::fs::write(dir.path().join("bash.jsonc"), bash).unwrap();
        let text = format!("{CONFIG}[targets]\n{targets}");
        let config = crate::config::parse(&text, &dir.path().join("config.toml")).unwrap();
        (dir, config)
    }

    fn ctx(&self, yolo: bool) -> Ctx<'_> {
        Ctx::new(&self.config, &self.compiled, yolo)
    }

    fn expand(&self, text: &str) -> String {
        text.replace("{D}", self.dir.path().to_str().unwrap())
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// `~` of the rendering: the temp directory, where the reference ran
    /// with HOME (not the real home, whose contents could add warnings).
    fn home(&self) -> &Path {
        self.dir.path()
    }

    /// The preview and its warnings' messages.
    fn preview(&self, yolo: bool) -> Result<(String, Vec<String>)> {
        self.preview_warnings(yolo)
            .map(|(p, w)| (p, crate::agent::messages(&w)))
    }

    fn preview_warnings(&self, yolo: bool) -> Result<(String, Warnings)> {
        let mut warnings = Vec::new();
        preview(&self.ctx(yolo), self.home(), &mut warnings).map(|p| (p, warnings))
    }

    fn stage(&self) -> Result<(Plan, Vec<String>)> {
        let mut plan = Plan::default();
        let mut warnings = Vec::new();
        stage(&self.ctx(false), &mut plan, self.home(), &mut warnings)
            .map(|()| (plan, crate::agent::messages(&warnings)))
    }

    fn diff(&self) -> (Result<AgentDiff>, Vec<String>) {
        let mut warnings = Vec::new();
        let result = diff(&self.ctx(false), self.home(), &mut warnings);
        (result, crate::agent::messages(&warnings))
    }

    /// Write what `generate codex -w` would write.
    fn apply(&self) {
        let (plan, _) = self.stage().unwrap();
        for step in plan.steps {
            if let Step::Write { path, content, .. } = step {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, content).unwrap();
            }
        }
    }
}

fn data_path(case: &str, file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src/agent/codex/testdata")
        .join(case)
        .join(file)
}

/// A recorded file; the reference's config texts as the port writes them,
/// with `[features] network_proxy = true` before a profile with domain
/// lists (`feature.rs`).
fn read(case: &str, file: &str) -> String {
    let path = data_path(case, file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if file.ends_with("preview.txt") || file.ends_with("fragment.toml") {
        super::feature::with_network_proxy(text)
    } else {
        text
    }
}

fn read_opt(case: &str, file: &str) -> Option<String> {
    std::fs::read_to_string(data_path(case, file)).ok()
}

fn error_text(result: Result<impl std::fmt::Debug>) -> String {
    result.expect_err("expected an error").to_string()
}

#[test]
fn kitchen_sink_preview_matches_the_reference() {
    let f = Fixture::case("kitchen_sink");
    let (preview, warnings) = f.preview(false).unwrap();
    assert_eq!(preview, f.expand(&read("kitchen_sink", "preview.txt")));
    // The reference's facts, in its order, in our words.
    let expected: Vec<String> = [
        "allowUnixSockets entry {D}/sockdir skipped: Codex accepts only the exact absolute path of a socket, not a directory or a relative path",
        "allowUnixSockets entry {D}/sockdir/ skipped: Codex accepts only the exact absolute path of a socket, not a directory or a relative path",
        "allowUnixSockets entry rel.sock skipped: Codex accepts only the exact absolute path of a socket, not a directory or a relative path",
        "allowLocalBinding skipped: SRT only lets commands bind local ports, while the Codex switch would also lift its wider local/private-network guard",
        "httpProxyPort skipped: Codex has no setting for an integer proxy port",
        "socksProxyPort skipped: Codex has no setting for an integer proxy port",
        "SRT sandbox fields with no Codex counterpart were skipped: enableWeakerNestedSandbox, ignoreViolations",
        "2 denyWrite globs cannot be made read-only in Codex; they were compiled as deny, which blocks reading as well as writing",
        "3 allowWrite pattern(s) skipped: a Codex workspace root must be one concrete directory: /, /srv/*/cache, ~",
        "2 allowWrite path(s) are also named by SRT deny rules; the deny stays and the workspace root(s) were skipped: /tmp/sec, ~/.ssh",
        "2 bash allow rule(s) skipped: in Codex an allow rule runs the command outside the sandbox without asking: git status, ls",
        "1 bash ask rule(s) skipped: Codex already asks before running anything outside the sandbox, so they need no output",
        &glob_warning("**/.env, *.pem"),
        RULES_REMINDER,
        LEGACY_REMINDER,
    ]
    .iter()
    .map(|w| f.expand(w))
    .collect();
    assert_eq!(warnings, expected);
}

#[test]
fn yolo_renders_the_same_and_reports_the_yolo_overrides() {
    let f = Fixture::case("kitchen_sink");
    let (full, _) = f.preview(false).unwrap();
    let (yolo, warnings) = f.preview(true).unwrap();
    assert_eq!(full, yolo);
    assert!(warnings.contains(
        &"SRT sandbox fields with no Codex counterpart were skipped: allowUnsandboxedCommands, \
          autoAllowBashIfSandboxed, enableWeakerNestedSandbox, ignoreViolations"
            .to_string()
    ));
}

#[test]
fn escapes_and_non_ascii_match_the_reference() {
    let f = Fixture::case("escapes");
    let (preview, warnings) = f.preview(false).unwrap();
    assert_eq!(preview, f.expand(&read("escapes", "preview.txt")));
    assert_eq!(warnings, [RULES_REMINDER, LEGACY_REMINDER]);
}

/// What the policy files of a recorded case (config.toml and the fragments
/// under `~/.config/twsrt`, the canonical outputs there) become: the 3.3.3
/// compile adds them to denyWrite, and Codex makes them read-only.
const POLICY_FILES: &str = "\"~/.config/twsrt/bash-rules.json\" = \"read\"
\"~/.config/twsrt/bash/base.jsonc\" = \"read\"
\"~/.config/twsrt/config.toml\" = \"read\"
\"~/.config/twsrt/srt-settings.json\" = \"read\"
\"~/.config/twsrt/srt/base.jsonc\" = \"read\"
";

/// No rules of its own: the profile holds only the policy files, the rules
/// file only its header.
#[test]
fn zero_rules_give_the_bare_profile_and_a_header_only_rules_file() {
    let f = Fixture::case("empty");
    let (preview, _) = f.preview(false).unwrap();
    let expected = "--- config: {D}/.codex/config.toml (managed fragment) ---\n\
default_permissions = \"twsrt\"\napproval_policy = \"on-request\"\napprovals_reviewer = \"user\"\n\
allow_login_shell = false\n\n[features]\nnetwork_proxy = true\n\n\
[permissions.twsrt]\nextends = \":workspace\"\n\
description = \"Generated by twsrt; edit canonical twsrt sources instead.\"\n\n\
[permissions.twsrt.filesystem]\n{POLICY_FILES}\n\
[permissions.twsrt.network]\nenabled = true\n\n[permissions.twsrt.network.domains]\n\
--- rules: {D}/.codex/rules/twsrt.rules ---\n# Generated by twsrt from the bash fragments (bash/*.jsonc): change them with `twsrt edit bash`, not this file.\n\n\
# These rules govern requests to run outside the sandbox only.";
    assert_eq!(
        preview,
        f.expand(&expected.replace("{POLICY_FILES}", POLICY_FILES))
    );
    let (plan, _) = f.stage().unwrap();
    let Step::Write { content, .. } = &plan.steps[1] else {
        panic!("rules file not staged")
    };
    assert_eq!(
        content,
        b"# Generated by twsrt from the bash fragments (bash/*.jsonc): change them with `twsrt edit bash`, not this file.\n\n\
          # These rules govern requests to run outside the sandbox only.\n"
    );
}

#[test]
fn relative_write_paths_and_deny_overlaps() {
    let f = Fixture::case_with_targets("relative", "codex_config = \"c.toml\"\n");
    let (preview, warnings) = f.preview(false).unwrap();
    let body = preview
        .split_once("[permissions.twsrt.workspace_roots]")
        .unwrap()
        .1;
    assert_eq!(
        body,
        format!(
            "\n\"/q\" = true\n\n[permissions.twsrt.filesystem]\n{POLICY_FILES}\n\
             [permissions.twsrt.filesystem.\":workspace_roots\"]\n\"x/\" = \"deny\"\n\
             \".env\" = \"deny\"\ny = \"read\"\n\"z*\" = \"deny\"\n\"q*\" = \"deny\"\nx = \"read\"\n\
             \"**\" = \"write\"\nc = \"write\"\n\"/d\" = \"write\"\nz = \"write\"\n\n\
             [permissions.twsrt.network]\nenabled = true\n\n[permissions.twsrt.network.domains]"
        )
    );
    assert_eq!(
        warnings,
        [
            "3 denyWrite globs cannot be made read-only in Codex; they were compiled as deny, \
             which blocks reading as well as writing",
            "1 allowWrite pattern(s) skipped: a Codex workspace root must be one concrete \
             directory: /opt/data/**/",
            &glob_warning("z*, q*"),
            LEGACY_REMINDER,
        ]
    );
}

#[test]
fn roots_are_skipped_only_when_a_deny_names_the_same_path() {
    let f = Fixture::case_with_targets("roots", "codex_config = \"c.toml\"\n");
    let (preview, warnings) = f.preview(false).unwrap();
    assert!(preview.contains(
        "[permissions.twsrt.workspace_roots]\n\"/d2\" = true\n\"/d3\" = true\n\"/d4\" = true\n\
         \"/d5\" = true\n\"/d6/sub\" = true\n\"/r\" = true\n\"~/d7\" = true\n\n"
    ));
    assert_eq!(
        warnings[1],
        "2 allowWrite path(s) are also named by SRT deny rules; the deny stays and the \
         workspace root(s) were skipped: /d1, /d8"
    );
}

#[test]
fn without_rules_target_there_is_no_rules_section_or_reminder() {
    let f = Fixture::case_with_targets("norules", "codex_config = \"c.toml\"\n");
    let (preview, warnings) = f.preview(false).unwrap();
    assert!(preview.starts_with(&f.expand("--- config: {D}/c.toml (managed fragment) ---\n")));
    assert!(!preview.contains("--- rules:"));
    assert_eq!(warnings.len(), 3);
    assert_eq!(warnings[2], LEGACY_REMINDER);
    let (plan, _) = f.stage().unwrap();
    assert_eq!(plan.steps.len(), 2, "config and the restart line only");
}

#[test]
fn without_codex_config_codex_is_unconfigured_and_never_falls_back_to_a_default_path() {
    let (dir, config) = Fixture::config(EMPTY_SRT, "{}", "");
    let compiled = crate::compile::compile(&config, None).unwrap();
    let f = Fixture {
        dir,
        config,
        compiled,
    };
    assert!(!Codex.configured(&f.config));
    assert_eq!(Codex.target_key(), "codex_config");
    // Called anyway, every method refuses instead of picking ~/.codex.
    for err in [
        error_text(f.preview(false)),
        error_text(f.stage()),
        error_text(f.diff().0),
    ] {
        assert!(err.contains("targets.codex_config"), "{err}");
    }
    let f = Fixture::new(EMPTY_SRT, "{}");
    assert!(Codex.configured(&f.config));
    assert_eq!(Codex.target(&f.ctx(true)), f.path(".codex/config.toml"));
}

#[test]
fn policy_errors_stop_generation() {
    let cases = [
        (r#"{"enabled": false}"#, "{}", "disabled"),
        (
            r#"{"enabled": false, "filesystem": {"denyRead": ["/~/x"]}}"#,
            "{}",
            "disabled",
        ),
        (r#"{"filesystem": {"denyRead": ["/~/x"]}}"#, "{}", "'/~/x'"),
        (
            r#"{"filesystem": {"allowWrite": ["./../x"]}}"#,
            "{}",
            "'./../x'",
        ),
        (r#"{"filesystem": {"denyWrite": ["a/.."]}}"#, "{}", "'a/..'"),
        (
            r#"{"filesystem": {"denyRead": ["../x"], "denyWrite": ["/~/z"]}}"#,
            "{}",
            "'../x'",
        ),
        (EMPTY_SRT, r#"{"deny": ["ok", "echo \"un"]}"#, "'echo \"un'"),
        (EMPTY_SRT, r#"{"deny": ["trail\\"]}"#, "backslash"),
    ];
    for (srt, bash, fact) in cases {
        let f = Fixture::new(srt, bash);
        let err = f.preview(false).expect_err(srt);
        assert_eq!(err.exit_code(), 1);
        assert!(err.to_string().contains(fact), "{err} lacks {fact}");
        // `-w` refuses it with the same error, before writing anything.
        let staged = f.stage().expect_err(srt);
        assert_eq!(staged.to_string(), err.to_string());
    }
}

#[test]
fn enabled_other_than_false_and_override_values_do_not_disable() {
    for srt in [r#"{"enabled": 0}"#, r#"{"enabled": null}"#, "{}"] {
        assert!(Fixture::new(srt, "{}").preview(false).is_ok(), "{srt}");
    }
}

#[test]
fn stage_writes_merged_config_rules_and_the_restart_line() {
    let f = Fixture::case("merge");
    let existing = merge_cases::CASES[0].0;
    std::fs::create_dir_all(f.path(".codex")).unwrap();
    std::fs::write(f.path(".codex/config.toml"), existing).unwrap();
    let (plan, warnings) = f.stage().unwrap();
    let profile = &MERGE_FRAGMENT[MERGE_FRAGMENT.find("[permissions.twsrt]").unwrap()..];
    // The user's file gets the feature at its end (`feature.rs`).
    let expected =
        merge_cases::CASES[0].1.replace("{P}", profile) + "\n[features]\nnetwork_proxy = true\n";
    assert_eq!(plan.steps.len(), 3);
    assert_eq!(plan.notes.len(), 1);
    assert!(
        plan.notes[0].contains("turns on Codex's network_proxy feature"),
        "{:?}",
        plan.notes
    );
    let plan_steps = &plan.steps;
    assert_eq!(
        plan_steps[0],
        Step::Write {
            path: f.path(".codex/config.toml"),
            content: expected.into_bytes(),
            kind: FileKind::AgentTarget,
        }
    );
    let Step::Write { path, .. } = &plan_steps[1] else {
        panic!("no rules write")
    };
    assert_eq!(path, &f.path(".codex/rules/twsrt.rules"));
    assert_eq!(
        plan_steps[2],
        Step::Notice("Restart Codex to load the updated permission profile and rules.".into())
    );
    // The preview shows only managed data, never the foreign secret.
    let (name, shown) = plan.renderings().next().unwrap();
    assert_eq!(name, "codex");
    assert_eq!(shown, f.preview(false).unwrap().0);
    assert!(!shown.contains("SECRET"));
    assert_eq!(warnings.len(), 4);
}

#[test]
fn a_new_config_file_is_exactly_the_fragment() {
    let f = Fixture::case("merge");
    let (plan, _) = f.stage().unwrap();
    let Step::Write { content, .. } = &plan.steps[0] else {
        panic!("no config write")
    };
    assert_eq!(
        String::from_utf8_lossy(content),
        feature::with_network_proxy(MERGE_FRAGMENT.to_string())
    );
}

#[test]
fn legacy_settings_in_the_managed_file_are_refused() {
    for (text, named) in [
        ("sandbox_mode = \"x\"\n", "sandbox_mode"),
        (
            "[sandbox_workspace_write]\nnetwork_access = true\n",
            "sandbox_workspace_write",
        ),
        (
            "sandbox_workspace_write.network_access = true\n",
            "sandbox_workspace_write",
        ),
        (
            "sandbox_mode = \"x\"\n[sandbox_workspace_write]\n",
            "sandbox_mode, sandbox_workspace_write",
        ),
    ] {
        let f = Fixture::case("merge");
        f.apply();
        std::fs::write(f.path(".codex/config.toml"), text).unwrap();
        let err = error_text(f.stage());
        assert!(
            err.starts_with(&f.expand("{D}/.codex/config.toml: ")),
            "{err}"
        );
        assert!(err.contains(named), "{err}");
        let (result, warnings) = f.diff();
        assert!(error_text(result).contains(named));
        assert!(warnings.is_empty(), "no warnings when diff fails");
    }
    // A profile of its own may hold sandbox_mode.
    let f = Fixture::case("merge");
    std::fs::create_dir_all(f.path(".codex")).unwrap();
    std::fs::write(
        f.path(".codex/config.toml"),
        "[profiles.a]\nsandbox_mode = \"x\"\n",
    )
    .unwrap();
    assert!(f.stage().is_ok());
}

#[test]
fn toml_errors_name_the_position_but_never_the_content() {
    let f = Fixture::case("merge");
    std::fs::create_dir_all(f.path(".codex")).unwrap();
    std::fs::write(
        f.path(".codex/config.toml"),
        "model = \"o3\"\ntoken = \"sk-SECRET\" x\n",
    )
    .unwrap();
    let err = error_text(f.stage());
    assert!(
        err.starts_with(&f.expand("{D}/.codex/config.toml:2:21: ")),
        "{err}"
    );
    assert!(!err.contains("SECRET") && !err.contains("token"), "{err}");
    std::fs::write(f.path(".codex/config.toml"), b"model = 1\n\xff\n").unwrap();
    assert!(error_text(f.stage()).contains("config.toml:2:1: "));
    std::fs::write(f.path(".codex/config.toml"), "permissions = 5\n").unwrap();
    assert!(error_text(f.stage()).contains("`permissions`"));
}

#[test]
fn diff_reports_missing_files_then_drift_entries() {
    let f = Fixture::case("merge");
    let (result, warnings) = f.diff();
    assert_eq!(
        result.unwrap(),
        AgentDiff::TargetMissing(f.expand("codex target file not found: {D}/.codex/config.toml"))
    );
    assert!(warnings.is_empty());
    f.apply();
    std::fs::remove_file(f.path(".codex/rules/twsrt.rules")).unwrap();
    assert_eq!(
        f.diff().0.unwrap(),
        AgentDiff::TargetMissing(
            f.expand("codex target file not found: {D}/.codex/rules/twsrt.rules")
        )
    );
    f.apply();
    let (result, warnings) = f.diff();
    assert_eq!(result.unwrap().texts(), Some((vec![], vec![])));
    assert_eq!(warnings.len(), 4);

    // Formatting, comments and key order inside the profile are not drift.
    let path = f.path(".codex/config.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let reordered = text
        .replace("extends = \":workspace\"\n", "")
        .replace(
            "[permissions.twsrt.filesystem]\n",
            "# note\n[permissions.twsrt.filesystem]\n",
        )
        .replace(
            "description = ",
            "extends=\":workspace\"   # base\ndescription = ",
        );
    std::fs::write(&path, &reordered).unwrap();
    assert_eq!(f.diff().0.unwrap().texts(), Some((vec![], vec![])));

    let drifted = text
        .replace(
            "approval_policy = \"on-request\"",
            "approval_policy = \"never\"",
        )
        .replace("approvals_reviewer = \"user\"\n", "")
        .replace("\"~/.ssh\" = \"deny\"", "\"~/.ssh\" = \"read\"");
    std::fs::write(&path, drifted).unwrap();
    let rules = f.path(".codex/rules/twsrt.rules");
    let mut rules_text = std::fs::read_to_string(&rules).unwrap();
    rules_text.pop();
    std::fs::write(&rules, rules_text).unwrap();
    let rules_entry = format!("rules:{}", rules.display());
    assert_eq!(
        f.diff().0.unwrap().texts(),
        Some((
            vec![
                "config:approval_policy".into(),
                "config:approvals_reviewer".into(),
                "config:permissions.twsrt".into(),
                rules_entry.clone(),
            ],
            vec![
                "config:approval_policy".into(),
                "config:permissions.twsrt".into(),
                rules_entry,
            ],
        ))
    );

    let without_profile = &text[..text.find("\n[permissions.twsrt]").unwrap()];
    std::fs::write(&path, without_profile).unwrap();
    f.apply();
    std::fs::write(
        &path,
        without_profile.replace("allow_login_shell = false", "allow_login_shell = \"false\""),
    )
    .unwrap();
    assert_eq!(
        f.diff().0.unwrap().texts(),
        Some((
            vec![
                "config:allow_login_shell".into(),
                "config:permissions.twsrt".into()
            ],
            vec!["config:allow_login_shell".into()],
        ))
    );
}

#[test]
fn an_empty_extra_table_in_the_profile_is_drift() {
    let f = Fixture::case("merge");
    f.apply();
    let path = f.path(".codex/config.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        format!("{text}\n[permissions.twsrt.network.unix_sockets]\n"),
    )
    .unwrap();
    assert_eq!(
        f.diff().0.unwrap().texts(),
        Some((
            vec!["config:permissions.twsrt".into()],
            vec!["config:permissions.twsrt".into()],
        ))
    );
}

#[test]
fn the_owned_keys_go_before_a_comment_that_heads_the_first_table() {
    let profile = &MERGE_FRAGMENT[MERGE_FRAGMENT.find("[permissions.twsrt]").unwrap()..];
    let path = std::path::Path::new("/x/config.toml");
    for (i, (existing, expected)) in merge_cases::COMMENT_HEADS_TABLE.iter().enumerate() {
        let expected = expected.replace("{P}", profile);
        let merged = merge::merge(existing, MERGE_FRAGMENT, path).unwrap();
        assert_eq!(merged, expected, "case {i}: {existing:?}");
        let again = merge::merge(&merged, MERGE_FRAGMENT, path).unwrap();
        assert_eq!(again, merged, "case {i} is not stable");
    }
}

#[test]
fn merge_layouts_match_the_reference_byte_for_byte() {
    let profile = &MERGE_FRAGMENT[MERGE_FRAGMENT.find("[permissions.twsrt]").unwrap()..];
    let path = std::path::Path::new("/x/config.toml");
    for (i, (existing, expected)) in merge_cases::CASES.iter().enumerate() {
        let expected = expected.replace("{P}", profile);
        let merged = merge::merge(existing, MERGE_FRAGMENT, path).unwrap();
        assert_eq!(merged, expected, "case {i}: {existing:?}");
        // A second run leaves the file as it is (3.3.3 could still drop a
        // blank line after the profile).
        let second = merge::merge(&merged, MERGE_FRAGMENT, path).unwrap();
        assert_eq!(second, merged, "rerun {i}");
    }
}

#[test]
fn merge_keeps_the_blank_lines_after_the_old_profile() {
    let profile = &MERGE_FRAGMENT[MERGE_FRAGMENT.find("[permissions.twsrt]").unwrap()..];
    let path = std::path::Path::new("/x/config.toml");
    for (i, (existing, expected)) in merge_cases::GAP_AFTER_PROFILE.iter().enumerate() {
        let expected = expected.replace("{P}", profile);
        let merged = merge::merge(existing, MERGE_FRAGMENT, path).unwrap();
        assert_eq!(merged, expected, "case {i}: {existing:?}");
        let again = merge::merge(&merged, MERGE_FRAGMENT, path).unwrap();
        assert_eq!(again, merged, "case {i} is not stable");
    }
}

#[test]
fn merge_keeps_comments_after_an_old_profile() {
    // The reference drops these comments with the old profile; we keep them.
    let path = std::path::Path::new("/x/config.toml");
    let existing = "[permissions.twsrt]\nextends = \"x\"\n\n# about projects\n[projects.a]\nx=1\n";
    let merged = merge::merge(existing, MERGE_FRAGMENT, path).unwrap();
    assert!(
        merged.ends_with("\"github.com\" = \"allow\"\n\n# about projects\n[projects.a]\nx=1\n")
    );
    assert_eq!(merge::merge(&merged, MERGE_FRAGMENT, path).unwrap(), merged);
}

#[test]
fn merge_into_dotted_permissions_keeps_the_document_valid() {
    // The reference moves following keys under the new table here; we do not.
    let path = std::path::Path::new("/x/config.toml");
    let existing = "permissions.other.extends = \"x\"\nmodel = 1\n[a]\nb=1\n";
    let merged = merge::merge(existing, MERGE_FRAGMENT, path).unwrap();
    let doc: toml_edit::DocumentMut = merged.parse().unwrap();
    assert_eq!(doc["model"].as_integer(), Some(1));
    assert_eq!(doc["permissions"]["other"]["extends"].as_str(), Some("x"));
    assert_eq!(
        doc["permissions"]["twsrt"]["extends"].as_str(),
        Some(":workspace")
    );
    assert_eq!(doc["a"]["b"].as_integer(), Some(1));
}

/// Measured with Codex 0.171: `network.domains` is enforced only with the
/// `network_proxy` feature on, so twsrt owns `[features] network_proxy =
/// true` beside a profile with domain lists (`feature.rs`).
#[test]
fn the_network_proxy_feature_is_owned_beside_the_domain_lists() {
    let f = Fixture::case("merge");
    let (preview, warnings) = f.preview(false).unwrap();
    assert!(preview.contains("[features]\nnetwork_proxy = true\n\n[permissions.twsrt]\n"));
    assert!(!warnings.contains(&NETWORK_PROXY_REMINDER.to_string()));
    f.apply();
    let (diff, warnings) = f.diff();
    assert_eq!(diff.unwrap().texts(), Some((vec![], vec![])));
    assert!(!warnings.contains(&NETWORK_PROXY_REMINDER.to_string()));

    let path = f.path(".codex/config.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let without = text.replace("[features]\nnetwork_proxy = true\n\n", "");
    // Off or missing: widening drift, and the write turns it on.
    for (user, side) in [
        (
            format!("{without}\n[features]\nnetwork_proxy = false # mine\n"),
            "extra",
        ),
        (without.clone(), "missing"),
        (format!("{without}\n[features]\nother = 1\n"), "missing"),
    ] {
        std::fs::write(&path, &user).unwrap();
        let diff = f.diff().0.unwrap();
        let AgentDiff::Listed { differences, .. } = &diff else {
            panic!("{diff:?}")
        };
        assert_eq!(differences.len(), 1, "{user}");
        assert_eq!(differences[0].section, "features.network_proxy");
        assert_eq!(differences[0].direction, crate::drift::Direction::Widening);
        assert_eq!(format!("{:?}", differences[0].side).to_lowercase(), side);
        f.apply();
        let merged = std::fs::read_to_string(&path).unwrap();
        let doc: toml_edit::DocumentMut = merged.parse().unwrap();
        assert_eq!(
            doc["features"]["network_proxy"].as_bool(),
            Some(true),
            "{merged}"
        );
        assert_eq!(f.diff().0.unwrap().texts(), Some((vec![], vec![])));
    }
    // Its table form, on, is left as it is.
    let table_form = format!("{without}\n[features.network_proxy]\nenabled = true\n");
    std::fs::write(&path, &table_form).unwrap();
    f.apply();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), table_form);
    // A `features` that is not a table is refused, naming the file.
    std::fs::write(&path, format!("features = 1\n{without}")).unwrap();
    let err = error_text(f.stage());
    assert!(err.contains("`features` is not a table"), "{err}");
    assert!(err.contains("config.toml"), "{err}");
}

/// Every recorded case renders exactly the reference's `generate codex`
/// output (the cases with other targets are rendered with those).
#[test]
fn every_recorded_case_matches_its_reference_preview() {
    for case in [
        "kitchen_sink",
        "escapes",
        "merge",
        "empty",
        "relative",
        "roots",
    ] {
        let f = Fixture::case(case);
        let (preview, _) = f.preview(false).unwrap();
        assert_eq!(preview, f.expand(&read(case, "preview.txt")), "{case}");
    }
    let f = Fixture::case_with_targets("norules", "codex_config = \"c.toml\"\n");
    let (preview, _) = f.preview(false).unwrap();
    assert_eq!(preview, f.expand(&read("norules", "preview.txt")));
}

#[test]
fn codex_drift_entries_carry_the_direction_of_what_changed_inside_them() {
    use crate::drift::Direction::{self, Widening};
    use crate::drift::Side::{self, Extra, Missing};
    let f = Fixture::case("merge");
    f.apply();
    let path = f.path(".codex/config.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    // (section, side, entry, policy, direction) of each difference.
    type Row = (String, Side, String, Option<String>, Direction);
    type Texts = Option<(Vec<String>, Vec<String>)>;
    let judged = |edited: String| -> (Vec<Row>, Texts) {
        std::fs::write(&path, edited).unwrap();
        let found = f.diff().0.unwrap();
        let AgentDiff::Listed { differences, .. } = &found else {
            panic!("listed expected: {found:?}");
        };
        let rows = differences
            .iter()
            .cloned()
            .map(|d| (d.section, d.side, d.entry, d.policy, d.direction))
            .collect();
        (rows, found.texts())
    };
    let row = |section: &str, side, entry: &str, policy: Option<&str>, direction| -> Row {
        (
            section.into(),
            side,
            entry.into(),
            policy.map(str::to_string),
            direction,
        )
    };
    let profile_lines = Some((
        vec!["config:permissions.twsrt".to_string()],
        vec!["config:permissions.twsrt".to_string()],
    ));
    // One value changed inside the profile: one difference, named by its
    // TOML key; the text report keeps 3.3.3's whole-key lines.
    let (loosened, lines) = judged(text.replace("\"~/.ssh\" = \"deny\"", "\"~/.ssh\" = \"write\""));
    assert_eq!(
        loosened,
        [row(
            "permissions.twsrt.filesystem.\"~/.ssh\"",
            Extra,
            "write",
            Some("deny"),
            Widening
        )]
    );
    assert_eq!(lines, profile_lines);
    // One deny removed: one missing difference, no empty extra one.
    let (removed, lines) = judged(text.replace("\"~/.ssh\" = \"deny\"\n", ""));
    assert_eq!(
        removed,
        [row(
            "permissions.twsrt.filesystem.\"~/.ssh\"",
            Missing,
            "deny",
            None,
            Widening
        )]
    );
    assert_eq!(lines, profile_lines);
    // A stricter approval_policy is the user's to keep: twsrt writes it
    // back and compares against it, so it is no drift (tests/adoption_stricter.rs).
    let (tightened, _) = judged(text.replace(
        "approval_policy = \"on-request\"",
        "approval_policy = \"untrusted\"",
    ));
    assert_eq!(tightened, []);
    let (elsewhere, _) = judged(text.replace(
        "default_permissions = \"twsrt\"",
        "default_permissions = \"mine\"",
    ));
    assert_eq!(
        elsewhere,
        [row(
            "default_permissions",
            Extra,
            "mine",
            Some("twsrt"),
            Widening
        )]
    );
    assert!(
        [&loosened, &removed, &tightened, &elsewhere]
            .iter()
            .all(|rows| rows.iter().all(|r| !r.2.is_empty())),
        "an empty entry"
    );
}

#[test]
fn a_rules_file_drifts_rule_by_rule_named_by_pattern() {
    use crate::drift::Direction::{self, Narrowing, Widening};
    use crate::drift::Side::{self, Extra, Missing};
    let f = Fixture::case("merge");
    f.apply();
    let rules = f.path(".codex/rules/twsrt.rules");
    let text = std::fs::read_to_string(&rules).unwrap();
    let judged = |edited: String| {
        std::fs::write(&rules, edited).unwrap();
        let found = f.diff().0.unwrap();
        let AgentDiff::Listed { differences, .. } = &found else {
            panic!("listed expected: {found:?}");
        };
        let rows: Vec<(String, Side, String, Direction)> = differences
            .iter()
            .cloned()
            .map(|d| (d.section, d.side, d.entry, d.direction))
            .collect();
        let entry = format!("rules:{}", rules.display());
        assert_eq!(found.texts(), Some((vec![entry.clone()], vec![entry])));
        rows
    };
    let rule =
        |side, entry: &str, direction| ("rules".to_string(), side, entry.to_string(), direction);
    let start = text.find("prefix_rule(").unwrap();
    assert_eq!(
        judged(text[..start].to_string()),
        [rule(Missing, "[\"rm\"]", Widening)]
    );
    let allow = "\nprefix_rule(\n    pattern = [\"curl\"],\n    decision = \"allow\",\n)\n";
    let forbid = "\nprefix_rule(\n    pattern = [\"dd\"],\n    decision = \"forbidden\",\n)\n";
    assert_eq!(
        judged(format!("{text}{allow}{forbid}")),
        [
            rule(Extra, "[\"curl\"]", Widening),
            rule(Extra, "[\"dd\"]", Narrowing)
        ]
    );
    assert_eq!(
        judged(text.replace("\"forbidden\"", "\"allow\"")),
        [rule(Extra, "[\"rm\"] (edited)", Widening)]
    );
    assert_eq!(
        judged(format!("{text}# a note\n")),
        [rule(Extra, "(comments or layout)", Narrowing)]
    );
}

/// Each warning has its code: the ones 3.3.3 prints and those about the
/// policy's entries are always shown, the measured limits only with -v.
#[test]
fn kitchen_sink_warnings_carry_their_codes_and_kinds() {
    use crate::agent::codex::codes::*;
    let f = Fixture::case("kitchen_sink");
    let (_, warnings) = f.preview_warnings(false).unwrap();
    let codes: Vec<_> = warnings.iter().map(|w| w.code).collect();
    assert_eq!(
        codes,
        [
            SOCKET_SKIPPED,
            SOCKET_SKIPPED,
            SOCKET_SKIPPED,
            LOCAL_BINDING_SKIPPED,
            PROXY_PORT_SKIPPED,
            PROXY_PORT_SKIPPED,
            UNMAPPED_KEY,
            DENY_WRITE_GLOB,
            ROOT_SKIPPED,
            DENIED_ROOT,
            BASH_ALLOW_SKIPPED,
            BASH_ASK_SKIPPED,
            GLOB_WALK,
            RULES_OUTSIDE_SANDBOX,
            LEGACY_LAYERS,
        ]
    );
    let limits: Vec<_> = codes.into_iter().filter(|c| c.is_agent_limit()).collect();
    assert_eq!(limits, [GLOB_WALK]);
    assert!(warnings.iter().all(|w| w.location == "codex"
        && w.severity == crate::diag::Severity::Warning
        && w.notes.is_empty()));
}

/// `stage` writes the fragment itself as a new config.toml, and over a
/// file that holds just the fragment: merged into nothing or into itself,
/// it comes out as it went in, in every recorded case and mode.
#[test]
fn the_fragment_merged_into_nothing_or_itself_is_the_fragment() {
    for case in [
        "empty",
        "escapes",
        "kitchen_sink",
        "merge",
        "norules",
        "relative",
        "roots",
    ] {
        let f = Fixture::case(case);
        for yolo in [false, true] {
            let fragment = render_config(&f.ctx(yolo), f.home(), &mut Vec::new()).unwrap();
            // (Into nothing the feature ends the file; `stage` writes the
            // fragment itself there.)
            let merged = merge::merge("", &fragment, Path::new("config.toml")).unwrap();
            let drift = drift::compare_config(&merged, &fragment, Path::new("c")).unwrap();
            assert!(drift.differences.is_empty(), "{case} yolo={yolo}");
            let again = merge::merge(&fragment, &fragment, Path::new("config.toml")).unwrap();
            assert_eq!(again, fragment, "{case} yolo={yolo} over itself");
        }
    }
}
