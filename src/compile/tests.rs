use super::*;
use crate::rules::Scope;
use serde_json::json;
use tempfile::TempDir;

/// A config in a temp directory (not under HOME, so every policy file is
/// spelled absolute) with the given fragments; `bash: None` leaves
/// `[sources.bash]` out. `bash_first` lists it before srt.
fn setup(srt: &str, bash: Option<&str>, bash_first: bool) -> (TempDir, Config) {
    let dir = TempDir::new().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::write(root.join("srt.jsonc"), srt).unwrap();
    let srt_source = "[sources.srt]\n[sources.srt.fragments.base]\npath = \"srt.jsonc\"\n";
    let mut sources = srt_source.to_string();
    let mut profile = "[profiles.default]\nsrt = [\"base\"]\n".to_string();
    if let Some(bash) = bash {
        std::fs::write(root.join("bash.jsonc"), bash).unwrap();
        let bash_source = "[sources.bash]\n[sources.bash.fragments.base]\npath = \"bash.jsonc\"\n";
        sources = if bash_first {
            format!("{bash_source}{srt_source}")
        } else {
            format!("{srt_source}{bash_source}")
        };
        profile.push_str("bash = [\"base\"]\n");
    }
    let text = format!("schema_version = 1\ndefault_profile = \"default\"\n{sources}{profile}");
    let path = root.join("config.toml");
    std::fs::write(&path, &text).unwrap();
    let config = crate::config::parse(&text, &path).unwrap();
    (dir, config)
}

/// The policy files of a [`setup`] config, as rules.
fn policy(config: &Config, bash: bool) -> Vec<String> {
    let dir = config.path.parent().unwrap();
    let mut files = vec!["config.toml", "srt-settings.json", "srt.jsonc"];
    if bash {
        files.extend(["bash-rules.json", "bash.jsonc"]);
    }
    files
        .into_iter()
        .map(|f| dir.join(f).to_str().unwrap().to_string())
        .collect()
}

#[test]
fn set_lists_are_sorted_and_other_lists_keep_fragment_order() {
    let (_dir, config) = setup(
        r#"{"network": {"allowedDomains": ["pypi.org", "*.github.com", "github.com"],
                        "allowMachLookup": ["z", "a"], "allowUnixSockets": ["/z", "/a"]},
            "ignoreViolations": {"npm": ["b", "a"]}, "git": {"safeDirectories": ["b", "a"]}}"#,
        Some(
            r#"{"allow": ["ls", "cat"], "ask": ["git push", "git commit"], "deny": ["sudo", "rm"]}"#,
        ),
        false,
    );
    let compiled = compile(&config, None).unwrap();
    let srt = compiled.srt();
    assert_eq!(
        srt["network"]["allowedDomains"],
        json!(["*.github.com", "github.com", "pypi.org"])
    );
    assert_eq!(srt["network"]["allowMachLookup"], json!(["z", "a"]));
    assert_eq!(srt["network"]["allowUnixSockets"], json!(["/a", "/z"]));
    assert_eq!(srt["ignoreViolations"]["npm"], json!(["a", "b"]));
    assert_eq!(srt["git"]["safeDirectories"], json!(["b", "a"]));
    assert_eq!(
        compiled.document(SourceKind::Bash),
        &json!({"allow": ["cat", "ls"], "ask": ["git commit", "git push"], "deny": ["rm", "sudo"]})
    );
}

#[test]
fn deny_write_holds_the_read_denies_and_every_policy_file() {
    let (_dir, config) = setup(
        r#"{"filesystem": {"denyRead": ["~/.ssh"], "denyWrite": ["~/.bashrc"], "allowWrite": ["."]}}"#,
        Some("{}"),
        false,
    );
    let compiled = compile(&config, None).unwrap();
    let mut want = policy(&config, true);
    want.extend(["~/.bashrc".to_string(), "~/.ssh".into()]);
    want.sort();
    assert_eq!(compiled.srt()["filesystem"]["denyWrite"], json!(want));
    // And they are rules like any other write deny.
    let denies = compiled
        .rules()
        .iter()
        .filter(|r| r.is(Scope::Write, crate::rules::Action::Deny))
        .count();
    assert_eq!(denies, want.len());
}

#[test]
fn a_caller_may_protect_more_paths() {
    let (_dir, config) = setup("{}", Some("{}"), false);
    let compiled = compile_protecting(&config, None, &["/proj/.twsrt".to_string()]).unwrap();
    let deny_write = compiled.srt()["filesystem"]["denyWrite"]
        .as_array()
        .unwrap();
    assert_eq!(deny_write[0], json!("/proj/.twsrt"));
    assert_eq!(deny_write.len(), 6);
}

#[test]
fn a_read_denied_write_allowed_path_fails_the_compile() {
    let (_dir, config) = setup(
        r#"{"filesystem": {"denyRead": ["~/x"], "allowWrite": ["~/x"]}}"#,
        Some("{}"),
        false,
    );
    let msg = compile(&config, None).unwrap_err().to_string();
    assert!(
        msg.contains("profile 'default'") && msg.contains("~/x"),
        "{msg}"
    );
    assert!(
        msg.contains("filesystem.denyRead") && msg.contains("filesystem.allowWrite"),
        "{msg}"
    );
}

#[test]
fn without_a_bash_source_there_is_no_bash_document_and_no_command_rule() {
    let (_dir, config) = setup(r#"{"network": {"allowedDomains": ["a.com"]}}"#, None, false);
    let compiled = compile(&config, None).unwrap();
    let kinds: Vec<SourceKind> = compiled.canonical.iter().map(|c| c.kind).collect();
    assert_eq!(kinds, [SourceKind::Srt]);
    assert_eq!(compiled.document(SourceKind::Bash), &Value::Null);
    assert!(compiled.rules().iter().all(|r| r.scope != Scope::Execute));
    assert_eq!(
        compiled.srt()["filesystem"]["denyWrite"],
        json!(policy(&config, false))
    );
}

#[test]
fn documents_follow_config_order_but_srt_rules_come_first() {
    let (_dir, config) = setup(
        r#"{"network": {"allowedDomains": ["a.com"]}}"#,
        Some(r#"{"deny": ["rm"]}"#),
        true,
    );
    let compiled = compile(&config, None).unwrap();
    let kinds: Vec<SourceKind> = compiled.canonical.iter().map(|c| c.kind).collect();
    assert_eq!(kinds, [SourceKind::Bash, SourceKind::Srt]);
    let rules = compiled.rules();
    assert_eq!(rules.last().map(|r| r.pattern), Some("rm"));
    assert_eq!(rules[0].scope, Scope::Write);
}
