"""Codex rules under a missing directory (run.py calls `run`).

Codex 0.171 starts no command when two or more `"read"`/`"deny"` entries of
its profile lie under one directory that does not exist inside a writable
place (doc/clients.md, "Codex: rules under a missing directory, measured").
The policy in policies/codex-missing write-denies two paths under `~/.x`,
which does not exist, and Codex runs in HOME (its workspace, so writable).
After `twsrt generate -w`:
  1. `codex sandbox -- cat PROJECT/readme.txt` prints the file (Codex starts);
  2. inside the sandbox, `~/.x/b.cfg` and `~/.x/a/key` cannot be created
     (the one entry twsrt writes for `~/.x` still holds both rules), while a
     new file under HOME can.
The mutant writes the two entries as 3.3.3 does (`"~/.x/a/key" = "read"`,
`"~/.x/b.cfg" = "read"`) and must make step 1 fail.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import run as harness

CASE = "codex-missing"


def in_home(world, *argv: str):
    """`codex sandbox -- ARGV` started in HOME, the way a user in ~ starts Codex."""
    return world.env.run([world.env.client("codex"), "sandbox", "--", *argv], cwd=world.env.home)


def check_starts(world) -> list[str]:
    result = in_home(world, "cat", str(world.env.proj / "readme.txt"))
    if result.returncode != 0 or "twsrt-readme" not in result.stdout:
        return [f"codex sandbox -- cat readme.txt exited {result.returncode}: "
                f"{harness.one_line(result.stderr + result.stdout)}"]
    return []


def check_held(world) -> list[str]:
    home = world.env.home
    script = (f"mkdir -p {home}/.x/a 2>/dev/null; echo x > {home}/.x/b.cfg; echo \"rc=$?\"; "
              f"echo x > {home}/.x/a/key; echo \"rc=$?\"; echo x > {home}/made.txt; echo \"rc=$?\"")
    result = in_home(world, "sh", "-c", script)
    codes = re.findall(r"rc=(\d+)", result.stdout)
    if len(codes) != 3:
        return [f"unexpected output (exit {result.returncode}): "
                f"{harness.one_line(result.stderr + result.stdout)}"]
    failures = []
    for what, code in zip(("~/.x/b.cfg", "~/.x/a/key"), codes):
        if code == "0":
            failures.append(f"{what} was created inside the sandbox")
    if codes[2] != "0":
        failures.append(f"a new file under HOME could not be written: {harness.one_line(result.stderr)}")
    return failures


def world_for(root: Path, bin_dir: Path, twsrt_bin: Path):
    world = harness.build_world(harness.Case(CASE, harness.POLICIES / CASE), root, bin_dir,
                                twsrt_bin, plant_files=False)
    (world.env.proj / "readme.txt").write_text("twsrt-readme\n")
    if (world.env.home / ".x").exists():
        raise harness.CheckFailed("~/.x exists: the case needs it missing")
    return world


def as_333(world) -> None:
    """The two entries one by one, where twsrt writes one for ~/.x."""
    path = world.env.codex_home / "config.toml"
    text = path.read_text()
    if '"~/.x" = "read"' not in text:
        raise harness.CheckFailed("the profile holds no ~/.x entry")
    path.write_text(text.replace('"~/.x" = "read"',
                                 '"~/.x/a/key" = "read"\n"~/.x/b.cfg" = "read"'))


def run(report, scratch: Path, bin_dir: Path, twsrt_bin: Path, mutants: bool = True) -> None:
    print("\nCodex rules under a missing directory", flush=True)
    start = time.monotonic()
    try:
        world = world_for(scratch / CASE, bin_dir, twsrt_bin)
    except harness.CheckFailed as e:
        report.result(f"{CASE}: twsrt generate -w", [str(e)], time.monotonic() - start)
        return
    report.result(f"{CASE}: twsrt generate -w", [], time.monotonic() - start)
    harness.run_check(report, f"{CASE}: codex sandbox starts", check_starts, world)
    harness.run_check(report, f"{CASE}: the rules still hold", check_held, world)
    if not mutants:
        return
    start = time.monotonic()
    what = "the two entries as 3.3.3 writes them"
    try:
        world = world_for(scratch / f"{CASE}-mutant", bin_dir, twsrt_bin)
        as_333(world)
        failures = check_starts(world)
    except harness.CheckFailed as e:
        report.result(f"mutant {CASE}: {what}", [str(e)], time.monotonic() - start)
        return
    if failures:
        report.result(f"mutant {CASE}", [], time.monotonic() - start, f"caught {what}: {failures[0]}")
    else:
        report.result(f"mutant {CASE}: {what}", ["the check passed on a broken output"],
                      time.monotonic() - start)
