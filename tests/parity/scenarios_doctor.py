"""Parity scenarios for `twsrt doctor`: every 3.3.3 check, the level flags,
the exit codes, the no-findings line and a config error.

The fragments avoid `/tmp` in allowWrite: the scenario HOME lives under the
system temp directory, so whether `/tmp` covers HOME would depend on where
the recorder and the replay put it. The Codex target is left out where the
policy has domains (the port's codex-* checks are its own, unit-tested in
src/commands/doctor/tests.rs), except in doctor_codex_target_quiet, which
shows they stay silent before the managed config.toml exists.
"""

CLAUDE_ONLY = {"claude_settings": "~/.claude/settings.full.json"}

CLEAN_SRT = """{
  "filesystem": {
    "denyRead": ["~/.aws", "~/.ssh"],
    "denyWrite": ["~/.bashrc"],
    "allowWrite": [".", "~/dev"]
  },
  "network": {
    "allowedDomains": ["github.com", "*.github.com"],
    "deniedDomains": ["evil.example"]
  }
}
"""

CLEAN_BASH = """{
  "deny": ["rm", "sudo"],
  "ask": ["git push"]
}
"""

# One warning of each of two kinds and two info findings.
MIXED_SRT = """{
  "filesystem": {
    "denyRead": ["~/.aws", "~/.aws/credentials", "~/.ssh/**"],
    "denyWrite": ["**/.env", "~/.bashrc"],
    "allowWrite": [".", "~/dev"]
  },
  "network": {
    "allowedDomains": ["*.pypi.org"]
  }
}
"""


def register(sc):
    def home(srt=CLEAN_SRT, bash=CLEAN_BASH, targets=CLAUDE_ONLY, config=None, **more):
        files = {
            sc.TW + "config.toml": config or sc.cfg(targets=targets),
            sc.TW + "srt/base.jsonc": srt,
            sc.TW + "bash/base.jsonc": bash,
        }
        files.update(more)
        return files

    def add(name, cmd, **kw):
        files = kw.pop("files", None)
        files = home() if files is None else files
        sc.add("doctor_" + name, ["doctor"] + cmd, files=files, base=False, **kw)

    # --- counts, levels, exit codes ------------------------------------------
    add("no_findings", [])
    add("no_findings_all", ["--all"])
    add("codex_target_quiet", ["--all"], files=home(targets=sc.DEFAULT_TARGETS))
    add("default_levels", [], files=home(srt=MIXED_SRT))
    add("all_levels", ["--all"], files=home(srt=MIXED_SRT))
    add("info_only", ["--info"], files=home(srt=MIXED_SRT))
    add("warn_and_info", ["--warn", "--info"], files=home(srt=MIXED_SRT))
    # Only hidden findings: the count line alone, still counting them.
    add("error_only_hides_warnings", ["--error"], files=home(srt=MIXED_SRT))
    add("only_info_findings_default", [], files=home(srt=sc.srt_doc(deny_read=["~/.ssh/**"])))
    add("error_and_info", ["--error", "--info"], files=home(srt=MIXED_SRT, bash=None,
        **{sc.TW + "bash/base.jsonc": None}))
    add("config_error", [], files=home(config=sc.cfg().replace("[profiles.default]", "[profiles.default\n")))
    add("config_missing", [], files={})

    # --- fragment-load, profile-compile ---------------------------------------
    add("fragment_missing", ["--all"], files=home(**{sc.TW + "bash/base.jsonc": None}))
    # The JSON decoder's message is Python's; the port words its own (same position).
    add("fragment_invalid", ["--all"],
        files=home(srt='{\n  "filesystem": {"denyRead": ["~/.x",]}\n}\n'),
        divergence=["# the decoder message after `invalid JSON:` is prose (position kept)",
                    "stdout-ignore-lines-containing invalid JSON:"])
    # Compile errors are prose in both; the line is there with its code.
    add("profile_compile", [],
        files=home(srt=sc.srt_doc(deny_read=["~/.c"], allow_write=["~/.c"])),
        divergence=["# the compile error text is prose; the finding line and its code are kept",
                    "stdout-ignore-lines-containing profile-compile"])
    add("profile_compile_two_fragments", [],
        files=home(config=sc.cfg(targets=CLAUDE_ONLY, srt={"base": "srt/base.jsonc", "two": "srt/two.jsonc"},
                                 profiles={"default": {"srt": ["base", "two"], "bash": ["base"]}}),
                   **{sc.TW + "srt/two.jsonc": sc.srt_doc(deny_write=["~/dev"])}),
        divergence=["stdout-ignore-lines-containing profile-compile"])
    add("fragment_outside_config_dir", ["--all"],
        files=home(config=sc.cfg(targets=CLAUDE_ONLY, srt={"base": "{HOME}/policy/srt.jsonc"}),
                   **{"policy/srt.jsonc": '{"filesystem": {"denyWrite": ["**/.env"]}}\n'}))

    # --- the profile graph ----------------------------------------------------
    graph = sc.cfg(
        targets=CLAUDE_ONLY,
        srt={"base": "srt/base.jsonc", "work": "srt/work.jsonc", "orphan": "srt/orphan.jsonc"},
        bash={"base": "bash/base.jsonc"},
        profiles={
            "default": {"srt": ["base"], "bash": ["base"]},
            "work": {"extends": ["default"], "srt": ["base", "work"]},
            "multi": {"extends": ["default", "work"]},
            "half": {"srt": ["work"]},
            "alpha": {"extends": ["work", "multi"], "srt": ["work"]},
        })
    add("profile_graph", [], files=home(config=graph, **{
        sc.TW + "srt/work.jsonc": sc.srt_doc(deny_read=["~/work/secret"]),
        sc.TW + "srt/orphan.jsonc": sc.srt_doc(deny_read=["**/k", "~/.m/**"])}))
    add("profile_graph_all", ["--all"], files=home(config=graph, **{
        sc.TW + "srt/work.jsonc": sc.srt_doc(deny_read=["~/work/secret"]),
        sc.TW + "srt/orphan.jsonc": sc.srt_doc(deny_read=["**/k", "~/.m/**"])}))

    # --- duplicates and coverage ----------------------------------------------
    three = sc.cfg(targets=CLAUDE_ONLY,
                   srt={"a": "srt/a.jsonc", "b": "srt/b.jsonc", "c": "srt/c.jsonc"},
                   bash={"base": "bash/base.jsonc", "more": "bash/more.jsonc"},
                   profiles={"default": {"srt": ["a", "b", "c"], "bash": ["base", "more"]}})
    add("duplicate_rule", [], files=home(config=three, **{
        sc.TW + "srt/a.jsonc": sc.srt_doc(deny_read=["~/.x", "~/.y"], allowed=["pypi.org"]),
        sc.TW + "srt/b.jsonc": sc.srt_doc(deny_read=["~/.x"]),
        sc.TW + "srt/c.jsonc": sc.srt_doc(deny_read=["~/.x", "~/.y"], allowed=["pypi.org"]),
        sc.TW + "bash/more.jsonc": sc.bash_doc(deny=["sudo", "dd"])}))
    add("subsumed_paths", [], files=home(srt=sc.srt_doc(
        deny_read=["~/g*", "~/g1/x", "~/h/**", "~/h", "~/i", "~/i/**", "./j", "j/k", "~/l/", "~/l/m",
                   "/o", "/o/p", "/op"],
        deny_write=[".", "rel", "./rel2/x", "~/n2/x", "~/n2/x/y"],
        allow_write=["~/aw", "~/aw/b/x", "~/aw/*"])))
    add("subsumed_root_and_home", [], files=home(srt=sc.srt_doc(
        allow_write=["/", "~/Library", "~/.config/x", "~", "~/dev"])))
    add("subsumed_domains_and_commands", ["--all"], files=home(
        srt=sc.srt_doc(allowed=["*", "x.com", "*.y.com", "*.z.y.com", "a.y.com", "q.com:443", "*.q.com"],
                       denied=["*.d.com", "*.e.d.com", "d.com"]),
        bash='{ "allow": ["git", "git status", "gitk"], "ask": ["npm", "npm  i"], "deny": ["rm -rf /", "rm -rf"] }\n'))
    add("subsumed_across_fragments", [], files=home(
        config=sc.cfg(targets=CLAUDE_ONLY, srt={"a": "srt/a.jsonc", "b": "srt/b.jsonc"},
                      profiles={"default": {"srt": ["a", "b"], "bash": ["base"]}}),
        **{sc.TW + "srt/a.jsonc": sc.srt_doc(deny_read=["~/p", "~/q", "~/r/x"]),
           sc.TW + "srt/b.jsonc": sc.srt_doc(deny_read=["~/z/y", "~/z", "~/p", "~/p/x", "~/q/x", "~/r", "~/r/x"])}))

    # --- domains, traps, keys -------------------------------------------------
    add("wildcard_apex", ["--all"], files=home(
        config=sc.cfg(targets=CLAUDE_ONLY, srt={"a": "srt/a.jsonc", "b": "srt/b.jsonc"},
                      profiles={"default": {"srt": ["a", "b"], "bash": ["base"]}}),
        **{sc.TW + "srt/a.jsonc": sc.srt_doc(allowed=["*.a.com", "*.s.com"], denied=["*.c.com", "*.d.com"]),
           sc.TW + "srt/b.jsonc": sc.srt_doc(allowed=["s.com"], denied=["*.c.com"])}))
    traps = """{
  "filesystem": {
    "denyWrite": ["~/a*/**", "**/.env", "**/x/**", "~/b/**", "~/c*"],
    "denyRead": ["**/.pem", "~/q/**", "~/r*/**"],
    "allowWrite": ["~/w*", "**/w", "~/v/**", "~/u*/**"],
    "allowRead": ["~/ar*", "~/as/**", "**/at"]
  }
}
"""
    add("glob_traps", [], files=home(srt=traps), divergence=["# 3.3.3 gives srt's filesystem.allowRead to srt only; the port compiles it for Claude and says what it leaves out (doc/compatibility.md row 41).", 'stdout-insert-before\tdoctor: \tclaude', "stdout-insert-before\tdoctor: \t  warning  srt-key-skipped    srt filesystem.allowRead entries not compiled for Claude (a relative path is anchored at the settings file's directory there, an object entry cannot be held), so they stay closed to its commands: **/at", "stdout-insert-before\tdoctor: \t                              • profile 'default'", "stdout-insert-before\tdoctor: \t  warning  srt-key-skipped    srt filesystem.allowRead re-opens ~/ar*, ~/as/** for Claude's sandboxed commands only: its Read tool keeps the Read deny rules of the paths around them (a deny rule wins over any allow), stricter than srt", "stdout-insert-before\tdoctor: \t                              • profile 'default'", 'stdout-insert-before\tdoctor: \t', 'stdout-replace\tdoctor: 0 errors, 6 warnings, 5 info\tdoctor: 0 errors, 8 warnings, 5 info'])
    add("glob_traps_all", ["--all"], files=home(srt=traps), divergence=["# 3.3.3 gives srt's filesystem.allowRead to srt only; the port compiles it for Claude and says what it leaves out (doc/compatibility.md row 41).", 'stdout-insert-before\tdoctor: \tclaude', "stdout-insert-before\tdoctor: \t  warning  srt-key-skipped         srt filesystem.allowRead entries not compiled for Claude (a relative path is anchored at the settings file's directory there, an object entry cannot be held), so they stay closed to its commands: **/at", "stdout-insert-before\tdoctor: \t                                   • profile 'default'", "stdout-insert-before\tdoctor: \t  warning  srt-key-skipped         srt filesystem.allowRead re-opens ~/ar*, ~/as/** for Claude's sandboxed commands only: its Read tool keeps the Read deny rules of the paths around them (a deny rule wins over any allow), stricter than srt", "stdout-insert-before\tdoctor: \t                                   • profile 'default'", 'stdout-insert-before\tdoctor: \t', 'stdout-replace\tdoctor: 0 errors, 6 warnings, 5 info\tdoctor: 0 errors, 8 warnings, 5 info'])
    # The keys srt does not know are named in allow_unknown_keys (else the
    # port's compile refuses them, doc/compatibility.md row 31); doctor still
    # warns that srt ignores them.
    add("unknown_srt_key", [], files=home(config=sc.cfg(targets=CLAUDE_ONLY, srt_allow=[
        "bogus", "filesystem.extra", "filesystem.enabled", "network.zzz", "network.enabled",
        "excludedCommands"]), srt="""{
  "enabled": true,
  "bogus": 1,
  "ripgrep": {"command": "rg"},
  "filesystem": {"denyRead": ["~/.aws"], "extra": 2, "enabled": true, "allowGitConfig": false},
  "network": {"allowedDomains": [], "zzz": 3, "httpProxyPort": 8080, "enabled": true},
  "excludedCommands": ["docker"]
}
"""))
    add("symlinked_deny_path", [], files=home(
        srt=sc.srt_doc(deny_read=["~/link", "~/link2", "~/real2", "~/.aws"], deny_write=["~/wlink"]),
        **{"real/keep": "", "real2/keep": "", "wreal/keep": ""}),
        symlinks={"link": "{HOME}/real", "link2": "{HOME}/real2", "wlink": "{HOME}/wreal"})
    add("broad_allow_write", [], files=home(srt=sc.srt_doc(
        allow_write=["~/Library", "~/.config", "~", "~/dev", "~/.config/x", "/"])))
    add("claude_relative_sandbox_path", [], files=home(
        targets={"claude_settings": "~/.claude/settings.full.json",
                 "claude_settings_yolo": "~/.claude/settings.yolo.json"},
        **{".claude/settings.full.json": '{"sandbox": {"filesystem": {"allowWrite": ["rel/x", "/abs", "~/t", "./dot"], "denyRead": ["r"]}}}\n',
           ".claude/settings.yolo.json": '{"sandbox": {"filesystem": {"denyWrite": ["y"]}}}\n',
           ".claude/settings.local.json": '{"sandbox": {"filesystem": {"allowRead": ["z"]}}}\n'}))

    # --- doctor-ignore (lines without a key: 3.3.3 and the port agree) --------
    add("ignore_comments", ["--all"], files=home(
        config=sc.cfg(targets=CLAUDE_ONLY, srt={"a": "srt/a.jsonc", "b": "srt/b.jsonc"},
                      profiles={"default": {"srt": ["a", "b"], "bash": ["base"]}}),
        **{sc.TW + "srt/a.jsonc": """{
  "filesystem": {
    "denyRead": [
      "~/p", "~/q", "~/t", // doctor-ignore: reviewed
      "~/r/x", "~/v/x", "~/v"
    ],
    "denyWrite": [
      "**/.env", //doctor-ignore
      "~/b*"
    ],
    "allowWrite": [
      "~", //   doctor-ignore
      "~/.config"
    ]
  },
  "network": {
    "allowedDomains": [
      "*.a.com", // doctor-ignore
      "*.b.com"
    ]
  }
}
""",
           sc.TW + "srt/b.jsonc": """{
  "filesystem": {
    "denyRead": [
      "~/z/y", "~/z", "~/p", "~/t/x", "~/u", // doctor-ignore
      "~/q/x", "~/r", "~/r/x", "~/u/x", "~/v"
    ]
  }
}
"""}))

    # --- report order (lists come in when their first fragment does) ----------
    two = sc.cfg(targets=CLAUDE_ONLY, srt={"a": "srt/a.jsonc", "b": "srt/b.jsonc"},
                 profiles={"default": {"srt": ["a", "b"], "bash": ["base"]}})

    def pair(name, a, b, cmd=(), **kw):
        add(name, list(cmd), files=home(config=two, **{sc.TW + "srt/a.jsonc": a, sc.TW + "srt/b.jsonc": b}), **kw)

    pair("order_duplicate_first",
         '{"network": {"deniedDomains": ["x.io"]}}\n',
         '{"filesystem": {"allowWrite": ["~/w", "~/w/x"]}, "network": {"deniedDomains": ["x.io"]}}\n')
    pair("order_list_of_the_first_fragment",
         '{"filesystem": {"allowWrite": ["~/r"]}, "network": {"deniedDomains": ["x.io"]}}\n',
         '{"filesystem": {"allowWrite": ["~", "~/.aws"]}, "network": {"deniedDomains": ["x.io"]}}\n')
    pair("order_cross_fragment_lists",
         '{"filesystem": {"denyRead": ["~/r"]}, "network": {"allowedDomains": ["*"]}}\n',
         '{"filesystem": {"allowWrite": ["~/w", "~/w/x"], "denyRead": ["~/d", "~/d/x", "~/r/y"], "denyWrite": ["~/e", "~/e/x"]},\n'
         ' "network": {"allowedDomains": ["*.a.com"]}}\n', cmd=["--all"])
    pair("order_empty_list_does_not_count",
         '{"filesystem": {"denyWrite": [], "allowRead": ["~/.aws"]}, "network": {"deniedDomains": ["*.x.io"]}}\n',
         '{"filesystem": {"denyWrite": [".", "rel"], "allowRead": ["~/.aws"]}, "network": {"allowedDomains": ["*", "*.b.a.com"]}}\n',
         cmd=["--all"], divergence=["# 3.3.3 gives srt's filesystem.allowRead to srt only; the port compiles it for Claude and says what it leaves out (doc/compatibility.md row 41).", 'stdout-insert-before\tdoctor: \tclaude', "stdout-insert-before\tdoctor: \t  warning  srt-key-skipped     srt filesystem.allowRead re-opens ~/.aws for Claude's sandboxed commands only: its Read tool keeps the Read deny rules of the paths around them (a deny rule wins over any allow), stricter than srt", "stdout-insert-before\tdoctor: \t                               • profile 'default'", 'stdout-insert-before\tdoctor: \t', 'stdout-replace\tdoctor: 0 errors, 4 warnings, 1 info\tdoctor: 0 errors, 5 warnings, 1 info'])

    # --- symlinked-deny-path looks in every fragment; unused fragments are linted
    sym = sc.cfg(targets=CLAUDE_ONLY,
                 srt={"a": "srt/a.jsonc", "b": "srt/b.jsonc", "c": "srt/c.jsonc", "orphan": "srt/orphan.jsonc"},
                 profiles={"default": {"srt": ["a", "b"], "bash": ["base"]}, "other": {"srt": ["c"], "bash": ["base"]}})
    add("symlinked_across_fragments", [], files=home(config=sym, **{
        sc.TW + "srt/a.jsonc": '{"filesystem": {"denyRead": ["~/link", "~/real2"]}}\n',
        sc.TW + "srt/b.jsonc": '{"filesystem": {"denyRead": ["~/real"], "denyWrite": ["~/link2"]}}\n',
        sc.TW + "srt/c.jsonc": '{"filesystem": {"denyRead": ["~/link3"]}}\n',
        sc.TW + "srt/orphan.jsonc": '{"bogus": 1, "filesystem": {"denyRead": ["~/link"], "allowWrite": ["~"]}}\n',
        "real/keep": "", "real2/keep": "", "real3/keep": ""}),
        symlinks={"link": "{HOME}/real", "link2": "{HOME}/real2", "link3": "{HOME}/real3"})

    # --- the per-fragment checks run one at a time over the registry ----------
    five = sc.cfg(targets=CLAUDE_ONLY, srt_allow=["bogus"],
                  srt={n: f"srt/{n}.jsonc" for n in ["x", "y", "z", "w", "v"]},
                  profiles={"default": {"srt": ["v", "w", "z", "y", "x"], "bash": ["base"]}})
    add("order_per_fragment_checks", ["--all"], files=home(config=five, **{
        sc.TW + "srt/x.jsonc": '{"filesystem": {"allowWrite": ["~", "~/a*", "~/b/**"]}}\n',
        sc.TW + "srt/y.jsonc": '{"filesystem": {"allowWrite": ["**/q"], "denyWrite": ["**/.env"]}}\n',
        sc.TW + "srt/z.jsonc": '{"filesystem": {"denyRead": ["~/link", "**/z"]}}\n',
        sc.TW + "srt/w.jsonc": '{"bogus": 1, "filesystem": {"denyRead": ["~/link"]}}\n',
        sc.TW + "srt/v.jsonc": '{"filesystem": {"allowRead": ["~/a*"]}}\n',
        "real/keep": ""}),
        symlinks={"link": "{HOME}/real"}, divergence=["# 3.3.3 gives srt's filesystem.allowRead to srt only; the port compiles it for Claude and says what it leaves out (doc/compatibility.md row 41).", 'stdout-insert-before\tdoctor: \tclaude', "stdout-insert-before\tdoctor: \t  warning  srt-key-skipped      srt filesystem.allowRead re-opens ~/a* for Claude's sandboxed commands only: its Read tool keeps the Read deny rules of the paths around them (a deny rule wins over any allow), stricter than srt", "stdout-insert-before\tdoctor: \t                                • profile 'default'", 'stdout-insert-before\tdoctor: \t', 'stdout-replace\tdoctor: 0 errors, 11 warnings, 1 info\tdoctor: 0 errors, 12 warnings, 1 info'])

    # --- more of the profile graph --------------------------------------------
    graph2 = sc.cfg(
        targets=CLAUDE_ONLY,
        srt={"f0": "srt/f0.jsonc", "f1": "srt/f1.jsonc", "f2": "srt/f2.jsonc"},
        bash={"b": "bash/b.jsonc", "c": "bash/c.jsonc"},
        profiles={
            "default": {"srt": ["f0", "f1", "f2"], "bash": ["b"]},
            "work": {"extends": ["default"], "srt": ["f0"], "bash": ["b", "c"]},
            "alpha": {"extends": ["default"], "srt": ["f2"], "bash": []},
            "zed": {"extends": ["alpha", "default", "work"], "srt": ["f0"], "bash": []},
            "lone": {"srt": [], "bash": ["c", "b"]},
        })
    add("profile_graph_shapes", [], files=home(config=graph2, **{
        sc.TW + "srt/f0.jsonc": sc.srt_doc(deny_read=["~/.a"]),
        sc.TW + "srt/f1.jsonc": sc.srt_doc(deny_read=["~/.b"]),
        sc.TW + "srt/f2.jsonc": sc.srt_doc(deny_read=["~/.c"]),
        sc.TW + "bash/b.jsonc": sc.bash_doc(allow=["git push --force"], ask=["npm"]),
        sc.TW + "bash/c.jsonc": sc.bash_doc(allow=["git", "git push --force"])}))

    # --- the Claude files: the derived yolo name, settings.json on its own ----
    rel = '{"sandbox": {"filesystem": {"denyRead": ["rel"], "allowWrite": ["./w", "~/ok"]}}}\n'
    add("claude_relative_derived_yolo", [], files=home(**{
        ".claude/settings.full.json": rel, ".claude/settings.yolo.json": rel,
        ".claude/settings.local.json": "{not json\n"}),
        symlinks={".claude/settings.json": "settings.full.json"})
