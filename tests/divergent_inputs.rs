//! Where twsrt departs from its reference, twsrt 3.3.3, on purpose: a parity
//! scenario records what 3.3.3 does, so these cases are pinned here instead
//! (tests/parity/README.md lists them).
//!
//! Two groups. Inputs on which 3.3.3 crashes with a traceback, where twsrt
//! exits 1 with one `Error:` naming the file and key and writes nothing; and
//! behaviour twsrt adds because 3.3.3 is unsafe or quietly wrong there.
//!
//! Covered elsewhere, not repeated here: a Claude target that is a JSON array
//! or a directory, and a target whose parent is a file (reliability_targets.rs,
//! for `generate -w` and `diff`); a Claude target whose `permissions` or
//! `sandbox` is a string (reliability_leaks.rs); an unbalanced quote in
//! `$EDITOR` (config_cmd.rs); an unknown `[targets]` key (compile_errors.rs).

use crate::support::*;

/// Only the Claude agent configured: its runs print no Codex or Copilot
/// warnings, so stderr can be compared exactly.
const CLAUDE_ONLY: &str = "\n[targets]\nclaude_settings = \"~/.claude/settings.full.json\"\n";

const CODEX_ONLY: &str = "\n[targets]\ncodex_config = \"~/.codex/config.toml\"\n\
                          codex_rules = \"~/.codex/rules/twsrt.rules\"\n";

/// What `generate -w claude` reports on stderr for the base policy.
const WROTE_CLAUDE: &str = "Wrote canonical: {HOME}/.srt-settings.json\n\
                            Wrote canonical: {HOME}/.config/twsrt/bash-rules.json\n\
                            Wrote: {HOME}/.claude/settings.full.json\n";

/// What `diff` prints before it reads an agent's target when nothing has
/// been generated yet.
const CANONICAL_DRIFT: &str = "srt canonical: drift\nbash canonical: drift\n";

fn claude_home() -> Test {
    Test::with_policy().config_append(CLAUDE_ONLY)
}

fn codex_home() -> Test {
    Test::with_policy().config_append(CODEX_ONLY)
}

/// The strings of the JSON list at `pointer` in the file `rel` of `out`.
#[track_caller]
fn json_list(out: &Output, rel: &str, pointer: &str) -> Vec<String> {
    let doc: serde_json::Value =
        serde_json::from_str(&out.read(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let list = doc
        .pointer(pointer)
        .and_then(|v| v.as_array())
        .unwrap_or_else(|| panic!("{rel}: no list at {pointer}"));
    list.iter()
        .map(|v| {
            v.as_str()
                .unwrap_or_else(|| panic!("{rel}{pointer}: {v}"))
                .to_string()
        })
        .collect()
}

// ---------------------------------------------------------------------------
// inputs on which 3.3.3 crashes
// ---------------------------------------------------------------------------

/// 3.3.3: `TypeError: 'int' object is not iterable` (it merges the value
/// into the sandbox settings without looking at it).
#[test]
fn a_sandbox_override_that_is_not_a_table_is_an_error_naming_the_key() {
    let commands: &[&[&str]] = &[
        &["generate", "claude"],
        &["generate", "-w", "claude"],
        &["diff", "claude"],
    ];
    for args in commands {
        claude_home()
            .config_append("\n[sandbox_overrides]\nfull = 1\n")
            .args(args)
            .status(1)
            .stderr_contains("Error: {HOME}/.config/twsrt/config.toml")
            .stderr_contains("sandbox_overrides.full")
            .unchanged()
            .run();
    }
}

/// 3.3.3: `AttributeError: 'list' object has no attribute 'get'` (diff),
/// `TypeError: list indices must be integers` (merge), and the same for a
/// string `sandbox`. A `permissions` that is a list is not an empty policy:
/// twsrt must neither report it as drift nor merge over it.
#[test]
fn a_claude_target_with_a_list_permissions_or_a_string_sandbox_is_an_error() {
    let targets = [
        (
            r#"{"permissions": ["Read"], "model": "opus"}"#,
            "permissions",
        ),
        (r#"{"sandbox": "on", "model": "opus"}"#, "sandbox"),
    ];
    for (text, key) in targets {
        let writers: &[&[&str]] = &[&["generate", "-w", "claude"], &["generate", "claude"]];
        for args in writers {
            claude_home()
                .file(CLAUDE_TARGET, text)
                .args(args)
                .status(1)
                .stderr_contains("Error: {HOME}/.claude/settings.full.json")
                .stderr_contains(key)
                .unchanged()
                .run();
        }
        claude_home()
            .file(CLAUDE_TARGET, text)
            .args(&["diff", "claude"])
            .status(1)
            .stdout(CANONICAL_DRIFT)
            .stderr_contains("Error: {HOME}/.claude/settings.full.json")
            .stderr_contains(key)
            .unchanged()
            .run();
    }
}

/// 3.3.3: `TypeError: 'Integer' object does not support item assignment`
/// (generate -w) and `AttributeError: 'String' object has no attribute
/// 'get'` (diff).
#[test]
fn a_codex_config_whose_permissions_is_not_a_table_is_an_error() {
    for text in ["permissions = 3\n", "permissions = \"twsrt\"\n"] {
        let writers: &[&[&str]] = &[&["generate", "-w", "codex"], &["generate", "codex"]];
        for args in writers {
            codex_home()
                .file(CODEX_CONFIG, text)
                .args(args)
                .status(1)
                .stderr_contains("Error: {HOME}/.codex/config.toml")
                .stderr_contains("permissions")
                .unchanged()
                .run();
        }
        codex_home()
            .file(CODEX_CONFIG, text)
            .file(CODEX_RULES, "")
            .args(&["diff", "codex"])
            .status(1)
            .stdout(CANONICAL_DRIFT)
            .stderr_contains("Error: {HOME}/.codex/config.toml")
            .stderr_contains("permissions")
            .unchanged()
            .run();
    }
}

/// 3.3.3: `IsADirectoryError` when `diff` reads a canonical output that is
/// a directory. Which canonical lines come before the error is the port's
/// choice, so stdout is not pinned; the error and the exit code are.
#[test]
fn diff_when_a_canonical_output_is_a_directory_is_an_error_naming_it() {
    for rel in [SRT_OUT, BASH_OUT] {
        claude_home()
            .dir(rel)
            .file(CLAUDE_TARGET, "{}\n")
            .args(&["diff", "claude"])
            .status(1)
            .any_stdout()
            .stderr_contains(&format!("Error: {{HOME}}/{rel}"))
            .stderr_contains("directory")
            .unchanged()
            .run();
    }
}

/// 3.3.3: `FileExistsError` when the directory a canonical output goes in
/// is a regular file.
#[test]
fn a_file_where_a_canonical_output_directory_belongs_is_an_error() {
    Test::with_policy()
        .file(
            CONFIG,
            BASE_CONFIG.replace("~/.srt-settings.json", "~/out/srt.json") + CLAUDE_ONLY,
        )
        .file("out", "a file where a directory belongs\n")
        .args(&["generate", "-w", "claude"])
        .status(1)
        .stderr(
            "Error: {HOME}/out: is not a directory, so {HOME}/out/srt.json cannot be read or \
             written\n",
        )
        .unchanged()
        .run();
}

// ---------------------------------------------------------------------------
// what twsrt adds
// ---------------------------------------------------------------------------

/// 3.3.3 protects a denyWrite directory with `Edit(dir)` alone, and
/// nothing shows that Claude Code's `Edit(dir)` covers the files inside it:
/// twsrt adds `Edit(dir/**)` for an entry that is an existing directory. A
/// file or a missing path keeps the single rule 3.3.3 writes.
#[test]
fn an_existing_denywrite_directory_also_gets_its_contents_denied() {
    let t = claude_home().dir("wdir").dir("adir").file("wfile", "x\n");
    let abs = t.home().join("adir").display().to_string();
    let srt =
        format!(r#"{{"filesystem": {{"denyWrite": ["~/wdir", "{abs}", "~/wfile", "~/gone"]}}}}"#);
    let out = t
        .file(SRT_FRAGMENT, &srt)
        .args(&["generate", "-w", "claude"])
        .stderr(WROTE_CLAUDE)
        .run();
    let deny = json_list(&out, CLAUDE_TARGET, "/permissions/deny");
    let abs_rule = format!("/{}/adir", out.home().display());
    for rule in [
        "Edit(~/wdir)".to_string(),
        "Edit(~/wdir/**)".to_string(),
        format!("Edit({abs_rule})"),
        format!("Edit({abs_rule}/**)"),
        "Edit(~/wfile)".to_string(),
        "Edit(~/gone)".to_string(),
    ] {
        assert!(deny.contains(&rule), "{rule} not in {deny:?}");
    }
    for rule in ["Edit(~/wfile/**)", "Edit(~/gone/**)"] {
        assert!(!deny.iter().any(|r| r == rule), "{rule} in {deny:?}");
    }
}

/// 3.3.3 drops a `[sandbox_overrides.*.filesystem]` path list without a
/// word (the Claude sandbox lists are always empty): twsrt says so, naming
/// the key, and still writes the empty lists.
#[test]
fn a_filesystem_path_list_in_a_sandbox_override_is_warned_about() {
    for (mode, target) in [("full", CLAUDE_TARGET), ("yolo", CLAUDE_YOLO)] {
        for key in ["allowWrite", "denyWrite", "denyRead"] {
            let mut args = vec!["generate", "-w", "claude"];
            if mode == "yolo" {
                args.push("--yolo");
            }
            let out = claude_home()
                .config_append(&format!(
                    "\n[sandbox_overrides.{mode}.filesystem]\n{key} = [\"~/override\"]\n"
                ))
                .args(&args)
                .stderr_contains("Warning:")
                .stderr_contains(&format!("sandbox_overrides.{mode}.filesystem"))
                .stderr_contains(key)
                .stderr_contains(&format!("Wrote: {{HOME}}/{target}"))
                .run();
            for list in ["allowWrite", "denyWrite", "denyRead"] {
                let pointer = format!("/sandbox/filesystem/{list}");
                assert_eq!(json_list(&out, target, &pointer), Vec::<String>::new());
            }
            assert!(!out.read(target).contains("~/override"), "{mode} {key}");
        }
    }
}

/// 3.3.3 write-denies a policy file in the spelling it was reached by, so
/// `-c ../<home>/...` (or an output `../../out/x`) gives a `.../../...`
/// entry beside the resolved one. twsrt normalises the path first: one
/// entry, no `..`.
#[test]
fn policy_file_paths_reached_through_dotdot_are_normalised() {
    let t = Test::with_policy().file(
        CONFIG,
        BASE_CONFIG.replace(
            "output = \"bash-rules.json\"",
            "output = \"../../out/bash.json\"",
        ) + CLAUDE_ONLY,
    );
    let name = t
        .home()
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let config = format!("../{name}/.config/twsrt/config.toml");
    let out = t
        .args(&["-c", &config, "generate", "-w", "claude"])
        .stderr_contains("Wrote: {HOME}/.claude/settings.full.json")
        .run();
    let deny_write = json_list(&out, SRT_OUT, "/filesystem/denyWrite");
    for path in [
        "~/.config/twsrt/config.toml",
        "~/.config/twsrt/srt/base.jsonc",
        "~/.config/twsrt/bash/base.jsonc",
        "~/out/bash.json",
        "~/.srt-settings.json",
    ] {
        assert!(
            deny_write.iter().any(|p| p == path),
            "{path} not in {deny_write:?}"
        );
    }
    assert!(
        !deny_write.iter().any(|p| p.contains("..")),
        "unnormalised: {deny_write:?}"
    );
    let deny = json_list(&out, CLAUDE_TARGET, "/permissions/deny");
    assert!(
        !deny.iter().any(|r| r.contains("..")),
        "unnormalised: {deny:?}"
    );
}
