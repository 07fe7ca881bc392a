//! Copilot CLI launch findings: every generated deny flag is needed, and
//! the allow-all flags widen.

use crate::agent::launch::fixture::flags::*;

#[test]
fn copilot_needs_every_generated_deny_flag() {
    let generated = [
        "--allow-tool",
        "shell",
        "--deny-tool",
        "shell(rm)",
        "--deny-url",
        "evil.com",
    ];
    assert!(
        copilot_with(
            &generated,
            &[
                "copilot",
                "-p",
                "x",
                "--allow-tool",
                "shell",
                "--deny-tool",
                "shell(rm)",
                "--deny-url",
                "evil.com"
            ]
        )
        .is_empty()
    );
    assert!(
        copilot_with(
            &generated,
            &["copilot", "--deny-tool=shell(rm)", "--deny-url=evil.com"]
        )
        .is_empty()
    );
    assert_eq!(
        copilot_with(&generated, &["copilot", "--deny-url", "evil.com"]),
        err("--deny-tool")
    );
    assert_eq!(
        copilot_with(
            &generated,
            &[
                "copilot",
                "--deny-tool",
                "shell(rm)",
                "--",
                "--deny-url",
                "evil.com"
            ]
        ),
        err("--deny-url")
    );
    let extra = copilot_with(
        &generated,
        &[
            "copilot",
            "--deny-tool",
            "shell(rm)",
            "--deny-url",
            "evil.com",
            "--allow-url",
            "x.com",
        ],
    );
    assert_eq!(extra, warn("--allow-url"));
}

#[test]
fn copilot_allow_all_flags_are_warnings() {
    for flag in [
        "--allow-all-tools",
        "--allow-all-paths",
        "--allow-all-urls",
        "--allow-all",
        "--yolo",
    ] {
        assert_eq!(copilot_with(&[], &["copilot", flag]), warn(flag), "{flag}");
    }
    // In yolo mode --yolo is what twsrt generates.
    let dir = tempfile::tempdir().unwrap();
    let mut yolo = inputs(dir.path());
    yolo.yolo = true;
    yolo.copilot_flags = argv(&["--yolo"]);
    assert!(
        audit(&argv(&["copilot", "--yolo"]), &yolo)
            .unwrap()
            .is_empty()
    );
}
