"""Copilot CLI's own command sandbox ([targets] copilot_sandbox): the real
Copilot (pinned) runs shell commands inside the sandbox twsrt wrote.

A stand-in model on loopback (fake_model.py, through
COPILOT_PROVIDER_BASE_URL) asks for one `bash` call, so Copilot runs a shell
command without a login or a real model, and the tool result is what the
command printed. With the generated settings file:
  1. Copilot says it ran the command as a "sandboxed shell";
  2. the read-denied project file, the read-denied directory under HOME and
     the denied credential file cannot be read; a file the policy does not
     deny can;
  3. the write-denied project file cannot be written; a new project file can.
A mutant (the generated settings without the project file's deniedPaths
entry) must make step 2 fail. Linux needs bwrap 0.5+, slirp4netns, iptables,
nsenter and /dev/net/tun (scripts/install-clients.sh installs them).
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path

import run as harness
from fake_model import FakeModel

CASE = "copilot-sandbox"

PROBE = ("cat secret.txt; echo \"rc=$?\"; cat ~/.ssh/id_twsrt; echo \"rc=$?\"; "
         "cat ~/.netrc; echo \"rc=$?\"; cat visible.txt; echo \"rc=$?\"; "
         "echo x >> locked.txt; echo \"rc=$?\"; echo x > made.txt; echo \"rc=$?\"")
# The exit codes PROBE prints, in order, when the sandbox holds the policy.
WANT = [("secret.txt read", False), ("~/.ssh read", False), ("~/.netrc read", False),
        ("visible.txt read", True), ("locked.txt write", False), ("made.txt write", True)]


def settings_file(world) -> Path:
    return world.config_path("copilot_settings").parent / "settings.json"


def plant(world) -> None:
    proj, home = world.env.proj, world.env.home
    (proj / "secret.txt").write_text("twsrt-secret\n")
    (proj / "visible.txt").write_text("twsrt-visible\n")
    (proj / "locked.txt").write_text("twsrt-locked\n")
    (home / ".ssh").mkdir(parents=True, exist_ok=True)
    (home / ".ssh/id_twsrt").write_text("twsrt-key\n")
    (home / ".netrc").write_text("machine x password twsrt-netrc\n")


def shell(world) -> tuple[str, str]:
    """Copilot's tool result for PROBE, and what it printed."""
    env = world.env.vars()
    env.update(COPILOT_HOME=str(settings_file(world).parent), COPILOT_AUTO_UPDATE="false",
               NO_PROXY="127.0.0.1", no_proxy="127.0.0.1")
    with FakeModel("bash", {"command": PROBE, "description": "twsrt probe", "mode": "sync",
                            "initial_wait": 60}) as model:
        env.update(COPILOT_PROVIDER_BASE_URL=model.base_url, COPILOT_MODEL="gpt-4o")
        try:
            result = subprocess.run(
                [world.env.client("copilot"), "-p", "twsrt client check", "--yolo"],
                cwd=world.env.proj, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                text=True, errors="replace", timeout=harness.TIMEOUT)
        except subprocess.TimeoutExpired as e:
            raise harness.CheckFailed("copilot -p timed out") from e
    said = result.stdout + result.stderr
    if not model.results:
        raise harness.CheckFailed(f"no tool result; copilot said {harness.one_line(said)}")
    return model.results[-1], said


def check_enforced(world) -> list[str]:
    result, said = shell(world)
    failures = []
    if "sandboxed shell" not in said:
        failures.append(f"Copilot did not run it sandboxed: {harness.one_line(said)}")
    codes = re.findall(r"rc=(\d+)", result)
    if len(codes) != len(WANT):
        return failures + [f"unexpected tool result: {harness.one_line(result)}"]
    for (what, allowed), code in zip(WANT, codes):
        if (code == "0") != allowed:
            failures.append(f"{what}: {'refused' if allowed else 'allowed'} (rc={code}): "
                            f"{harness.one_line(result)}")
    if "twsrt-secret" in result or "twsrt-key" in result or "twsrt-netrc" in result:
        failures.append(f"a denied file's content reached the tool result: {harness.one_line(result)}")
    if "twsrt-locked" != (world.env.proj / "locked.txt").read_text().strip():
        failures.append("locked.txt was changed on the host")
    return failures


def check_generated(world) -> list[str]:
    """The file holds the sandbox the policy compiles to."""
    text = settings_file(world).read_text()
    sandbox = json.loads(text).get("sandbox", {})
    fs = sandbox.get("userPolicy", {}).get("filesystem", {})
    failures = []
    if sandbox.get("enabled") is not True:
        failures.append(f"sandbox.enabled is {sandbox.get('enabled')!r}")
    for key, entry in (("deniedPaths", "secret.txt"), ("deniedPaths", "~/.ssh"),
                       ("deniedPaths", "~/.netrc"), ("readonlyPaths", "locked.txt")):
        if entry not in fs.get(key, []):
            failures.append(f"{entry} not in sandbox.userPolicy.filesystem.{key}")
    return failures


def drop_secret(world) -> None:
    path = settings_file(world)
    value = json.loads(path.read_text())
    value["sandbox"]["userPolicy"]["filesystem"]["deniedPaths"].remove("secret.txt")
    path.write_text(json.dumps(value, indent=2))


def world_for(root: Path, bin_dir: Path, twsrt_bin: Path):
    case = harness.Case(CASE, harness.POLICIES / CASE)
    world = harness.build_world(case, root, bin_dir, twsrt_bin, plant_files=False)
    plant(world)
    return world


def run(report, scratch: Path, bin_dir: Path, twsrt_bin: Path, mutants: bool = True) -> None:
    print("\nCopilot CLI's command sandbox ([targets] copilot_sandbox)", flush=True)
    start = time.monotonic()
    try:
        world = world_for(scratch / CASE, bin_dir, twsrt_bin)
    except harness.CheckFailed as e:
        report.result(f"{CASE}: twsrt generate -w", [str(e)], time.monotonic() - start)
        return
    report.result(f"{CASE}: twsrt generate -w", [], time.monotonic() - start)
    harness.run_check(report, f"{CASE}: the settings hold the sandbox", check_generated, world)
    harness.run_check(report, f"{CASE}: copilot's sandboxed shell holds the policy",
                      check_enforced, world)
    if not mutants:
        return
    start = time.monotonic()
    try:
        world = world_for(scratch / f"{CASE}-mutant", bin_dir, twsrt_bin)
        drop_secret(world)
        failures = check_enforced(world)
    except harness.CheckFailed as e:
        report.result(f"mutant {CASE}: deniedPaths without secret.txt", [str(e)],
                      time.monotonic() - start)
        return
    if failures:
        report.result(f"mutant {CASE}", [], time.monotonic() - start,
                      f"caught deniedPaths without secret.txt: {failures[0]}")
    else:
        report.result(f"mutant {CASE}: deniedPaths without secret.txt",
                      ["the check passed on a broken output"], time.monotonic() - start)
