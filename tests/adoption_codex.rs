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
        "the network switched off, then a table",
        |t| {
            format!(
                "{}\n[tui]\nanimations = false\n",
                t.replacen("enabled = true", "enabled = false", 1)
            )
        },
        false,
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
