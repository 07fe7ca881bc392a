"""The managed (system-wide) files of `twsrt generate --scope managed`
against the real clients (`--only managed`).

The files are built with `--root` into the scratch tree, then shown to each
client at its real path under /etc through an overlay mount over /etc in a
mount namespace of the client's own (`unshare --mount`, `--map-root-user`
when not root): the machine's /etc is never written. None of the three
clients lets the managed paths be moved: Claude Code 2.1.332's managed
folder is /etc/claude-code (CLAUDE_CODE_MANAGED_SETTINGS_PATH is read, but
its override hook returns nothing in this build), Codex 0.171.0 reads
/etc/codex/requirements.toml, and Gemini CLI 0.61.0's admin policy folder is
/etc/gemini-cli/policies (GEMINI_CLI_SYSTEM_SETTINGS_PATH moves only the
settings file). doc/clients.md ("managed policy files") says what each
check proves.

- claude-lock: a user settings.json allowing `Bash(touch *)` runs the call
  (the control), and with the drop-in's allowManagedPermissionRulesOnly the
  same call is refused: the user's allow rule is inert.
- codex-profile: the user's `default_permissions=":danger-full-access"` is
  refused: the secret under ~/.ssh stays unreadable (readable without the
  requirements: the control).
- codex-deny-read: with the profile's own deny for ~/.ssh removed from the
  requirements, `[permissions.filesystem] deny_read` alone keeps it
  unreadable.
- gemini-admin: Gemini's engine loads the admin policy (a `rm` call denied
  at the admin tier's priority), and skips it once the folder is
  group-writable.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

CONFIG = """schema_version = 1
default_profile = "default"

[sources.srt]
output = "out/srt.json"

[sources.srt.fragments.base]
path = "srt.jsonc"

[sources.bash]
output = "out/bash.json"

[sources.bash.fragments.base]
path = "bash.jsonc"

[profiles.default]
srt = ["base"]
bash = ["base"]

[targets]
claude_settings = "~/.claude/settings.full.json"
codex_config = "~/.codex/config.toml"
gemini_policy = "~/.gemini/policies/twsrt.toml"
"""

SRT = '{"filesystem": {"denyRead": ["~/.ssh"], "allowWrite": ["."]}, ' \
      '"network": {"allowedDomains": ["github.com"]}}'
BASH = '{"deny": ["rm"], "ask": ["git push"]}'

SECRET = "twsrt-managed-secret"


def unshare_prefix() -> list[str]:
    flags = ["--mount", "--propagation", "private"]
    if os.geteuid() != 0:
        flags.insert(0, "--map-root-user")
    return ["unshare", *flags]


def in_etc(env, tree: Path, argv: list, extra_env: dict | None = None, timeout: int = 90):
    """Run argv with `tree` laid over /etc (an overlay in a private mount
    namespace): the managed files appear at their real paths."""
    upper, work = tree.parent / f"{tree.name}.upper", tree.parent / f"{tree.name}.work"
    for d in (upper, work):
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
    script = (f"mount -t overlay overlay -o lowerdir={shlex.quote(str(tree))}:/etc,"
              f"upperdir={shlex.quote(str(upper))},workdir={shlex.quote(str(work))} /etc "
              f"|| exit 97\nexec \"$@\"\n")
    variables = dict(env.vars(), **(extra_env or {}))
    result = subprocess.run([*unshare_prefix(), "sh", "-c", script, "sh", *map(str, argv)],
                            cwd=env.proj, env=variables, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, errors="replace", timeout=timeout)
    if result.returncode == 97 or (result.returncode != 0 and "unshare:" in result.stderr):
        raise OverlayRefused(f"cannot lay the managed tree over /etc here (a mount namespace "
                             f"with an overlay is needed): {result.stderr.strip()[:300]}")
    return result


class OverlayRefused(Exception):
    pass


def build(run, scratch: Path, bin_dir: Path, extra_config: str = "", name: str = "managed"):
    """A scratch world: the policy, the user-level files, and the managed
    tree built with --root (returned as env, etc tree)."""
    env = run.Env(scratch / name, bin_dir)
    shutil.rmtree(env.root, ignore_errors=True)
    for d in (env.home, env.tmp, env.proj):
        d.mkdir(parents=True)
    (env.proj / "config.toml").write_text(CONFIG + extra_config)
    (env.proj / "srt.jsonc").write_text(SRT)
    (env.proj / "bash.jsonc").write_text(BASH)
    (env.home / ".ssh").mkdir()
    (env.home / ".ssh" / "id").write_text(SECRET + "\n")
    for d in (".claude", ".gemini/policies"):
        (env.home / d).mkdir(parents=True, exist_ok=True)
    config = env.proj / "config.toml"
    user = env.run([run.TWSRT_BIN, "-c", config, "generate", "codex", "-w"])
    if user.returncode != 0:
        raise run.CheckFailed(f"twsrt generate codex -w: {run.one_line(user.stderr)}")
    root = env.root / "root"
    managed = env.run([run.TWSRT_BIN, "-c", config, "generate", "--scope", "managed",
                       "--root", root, "-w"])
    if managed.returncode != 0:
        raise run.CheckFailed(f"twsrt generate --scope managed -w: "
                              f"{run.one_line(managed.stderr)}")
    return env, root / "etc"


# --------------------------------------------------------------------------
# Claude Code


def claude_bash(run, env, tree: Path, command: str) -> str:
    """One `claude -p` turn whose model asks for Bash `command`, with the
    managed tree over /etc: what Claude Code sent back as the result."""
    from fake_model import FakeAnthropic  # tests/clients/fake_model.py
    with FakeAnthropic("Bash", {"command": command}) as model:
        extra = {"ANTHROPIC_API_KEY": "sk-ant-twsrt-offline", "NO_PROXY": "127.0.0.1",
                 "no_proxy": "127.0.0.1", "ANTHROPIC_BASE_URL": model.base_url}
        result = in_etc(env, tree, [env.client("claude"), "-p", "twsrt managed check",
                                    "--output-format", "json"], extra)
        if not model.results:
            raise run.CheckFailed(f"claude -p made no tool call (exit {result.returncode}): "
                                  f"{run.one_line(result.stdout + result.stderr)}")
        return "\n".join(model.results)


def check_claude_lock(run, scratch: Path, bin_dir: Path) -> list[str]:
    env, tree = build(run, scratch, bin_dir, "\n[managed.claude]\nlock_permission_rules = true\n",
                      "claude-lock")
    drop_in = tree / "claude-code/managed-settings.d/50-twsrt.json"
    if json.loads(drop_in.read_text()).get("allowManagedPermissionRulesOnly") is not True:
        return [f"{drop_in} lacks allowManagedPermissionRulesOnly"]
    (env.home / ".claude/settings.json").write_text(
        json.dumps({"permissions": {"allow": ["Bash(touch *)"]}}))
    # `touch` writes, so Claude Code never runs it unasked as a read-only
    # command: only an allow rule lets it run in `claude -p`.
    marker = env.proj / "managed-marker"
    failures = []
    locked = claude_bash(run, env, tree, f"touch {marker}")
    if marker.exists():
        failures.append(f"the user's allow rule ran the command despite the lock: {locked!r}")
    unlocked_tree = env.root / "unlocked"
    shutil.copytree(tree, unlocked_tree)
    unlocked = unlocked_tree / "claude-code/managed-settings.d/50-twsrt.json"
    doc = json.loads(unlocked.read_text())
    doc.pop("allowManagedPermissionRulesOnly")
    unlocked.write_text(json.dumps(doc, indent=2) + "\n")
    ran = claude_bash(run, env, unlocked_tree, f"touch {marker}")
    if not marker.exists():
        failures.append(f"without the lock the user's allow rule did not run the command "
                        f"(the check would prove nothing): {ran!r}")
    return failures


# --------------------------------------------------------------------------
# Codex


def codex_cat(env, tree: Path, *extra: str):
    return in_etc(env, tree, [env.client("codex"), "sandbox", *extra, "--", "sh", "-c",
                              "cat ~/.ssh/id; echo rc=$?"])


def check_codex_profile(run, scratch: Path, bin_dir: Path) -> list[str]:
    env, tree = build(run, scratch, bin_dir, name="codex-profile")
    wide = ("-c", 'default_permissions=":danger-full-access"')
    failures = []
    empty = env.root / "empty-etc"
    empty.mkdir()
    control = codex_cat(env, empty, *wide)
    if SECRET not in control.stdout:
        failures.append(f"without requirements danger-full-access did not read the secret (the "
                        f"check would prove nothing): {run.one_line(control.stdout + control.stderr)}")
    refused = codex_cat(env, tree, *wide)
    if SECRET in refused.stdout:
        failures.append("the requirements did not refuse the user's danger-full-access: "
                        "~/.ssh/id was read")
    if "rc=" not in refused.stdout:
        failures.append(f"codex sandbox did not run (exit {refused.returncode}): "
                        f"{run.one_line(refused.stderr)}")
    return failures


def check_codex_deny_read(run, scratch: Path, bin_dir: Path) -> list[str]:
    env, tree = build(run, scratch, bin_dir, name="codex-deny-read")
    requirements = tree / "codex/requirements.toml"
    text = requirements.read_text()
    if '"~/.ssh" = "deny"' not in text:
        return [f"{requirements} has no profile deny for ~/.ssh to take out"]
    requirements.write_text(text.replace('"~/.ssh" = "deny"\n', ""))
    result = codex_cat(env, tree)
    failures = []
    if SECRET in result.stdout:
        failures.append("deny_read alone did not keep ~/.ssh/id unreadable")
    if "rc=" not in result.stdout:
        failures.append(f"codex sandbox did not run (exit {result.returncode}): "
                        f"{run.one_line(result.stderr)}")
    requirements.write_text(text.replace('"~/.ssh" = "deny"\n', "").replace(
        'deny_read = [\n  "~/.ssh",\n]', "deny_read = []"))
    control = codex_cat(env, tree)
    if SECRET not in control.stdout:
        failures.append(f"without deny_read the secret stayed unreadable (the check would prove "
                        f"nothing): {run.one_line(control.stdout + control.stderr)}")
    return failures


# --------------------------------------------------------------------------
# Gemini CLI


def gemini_decide(run, env, tree: Path) -> dict:
    cases = env.root / "gemini-cases.json"
    cases.write_text(json.dumps([{"label": "rm", "mode": "default", "tool": "run_shell_command",
                                  "args": {"command": "rm -rf build"}, "expect": "any"}]))
    bundle = env.bin.parent / "@google/gemini-cli/bundle"
    result = in_etc(env, tree, ["node", HERE / "gemini_match.mjs", bundle, cases])
    try:
        return json.loads(result.stdout)
    except ValueError as e:
        raise run.CheckFailed(f"gemini_match.mjs failed (exit {result.returncode}): "
                              f"{run.one_line(result.stderr)}") from e


def check_gemini_admin(run, scratch: Path, bin_dir: Path) -> list[str]:
    env, tree = build(run, scratch, bin_dir, name="gemini-admin")
    failures = []
    loaded = gemini_decide(run, env, tree)
    decision = loaded["decisions"][0]
    # The admin tier is 5: its rules rank at 5 + priority/1000.
    if decision["decision"] != "deny" or not (decision["priority"] or 0) >= 5:
        failures.append(f"the admin policy did not deny rm at the admin tier: {decision}")
    os.chmod(tree / "gemini-cli/policies", 0o775)
    skipped = gemini_decide(run, env, tree)
    if skipped["decisions"][0]["decision"] == "deny":
        failures.append(f"a group-writable admin folder still denied rm: {skipped['decisions']}")
    if not any("Skipping system policies" in f for f in skipped["feedback"]):
        failures.append(f"no security warning for the group-writable folder: "
                        f"{skipped['feedback']}")
    return failures


CHECKS = {
    "claude-lock": check_claude_lock,
    "codex-profile": check_codex_profile,
    "codex-deny-read": check_codex_deny_read,
    "gemini-admin": check_gemini_admin,
}


def run_checks(run, report, scratch: Path, bin_dir: Path) -> None:
    for name, fn in CHECKS.items():
        start = time.monotonic()
        try:
            failures = fn(run, scratch / "managed", bin_dir)
        except (run.CheckFailed, OverlayRefused, subprocess.TimeoutExpired, OSError,
                KeyError) as e:
            failures = [str(e)]
        report.result(f"managed: {name}", failures, time.monotonic() - start)
