"""Parity scenarios for `generate claude --project` (project_*) and the
`[claude_sync]` full<->yolo sync (sync_*)."""

CLAUDE_DIR = ".claude/"

# A full-mode file a user has tended: hooks, a model, env, a mode default.
FULL_TENDED = """{
  "model": "opus",
  "env": {"FOO": "full-foo", "BAR": "full-bar"},
  "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "my-hook"}]}]},
  "enabledPlugins": {"p@market": true},
  "permissions": {
    "allow": ["Read", "Bash(ls)", "WebFetch(domain:old.example)"],
    "defaultMode": "default",
    "deny": ["Bash(old-deny)"],
    "ask": ["Bash(old-ask)"]
  },
  "sandbox": {"enabled": false, "excludedCommands": ["docker"]},
  "onlyFull": true
}
"""

YOLO_TENDED = """{
  "model": "sonnet",
  "env": {"FOO": "yolo-foo", "BAR": "yolo-bar", "ONLY_YOLO": "1"},
  "permissions": {"allow": ["Glob"], "defaultMode": "bypassPermissions"},
  "sandbox": {"enabled": true, "network": {"allowLocalBinding": true}},
  "onlyYolo": 1
}
"""

SYNC_PATHS = '["model", "env.FOO", "permissions.defaultMode", "statusLine.command"]'



# The yolo target holds no Edit rule at all, so the report lists every one as
# missing: with the agents' guard files write-denied (doc/compatibility.md
# row 34) five more, and the count in the header line, which the replay's
# guard rule (tests/parity_guards.rs) does not rewrite in a report.
GUARD_REPORT = [
    "# The port also reports the agents' guard files missing (row 34).",
    "stdout-ignore-lines-containing Edit(~/.claude/settings",
    "stdout-ignore-lines-containing Edit(~/.codex/",
    "stdout-ignore-lines-containing claude: ",
]

def register(sc):
    _project(sc)
    _sync(sc)


def _project(sc):
    add, cfg, TW = sc.add, sc.cfg, sc.TW
    full = [["generate", "-w", "claude"]]
    yolo = [["generate", "-w", "--yolo", "claude"]]
    # D = realpath(cwd)/.twsrt; the replay's cwd is HOME.
    add("project_preview_full", ["generate", "claude", "--project"], prep=full)
    add("project_write_full", ["generate", "claude", "--project", "-w"], prep=full)
    add("project_preview_yolo", ["generate", "--yolo", "claude", "--project"], prep=yolo)
    add("project_write_yolo", ["generate", "--yolo", "--project", "--write", "claude"], prep=yolo)
    add("project_write_all_means_claude", ["generate", "--project", "-w"],
        files={TW + "config.toml": cfg(targets={**sc.DEFAULT_TARGETS, "copilot_output": "flags.txt"})},
        prep=full)
    add("project_write_without_bash", ["generate", "claude", "--project", "-w"],
        files={TW + "config.toml": cfg(bash=False), TW + "bash/base.jsonc": None}, prep=full)
    add("project_preview_without_bash_yolo", ["generate", "--yolo", "claude", "--project"],
        files={TW + "config.toml": cfg(bash=False), TW + "bash/base.jsonc": None}, prep=yolo)
    # The project file is the tended global file with the policy merged in;
    # the global file, the anchor and the canonical outputs stay as they were.
    add("project_write_merges_tended_global", ["generate", "claude", "--project", "-w"],
        files={CLAUDE_DIR + "settings.full.json": FULL_TENDED})
    add("project_write_yolo_explicit_target", ["generate", "--yolo", "claude", "--project", "-w"],
        files={TW + "config.toml": cfg(targets={**sc.DEFAULT_TARGETS,
                                                "claude_settings_yolo": "~/yolo/claude.json"}),
               "yolo/claude.json": YOLO_TENDED})
    add("project_write_profile", ["generate", "-p", "work", "claude", "--project", "-w"],
        files=sc.work_home(), prep=full)
    # With [claude_sync] and a mode switch pending, --project still syncs nothing.
    add("project_write_ignores_claude_sync", ["generate", "--yolo", "claude", "--project", "-w"],
        files={TW + "config.toml": cfg(extra=f"[claude_sync]\nmode_specific = {SYNC_PATHS}\n"),
               CLAUDE_DIR + "settings.full.json": FULL_TENDED,
               CLAUDE_DIR + "settings.yolo.json": YOLO_TENDED},
        symlinks={CLAUDE_DIR + "settings.json": "settings.full.json"})
    # A second run finds D: the port also denies its contents (doc/compatibility.md).
    add("project_rerun_existing_dir_divergent", ["generate", "claude", "--project"],
        files={".twsrt/.gitignore": "*\n"}, prep=full,
        divergence=["# 3.3.3 denies an existing denyWrite directory with Edit(dir) alone; the port adds Edit(dir/**).",
                    "stdout-ignore-lines-containing /.twsrt/**)"])
    # errors: nothing written
    add("project_missing_global_full", ["generate", "claude", "--project"])
    add("project_missing_global_full_write", ["generate", "claude", "--project", "-w"])
    add("project_missing_global_yolo", ["generate", "--yolo", "claude", "--project", "-w"], prep=full)
    add("project_codex_refused", ["generate", "codex", "--project"], prep=full)
    add("project_copilot_refused", ["generate", "copilot", "--project", "-w"],
        files={TW + "config.toml": cfg(targets={**sc.DEFAULT_TARGETS, "copilot_output": "flags.txt"})})
    add("project_unknown_agent", ["generate", "gemini", "--project"],
        port_cmd=["generate", "nosuchagent", "--project"])
    # codex/copilot are refused before config.toml is read, an unknown name after it
    add("project_codex_refused_before_config", ["generate", "codex", "--project"],
        files={TW + "config.toml": "schema_version = 3\n"})
    add("project_copilot_refused_without_config", ["generate", "copilot", "--project"], base=False)
    add("project_unknown_agent_after_config", ["generate", "gemini", "--project"],
        port_cmd=["generate", "nosuchagent", "--project"],
        files={TW + "config.toml": "schema_version = 3\n"})
    add("project_agent_checked_before_policy", ["generate", "codex", "--project"],
        files={TW + "srt/base.jsonc": "{ bad\n"})
    add("project_policy_error_before_target", ["generate", "claude", "--project"],
        files={TW + "srt/base.jsonc": "{ bad\n"})
    add("project_claude_not_configured", ["generate", "--project", "-w"],
        files={TW + "config.toml": cfg(targets={"codex_config": "~/.codex/config.toml"})})
    add("project_global_invalid_json", ["generate", "claude", "--project", "-w"],
        files={CLAUDE_DIR + "settings.full.json": '{"model": "x",\n'})


def _sync(sc):
    add, cfg, TW = sc.add, sc.cfg, sc.TW
    table = f"[claude_sync]\nmode_specific = {SYNC_PATHS}\n"
    synced = lambda donor: ["Info: Synced invariant settings from " + donor]

    def tended(extra=table, targets=None, link="settings.full.json", full=FULL_TENDED, yolo=YOLO_TENDED):
        files = {TW + "config.toml": cfg(extra=extra, targets=targets),
                 CLAUDE_DIR + "settings.full.json": full,
                 CLAUDE_DIR + "settings.yolo.json": yolo}
        return dict(files=files, symlinks={CLAUDE_DIR + "settings.json": link} if link else {})

    add("sync_full_to_yolo_write", ["generate", "--yolo", "-w", "claude"], **tended(),
        facts_add=synced("settings.full.json"))
    add("sync_full_to_yolo_preview", ["generate", "--yolo", "claude"], **tended(),
        facts_add=synced("settings.full.json"))
    add("sync_yolo_to_full_write", ["generate", "-w", "claude"], **tended(link="settings.yolo.json"),
        facts_add=synced("settings.yolo.json"), drop_foreign=True)
    add("sync_yolo_to_full_preview", ["generate", "claude"], **tended(link="settings.yolo.json"),
        facts_add=synced("settings.yolo.json"), drop_foreign=True)
    add("sync_in_all_agents_write", ["generate", "--yolo", "-w"], **tended(),
        facts_add=synced("settings.full.json"))
    # The new mode's file does not exist yet: it starts as the donor.
    add("sync_bootstraps_missing_target", ["generate", "--yolo", "-w", "claude"],
        **tended(yolo=None), facts_add=synced("settings.full.json"))
    add("sync_bootstraps_missing_target_full", ["generate", "-w", "claude"],
        **tended(full=None, link="settings.yolo.json"), facts_add=synced("settings.yolo.json"))
    # An empty table syncs, keeping only twsrt's own sections.
    add("sync_empty_table", ["generate", "--yolo", "-w", "claude"], **tended(extra="[claude_sync]\n"),
        facts_add=synced("settings.full.json"))
    add("sync_empty_list", ["generate", "--yolo", "-w", "claude"],
        **tended(extra="[claude_sync]\nmode_specific = []\n"), facts_add=synced("settings.full.json"))
    # Paths through scalars and missing objects, and odd but accepted spellings.
    add("sync_paths_through_scalars", ["generate", "--yolo", "-w", "claude"],
        **tended(extra='[claude_sync]\nmode_specific = ["a.b", "c.d", "e.f", "x..y", " "]\n',
                 full='{"a": 5, "c": {"d": 1, "k": 2}, "x": {"": {"y": 1}}, " ": 0}\n',
                 yolo='{"a": {"b": 1}, "c": 5, "e": {"f": [1]}, " ": 9}\n'),
        facts_add=synced("settings.full.json"))
    third = tended(link="other.json")
    third["files"][CLAUDE_DIR + "other.json"] = '{"model": "third", "fromThird": [1]}\n'
    add("sync_link_to_third_file", ["generate", "-w", "claude"], **third,
        facts_add=synced("other.json"), drop_foreign=True)
    # no sync
    add("sync_no_table_no_sync", ["generate", "--yolo", "-w", "claude"], **tended(extra=""))
    add("sync_same_mode_no_sync", ["generate", "--yolo", "-w", "claude"], **tended(link="settings.yolo.json"))
    add("sync_link_to_target_absolute_no_sync", ["generate", "--yolo", "-w", "claude"],
        **tended(link="{HOME}/.claude/settings.yolo.json"))
    add("sync_no_symlink_no_sync", ["generate", "--yolo", "-w", "claude"], **tended(link=None))
    add("sync_dangling_symlink_no_sync", ["generate", "--yolo", "-w", "claude"], **tended(link="gone.json"))
    add("sync_regular_anchor_migrates", ["generate", "--yolo", "-w", "claude"],
        files={TW + "config.toml": cfg(extra=table), CLAUDE_DIR + "settings.json": FULL_TENDED}, drop_foreign=True)
    # diff compares what Claude Code loads: settings.json must point at the mode diffed
    # (a link to the other mode's file is drift in the port, tests/diff_loaded.rs).
    add("sync_diff_does_not_sync", ["diff", "--yolo", "claude"], **tended(link="settings.yolo.json"), divergence=GUARD_REPORT)
    # A target that is JSON but no object has none of the kept paths.
    add("sync_target_not_an_object", ["generate", "--yolo", "-w", "claude"], **tended(yolo="[1]\n"),
        facts_add=synced("settings.full.json"))
    add("sync_target_invalid_json", ["generate", "--yolo", "-w", "claude"], **tended(yolo='{"y":\n'))
    # the donor cannot be read
    add("sync_donor_invalid_json", ["generate", "--yolo", "-w", "claude"], **tended(full='{"model": 1,\n'))
    # bad tables: a config error for every command, nothing written
    for name, text in [
        ("unknown_keys", "[claude_sync]\nzeta = 1\nalpha = 2\nmode_specific = []\n"),
        ("unknown_key_alone", "[claude_sync]\nmode_specfic = [\"model\"]\n"),
        ("not_a_list", "[claude_sync]\nmode_specific = \"model\"\n"),
        ("entry_integer", "[claude_sync]\nmode_specific = [\"model\", 2]\n"),
        ("entry_empty", "[claude_sync]\nmode_specific = [\"\"]\n"),
        ("entry_list", "[claude_sync]\nmode_specific = [[\"model\"]]\n"),
        ("entry_bool", "[claude_sync]\nmode_specific = [true]\n"),
        ("entry_table", "[claude_sync]\nmode_specific = [{a = 1}]\n"),
    ]:
        add(f"sync_bad_{name}", ["generate", "--yolo", "-w", "claude"], **tended(extra=text))
    add("sync_bad_unknown_keys_codex", ["generate", "codex"],
        files={TW + "config.toml": cfg(extra="[claude_sync]\nfoo = 1\n")})
    add("sync_bad_not_a_table", ["generate", "claude"],
        files={TW + "config.toml": "claude_sync = 5\n" + cfg()})
    add("sync_bad_after_targets_error", ["generate", "claude"],
        files={TW + "config.toml": cfg(targets={"claude_settings": "", "codex_config": "c.toml"},
                                       extra="[claude_sync]\nfoo = 1\n")})
    add("sync_bad_before_overrides_error", ["generate", "claude"],
        files={TW + "config.toml": cfg(overrides="[sandbox_overrides]\nfull = 5\n",
                                       extra="[claude_sync]\nfoo = 1\n")})
