//! Adopting twsrt loses nothing: `generate` never drops a deny or ask
//! entry twsrt did not write, nor the keys of a `settings.json` that links
//! to the user's own file, without the user's consent.

use crate::support::*;

const CLAUDE_ONLY: &str = "\n[targets]\nclaude_settings = \"~/.claude/settings.full.json\"\n";

/// A hand-written Claude Code settings file, before twsrt.
const HAND_WRITTEN: &str = "{\"model\": \"opus\", \"permissions\": {\"allow\": [\"Read\"], \
    \"deny\": [\"Bash(curl:*)\"], \"ask\": [\"Bash(npm publish:*)\"]}}\n";

/// The `Info:` line of each kept entry, for [`HAND_WRITTEN`].
const KEPT: &str = "Info: claude: keeps permissions.deny Bash(curl:*) from \
    {HOME}/.claude/settings.json beside the policy's entries (twsrt did not write it, and \
    keeping it only narrows; generate -w --drop-foreign removes it)\n\
    Info: claude: keeps permissions.ask Bash(npm publish:*) from \
    {HOME}/.claude/settings.json beside the policy's entries (twsrt did not write it, and \
    keeping it only narrows; generate -w --drop-foreign removes it)\n";

/// Entries twsrt has no policy form for, kept like any other.
const INEXPRESSIBLE: &str = "{\"permissions\": {\"deny\": [\"mcp__github__delete_repo\", \
    \"WebSearch\", \"Bash(rm)\", \"Bash(rm *)\"], \"ask\": [\"WebFetch(domain:x.example)\"]}}\n";

fn claude() -> Test {
    Test::with_policy().config_append(CLAUDE_ONLY)
}

#[test]
fn a_hand_written_deny_and_ask_are_kept_and_said_once() {
    let out = claude()
        .file(ANCHOR, HAND_WRITTEN)
        .args(&["generate", "-w", "claude"])
        .stderr(&format!(
            "{KEPT}Wrote canonical: {{HOME}}/.srt-settings.json\n\
             Wrote canonical: {{HOME}}/.config/twsrt/bash-rules.json\n\
             Info: Migrated: {{HOME}}/.claude/settings.json → \
             {{HOME}}/.claude/settings.full.json\n\
             Wrote: {{HOME}}/.claude/settings.full.json\n"
        ))
        .run();
    let written: serde_json::Value = serde_json::from_str(&out.read(ANCHOR)).unwrap();
    let deny = written["permissions"]["deny"].as_array().unwrap();
    assert_eq!(deny.last(), Some(&"Bash(curl:*)".into()), "{deny:?}");
    assert!(deny.contains(&"Bash(rm)".into()), "{deny:?}");
    let ask = written["permissions"]["ask"].as_array().unwrap();
    assert_eq!(ask.last(), Some(&"Bash(npm publish:*)".into()), "{ask:?}");
    // Said once: the next write finds them in the file it would write.
    out.then()
        .args(&["generate", "-w", "claude"])
        .stderr(
            "Unchanged canonical: {HOME}/.srt-settings.json\n\
             Unchanged canonical: {HOME}/.config/twsrt/bash-rules.json\n\
             Unchanged: {HOME}/.claude/settings.full.json\n",
        )
        .run();
}

/// An MCP tool's deny, `WebSearch` and a `WebFetch` ask have no policy
/// form: they stay, `diff` calls them foreign narrowing, and the gate passes.
#[test]
fn entries_twsrt_cannot_express_are_kept_and_diff_calls_them_foreign() {
    let out = claude()
        .file(ANCHOR, INEXPRESSIBLE)
        .args(&["generate", "-w", "claude"])
        .stderr_contains("Info: claude: keeps permissions.deny mcp__github__delete_repo from ")
        .stderr_contains("Info: claude: keeps permissions.deny WebSearch from ")
        .stderr_contains("Info: claude: keeps permissions.ask WebFetch(domain:x.example) from ")
        .lacks("Bash(...)")
        .run();
    let loaded = out.read(ANCHOR);
    for entry in [
        "mcp__github__delete_repo",
        "WebSearch",
        "WebFetch(domain:x.example)",
    ] {
        assert!(
            loaded.contains(&format!("\"{entry}\"")),
            "{entry}: {loaded}"
        );
    }
    let out = out
        .then()
        .args(&["diff", "claude", "--fail-on", "widening"])
        .stdout_contains("  - WebSearch (foreign, narrowing)\n")
        .stdout_contains("  - mcp__github__delete_repo (foreign, narrowing)\n")
        .stdout_contains("  - WebFetch(domain:x.example) (foreign, narrowing)\n")
        .stderr_contains("claude: 0 of 3 differences widen")
        .any_stderr()
        .run();
    assert!(!out.stdout.contains("\n  + "), "{}", out.stdout);
}

/// `twsrt run` regenerates before the launch: it keeps them the same way,
/// and advises nothing that does not apply to them.
#[test]
fn the_launch_wrapper_keeps_them_too() {
    let test = claude()
        .file(ANCHOR, INEXPRESSIBLE)
        .file("bin/claude", "#!/bin/sh\necho ran claude\n")
        .mode("bin/claude", 0o755);
    let path = format!("{}/bin:/usr/bin:/bin", test.home().display());
    let out = test
        .env("PATH", &path)
        .args(&["run", "--", "claude"])
        .stdout("ran claude\n")
        .stderr_contains("Info: claude: keeps permissions.deny mcp__github__delete_repo from ")
        .lacks("Bash(...)")
        .any_stderr()
        .run();
    assert!(out.read(ANCHOR).contains("mcp__github__delete_repo"));
}

#[test]
fn drop_foreign_removes_them_with_one_warning_each() {
    let warnings = "Warning: claude: removes permissions.deny Bash(curl:*) from \
        {HOME}/.claude/settings.json (--drop-foreign)\n\
        Warning: claude: removes permissions.ask Bash(npm publish:*) from \
        {HOME}/.claude/settings.json (--drop-foreign)\n";
    claude()
        .file(ANCHOR, HAND_WRITTEN)
        .args(&["generate", "claude", "--drop-foreign"])
        .any_stdout()
        .stderr(&format!(
            "{warnings}{WOULD_WRITE_CANONICAL}\
             Would write agent target: {{HOME}}/.claude/settings.full.json\n\
             Info: would migrate {{HOME}}/.claude/settings.json into \
             {{HOME}}/.claude/settings.full.json\n\
             Info: would replace {{HOME}}/.claude/settings.json by a symlink to \
             settings.full.json\n{PREVIEW_END}"
        ))
        .unchanged()
        .run();
    let out = claude()
        .file(ANCHOR, HAND_WRITTEN)
        .args(&["generate", "-w", "claude", "--drop-foreign"])
        .stderr(&format!(
            "{warnings}Wrote canonical: {{HOME}}/.srt-settings.json\n\
             Wrote canonical: {{HOME}}/.config/twsrt/bash-rules.json\n\
             Info: Migrated: {{HOME}}/.claude/settings.json → \
             {{HOME}}/.claude/settings.full.json\n\
             Wrote: {{HOME}}/.claude/settings.full.json\n"
        ))
        .run();
    let written = out.read(CLAUDE_TARGET);
    assert!(!written.contains("curl") && !written.contains("npm publish"));
    assert!(written.contains("\"model\": \"opus\""));
}

/// An entry moved into a fragment is twsrt's from then on: the legacy
/// prefix spelling `Bash(curl:*)` means what twsrt writes for the bash
/// rule `curl` (`Bash(curl)` and `Bash(curl *)`: Claude Code 2.1.332
/// matches `CMD:*` as the command itself or followed by a space,
/// doc/clients.md), so nothing is lost and the write needs no consent.
#[test]
fn an_entry_moved_into_a_fragment_is_written_by_twsrt() {
    let out = claude()
        .file(ANCHOR, HAND_WRITTEN)
        .file(
            BASH_FRAGMENT,
            r#"{"ask": ["git push", "npm publish"], "deny": ["rm", "curl"]}"#,
        )
        .args(&["generate", "-w", "claude"])
        .any_stderr()
        .run();
    assert!(!out.stderr.contains("removes"), "{}", out.stderr);
    let written = out.read(CLAUDE_TARGET);
    assert!(written.contains("\"Bash(curl)\"") && written.contains("\"Bash(curl *)\""));
    // Without the rule in the policy the entry is still the user's: kept.
    claude()
        .file(ANCHOR, HAND_WRITTEN)
        .args(&["generate", "-w", "claude"])
        .stderr_contains("Info: claude: keeps permissions.deny Bash(curl:*) from ")
        .any_stderr()
        .run();
}

/// What twsrt wrote before (the canonical outputs on disk record it) goes
/// when the policy drops it.
#[test]
fn twsrts_own_earlier_entries_leave_quietly() {
    let out = claude()
        .args(&["generate", "-w", "claude"])
        .any_stderr()
        .run();
    assert!(out.read(CLAUDE_TARGET).contains("Bash(git push)"));
    let out = out
        .then()
        .file(BASH_FRAGMENT, r#"{"deny": ["rm"]}"#)
        .file(SRT_FRAGMENT, r#"{"filesystem": {"allowWrite": ["."]}}"#)
        .args(&["generate", "-w", "claude"])
        .stderr(
            "Wrote canonical: {HOME}/.srt-settings.json\n\
             Wrote canonical: {HOME}/.config/twsrt/bash-rules.json\n\
             Wrote: {HOME}/.claude/settings.full.json\n",
        )
        .run();
    let written = out.read(CLAUDE_TARGET);
    assert!(
        !written.contains("git push") && !written.contains(".ssh"),
        "{written}"
    );
}

/// A file last written under another profile holds twsrt's entries too.
#[test]
fn a_profile_switch_across_modes_is_not_foreign() {
    let out = claude()
        .work_profile()
        .args(&["generate", "-w", "--yolo", "-p", "work", "claude"])
        .any_stderr()
        .run();
    let out = out
        .then()
        .args(&["generate", "-w", "claude"])
        .any_stderr()
        .run();
    let out = out
        .then()
        .args(&["generate", "-w", "--yolo", "claude"])
        .any_stderr()
        .run();
    assert!(!out.read(CLAUDE_YOLO).contains("work/.vault"));
}

/// A path in Claude's own sandbox deny lists is a deny entry as well.
#[test]
fn a_hand_written_sandbox_deny_path_is_kept() {
    let out = claude()
        .file(
            CLAUDE_TARGET,
            r#"{"sandbox": {"filesystem": {"denyRead": ["~/.aws"]}}}"#,
        )
        .symlink(ANCHOR, "settings.full.json")
        .args(&["generate", "-w", "claude"])
        .stderr_contains(
            "Info: claude: keeps sandbox.filesystem.denyRead ~/.aws from \
             {HOME}/.claude/settings.full.json beside the policy's entries",
        )
        .any_stderr()
        .run();
    let written: serde_json::Value = serde_json::from_str(&out.read(CLAUDE_TARGET)).unwrap();
    let deny_read = &written["sandbox"]["filesystem"]["denyRead"];
    assert!(
        deny_read.as_array().unwrap().contains(&"~/.aws".into()),
        "{deny_read}"
    );
}

const DOTFILE: &str = "dotfiles/claude/settings.json";
const DOTFILE_TEXT: &str = "{\"model\": \"opus\", \"env\": {\"FOO\": \"bar\"}, \
    \"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]}]}}\n";

const ADOPTED: &str = "Info: {HOME}/.claude/settings.json links to \
    {HOME}/dotfiles/claude/settings.json, which twsrt does not write: its settings move into \
    {HOME}/.claude/settings.full.json and the link is repointed there \
    ({HOME}/dotfiles/claude/settings.json itself is left as it is, and Claude Code no longer \
    loads it)\n";

fn dotfiles() -> Test {
    claude()
        .file(DOTFILE, DOTFILE_TEXT)
        .symlink(ANCHOR, "../dotfiles/claude/settings.json")
}

#[test]
fn a_link_into_dotfiles_is_migrated_with_every_key() {
    dotfiles()
        .args(&["generate", "claude"])
        .any_stdout()
        .stderr(&format!(
            "{ADOPTED}{WOULD_WRITE_CANONICAL}\
             Would write agent target: {{HOME}}/.claude/settings.full.json\n\
             Info: would migrate {{HOME}}/dotfiles/claude/settings.json into \
             {{HOME}}/.claude/settings.full.json\n\
             Info: would repoint the symlink {{HOME}}/.claude/settings.json to \
             settings.full.json (it points to ../dotfiles/claude/settings.json): the agent \
             would then load settings.full.json\n{PREVIEW_END}"
        ))
        .unchanged()
        .run();
    let out = dotfiles()
        .args(&["generate", "-w", "claude"])
        .stderr(&format!(
            "{ADOPTED}Wrote canonical: {{HOME}}/.srt-settings.json\n\
             Wrote canonical: {{HOME}}/.config/twsrt/bash-rules.json\n\
             Info: Migrated: {{HOME}}/dotfiles/claude/settings.json → \
             {{HOME}}/.claude/settings.full.json\n\
             Wrote: {{HOME}}/.claude/settings.full.json\n"
        ))
        .run();
    // What Claude Code loads now holds the user's keys and the policy.
    let loaded = out.read(ANCHOR);
    for key in [
        "\"model\": \"opus\"",
        "\"FOO\": \"bar\"",
        "say done",
        "Bash(rm)",
    ] {
        assert!(loaded.contains(key), "{key}: {loaded}");
    }
    assert_eq!(out.read(DOTFILE), DOTFILE_TEXT);
    let link = std::fs::read_link(out.path(ANCHOR)).unwrap();
    assert_eq!(link, std::path::PathBuf::from("settings.full.json"));
}

/// `settings.json` re-linked to the dotfile after twsrt's first write: the
/// dotfile is adopted (migrated into the target) when that loses nothing
/// of the target; the user's denies in the target are kept too.
#[test]
fn a_relinked_dotfile_is_adopted() {
    let out = dotfiles()
        .args(&["generate", "-w", "claude"])
        .any_stderr()
        .run();
    // The user adds a deny to the target, then re-links the dotfile.
    let mut target: serde_json::Value = serde_json::from_str(&out.read(CLAUDE_TARGET)).unwrap();
    let deny = target["permissions"]["deny"].as_array_mut().unwrap();
    deny.push("mcp__github__delete_repo".into());
    let out = out
        .then()
        .file(CLAUDE_TARGET, target.to_string())
        .symlink(ANCHOR, "../dotfiles/claude/settings.json")
        .file(
            DOTFILE,
            DOTFILE_TEXT.replace(
                "{\"model\"",
                "{\"statusLine\": {\"type\": \"command\", \"command\": \"s.sh\"}, \"model\"",
            ),
        )
        .args(&["generate", "-w", "claude"])
        .stderr_contains(ADOPTED)
        .stderr_contains(
            "Info: Migrated: {HOME}/dotfiles/claude/settings.json → \
             {HOME}/.claude/settings.full.json\n",
        )
        .stderr_contains("Info: claude: keeps permissions.deny mcp__github__delete_repo from ")
        .any_stderr()
        .run();
    let loaded = out.read(ANCHOR);
    assert!(
        loaded.contains("\"FOO\": \"bar\"") && loaded.contains("s.sh"),
        "{loaded}"
    );
    assert!(loaded.contains("mcp__github__delete_repo"), "{loaded}");
    let link = std::fs::read_link(out.path(ANCHOR)).unwrap();
    assert_eq!(link, std::path::PathBuf::from("settings.full.json"));
}

/// A target that holds a setting of the user's the dotfile lacks is not
/// replaced: the refusal names what would be lost and the one command that
/// works once it is carried over, and that command works.
#[test]
fn a_relinked_dotfile_that_would_lose_settings_is_refused_naming_the_command() {
    let out = dotfiles()
        .file(
            CLAUDE_TARGET,
            "{\"model\": \"sonnet\", \"statusLine\": {\"type\": \"command\", \"command\": \"x.sh\"}}\n",
        )
        .args(&["generate", "-w", "claude"])
        .status(1)
        .stderr(
            "Error: {HOME}/.claude/settings.json: is a symlink to \
             {HOME}/dotfiles/claude/settings.json, a settings file twsrt does not write, and \
             {HOME}/.claude/settings.full.json exists as well, holding settings of yours the \
             linked file does not hold alike: model, statusLine. Adopting the linked file would lose them, \
             so nothing was written: copy them into {HOME}/dotfiles/claude/settings.json (or \
             remove them from {HOME}/.claude/settings.full.json), then run \
             `twsrt generate -w claude`\n",
        )
        .unchanged()
        .run();
    // Carried over, the named command works.
    let carried = "{\"model\": \"sonnet\", \"statusLine\": {\"type\": \"command\", \"command\": \"x.sh\"}, \
        \"env\": {\"FOO\": \"bar\"}}\n";
    let out = out
        .then()
        .file(DOTFILE, carried)
        .args(&["generate", "-w", "claude"])
        .any_stderr()
        .run();
    let loaded = out.read(ANCHOR);
    assert!(
        loaded.contains("\"model\": \"sonnet\"") && loaded.contains("FOO"),
        "{loaded}"
    );
}

/// A foreign deny entry in the linked file is kept like any other.
#[test]
fn a_deny_in_the_linked_dotfile_is_kept_too() {
    let out = claude()
        .file(DOTFILE, r#"{"permissions": {"deny": ["Read(~/.netrc)"]}}"#)
        .symlink(ANCHOR, "../dotfiles/claude/settings.json")
        .args(&["generate", "-w", "claude"])
        .stderr_contains(
            "Info: claude: keeps permissions.deny Read(~/.netrc) from \
             {HOME}/dotfiles/claude/settings.json",
        )
        .any_stderr()
        .run();
    assert!(out.read(ANCHOR).contains("\"Read(~/.netrc)\""));
}

const COPILOT_SETTINGS: &str = ".copilot/settings.json";

fn copilot() -> Test {
    Test::with_policy().config_append(
        "\n[targets]\ncopilot_output = \"~/flags/copilot.txt\"\n\
         copilot_settings = \"~/.copilot/settings.json\"\n",
    )
}

/// Copilot's `deniedUrls` is twsrt's list: a URL the user denied there
/// (`copilot config deniedUrls ...`) is kept beside twsrt's, said once.
#[test]
fn a_hand_denied_copilot_url_is_kept_and_said_once() {
    let settings = "{\"model\": \"x\", \"deniedUrls\": [\"evil.com\", \"paste.example\"]}\n";
    let out = copilot()
        .file(COPILOT_SETTINGS, settings)
        .args(&["generate", "-w", "copilot"])
        .stderr_contains(
            "Info: copilot: keeps deniedUrls paste.example in {HOME}/.copilot/settings.json \
             beside the policy's entries",
        )
        .any_stderr()
        .run();
    let written: serde_json::Value = serde_json::from_str(&out.read(COPILOT_SETTINGS)).unwrap();
    let denied = written["deniedUrls"].as_array().unwrap();
    assert!(denied.contains(&"paste.example".into()), "{denied:?}");
    assert!(denied.contains(&"evil.com".into()), "{denied:?}");
    out.then()
        .args(&["generate", "-w", "copilot"])
        .lacks("keeps deniedUrls")
        .any_stderr()
        .run();
    let out = copilot()
        .file(COPILOT_SETTINGS, settings)
        .args(&["generate", "-w", "copilot", "--drop-foreign"])
        .stderr_contains(
            "Warning: copilot: removes deniedUrls paste.example from \
             {HOME}/.copilot/settings.json (--drop-foreign)\n",
        )
        .run();
    assert!(!out.read(COPILOT_SETTINGS).contains("paste.example"));
    // A domain the policy denied before and no longer does is twsrt's.
    let out = out
        .then()
        .file(SRT_FRAGMENT, r#"{"filesystem": {"allowWrite": ["."]}}"#)
        .args(&["generate", "-w", "copilot"])
        .any_stderr()
        .run();
    assert!(!out.read(COPILOT_SETTINGS).contains("evil.com"));
}

fn codex() -> Test {
    Test::with_policy().config_append(
        "\n[targets]\ncodex_config = \"~/.codex/config.toml\"\n\
         codex_rules = \"~/.codex/rules/twsrt.rules\"\n",
    )
}

/// A hand-written `.rules` file: a forbidden and a one-line prompt rule
/// (guarded, in any layout) and an allow rule (removing it only narrows).
const HAND_RULES: &str = "prefix_rule(\n    pattern = [\"curl\"],\n    decision = \"forbidden\",\n)\n\
    prefix_rule(pattern=['npm', 'publish'], decision='prompt')\n\
    prefix_rule(\n    pattern = [\"ls\"],\n    decision = \"allow\",\n)\n";

/// The Codex `.rules` file is written whole: its forbidden and prompt
/// rules twsrt did not write are guarded like Claude's deny list.
#[test]
fn a_hand_written_codex_rule_is_listed_and_nothing_is_written() {
    let refused = "Error: {HOME}/.codex/rules/twsrt.rules: writing it would remove 2 entries \
        that twsrt did not write:\n  rules: [\"curl\"]\n  rules: prefix_rule(pattern=['npm', 'publish'], decision='prompt')\n\
        To keep them, add them to the policy (the command to a bash fragment's deny list) so \
        twsrt writes them; to remove them, run generate -w --drop-foreign.\n";
    for args in [&["generate", "-w", "codex"][..], &["generate", "codex"]] {
        codex()
            .file(CODEX_RULES, HAND_RULES)
            .args(args)
            .status(1)
            .stderr(refused)
            .unchanged()
            .run();
    }
}

#[test]
fn drop_foreign_removes_codex_rules_with_one_warning_each() {
    let out = codex()
        .file(CODEX_RULES, HAND_RULES)
        .args(&["generate", "-w", "codex", "--drop-foreign"])
        .stderr_contains(
            "Warning: codex: removes rules [\"curl\"] from {HOME}/.codex/rules/twsrt.rules \
             (--drop-foreign)\n\
             Warning: codex: removes rules prefix_rule(pattern=['npm', 'publish'], decision='prompt') from \
             {HOME}/.codex/rules/twsrt.rules (--drop-foreign)\n",
        )
        .run();
    assert!(!out.stderr.contains("\"ls\""), "{}", out.stderr);
    let written = out.read(CODEX_RULES);
    assert!(!written.contains("curl") && !written.contains("\"ls\""));
}

/// A rule twsrt wrote for a deny the fragment no longer holds goes quietly.
#[test]
fn twsrts_own_earlier_codex_rule_leaves_quietly() {
    let out = codex()
        .args(&["generate", "-w", "codex"])
        .any_stderr()
        .run();
    assert!(out.read(CODEX_RULES).contains("[\"rm\"]"));
    let out = out
        .then()
        .file(BASH_FRAGMENT, r#"{"deny": ["curl"]}"#)
        .args(&["generate", "-w", "codex"])
        .any_stderr()
        .run();
    assert!(!out.stderr.contains("--drop-foreign"), "{}", out.stderr);
    let written = out.read(CODEX_RULES);
    assert!(!written.contains("[\"rm\"]") && written.contains("[\"curl\"]"));
}

fn gemini() -> Test {
    Test::with_policy()
        .config_append("\n[targets]\ngemini_policy = \"~/.gemini/policies/twsrt.toml\"\n")
}

const GEMINI_POLICY: &str = ".gemini/policies/twsrt.toml";

/// A hand-written Gemini policy: a deny rule (guarded) and an allow rule
/// (removing it only narrows).
const HAND_POLICY: &str = "[[rule]]\ntoolName = \"run_shell_command\"\n\
    commandPrefix = \"curl\"\ndecision = \"deny\"\npriority = 900\n\n\
    [[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"ls\"\n\
    decision = \"allow\"\npriority = 100\n";

const GEMINI_CURL: &str = "{\"toolName\": \"run_shell_command\", \"commandPrefix\": \"curl\", \
    \"decision\": \"deny\", \"priority\": 900}";

#[test]
fn a_hand_written_gemini_deny_is_refused_unless_dropped() {
    gemini()
        .file(GEMINI_POLICY, HAND_POLICY)
        .args(&["generate", "-w", "gemini"])
        .status(1)
        .stderr(&format!(
            "Error: {{HOME}}/.gemini/policies/twsrt.toml: writing it would remove 1 entry that \
             twsrt did not write:\n  rule: {GEMINI_CURL}\n\
             To keep them, add them to the policy (the rule's command or path to a bash or srt \
             fragment) so twsrt writes them; to remove them, run generate -w --drop-foreign.\n"
        ))
        .unchanged()
        .run();
    let out = gemini()
        .file(GEMINI_POLICY, HAND_POLICY)
        .args(&["generate", "-w", "gemini", "--drop-foreign"])
        .stderr_contains(&format!(
            "Warning: gemini: removes rule {GEMINI_CURL} from \
             {{HOME}}/.gemini/policies/twsrt.toml (--drop-foreign)\n"
        ))
        .run();
    assert!(!out.stderr.contains("\"ls\""), "{}", out.stderr);
    let written = out.read(GEMINI_POLICY);
    assert!(!written.contains("\"curl\"") && !written.contains("\"ls\""));
}

/// A rule twsrt wrote for a deny the fragment no longer holds goes quietly.
#[test]
fn twsrts_own_earlier_gemini_rule_leaves_quietly() {
    let out = gemini()
        .args(&["generate", "-w", "gemini"])
        .any_stderr()
        .run();
    assert!(out.read(GEMINI_POLICY).contains("\"rm\""));
    let out = out
        .then()
        .file(BASH_FRAGMENT, r#"{"deny": ["curl"]}"#)
        .args(&["generate", "-w", "gemini"])
        .any_stderr()
        .run();
    assert!(!out.stderr.contains("--drop-foreign"), "{}", out.stderr);
    let written = out.read(GEMINI_POLICY);
    assert!(!written.contains("\"rm\"") && written.contains("\"curl\""));
}
