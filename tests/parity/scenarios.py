"""Parity scenarios for twsrt: each one a HOME tree, one command line, optional env.

Every scenario is a dict with:
  name     unique directory name under scenarios/
  cmd      the arguments (list of str, without the program name); "{HOME}" is the HOME path
  port_cmd optional: the arguments the replay gives the port instead of cmd (a spelling
           3.3.3 rejects but the port accepts on purpose, e.g. `-w -n` for the preview)
  drop_foreign  True: the existing Claude file holds deny/ask entries no policy wrote, which
           3.3.3 drops silently and the port only with consent: port_cmd gets --drop-foreign
           (doc/compatibility.md row 27)
  files    {relative path under HOME: text | bytes | None}; merged over the default HOME
           (config + fragments) unless base=False; None removes a default file
  env      extra environment for the command (dict)
  prep     reference commands run first (author time only); the HOME they leave behind,
           after `edits`, is what the scenario stores in home/ (e.g. targets written by
           `generate -w`, then hand-edited for a drift case)
  edits    {path: text | None | callable(old_text) -> new_text} applied after prep
  symlinks {path: target} created before prep
  chmod    {path: mode} applied before prep
  facts    hand-edited override: the facts list (replaces the derived one)
  facts_add / facts_drop   extend / prune the derived facts
  divergence  lines for expected/divergence (directives the replay honours, see README.md)

Strings in files, cmd and env may use "{HOME}" for the absolute HOME path.
"""

# ---------------------------------------------------------------------------
# building blocks
# ---------------------------------------------------------------------------

CFG = "{HOME}/.config/twsrt/config.toml"
TW = ".config/twsrt/"

SRT_BASE = """{
  // Canonical Sandbox Runtime policy used by most scenarios.
  "enabled": true,
  "filesystem": {
    "denyRead": ["~/.aws", "~/.ssh", "~/.netrc", "**/*.pem"],
    "denyWrite": ["**/.env", "~/.bashrc"],
    "allowWrite": [".", "/tmp", "~/dev"]
  },
  "network": {
    "allowedDomains": ["github.com", "*.github.com", "pypi.org"],
    "deniedDomains": ["evil.example"]
  }
}
"""

BASH_BASE = """{
  /* Command policy. */
  "allow": ["gh pr view"],
  "deny": ["rm", "sudo", "git push --force"],
  "ask": ["git push", "pip install"]
}
"""

SRT_WORK = """{
  "filesystem": {
    "denyRead": ["~/.ssh", "~/work/secrets"],
    "allowWrite": ["~/work"]
  },
  "network": {
    "allowedDomains": ["github.com", "work.example.com"]
  }
}
"""

BASH_WORK = """{
  "deny": ["kubectl delete", "rm"],
  "ask": ["terraform apply"]
}
"""

SRT_EXTRA = """{
  "network": { "allowedDomains": ["extra.example.org"] }
}
"""

DEFAULT_TARGETS = {
    "claude_settings": "~/.claude/settings.full.json",
    "codex_config": "~/.codex/config.toml",
    "codex_rules": "~/.codex/rules/twsrt.rules",
}


def q(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def toml_list(items):
    return "[" + ", ".join(q(i) for i in items) + "]"


def cfg(
    srt=None,
    bash=None,
    profiles=None,
    default_profile="default",
    targets=None,
    srt_output="~/.srt-settings.json",
    bash_output="bash-rules.json",
    overrides="",
    extra="",
    srt_allow=None,
):
    """Render a schema-1 config.toml.

    bash=False leaves [sources.bash] out (and `bash` out of the default profile);
    srt_output/bash_output None leave the `output` key out (3.3.3 defaults it);
    srt_allow lists the srt keys the fragments hold that srt 0.0.83 does not know
    (`allow_unknown_keys`: the port refuses them otherwise, 3.3.3 ignores the key)."""
    srt = {"base": "srt/base.jsonc"} if srt is None else srt
    bash = {"base": "bash/base.jsonc"} if bash is None else bash
    default_sel = {"srt": ["base"], "bash": ["base"]} if bash is not False else {"srt": ["base"]}
    profiles = {"default": default_sel} if profiles is None else profiles
    targets = DEFAULT_TARGETS if targets is None else targets
    out = ["schema_version = 1"]
    if default_profile is not None:
        out.append(f"default_profile = {q(default_profile)}")
    out += ["", "[sources.srt]"] + ([f"output = {q(srt_output)}"] if srt_output is not None else [])
    if srt_allow:
        out.append(f"allow_unknown_keys = {toml_list(srt_allow)}")
    for name, path in srt.items():
        out += ["", f"[sources.srt.fragments.{name}]", f"path = {q(path)}"]
    if bash is not False:
        out += ["", "[sources.bash]"] + ([f"output = {q(bash_output)}"] if bash_output is not None else [])
        for name, path in bash.items():
            out += ["", f"[sources.bash.fragments.{name}]", f"path = {q(path)}"]
    for pname, p in profiles.items():
        out += ["", f"[profiles.{pname}]"]
        for key, val in p.items():
            out.append(f"{key} = {toml_list(val)}")
    if targets:
        out += ["", "[targets]"]
        for key, val in targets.items():
            out.append(f"{key} = {q(val)}")
    if overrides:
        out += ["", overrides.strip()]
    if extra:
        out += ["", extra.strip()]
    return "\n".join(out) + "\n"


def home(config=None, srt=SRT_BASE, bash=BASH_BASE, **more):
    """The default HOME: config.toml plus one srt and one bash fragment."""
    files = {
        TW + "config.toml": cfg() if config is None else config,
        TW + "srt/base.jsonc": srt,
        TW + "bash/base.jsonc": bash,
    }
    files.update(more)
    return files


def work_home(targets=None):
    """Profiles with inheritance: work extends default, combined extends both."""
    return home(
        config=cfg(targets=targets,
            srt={"base": "srt/base.jsonc", "work": "srt/work.jsonc", "extra": "srt/extra.jsonc"},
            bash={"base": "bash/base.jsonc", "work": "bash/work.jsonc"},
            profiles={
                "default": {"srt": ["base"], "bash": ["base"]},
                "work": {"extends": ["default"], "srt": ["work"], "bash": ["work"]},
                "extra": {"srt": ["extra", "base"], "bash": ["base"]},
                "combined": {"extends": ["work", "extra"], "srt": ["base"], "bash": []},
            },
        ),
        **{TW + "srt/work.jsonc": SRT_WORK, TW + "bash/work.jsonc": BASH_WORK,
           TW + "srt/extra.jsonc": SRT_EXTRA},
    )


def srt_doc(deny_read=(), deny_write=(), allow_write=(), allowed=(), denied=(), enabled=True, extra_net="", extra_top=""):
    import json

    def arr(x):
        return json.dumps(list(x), ensure_ascii=False)

    net_extra = (",\n    " + extra_net) if extra_net else ""
    top_extra = (",\n  " + extra_top) if extra_top else ""
    return (
        "{\n"
        f'  "enabled": {"true" if enabled else "false"},\n'
        '  "filesystem": {\n'
        f'    "denyRead": {arr(deny_read)},\n'
        f'    "denyWrite": {arr(deny_write)},\n'
        f'    "allowWrite": {arr(allow_write)}\n'
        "  },\n"
        '  "network": {\n'
        f'    "allowedDomains": {arr(allowed)},\n'
        f'    "deniedDomains": {arr(denied)}{net_extra}\n'
        f"  }}{top_extra}\n"
        "}\n"
    )


def bash_doc(allow=(), deny=(), ask=()):
    import json

    return json.dumps({"allow": list(allow), "deny": list(deny), "ask": list(ask)}, ensure_ascii=False, indent=2) + "\n"


CLAUDE_EXISTING = """{
  "permissions": {
    "deny": ["Bash(old-deny-entry)"],
    "ask": ["Bash(old-ask-entry)"],
    "allow": ["Read", "Glob", "WebSearch", "Bash(npm test:*)", "mcp__memory__store", "WebFetch(domain:old.example.com)"]
  },
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "my-hook" }] }
    ]
  },
  "additionalDirectories": ["/home/user/other-project"],
  "model": "opus",
  "sandbox": {
    "network": { "allowedDomains": ["old.example.com"], "allowLocalBinding": true },
    "filesystem": { "allowWrite": ["/old"] },
    "autoAllowBashIfSandboxed": true,
    "excludedCommands": ["docker"],
    "enabled": false
  }
}
"""

CODEX_COMMENTED = """# Personal Codex configuration (hand-maintained).
model = "gpt-5-codex"  # preferred model
approval_policy = "never"   # will be pinned by twsrt
model_reasoning_effort = "high"

# MCP servers -- tokens must never be printed
[mcp_servers.github]
command = "github-mcp"
args = ["--stdio"]
env = { GITHUB_TOKEN = "ghp_SECRETSECRETSECRET", LOG = "info" }

[mcp_servers.search]
url = "https://mcp.example.com/sse"
bearer_token_env_var = "SEARCH_TOKEN"

# A stale twsrt profile from an older run
[permissions.twsrt]
extends = ":read-only"
description = "old"

[permissions.twsrt.filesystem]
"~/.old-secret" = "deny"

# Another profile twsrt must leave alone
[permissions.mine]
extends = ":workspace"

# Trusted projects
[projects."/home/user/proj"]
trust_level = "trusted"

[projects."/home/user/naïve project"]
trust_level = "untrusted"
"""

OVERRIDES_BOTH = """
[sandbox_overrides.yolo]
enabled = true
autoAllowBashIfSandboxed = true
allowUnsandboxedCommands = false
excludedCommands = ["docker", "podman"]

[sandbox_overrides.full]
enabled = false
ignoreViolations = { "*" = ["/usr/bin"] }
"""

S = []


def add(name, cmd, files=None, base=True, **kw):
    f = home() if base else {}
    if files:
        f.update(files)
    if kw.pop("drop_foreign", False):
        kw["port_cmd"] = kw.get("port_cmd", cmd) + ["--drop-foreign"]
    S.append(dict(name=name, cmd=cmd, files=f, **kw))


# ---------------------------------------------------------------------------
# config
# ---------------------------------------------------------------------------

INIT_DIVERGENCE = [
    "# The starter files are prose; the port need not copy them byte for byte.",
    "file-parsed-equal .config/twsrt/config.toml",
    "file-parsed-equal .config/twsrt/srt/base.jsonc",
    "file-parsed-equal .config/twsrt/bash/base.jsonc",
    "# The port's starter adds failIfUnavailable = true to the yolo overrides (doc/compatibility.md row 59).",
    "file-replace\t.config/twsrt/config.toml\tallowUnsandboxedCommands = false\tallowUnsandboxedCommands = false\\nfailIfUnavailable = true",
]
add("config_init_fresh", ["config", "--init"], base=False, env={"EDITOR": "true"},
    divergence=INIT_DIVERGENCE)
add("config_init_existing", ["config", "--init"], env={"EDITOR": "true"})
add("config_init_custom_path", ["-c", "{HOME}/custom dir/twsrt.toml", "config", "--init"],
    base=False, env={"EDITOR": "true"},
    divergence=[l.replace(".config/twsrt/config.toml", "custom dir/twsrt.toml").replace(".config/twsrt/", "custom dir/")
                for l in INIT_DIVERGENCE])
add("config_open_existing", ["config"], env={"EDITOR": "true"})
add("config_open_missing", ["config"], base=False, env={"EDITOR": "true"})
add("config_open_editor_fails", ["config"], env={"EDITOR": "false"})
# $EDITOR is split as a shell splits it (3.3.3: shlex): quotes group, the path comes last.
# The editor appends to a file that exists before: a file the editor creates gets the
# reference's umask (077, so 0600), which is the editor's business, not twsrt's.
add("config_editor_shell_words", ["config"], files={"edited": ""},
    env={"EDITOR": """sh -c 'printf "%s|%s\\n" "$0" "$1" >> "$HOME/edited"' 'my editor'"""})
add("config_editor_quoted_path", ["config"],
    files={"edited": "", "bin dir/ed it": '#!/bin/sh\necho "$@" >> "$HOME/edited"\n'},
    chmod={"bin dir/ed it": 0o755}, env={"EDITOR": "'{HOME}/bin dir/ed it' --wait"})

# ---------------------------------------------------------------------------
# generate: previews
# ---------------------------------------------------------------------------

add("gen_claude_full", ["generate", "claude"], files={".netrc": "machine x\n"})
add("gen_claude_yolo", ["generate", "--yolo", "claude"], files={".netrc": "machine x\n"})
# Copilot is opt-in in 3.3.3: these scenarios set copilot_output so there is a rendering.
COPILOT_TARGETS = {**DEFAULT_TARGETS, "copilot_output": "copilot-flags.txt"}
add("gen_copilot_full", ["generate", "copilot"], files={TW + "config.toml": cfg(targets=COPILOT_TARGETS)})
add("gen_copilot_yolo", ["generate", "--yolo", "copilot"], files={TW + "config.toml": cfg(targets=COPILOT_TARGETS)})
add("gen_codex_full", ["generate", "codex"])
add("gen_all_default", ["generate"])
add("gen_all_yolo", ["generate", "--yolo"])
# 3.3.3 knew no gemini agent; the port does, so it replays an unknown name.
add("gen_unknown_agent", ["generate", "gemini"], port_cmd=["generate", "nosuchagent"])
add("gen_dry_run_without_write", ["generate", "claude"], port_cmd=["generate", "-n", "claude"])

# Claude denyRead: /** unless a glob or an existing regular file under HOME
add("gen_claude_denyread_detection", ["generate", "claude"],
    files={
        TW + "srt/base.jsonc": srt_doc(deny_read=[
            "~/.netrc", "~/.ssh", "~/.missing", "{HOME}/abs-secret.txt", "{HOME}/absdir",
            "rel-secret.txt", "reldir", "**/*.pem", "~/.config/*.key", "~/data/[ab].txt",
            "/nonexistent-twsrt/secret", "~/.ssh/"]),
        ".netrc": "machine example.com\n",
        ".ssh/id_ed25519": "key\n",
        "abs-secret.txt": "s\n",
        "absdir/x": "x\n",
        "rel-secret.txt": "s\n",
        "reldir/y": "y\n",
    })

add("gen_all_nonascii", ["generate"],
    files={TW + "config.toml": cfg(targets=COPILOT_TARGETS),
        TW + "srt/base.jsonc": srt_doc(
            deny_read=["~/Dokumente/geheim", "~/naïve.txt", "~/emoji😀/x"],
            deny_write=["~/Ünïcode/**", "**/päss.txt"],
            allow_write=["~/näme/dir", "/tmp/ßcratch", "projekt/ordner"],
            # An IDN entry is compiled to its A-label (issue 41; tests/spellings.rs
            # holds it): the scenario keeps the A-labels both write alike.
            allowed=["*.xn--r8jz45g.jp", "xn--bcher-kva.de"],
            denied=["xn--bse-sna.example"]),
        TW + "bash/base.jsonc": bash_doc(deny=["rm -rf ~/Dokumente", "echo 😀"], ask=["git commit -m 'ä'"]),
        "naïve.txt": "x\n",
    },
    divergence=["# The reference wraps a quote-bearing rule in single quotes unchanged; the port escapes it.",
                "stdout-ignore-lines-containing shell(git commit -m"])
add("gen_all_minimal_docs", ["generate"],
    files={TW + "srt/base.jsonc": "{}\n", TW + "bash/base.jsonc": "{}\n"})
add("gen_all_globs_and_paths", ["generate"],
    files={TW + "srt/base.jsonc": srt_doc(
        deny_read=["**/.env*", "~/.config/gcloud/**", "/etc/shadow", "secrets/", "./local.key"],
        deny_write=["**/*.key", "~/.gitconfig", "/etc/hosts", "relative/file.txt", "dir/**"],
        allow_write=[".", "./build", "build/", "/tmp/**", "~/dev/", "~/cache/**", "~", "/", "/opt/*/x", ".git", "src/**"],
        allowed=["example.com", "*.example.com", "localhost"],
        denied=["*.evil.example"])})

PASS_NET = ('"allowUnixSockets": ["/var/run/docker.sock", "/tmp/sockets/"],\n    "allowAllUnixSockets": false,\n'
            '    "allowLocalBinding": true,\n    "httpProxyPort": 8080,\n    "socksProxyPort": 1080')
PASS_TOP = ('"enableWeakerNetworkIsolation": true,\n  "enableWeakerNestedSandbox": false,\n'
            '  "ignoreViolations": { "*": ["/usr/bin"], "git": ["/tmp"] },\n'
            '  "mandatoryDenySearchDepth": 3')
PASSTHROUGH = srt_doc(deny_read=["~/.aws"], allow_write=["."], allowed=["github.com"],
                      extra_net=PASS_NET, extra_top=PASS_TOP)
add("gen_claude_passthrough", ["generate", "claude"], files={TW + "srt/base.jsonc": PASSTHROUGH})
add("gen_codex_passthrough_skips", ["generate", "codex"], files={TW + "srt/base.jsonc": PASSTHROUGH})
# Keys srt 0.0.83 does not know pass through only when config.toml names them
# (allow_unknown_keys; doc/compatibility.md row 31).
add("gen_codex_all_unix_sockets", ["generate", "codex"], files={
    TW + "config.toml": cfg(srt_allow=["network_extra"]),
    TW + "srt/base.jsonc": srt_doc(
        allowed=["github.com"],
        extra_net='"allowAllUnixSockets": true,\n    "allowUnixSockets": ["/run/user/1000/ssh.sock"]',
        extra_top='"network_extra": null')})
add("w_claude_numbers_and_escapes", ["generate", "-w", "claude"], files={
    TW + "config.toml": cfg(srt_allow=["network.x-big", "network.x-small", "network.x-neg",
                                       "x-control", "x-emoji"]),
    TW + "srt/base.jsonc": srt_doc(
        # A tab in a path is refused (issue 41): the tab is in x-control.
        deny_read=["~/tab here", "~/quote\"d", "~/back\\slash"],
        allowed=["github.com"],
        extra_net='"httpProxyPort": 8080.0,\n    "socksProxyPort": 1e3,\n    "x-big": 123456789012345678901234567890,\n    "x-small": 1e-7,\n    "x-neg": -0.0',
        extra_top='"x-control": "a\\u0001b\\u001fc\\u007f\\t", "x-emoji": "\\ud83d\\ude00"')})

add("gen_claude_overrides_full", ["generate", "claude"],
    files={TW + "config.toml": cfg(overrides=OVERRIDES_BOTH)})
add("gen_claude_overrides_yolo", ["generate", "--yolo", "claude"],
    files={TW + "config.toml": cfg(overrides=OVERRIDES_BOTH)})
add("gen_claude_overrides_nested_network", ["generate", "--yolo", "claude"],
    files={TW + "config.toml": cfg(overrides="""
[sandbox_overrides.yolo]
enabled = true

[sandbox_overrides.yolo.network]
allowedDomains = ["only.example.com"]
httpProxyPort = 3128

[sandbox_overrides.yolo.filesystem]
denyRead = ["~/.only"]
""")})

# profiles with inheritance
add("gen_profile_work_claude", ["generate", "-p", "work", "claude"], files=work_home())
add("gen_profile_combined_codex", ["generate", "-p", "combined", "codex"], files=work_home())
add("gen_profile_extra_copilot", ["generate", "-p", "extra", "copilot"], files=work_home(targets=COPILOT_TARGETS))
add("gen_default_profile_work", ["generate", "claude"], files={
    **work_home(),
    TW + "config.toml": work_home()[TW + "config.toml"].replace('default_profile = "default"', 'default_profile = "work"')})

# paths of sources and outputs
add("gen_config_relative_c", ["-c", "alt/conf.toml", "generate", "codex"], files={
    "alt/conf.toml": cfg(srt={"base": "../.config/twsrt/srt/base.jsonc"},
                         bash={"base": "~/.config/twsrt/bash/base.jsonc"}),
}, divergence=["# 3.3.3 also write-denies the unnormalised spelling ~/alt/../...; the port normalises it.",
               "stdout-ignore-lines-containing /../"])
add("gen_config_nonascii_dir", ["-c", "{HOME}/Konfigürätion/config.toml", "generate", "-w", "claude"], files={
    "Konfigürätion/config.toml": cfg(srt={"base": "{HOME}/Konfigürätion/srt/bäse.jsonc"},
                                     bash={"base": "bash/base.jsonc"},
                                     bash_output="Ausgabe/bash-rules.json",
                                     srt_output="{HOME}/Ausgabe/srt-settings.json"),
    "Konfigürätion/srt/bäse.jsonc": SRT_BASE,
    "Konfigürätion/bash/base.jsonc": BASH_BASE,
})

# ---------------------------------------------------------------------------
# generate --write / --dry-run
# ---------------------------------------------------------------------------

add("w_claude_fresh", ["generate", "-w", "claude"], files={".netrc": "m\n"})
add("w_claude_merge_existing", ["generate", "claude", "-w"], files={".claude/settings.full.json": CLAUDE_EXISTING}, drop_foreign=True)
add("w_claude_merge_existing_yolo", ["generate", "--yolo", "claude", "--write"],
    files={".claude/settings.yolo.json": CLAUDE_EXISTING, TW + "config.toml": cfg(overrides=OVERRIDES_BOTH)}, drop_foreign=True)
add("w_claude_migration", ["generate", "-w", "claude"], files={".claude/settings.json": CLAUDE_EXISTING}, drop_foreign=True)
add("w_claude_migration_yolo", ["generate", "--yolo", "-w", "claude"], files={".claude/settings.json": CLAUDE_EXISTING}, drop_foreign=True)
add("w_claude_anchor_conflict", ["generate", "-w", "claude"], files={
    ".claude/settings.json": '{"model": "a"}\n', ".claude/settings.full.json": '{"model": "b"}\n'})
add("w_claude_relink_symlink", ["generate", "-w", "claude"], files={
    ".claude/settings.yolo.json": '{"model": "yolo"}\n'},
    symlinks={".claude/settings.json": "settings.yolo.json"})
add("w_claude_dangling_symlink", ["generate", "-w", "claude"],
    symlinks={".claude/settings.json": "missing.json"})
add("w_claude_existing_invalid_json", ["generate", "-w", "claude"], files={
    ".claude/settings.full.json": '{"permissions": {"deny": [}\n'},
    facts_drop=["26"])  # "(char 26)" is a Python-ism
# Error positions in an existing Claude file are Python's: columns in characters, the end
# of a truncated file, a bad literal at its start (the port also gives the character index).
add("w_claude_existing_invalid_json_nonascii", ["generate", "-w", "claude"], files={
    ".claude/settings.full.json": '{\n  "model": "ünïcode",\n  "x": tru\n}\n'})
add("diff_claude_existing_truncated_json", ["diff", "claude"], files={
    ".claude/settings.full.json": '{"permissions": {"deny": ["Bash(rm)"'})
add("w_all_explicit_yolo_targets", ["generate", "--yolo", "-w"], files={
    TW + "config.toml": cfg(targets={**DEFAULT_TARGETS, "claude_settings_yolo": "~/.claude/yolo-settings.json",
                                     "copilot_output": "copilot.txt", "copilot_output_yolo": "{HOME}/yolo-flags"})})
add("w_claude_dry_run", ["generate", "claude"], port_cmd=["generate", "-w", "-n", "claude"], files={".claude/settings.full.json": CLAUDE_EXISTING}, drop_foreign=True)
add("w_claude_dry_run_migration", ["generate", "claude"], port_cmd=["generate", "--dry-run", "--write", "claude"],
    files={".claude/settings.json": CLAUDE_EXISTING}, drop_foreign=True)
add("w_copilot_stdout", ["generate", "-w", "copilot"])
add("w_copilot_output_file", ["generate", "-w", "copilot"], files={
    TW + "config.toml": cfg(targets={**DEFAULT_TARGETS, "copilot_output": "copilot-flags.txt"})})
add("w_copilot_output_yolo_default", ["generate", "--yolo", "-w", "copilot"], files={
    TW + "config.toml": cfg(targets={**DEFAULT_TARGETS, "copilot_output": "~/flags/copilot.txt"})})
add("w_copilot_dry_run", ["generate", "copilot"], port_cmd=["generate", "-w", "-n", "copilot"], files={
    TW + "config.toml": cfg(targets={**DEFAULT_TARGETS, "copilot_output": "copilot-flags.txt"})})
# A rerun that changes nothing: 3.3.3 prints `Wrote:` (and the Codex restart
# hint) for files it did not change; the port says `Unchanged:` and gives no
# hint (doc/compatibility.md row 33).
RERUN_WROTE = ["Wrote canonical: {HOME}/.srt-settings.json",
               "Wrote canonical: {HOME}/.config/twsrt/bash-rules.json",
               "Wrote: {HOME}/.codex/config.toml", "Wrote: {HOME}/.codex/rules/twsrt.rules"]
RERUN_UNCHANGED = [w.replace("Wrote", "Unchanged") for w in RERUN_WROTE]
add("w_codex_fresh", ["generate", "-w", "codex"])
add("w_codex_merge_commented", ["generate", "-w", "codex"], files={".codex/config.toml": CODEX_COMMENTED})
add("w_codex_merge_idempotent", ["generate", "-w", "codex"], files={".codex/config.toml": CODEX_COMMENTED},
    prep=[["generate", "-w", "codex"]], facts_drop=RERUN_WROTE, facts_add=RERUN_UNCHANGED)
add("w_codex_dry_run", ["generate", "codex"], port_cmd=["generate", "-w", "-n", "codex"], files={".codex/config.toml": CODEX_COMMENTED})
add("w_codex_no_rules_target", ["generate", "-w", "codex"], files={
    TW + "config.toml": cfg(targets={"claude_settings": "~/.claude/settings.full.json",
                                     "codex_config": "~/.codex/config.toml"}),
    ".codex/rules/twsrt.rules": "# stale rules file\n"})
add("w_codex_pinned_keys_conflict", ["generate", "-w", "codex"], files={".codex/config.toml": """default_permissions = "other"
approval_policy = "untrusted"
approvals_reviewer = "agent"
allow_login_shell = true
profile = "fast"

[profiles.fast]
model = "o3"
"""})
add("w_codex_legacy_sandbox_mode", ["generate", "-w", "codex"], files={".codex/config.toml": 'sandbox_mode = "workspace-write"\nmodel = "o3"\n'})
add("w_codex_legacy_sandbox_workspace_write", ["generate", "-w", "codex"], files={
    ".codex/config.toml": '[sandbox_workspace_write]\nnetwork_access = true\n'})
add("w_codex_invalid_existing_toml", ["generate", "-w", "codex"], files={".codex/config.toml": "model = \n"},
    facts=["Error:", "1"])  # line 1; tomlkit counts columns from 0 (col 8), the port from 1 (col 9)
add("w_all_yolo_fresh", ["generate", "--yolo", "-w"])
add("w_all_dry_run", ["generate"], port_cmd=["generate", "-w", "-n"], files={".codex/config.toml": CODEX_COMMENTED,
                                                       ".claude/settings.json": CLAUDE_EXISTING}, drop_foreign=True)
add("w_all_copilot_file", ["generate", "all", "-w"], files={
    TW + "config.toml": cfg(targets={**DEFAULT_TARGETS, "copilot_output": "copilot-flags.txt"})})
add("w_all_without_codex_config", ["generate", "-w"], files={
    TW + "config.toml": cfg(targets={"claude_settings": "~/.claude/settings.full.json"})})
add("w_all_codex_error_writes_nothing", ["generate", "-w"], files={
    ".codex/config.toml": 'sandbox_mode = "danger-full-access"\n'})
add("w_profile_work_all", ["generate", "-p", "work", "-w"], files=work_home())
add("w_outputs_absolute_and_nested", ["generate", "-w", "claude"], files={
    TW + "config.toml": cfg(srt_output="{HOME}/out/deep/srt.json", bash_output="~/out/bash.json",
                            targets={"claude_settings": "{HOME}/claude-conf/settings.full.json"})})

# ---------------------------------------------------------------------------
# diff
# ---------------------------------------------------------------------------

COP = cfg(targets={**DEFAULT_TARGETS, "copilot_output": "copilot-flags.txt"})


def after_write(**kw):
    """prep = generate -w (full, all agents, copilot written to a file)."""
    files = dict(kw.pop("files", {}))
    files.setdefault(TW + "config.toml", COP)
    return dict(files=files, prep=[["generate", "-w"]], **kw)


add("diff_clean_all", ["diff"], **after_write())
add("diff_clean_codex_merged", ["diff", "codex"], **after_write(files={".codex/config.toml": CODEX_COMMENTED}))
add("diff_clean_yolo", ["diff", "--yolo"], files={TW + "config.toml": COP}, prep=[["generate", "--yolo", "-w"]])
add("diff_yolo_against_full_targets", ["diff", "--yolo", "claude"], **after_write())
add("diff_missing_everything", ["diff"])
add("diff_missing_claude", ["diff", "claude"])
add("diff_missing_codex", ["diff", "codex"], prep=[["generate", "-w", "claude"]])
add("diff_missing_copilot_no_output", ["diff", "copilot"])
add("diff_missing_copilot_file", ["diff", "copilot"], files={TW + "config.toml": COP}, prep=[["generate", "-w", "claude"]])
add("diff_missing_canonical", ["diff", "claude"], **after_write(edits={".srt-settings.json": None}))
add("diff_missing_codex_rules", ["diff", "codex"], **after_write(edits={".codex/rules/twsrt.rules": None}))
add("diff_claude_drift_deny", ["diff", "claude"], **after_write(edits={
    ".claude/settings.full.json": lambda t: t.replace('"Bash(rm)",', '"Bash(rm)",\n      "Bash(extra-entry)",').replace('      "Bash(sudo *)",\n', '')}))
add("diff_claude_drift_sandbox", ["diff", "claude"], **after_write(edits={
    ".claude/settings.full.json": lambda t: t.replace('"pypi.org"', '"pypi.example"').replace('"enabled": true', '"enabled": false')}))
add("diff_claude_drift_webfetch_and_ask", ["diff", "claude"], **after_write(edits={
    ".claude/settings.full.json": lambda t: t.replace('"WebFetch(domain:pypi.org)"', '"WebFetch(domain:old.example)"').replace('"Bash(pip install *)"', '"Bash(pip uninstall *)"')}))
add("diff_claude_foreign_keys_ignored", ["diff", "claude"], **after_write(edits={
    ".claude/settings.full.json": lambda t: t.replace('{\n  "permissions": {', '{\n  "model": "opus",\n  "hooks": {},\n  "permissions": {\n    "additionalDirectories": ["/x"],', 1)}))
add("diff_claude_yolo_drift", ["diff", "--yolo", "claude"], files={TW + "config.toml": COP},
    prep=[["generate", "--yolo", "-w", "claude"]],
    edits={".claude/settings.yolo.json": lambda t: t.replace('"Bash(sudo)",', '')})
add("diff_codex_drift_profile", ["diff", "codex"], **after_write(edits={
    ".codex/config.toml": lambda t: t.replace('"~/.aws" = "deny"', '"~/.aws" = "read"').replace('"pypi.org" = "allow"\n', '"extra.example" = "allow"\n')}))
add("diff_codex_drift_pinned", ["diff", "codex"], **after_write(edits={
    ".codex/config.toml": lambda t: t.replace('approval_policy = "on-request"', 'approval_policy = "never"')}))
add("diff_codex_drift_rules", ["diff", "codex"], **after_write(edits={
    ".codex/rules/twsrt.rules": lambda t: t.replace('pattern = ["sudo"]', 'pattern = ["doas"]')}))
add("diff_codex_foreign_change_ignored", ["diff", "codex"], **after_write(files={".codex/config.toml": CODEX_COMMENTED}, edits={
    ".codex/config.toml": lambda t: t.replace('model = "gpt-5-codex"', 'model = "o4"').replace('trust_level = "trusted"', 'trust_level = "untrusted"')}))
add("diff_codex_legacy_sandbox_mode", ["diff", "codex"], **after_write(edits={
    ".codex/config.toml": lambda t: 'sandbox_mode = "read-only"\n' + t}))
add("diff_copilot_drift", ["diff", "copilot"], **after_write(edits={
    TW + "copilot-flags.txt": lambda t: t.replace("--deny-tool 'shell(sudo)' \\\n", "") + "--allow-url 'extra.example' \\\n"}))
add("diff_canonical_srt_drift", ["diff", "claude"], **after_write(edits={
    ".srt-settings.json": lambda t: t.replace('"pypi.org"', '"pypi.example"')}))
add("diff_canonical_bash_drift", ["diff", "codex"], **after_write(edits={
    TW + "bash-rules.json": lambda t: t.replace('"sudo"', '"doas"')}))
add("diff_unapplied_fragment_change", ["diff"], **after_write(edits={
    TW + "srt/base.jsonc": lambda t: t.replace('"pypi.org"', '"pypi.org", "crates.io"'),
    TW + "bash/base.jsonc": lambda t: t.replace('"sudo"', '"sudo", "dd"')}))

# ---------------------------------------------------------------------------
# config.toml errors
# ---------------------------------------------------------------------------

def cfg_err(name, text, cmd=("generate", "claude"), **kw):
    add("cfg_" + name, list(cmd), files={TW + "config.toml": text}, **kw)


add("cfg_missing_file", ["generate", "claude"], base=False)
cfg_err("invalid_toml", cfg().replace('[profiles.default]', '[profiles.default\n'))
cfg_err("legacy_flat_sources", 'schema_version = 1\n[sources]\nsrt = "x.json"\nbash = "bash-rules.json"\n',
        facts=["Error:", "[sources]"])
cfg_err("schema_version_missing", cfg().replace("schema_version = 1\n", ""))
cfg_err("schema_version_2", cfg().replace("schema_version = 1", "schema_version = 2"))
cfg_err("schema_version_string", cfg().replace("schema_version = 1", 'schema_version = "1"'))
cfg_err("unknown_source_kind", cfg(extra='[sources.pip]\noutput = "pip.json"\n[sources.pip.fragments.base]\npath = "pip/base.jsonc"\n'))
cfg_err("missing_srt_source", cfg().replace('[sources.srt]\noutput = "~/.srt-settings.json"\n\n[sources.srt.fragments.base]\npath = "srt/base.jsonc"\n', ""))
cfg_err("missing_bash_source", cfg().replace('[sources.bash]\noutput = "bash-rules.json"\n\n[sources.bash.fragments.base]\npath = "bash/base.jsonc"\n', ""))
cfg_err("source_not_table", cfg().replace('[sources.bash]\noutput = "bash-rules.json"\n\n[sources.bash.fragments.base]\npath = "bash/base.jsonc"\n', "").replace("[sources.srt]", 'sources.bash = "bash.json"\n\n[sources.srt]'),
        facts=["Error:", "[sources]"])
cfg_err("missing_output", cfg().replace('output = "bash-rules.json"\n', ""))
cfg_err("no_fragments", cfg().replace('\n[sources.bash.fragments.base]\npath = "bash/base.jsonc"\n', ""))
cfg_err("fragment_path_missing", cfg().replace('path = "bash/base.jsonc"', 'note = "x"'))
cfg_err("fragment_path_empty", cfg().replace('path = "bash/base.jsonc"', 'path = ""'))
# A path key holding a number: the value is named.
cfg_err("target_path_number", cfg(targets={}) + "[targets]\nclaude_settings = 7\n")
add("cfg_fragment_not_jsonc", ["generate", "claude"], files={
    TW + "config.toml": cfg(bash={"base": "bash/base.json"}), TW + "bash/base.json": BASH_BASE})
add("cfg_fragment_file_absent", ["generate", "claude"], files={TW + "bash/base.jsonc": None})
add("cfg_fragment_equals_output", ["generate", "claude"], files={
    TW + "config.toml": cfg(bash_output="bash/base.jsonc")})
add("cfg_outputs_equal", ["generate", "claude"], files={
    TW + "config.toml": cfg(srt_output="~/.config/twsrt/bash-rules.json")})
cfg_err("no_profiles", cfg(profiles={}))
cfg_err("profile_not_table", cfg(profiles={}).replace("[targets]", 'profiles.default = "base"\n\n[targets]'))
cfg_err("unknown_profile_field", cfg(profiles={"default": {"srt": ["base"], "bash": ["base"], "agents": ["claude"]}}))
cfg_err("selection_not_list_of_strings", cfg().replace('bash = ["base"]', "bash = [1]"))
cfg_err("extends_not_list", cfg(profiles={"default": {"srt": ["base"], "bash": ["base"]}}).replace(
    'bash = ["base"]\n', 'bash = ["base"]\nextends = "other"\n'))
cfg_err("unknown_parent", cfg(profiles={"default": {"extends": ["ghost"], "srt": ["base"], "bash": ["base"]}}))
cfg_err("unknown_fragment", cfg(profiles={"default": {"srt": ["base", "work"], "bash": ["base"]}}))
cfg_err("extends_cycle", cfg(profiles={"default": {"extends": ["beta"], "srt": ["base"], "bash": ["base"]},
                                       "alpha": {"extends": ["default"], "srt": [], "bash": []},
                                       "beta": {"extends": ["alpha"], "srt": [], "bash": []}}))
cfg_err("empty_selection", cfg(profiles={"default": {"srt": ["base"], "bash": []}}))
cfg_err("default_profile_empty", cfg(default_profile=""))
cfg_err("default_profile_undefined", cfg(default_profile="nope"))
add("cfg_unknown_cli_profile", ["generate", "-p", "ghost", "claude"])
cfg_err("claude_settings_named_settings_json", cfg(targets={**DEFAULT_TARGETS, "claude_settings": "~/.claude/settings.json"}),
        cmd=("generate", "-w", "claude"))

# ---------------------------------------------------------------------------
# JSONC errors (and the valid edge cases)
# ---------------------------------------------------------------------------


def jsonc(name, text, frag="srt/base.jsonc", cmd=("generate", "claude"), prefix="jsonc_"):
    add(prefix + name, list(cmd), files={TW + frag: text})


jsonc("trailing_comma", '{\n  "filesystem": {\n    "denyRead": ["~/.ssh",]\n  }\n}\n')
jsonc("duplicate_key", '{\n  "enabled": true,\n  "network": {},\n  "enabled": false\n}\n')
jsonc("nan", '{\n  "network": {\n    "httpProxyPort": NaN\n  }\n}\n')
jsonc("single_quotes", "{\n  'deny': ['rm']\n}\n", frag="bash/base.jsonc")
jsonc("non_object_root", '["rm", "sudo"]\n', frag="bash/base.jsonc")
jsonc("empty_file", "")
jsonc("unterminated_block_comment", '{\n  /* never closed\n  "deny": ["rm"]\n}\n', frag="bash/base.jsonc")
# An unquoted `*` inside a rule is refused since issue 41: the marker is quoted.
jsonc("comment_markers_in_strings_valid",
      '{\n  // real comment\n  "deny": ["echo // not a comment", "echo \'/* nor this */\'", "echo \\"quoted // x\\""], /* c */\n  "ask": ["curl http://x.example/a"]\n}\n',
      frag="bash/base.jsonc", cmd=("generate", "codex"))
jsonc("crlf_valid", '{\r\n  // windows line endings\r\n  "deny": ["rm"],\r\n  "ask": ["git push"]\r\n}\r\n',
      frag="bash/base.jsonc", cmd=("generate", "-w", "claude"))
# A fragment starting with a UTF-8 BOM: 3.3.3 refuses it, the port reads it
# (doc/compatibility.md; tests/byte_order_mark.rs holds it).

# ---------------------------------------------------------------------------
# validation errors
# ---------------------------------------------------------------------------

jsonc("filesystem_not_object", '{\n  "filesystem": ["~/.ssh"]\n}\n', prefix="validate_")
jsonc("denyread_not_list", '{\n  "filesystem": {\n    "denyRead": "~/.ssh"\n  }\n}\n', prefix="validate_")
jsonc("non_string_entry", '{\n  "network": {\n    "allowedDomains": ["github.com", 42]\n  }\n}\n', prefix="validate_")
jsonc("empty_pattern", '{\n  "filesystem": {\n    "denyWrite": ["**/.env", ""]\n  }\n}\n', prefix="validate_")
jsonc("bash_unknown_key", '{\n  "deny": ["rm"],\n  "block": ["sudo"]\n}\n', frag="bash/base.jsonc", prefix="validate_")
jsonc("enabled_not_bool", '{\n  "enabled": "yes"\n}\n', prefix="validate_")

# ---------------------------------------------------------------------------
# composition errors
# ---------------------------------------------------------------------------


def compose(name, frag_a, frag_b, kind="srt", cmd=("generate", "claude")):
    other = "bash" if kind == "srt" else "srt"
    conf = cfg(**{kind: {"base": f"{kind}/base.jsonc", "second": f"{kind}/second.jsonc"}},
               profiles={"default": {kind: ["base", "second"], other: ["base"]}})
    add("compose_" + name, list(cmd), files={TW + "config.toml": conf,
                                              TW + f"{kind}/base.jsonc": frag_a,
                                              TW + f"{kind}/second.jsonc": frag_b})


compose("unequal_scalars", '{"enabled": true}\n', '{"enabled": false}\n')
compose("bool_vs_int", '{"network": {"allowLocalBinding": true}}\n', '{"network": {"allowLocalBinding": 1}}\n')
compose("int_vs_float", '{"network": {"httpProxyPort": 8080}}\n', '{"network": {"httpProxyPort": 8080.0}}\n')
compose("list_vs_object", '{"ignoreViolations": {"*": ["/usr/bin"]}}\n', '{"ignoreViolations": ["/usr/bin"]}\n')
compose("equal_scalars_ok", '{"enabled": true, "network": {"httpProxyPort": 8080}}\n',
        '{"enabled": true, "network": {"httpProxyPort": 8080}}\n')
compose("allowed_vs_denied_domain", '{"network": {"allowedDomains": ["github.com", "pypi.org"]}}\n',
        '{"network": {"deniedDomains": ["pypi.org"]}}\n')
compose("allowwrite_vs_denywrite", '{"filesystem": {"allowWrite": ["~/dev", "/tmp"]}}\n',
        '{"filesystem": {"denyWrite": ["~/dev"]}}\n')
compose("bash_allow_vs_deny", '{"allow": ["git status", "rm"]}\n', '{"deny": ["rm"]}\n', kind="bash")
compose("bash_ask_vs_deny", '{"ask": ["git push"]}\n', '{"deny": ["git push"]}\n', kind="bash")
compose("bash_allow_vs_ask", '{"allow": ["pip install"]}\n', '{"ask": ["pip install"]}\n', kind="bash")
# Which clash is reported follows the fragments' order: a denial in the first fragment is
# named first, and a value listed on both sides wins over a scalar conflict.
compose("denied_before_allowed_and_conflict",
        '{"enabled": true, "network": {"allowedDomains": ["*.x.org"], "deniedDomains": ["sub.x.org"]}}\n',
        '{"enabled": false, "network": {"allowedDomains": ["sub.x.org", "*.x.org"]}}\n')
compose("bash_deny_in_first_fragment", '{"deny": ["rm"], "allow": ["ls"]}\n', '{"allow": ["ls"], "ask": ["rm"]}\n',
        kind="bash")
# The clashing value is quoted as Python's repr quotes it (the backslash doubled).
compose("bash_backslash_value_quoted", '{"ask": ["a\\\\ b"]}\n', '{"deny": ["a\\\\ b"]}\n', kind="bash")
# Every fragment is parsed before any is schema-checked.
compose("parse_error_before_schema_error", '{"network": 1}\n', '{"enabled": tru}\n')
add("compose_overlap_in_one_fragment", ["generate", "claude"], files={
    TW + "bash/base.jsonc": '{"allow": ["ls"], "deny": ["ls"]}\n'})
add("compose_conflict_via_profile_inheritance", ["generate", "-p", "child", "claude"], files={
    **work_home(),
    TW + "config.toml": cfg(srt={"base": "srt/base.jsonc", "off": "srt/off.jsonc"},
                            profiles={"default": {"srt": ["base"], "bash": ["base"]},
                                      "child": {"extends": ["default"], "srt": ["off"], "bash": []}}),
    TW + "srt/off.jsonc": '{\n  // turns the sandbox off\n  "enabled": false\n}\n'})

# ---------------------------------------------------------------------------
# Codex generation errors and edge cases
# ---------------------------------------------------------------------------

jsonc("enabled_false", srt_doc(enabled=False, deny_read=["~/.ssh"]), cmd=("generate", "codex"), prefix="codex_")
add("codex_enabled_false_claude_ok", ["generate", "claude"], files={TW + "srt/base.jsonc": srt_doc(enabled=False, deny_read=["~/.ssh"])})
jsonc("tilde_in_middle", srt_doc(deny_read=["/~/secret"]), cmd=("generate", "codex"), prefix="codex_")
jsonc("dotdot_allowwrite", srt_doc(allow_write=["../sibling"]), cmd=("generate", "codex"), prefix="codex_")
add("codex_unterminated_quote", ["generate", "codex"], files={TW + "bash/base.jsonc": bash_doc(deny=["rm", "echo \"unterminated"])})
# A rule cited in an error or warning is quoted as Python's repr quotes it (backslash doubled).
add("codex_unterminated_quote_backslash", ["generate", "codex"], files={TW + "bash/base.jsonc": bash_doc(deny=["rm", 'echo "x\\'])})
add("copilot_ask_backslash_warning", ["generate", "copilot"], files={TW + "config.toml": cfg(targets=COPILOT_TARGETS), TW + "bash/base.jsonc": bash_doc(ask=["a\\ b"])})
# Blanks around and between words are collapsed since issue 41
# (tests/spellings.rs holds it), so the rule is written as compiled.
add("codex_shell_words", ["generate", "codex"], files={TW + "bash/base.jsonc": bash_doc(
    deny=["a\\ b", "x'y' z", 'echo "a b"#c', "leading blanks", "echo $HOME", "git push --force-with-lease", "naïve cmd"])})
add("codex_deny_wins_over_root", ["generate", "codex"], files={TW + "srt/base.jsonc": srt_doc(
    deny_read=["~/dev", "/tmp/**"], deny_write=["~/build/**"], allow_write=["~/dev", "/tmp", "~/build", "~/ok"])})
add("codex_no_enabled_key", ["generate", "codex"], files={TW + "srt/base.jsonc": '{"filesystem": {"denyRead": ["~/.ssh"]}}\n'})

# Copilot: a rule with a single quote (the port quotes it safely; documented divergence)
add("copilot_single_quote_divergent", ["generate", "copilot"], files={TW + "config.toml": cfg(targets=COPILOT_TARGETS), TW + "bash/base.jsonc": bash_doc(deny=["rm", "echo it's"])},
    divergence=["# The reference wraps a quote-bearing rule in single quotes unchanged; the port escapes it.",
                "stdout-ignore-lines-containing shell(echo it"])

# ---------------------------------------------------------------------------
# issue 16: the 3.3.3 semantics, one small scenario per item
# ---------------------------------------------------------------------------

CLAUDE_ONLY = {"claude_settings": "~/.claude/settings.full.json"}
CLAUDE_CFG = cfg(targets=CLAUDE_ONLY)

# Claude path anchoring: absolute -> //, ~/ kept, relative, globs, trailing slash,
# relative non-glob = directory; an existing file, an existing dir and a missing path.
# denyRead (Read + Edit rules) and allowWrite (Edit allows); no existing denyWrite
# directory here (see claude_denywrite_existing_dir_divergent).
ANCHOR_FILES = {
    "abs-file.txt": "f\n", "absdir/x": "x\n", ".netrc": "m\n", "hdir/x": "x\n",
    "rel-file.txt": "f\n", "reldir/x": "x\n",
}
add("anchor_claude_denyread", ["generate", "claude"], files={
    TW + "config.toml": CLAUDE_CFG, **ANCHOR_FILES,
    TW + "srt/base.jsonc": srt_doc(deny_read=[
        "{HOME}/abs-file.txt", "{HOME}/absdir", "{HOME}/abs-missing", "{HOME}/absdir/",
        "~/.netrc", "~/hdir", "~/missing", "~/hdir/",
        "rel-file.txt", "reldir", "relmissing", "reldir/", "./dot-rel",
        "**/*.pem", "~/.config/*.key", "/opt/*/secret", "src/**"])})
add("anchor_claude_denywrite", ["generate", "claude"], files={
    TW + "config.toml": CLAUDE_CFG, **ANCHOR_FILES,
    TW + "srt/base.jsonc": srt_doc(deny_write=[
        "{HOME}/abs-file.txt", "{HOME}/abs-missing", "~/.netrc", "~/missing",
        "rel-file.txt", "relmissing", "relmissing/", "**/.env", "~/.config/*.key", "/opt/*/x"])})
add("anchor_claude_allowwrite", ["generate", "claude"], files={
    TW + "config.toml": CLAUDE_CFG, **ANCHOR_FILES,
    TW + "srt/base.jsonc": srt_doc(allow_write=[
        ".", "./build", "build/", "/tmp", "/tmp/**", "{HOME}/abs-file.txt", "{HOME}/absdir",
        "{HOME}/abs-missing", "~/dev", "~/hdir/", "~/.netrc", "rel-file.txt", "reldir",
        "relmissing", "src/**", "~/cache/*/x"])})
add("anchor_claude_allowwrite_yolo", ["generate", "--yolo", "claude"], files={
    TW + "config.toml": CLAUDE_CFG,
    TW + "srt/base.jsonc": srt_doc(allow_write=[".", "/tmp", "~/dev"], deny_read=["~/.ssh"])})

# The one scenario with an existing denyWrite directory: 3.3.3 writes Edit(dir) alone, the
# port adds Edit(dir/**) (a deliberate divergence, README.md); those lines are ignored.
add("claude_denywrite_existing_dir_divergent", ["generate", "claude"], files={
    TW + "config.toml": CLAUDE_CFG, "wdir/x": "x\n",
    TW + "srt/base.jsonc": srt_doc(deny_write=["~/wdir", "{HOME}/wdir"], deny_read=["~/.aws"])},
    divergence=["# 3.3.3 protects an existing denyWrite directory with Edit(dir) alone; the port adds Edit(dir/**).",
                "stdout-ignore-lines-containing wdir"])

# sandbox.filesystem lists are always empty, also over [sandbox_overrides.*.filesystem]
# (the port adds a Warning there; facts only check the reference's).
FS_OVERRIDES = """
[sandbox_overrides.full.filesystem]
allowWrite = ["/override-full"]
denyRead = ["~/.override-full"]

[sandbox_overrides.yolo.filesystem]
denyWrite = ["~/.override-yolo"]
allowWrite = ["/override-yolo"]
"""
add("claude_fs_lists_empty_override_full", ["generate", "claude"], files={
    TW + "config.toml": cfg(targets=CLAUDE_ONLY, overrides=FS_OVERRIDES)})
add("claude_fs_lists_empty_override_yolo", ["generate", "--yolo", "claude"], files={
    TW + "config.toml": cfg(targets=CLAUDE_ONLY, overrides=FS_OVERRIDES)})
add("w_claude_fs_lists_empty_existing", ["generate", "-w", "claude"], files={
    TW + "config.toml": CLAUDE_CFG, ".claude/settings.full.json": CLAUDE_EXISTING}, drop_foreign=True)

# The merge owns every Edit(...) allow: a foreign Edit allow goes, a foreign non-Edit stays.
FOREIGN_ALLOWS = """{
  "permissions": {
    "allow": ["Edit(~/x)", "Read", "Bash(npm test:*)", "Edit", "WebFetch(domain:old.example)"],
    "defaultMode": "acceptEdits"
  }
}
"""
add("w_claude_merge_owns_edit_allows", ["generate", "-w", "claude"], files={
    TW + "config.toml": CLAUDE_CFG, ".claude/settings.full.json": FOREIGN_ALLOWS})
add("diff_claude_foreign_edit_allow", ["diff", "claude"], files={TW + "config.toml": CLAUDE_CFG},
    prep=[["generate", "-w", "claude"]],
    edits={".claude/settings.full.json": lambda t: t.replace('"allow": [', '"allow": [\n      "Edit(~/x)",\n      "Bash(ls)",', 1)})
add("diff_claude_missing_edit_allow", ["diff", "claude"], files={TW + "config.toml": CLAUDE_CFG},
    prep=[["generate", "-w", "claude"]],
    edits={".claude/settings.full.json": lambda t: t.replace('      "Edit(/tmp)",\n', '', 1).replace('      "Edit(//tmp)",\n', '', 1)})

# denyRead implies denyWrite, in every agent
IMPLIED = srt_doc(deny_read=["~/.ssh", "~/.aws/credentials", "/etc/secret-x"], deny_write=["**/.env", "~/.ssh"],
                  allow_write=[".", "~/dev"], allowed=["github.com"])
add("implied_denywrite_w_all", ["generate", "-w"], files={
    TW + "config.toml": COP, TW + "srt/base.jsonc": IMPLIED, ".ssh/id": "k\n"})
add("implied_denywrite_codex", ["generate", "codex"], files={TW + "srt/base.jsonc": IMPLIED})
add("implied_denywrite_copilot", ["generate", "copilot"], files={TW + "config.toml": COP, TW + "srt/base.jsonc": IMPLIED})
add("implied_denywrite_clash", ["generate", "claude"], files={
    TW + "srt/base.jsonc": srt_doc(deny_read=["~/.ssh", "~/x"], allow_write=[".", "~/x"])})
add("implied_denywrite_clash_across_fragments", ["generate", "-p", "work", "codex"], files={
    **work_home(), TW + "srt/work.jsonc": '{"filesystem": {"allowWrite": ["~/.aws"]}}\n'})

# Policy files are write-denied: config.toml, the outputs, every registered fragment.
add("policy_files_plain_w", ["generate", "-w", "claude"], files={TW + "config.toml": CLAUDE_CFG})
add("policy_files_symlinked_config_dir", ["generate", "-w", "claude"], base=False, files={
    "dotfiles/twsrt/config.toml": CLAUDE_CFG,
    "dotfiles/twsrt/srt/base.jsonc": SRT_BASE, "dotfiles/twsrt/bash/base.jsonc": BASH_BASE},
    symlinks={".config/twsrt": "{HOME}/dotfiles/twsrt"})
add("policy_files_fragment_outside", ["generate", "codex"], files={
    TW + "config.toml": cfg(srt={"base": "srt/base.jsonc", "ext": "~/elsewhere/ext.jsonc",
                                 "unused": "{HOME}/abs/unused.jsonc"},
                            profiles={"default": {"srt": ["base", "ext"], "bash": ["base"]}}),
    "elsewhere/ext.jsonc": '{"network": {"allowedDomains": ["ext.example"]}}\n',
    "abs/unused.jsonc": '{}\n'})
# (no `..` in these paths: 3.3.3 keeps a `..` spelling, the port normalises it; see
# tests/divergent_inputs.rs)
add("policy_files_outputs_elsewhere", ["generate", "claude"], files={
    TW + "config.toml": cfg(srt_output="{HOME}/out/deep/srt.json", bash_output="rel-out/bash.json",
                            targets=CLAUDE_ONLY)})
add("policy_files_relative_c", ["-c", "alt/conf.toml", "generate", "-w", "claude"], base=False, files={
    "alt/conf.toml": cfg(srt={"base": "srt/base.jsonc"}, bash={"base": "bash/base.jsonc"}, targets=CLAUDE_ONLY,
                         srt_output="srt.json"),
    "alt/srt/base.jsonc": SRT_BASE, "alt/bash/base.jsonc": BASH_BASE})
add("policy_files_dot_relative_c", ["-c", "./alt/conf.toml", "generate", "-w", "copilot"], base=False, files={
    "alt/conf.toml": cfg(targets={"copilot_output": "flags.txt"}),
    "alt/srt/base.jsonc": SRT_BASE, "alt/bash/base.jsonc": BASH_BASE})

# Sorted lists: every list 3.3.3 sorts, and two it keeps in fragment order.
UNSORTED_SRT = """{
  "enabled": true,
  "filesystem": {
    "denyRead": ["~/.zsh_history", "~/.aws", "**/*.pem"],
    "denyWrite": ["~/.zshrc", "**/.env", "~/.bashrc"],
    "allowWrite": ["~/dev", "/tmp", "."],
    "allowRead": ["~/z-read", "~/a-read"]
  },
  "network": {
    "allowedDomains": ["pypi.org", "github.com", "*.github.com"],
    "deniedDomains": ["zz.example", "aa.example"],
    "allowUnixSockets": ["/z.sock", "/a.sock"],
    "allowMachLookup": ["com.z.service", "com.a.service"]
  },
  "ignoreViolations": { "z": ["/z", "/a"], "*": ["/usr/bin", "/bin"] }
}
"""
UNSORTED_BASH = bash_doc(allow=["ls", "gh pr view", "cat"], deny=["sudo", "rm", "dd"], ask=["pip install", "git push"])
add("sorted_lists_w_all", ["generate", "-w"], files={
    TW + "config.toml": COP, TW + "srt/base.jsonc": UNSORTED_SRT, TW + "bash/base.jsonc": UNSORTED_BASH},
    divergence=["# 3.3.3 gives srt's filesystem.allowRead to srt only; the port also writes it into Claude's sandbox.",
                'file-json-prepend .claude/settings.full.json /sandbox/filesystem allowRead ["~/z-read", "~/a-read"]'])
add("sorted_lists_across_fragments", ["generate", "-p", "work", "claude"], files=work_home())

# network.allowMachLookup passed through to Claude and diffed
MACH = srt_doc(allowed=["github.com"], extra_net='"allowMachLookup": ["com.apple.b", "com.apple.a"]')
add("claude_allow_mach_lookup", ["generate", "claude"], files={TW + "config.toml": CLAUDE_CFG, TW + "srt/base.jsonc": MACH})
add("diff_claude_drift_mach_lookup", ["diff", "claude"], files={TW + "config.toml": CLAUDE_CFG, TW + "srt/base.jsonc": MACH},
    prep=[["generate", "-w", "claude"]],
    edits={".claude/settings.full.json": lambda t: t.replace('"com.apple.b"', '"com.apple.c"')})
add("codex_allow_mach_lookup", ["generate", "codex"], files={TW + "srt/base.jsonc": MACH})

# Optional bash: no [sources.bash]
NOBASH = cfg(bash=False, targets={**DEFAULT_TARGETS, "copilot_output": "copilot-flags.txt"})
add("nobash_gen_all", ["generate"], files={TW + "config.toml": NOBASH, TW + "bash/base.jsonc": None})
add("nobash_gen_claude", ["generate", "claude"], files={TW + "config.toml": NOBASH, TW + "bash/base.jsonc": None})
add("nobash_gen_codex", ["generate", "codex"], files={TW + "config.toml": NOBASH, TW + "bash/base.jsonc": None})
add("nobash_gen_copilot", ["generate", "copilot"], files={TW + "config.toml": NOBASH, TW + "bash/base.jsonc": None})
add("nobash_w_all", ["generate", "-w"], files={TW + "config.toml": NOBASH, TW + "bash/base.jsonc": None})
add("nobash_diff_clean", ["diff"], files={TW + "config.toml": NOBASH, TW + "bash/base.jsonc": None},
    prep=[["generate", "-w"]])
add("nobash_diff_stale_bash_rules", ["diff", "codex"], files={TW + "config.toml": NOBASH, TW + "bash/base.jsonc": None,
                                                             TW + "bash-rules.json": '{"deny": ["rm"]}\n'},
    prep=[["generate", "-w"]])
add("nobash_profile_names_bash", ["generate", "claude"], files={
    TW + "config.toml": cfg(bash=False, profiles={"default": {"srt": ["base"], "bash": ["base"]}}),
    TW + "bash/base.jsonc": None})

# Default outputs: no `output` key -> srt-settings.json / bash-rules.json beside config.toml
add("default_outputs_w", ["generate", "-w", "claude"], files={
    TW + "config.toml": cfg(srt_output=None, bash_output=None, targets=CLAUDE_ONLY)})
add("default_outputs_custom_config_dir", ["-c", "{HOME}/pol/twsrt.toml", "generate", "-w", "codex"], base=False, files={
    "pol/twsrt.toml": cfg(srt_output=None, bash_output=None),
    "pol/srt/base.jsonc": SRT_BASE, "pol/bash/base.jsonc": BASH_BASE})
add("default_outputs_diff_missing", ["diff", "claude"], files={
    TW + "config.toml": cfg(srt_output=None, bash_output=None, targets=CLAUDE_ONLY)})

# Opt-in agents: an agent exists only when its target key is set
CODEX_ONLY = cfg(targets={"codex_config": "~/.codex/config.toml", "codex_rules": "~/.codex/rules/twsrt.rules"})
NO_TARGETS = cfg(targets={})
add("optin_claude_unset_named", ["generate", "claude"], files={TW + "config.toml": CODEX_ONLY})
add("optin_claude_unset_named_w", ["generate", "-w", "claude"], files={TW + "config.toml": CODEX_ONLY})
add("optin_claude_unset_diff", ["diff", "claude"], files={TW + "config.toml": CODEX_ONLY})
add("optin_codex_unset_named", ["generate", "codex"], files={TW + "config.toml": CLAUDE_CFG})
add("optin_codex_unset_diff", ["diff", "codex"], files={TW + "config.toml": CLAUDE_CFG}, prep=[["generate", "-w"]])
add("optin_copilot_unset_named_w", ["generate", "-w", "copilot"], files={TW + "config.toml": CLAUDE_CFG})
add("optin_copilot_unset_diff", ["diff", "copilot"], files={TW + "config.toml": CLAUDE_CFG}, prep=[["generate", "-w"]])
add("optin_all_only_codex", ["generate"], files={TW + "config.toml": CODEX_ONLY})
add("optin_all_only_codex_w", ["generate", "-w", "all"], files={TW + "config.toml": CODEX_ONLY})
add("optin_all_only_codex_diff", ["diff"], files={TW + "config.toml": CODEX_ONLY}, prep=[["generate", "-w"]])
add("optin_all_only_copilot", ["generate", "--yolo"], files={TW + "config.toml": cfg(targets={"copilot_output": "flags.txt"})})
add("optin_no_targets_gen", ["generate"], files={TW + "config.toml": NO_TARGETS})
add("optin_no_targets_w", ["generate", "-w"], files={TW + "config.toml": NO_TARGETS})
add("optin_no_targets_diff", ["diff"], files={TW + "config.toml": NO_TARGETS}, prep=[["generate", "-w"]])
add("optin_no_targets_diff_missing", ["diff"], files={TW + "config.toml": NO_TARGETS})
add("optin_no_targets_named_claude_w", ["generate", "-w", "claude"], files={TW + "config.toml": NO_TARGETS})
add("optin_no_targets_yolo_w", ["generate", "--yolo", "-w"], files={TW + "config.toml": NO_TARGETS})

# Dependent target keys without their primary key
cfg_err("yolo_settings_without_primary", cfg(targets={"claude_settings_yolo": "~/.claude/y.json", "codex_config": "~/.codex/config.toml"}),
        cmd=("generate", "codex"))
cfg_err("copilot_yolo_without_primary", cfg(targets={"copilot_output_yolo": "~/y-flags.txt"}), cmd=("generate", "copilot"))
cfg_err("codex_rules_without_config", cfg(targets={"codex_rules": "~/.codex/rules/twsrt.rules"}), cmd=("diff",))

# Preview and streams
add("streams_gen_two_agents", ["generate"], files={
    TW + "config.toml": cfg(targets={"claude_settings": "~/.claude/settings.full.json", "copilot_output": "flags.txt"})})
add("streams_gen_one_of_two", ["generate", "--yolo", "copilot"], files={
    TW + "config.toml": cfg(targets={"claude_settings": "~/.claude/settings.full.json", "copilot_output": "flags.txt"})})
add("streams_w_two_agents", ["generate", "-w"], files={
    TW + "config.toml": cfg(targets={"claude_settings": "~/.claude/settings.full.json", "copilot_output": "flags.txt"})})
add("streams_w_codex_restart_notice", ["generate", "-w", "codex"], files={
    TW + "config.toml": CODEX_ONLY, ".codex/config.toml": 'model = "o3"\n'})
add("streams_w_codex_unchanged_rerun", ["generate", "-w", "codex"], files={TW + "config.toml": CODEX_ONLY},
    prep=[["generate", "-w", "codex"]], facts_drop=RERUN_WROTE, facts_add=RERUN_UNCHANGED)
add("streams_w_migration_info", ["generate", "-w"], files={
    TW + "config.toml": CLAUDE_CFG, ".claude/settings.json": '{"model": "opus"}\n'})
add("streams_preview_migration", ["generate"], files={
    TW + "config.toml": CLAUDE_CFG, ".claude/settings.json": '{"model": "opus"}\n'})
add("streams_w_copilot_one_of_two", ["generate", "-w", "copilot"], files={
    TW + "config.toml": cfg(targets={"claude_settings": "~/.claude/settings.full.json", "copilot_output": "flags.txt"})})

# The diff format: drift in each agent at once, a missing target among present ones
add("diff_drift_every_agent", ["diff"], **after_write(edits={
    ".claude/settings.full.json": lambda t: t.replace('"WebFetch(domain:pypi.org)"', '"WebFetch(domain:old.example)"'),
    ".codex/config.toml": lambda t: t.replace('"pypi.org" = "allow"\n', ''),
    TW + "copilot-flags.txt": lambda t: t.replace("--deny-tool 'shell(sudo)' \\\n", ""),
    ".srt-settings.json": lambda t: t.replace('"pypi.org"', '"pypi.example"')}))
add("diff_one_target_missing_among_present", ["diff"], **after_write(edits={".codex/config.toml": None}))
add("diff_yolo_missing_yolo_targets", ["diff", "--yolo"], **after_write())

# ---------------------------------------------------------------------------
# scenarios of other commands, one file per topic
# ---------------------------------------------------------------------------
# tests/parity/scenarios_<topic>.py each define register(sc), which calls
# sc.add(...) (and the other helpers of this module: sc.cfg, sc.home, ...).
# Keeping them apart lets work on different commands proceed without
# touching the same file; the files load in name order.

def _load_topics():
    import importlib.util
    import pathlib
    import types
    # a snapshot of this module's names: add() appends to the shared list S
    sc = types.SimpleNamespace(**globals())
    for path in sorted(pathlib.Path(__file__).parent.glob("scenarios_*.py")):
        spec = importlib.util.spec_from_file_location(f"parity_{path.stem}", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        mod.register(sc)


_load_topics()

SCENARIOS = S
