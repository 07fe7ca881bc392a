//! Codex launch findings: the risky flags in each spelling, the `-c`
//! overrides, the profile file, the project layers and the legacy profiles
//! of the target.

use crate::agent::launch::fixture::flags::*;

#[test]
fn codex_sandbox_flags_are_errors_in_every_spelling() {
    let cases: [(&[&str], &str); 9] = [
        (
            &["codex", "-s", "danger-full-access"],
            "-s danger-full-access",
        ),
        (&["codex", "-sread-only"], "-sread-only"),
        (&["codex", "-s=workspace-write"], "-s=workspace-write"),
        (&["codex", "--sandbox", "read-only"], "--sandbox read-only"),
        (
            &["codex", "--sandbox=danger-full-access"],
            "--sandbox=danger-full-access",
        ),
        (&["codex", "--approve-for-me"], "--approve-for-me"),
        (&["codex", "--yolo"], "--yolo"),
        (
            &[
                "codex",
                "exec",
                "--dangerously-bypass-approvals-and-sandbox",
            ],
            "--dangerously-bypass-approvals-and-sandbox",
        ),
        (&["codex", "e", "-s", "read-only", "go"], "-s read-only"),
    ];
    for (line, flag) in cases {
        assert_eq!(summary(line), err(flag), "{line:?}");
    }
}

#[test]
fn codex_config_overrides_of_owned_keys() {
    let cases: [(&[&str], Expected); 7] = [
        (
            &["codex", "-c", "sandbox_mode=danger-full-access"],
            err("-c sandbox_mode=danger-full-access"),
        ),
        (
            &["codex", "-csandbox_mode=\"read-only\""],
            err("-csandbox_mode=read-only"),
        ),
        (
            &["codex", "--config=default_permissions=mine"],
            err("--config=default_permissions=<value>"),
        ),
        (
            &[
                "codex",
                "--config",
                "permissions.twsrt.network.enabled=true",
            ],
            err("--config permissions.twsrt.<key>=true"),
        ),
        (
            &["codex", "-c", "profiles.x.sandbox_mode=read-only"],
            err("-c <key>.sandbox_mode=read-only"),
        ),
        (
            &["codex", "-c", "approval_policy=never"],
            warn("-c approval_policy=never"),
        ),
        (
            &["codex", "-c", "model=o3", "-a", "never"],
            warn("-a never"),
        ),
    ];
    for (line, want) in cases {
        assert_eq!(summary(line), want, "{line:?}");
    }
    let bad = audit(&argv(&["codex", "-c", "sandbox_mode"]), &Inputs::default());
    assert_eq!(bad.unwrap_err().exit_code(), EXIT_UNREADABLE);
}

#[test]
fn the_codex_profile_file_and_project_config() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("codex-home")).unwrap();
    std::fs::write(
        d.join("codex-home/fast.config.toml"),
        "sandbox_mode = \"danger-full-access\"\n",
    )
    .unwrap();
    let got = audit_in(d, &["codex", "--profile", "fast"]);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(
        (got[0].severity, got[0].location.as_str()),
        (Severity::Error, "--profile <value>")
    );
    // A profile without a file adds nothing (Codex starts without it too).
    assert!(audit_in(d, &["codex", "-p", "none"]).is_empty());

    std::fs::create_dir_all(d.join(".codex")).unwrap();
    std::fs::write(
        d.join(".codex/config.toml"),
        "sandbox_mode = \"workspace-write\"\n[profiles.old]\nsandbox_mode = \"read-only\"\n",
    )
    .unwrap();
    let got: Vec<_> = audit_in(d, &["codex"])
        .into_iter()
        .map(|f| (f.severity, f.location))
        .collect();
    assert_eq!(
        got,
        [
            (Severity::Error, ".codex/config.toml".into()),
            (Severity::Error, ".codex/config.toml".into())
        ]
    );

    std::fs::write(d.join(".codex/config.toml"), "sandbox_mode = [").unwrap();
    let broken = audit(&argv(&["codex"]), &inputs(d)).unwrap_err();
    assert_eq!(broken.exit_code(), EXIT_UNREADABLE);
}

#[test]
fn the_legacy_profiles_of_the_codex_target() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("codex-home/config.toml");
    std::fs::create_dir_all(target.parent().unwrap()).unwrap();
    std::fs::write(
        &target,
        "default_permissions = \"twsrt\"\n[profiles.a]\nsandbox_mode = \"danger-full-access\"\n",
    )
    .unwrap();
    let mut inputs = inputs(dir.path());
    inputs.codex_target = Some(target.clone());
    let got = audit(&argv(&["codex"]), &inputs).unwrap();
    // twsrt's own keys in its target are no finding; the legacy table is.
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].location, "$CODEX_HOME/config.toml");
    assert!(
        got[0].message.starts_with("sets profiles.a.sandbox_mode: "),
        "{got:?}"
    );
    // A target Codex does not load ($CODEX_HOME points elsewhere) is an error.
    inputs.codex_home = dir.path().join("other");
    let got = audit(&argv(&["codex"]), &inputs).unwrap();
    assert_eq!(got[0].severity, Severity::Error);
    assert!(
        got[0].message.starts_with("Codex does not load this file"),
        "{got:?}"
    );
}

#[test]
fn codex_add_dir_of_the_root_or_the_home_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let home = home.to_str().unwrap();
    let up = "home/x/..";
    for value in ["/", "~", "~/", "$HOME", home, up, "//"] {
        let line = ["codex", "--add-dir", value];
        let found: Vec<_> = audit_in(dir.path(), &line)
            .into_iter()
            .map(|f| (f.severity, f.location))
            .collect();
        assert_eq!(found, err("--add-dir <value>"), "{value}");
    }
    assert_eq!(
        summary(&["codex", "--add-dir", "/srv/data"]),
        warn("--add-dir <value>")
    );
}
