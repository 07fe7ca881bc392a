//! Codex adoption: `diff` and `generate -w` agree byte for byte on whether
//! config.toml changes. After a first `generate -w`, the user edits the file
//! (a table of their own after the profile, blank lines, comments); `diff`
//! exits 0 exactly when the next `generate -w` leaves every byte as it is.

use crate::support::*;

const CODEX_ONLY: &str = "[targets]\ncodex_config = \"~/.codex/config.toml\"\n";

/// A policy without domains: the profile ends with an empty
/// `[permissions.twsrt.network.domains]` table (the first hour's file, whose user then added a table).
const NO_DOMAINS: &str = r#"{"filesystem": {"denyRead": ["~/.ssh"], "allowWrite": ["."]},
  "network": {"allowedDomains": [], "deniedDomains": []}}"#;

/// A user's edit of the file `generate -w` wrote, and whether it only adds
/// what twsrt does not own (so `diff` is clean and nothing is rewritten).
type Edit = (&'static str, fn(&str) -> String, bool);

const EDITS: &[Edit] = &[
    (
        "a table after the profile",
        |t| format!("{t}\n[tui]\nanimations = false\n"),
        true,
    ),
    (
        "two blank lines before it",
        |t| format!("{t}\n\n[tui]\nanimations = false\n"),
        true,
    ),
    (
        "no blank line before it",
        |t| format!("{t}[tui]\nanimations = false\n"),
        true,
    ),
    (
        "a comment heading it",
        |t| format!("{t}\n# mine\n[tui]\nanimations = false\n"),
        true,
    ),
    ("blank lines at the end", |t| format!("{t}\n\n"), true),
    (
        "a table before the profile",
        |t| {
            t.replacen(
                "\n[permissions.twsrt]",
                "\n[mcp_servers.x]\ncommand = \"y\"\n\n[permissions.twsrt]",
                1,
            )
        },
        true,
    ),
    (
        "a comment inside the profile",
        |t| {
            t.replacen(
                "[permissions.twsrt.network]",
                "# net\n[permissions.twsrt.network]",
                1,
            )
        },
        true,
    ),
    (
        "a blank line removed inside the profile",
        |t| {
            t.replacen(
                "\n\n[permissions.twsrt.network]",
                "\n[permissions.twsrt.network]",
                1,
            )
        },
        true,
    ),
    (
        "the network_proxy feature switched off",
        |t| t.replacen("network_proxy = true", "network_proxy = false", 1),
        false,
    ),
    (
        "a looser approval_policy",
        |t| t.replacen("\"on-request\"", "\"never\"", 1),
        false,
    ),
    (
        "a profile value edited",
        |t| t.replacen("\"~/.ssh\" = \"deny\"", "\"~/.ssh\" = \"read\"", 1),
        false,
    ),
    (
        "the network switched off (stricter, kept), then a table",
        |t| {
            format!(
                "{}\n[tui]\nanimations = false\n",
                t.replacen("enabled = true", "enabled = false", 1)
            )
        },
        true,
    ),
];

fn written(domains: &str) -> Output {
    Test::with_policy()
        .file(SRT_FRAGMENT, domains)
        .config_append(CODEX_ONLY)
        .args(&["generate", "-w", "codex"])
        .any_stderr()
        .run()
}

#[test]
fn diff_is_clean_exactly_when_generate_leaves_the_file_as_it_is() {
    for srt in [NO_DOMAINS, BASE_SRT] {
        for (what, edit, clean) in EDITS {
            let out = written(srt);
            let original = out.read(CODEX_CONFIG);
            let edited = edit(&original);
            assert_ne!(edited, original, "{what}: the edit changed nothing");
            let test = out.then().file(CODEX_CONFIG, &edited);
            let out = test
                .args(&["diff", "codex"])
                .any_status()
                .any_stdout()
                .any_stderr()
                .run();
            assert_eq!(out.status == 0, *clean, "{what}: diff said {}", out.stdout);
            let out = out
                .then()
                .args(&["generate", "-w", "codex"])
                .any_stderr()
                .run();
            let after = out.read(CODEX_CONFIG);
            assert_eq!(
                after == edited,
                *clean,
                "{what}: generate -w wrote\n{after}"
            );
            let wrote = out.stderr.contains("Wrote: {HOME}/.codex/config.toml");
            assert_eq!(!wrote, *clean, "{what}: {}", out.stderr);
            // Whatever was rewritten, the next diff is clean.
            out.then()
                .args(&["diff", "--fail-on", "widening", "codex"])
                .stdout_contains("codex: no drift")
                .any_stderr()
                .run();
        }
    }
}

#[test]
fn a_comment_inside_the_profile_stays_while_the_profile_is_the_generated_one() {
    let out = written(BASE_SRT);
    let edited = out.read(CODEX_CONFIG).replacen(
        "[permissions.twsrt.network]",
        "# net\n[permissions.twsrt.network]",
        1,
    );
    let out = out
        .then()
        .file(CODEX_CONFIG, &edited)
        .args(&["generate", "-w", "codex"])
        .stderr_contains("Unchanged: {HOME}/.codex/config.toml")
        .any_stderr()
        .run();
    assert_eq!(out.read(CODEX_CONFIG), edited);
}

/// Codex's legacy sandbox settings: import takes their writable roots and
/// says of each key what the twsrt profile does instead and that it must
/// go; `generate -w` refuses while they are in the file.
#[test]
fn import_maps_the_legacy_sandbox_settings_and_says_what_generate_does() {
    let legacy = "model = \"o3\"\nsandbox_mode = \"workspace-write\"\n\n\
                  [sandbox_workspace_write]\nwritable_roots = [\"/opt/data\"]\n\
                  network_access = false\n";
    let out = Test::with_policy()
        .config_append(CODEX_ONLY)
        .file(CODEX_CONFIG, legacy)
        .args(&["import", "-w", "codex"])
        .any_stdout()
        .stderr_contains(
            "Warning: delete before `twsrt generate -w`: sandbox_mode (~/.codex/config.toml \
             /sandbox_mode): Codex's workspace-write mode, imported as allowWrite \".\"",
        )
        .stderr_contains(
            "Warning: delete before `twsrt generate -w`: network_access = false \
             (~/.codex/config.toml /sandbox_workspace_write/network_access)",
        )
        .stderr_contains("set enabled = false under [permissions.twsrt.network]")
        .stderr_contains(
            "Warning: delete before `twsrt generate -w`: [sandbox_workspace_write] \
             (~/.codex/config.toml /sandbox_workspace_write)",
        )
        .lacks("twsrt keeps it (a permission")
        .any_stderr()
        .run();
    let fragment = out.read(".config/twsrt/srt/imported-codex.jsonc");
    assert!(fragment.contains("\"/opt/data\""), "{fragment}");
    // ("." is in the policy already.)
    // generate -w refuses while the keys are there, as import said.
    let out = out
        .then()
        .args(&["generate", "-w", "codex"])
        .status(1)
        .stderr_contains("legacy setting(s) sandbox_mode, sandbox_workspace_write")
        .any_stderr()
        .run();
    // Deleted, the profile holds the imported root.
    let out = out
        .then()
        .file(CODEX_CONFIG, "model = \"o3\"\n")
        .args(&["generate", "-w", "codex"])
        .any_stderr()
        .run();
    assert!(out.read(CODEX_CONFIG).contains("\"/opt/data\" = true"));
}

/// The profile's `network.enabled = false`, the counterpart of the legacy
/// `network_access = false`, is stricter than the policy's and is kept,
/// said when the write changes the file, and clean in `diff`.
#[test]
fn a_network_switched_off_in_the_profile_is_kept() {
    let out = written(BASE_SRT);
    let off = out
        .read(CODEX_CONFIG)
        .replacen(
            "[permissions.twsrt.network]\nenabled = true",
            "[permissions.twsrt.network]\nenabled = false",
            1,
        )
        .replacen(
            "approval_policy = \"on-request\"",
            "approval_policy = \"never\"",
            1,
        );
    let out = out
        .then()
        .file(CODEX_CONFIG, &off)
        .args(&["generate", "-w", "codex"])
        .stderr_contains(
            "Info: codex: keeps your [permissions.twsrt.network] enabled = false, which lets \
             sandboxed commands reach no host",
        )
        .any_stderr()
        .run();
    let written = out.read(CODEX_CONFIG);
    assert!(
        written.contains("[permissions.twsrt.network]\nenabled = false\n"),
        "{written}"
    );
    assert!(
        written.contains("approval_policy = \"on-request\""),
        "{written}"
    );
    let out = out
        .then()
        .args(&["diff", "--fail-on", "widening", "codex"])
        .stdout_contains("codex: no drift")
        .any_stderr()
        .run();
    out.then()
        .args(&["generate", "-w", "codex"])
        .lacks("keeps your")
        .stderr_contains("Unchanged: {HOME}/.codex/config.toml")
        .any_stderr()
        .run();
}
