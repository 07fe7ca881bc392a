"""Codex starts whichever agents' directories are missing (run.py calls `run`).

Issue 40, Why 5: with another agent in [targets] whose directory does not
exist yet and only Codex written, Codex 0.171 refused every command
(`bwrap: Can't bind mount ... home/.claude`). The policy in
policies/codex-targets names every agent, each in its own directory under
HOME. Codex runs in HOME (its workspace, so writable), the way a user in `~`
starts it. For each HOME below, `twsrt generate -w codex` (or `generate -w`,
every agent) and then:
  1. `codex sandbox -- cat PROJECT/readme.txt` prints the file (Codex starts);
  2. inside the sandbox the guard files of the other agents cannot be
     created or changed, while a new file under HOME can.
HOMEs: none of the agents' directories; each agent's directory alone
missing (the others there); every agent written together. Then the
directories appear after the write: Codex still starts and the files stay
unwritable, `twsrt diff codex --fail-on widening` says no drift and names
the kept entry (`codex-lifted-dir-exists`).
The mutant writes the ~/.claude entries one by one, as 3.3.3 does, in the
HOME without ~/.claude: step 1 must fail.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import run as harness

CASE = "codex-targets"
# Each agent's directory under HOME and the guard file the policy names in it.
GUARDS = {
    "claude": (".claude", ".claude/settings.full.json"),
    "copilot": (".copilot", ".copilot/twsrt-flags.txt"),
    "gemini": (".gemini", ".gemini/policies/twsrt.toml"),
    "opencode": (".config/opencode", ".config/opencode/opencode.json"),
}
ONE_BY_ONE = ('"~/.claude/settings.full.json" = "read"\n'
              '"~/.claude/settings.yolo.json" = "read"')


def world_for(root: Path, bin_dir: Path, twsrt_bin: Path, present: list[str],
              agent: str = "codex"):
    """A HOME holding the directories of `present` only, written by
    `generate -w AGENT` (`all`: every agent)."""
    env = harness.Env(root, bin_dir)
    if root.exists():
        shutil.rmtree(root)
    for d in (env.home, env.tmp):
        d.mkdir(parents=True)
    shutil.copytree(harness.POLICIES / CASE, env.proj)
    (env.proj / "readme.txt").write_text("twsrt-readme\n")
    for name in present:
        (env.home / GUARDS[name][0]).mkdir(parents=True)
    argv = [twsrt_bin, "-c", env.proj / "config.toml", "generate", "-w"]
    result = env.run(argv + ([] if agent == "all" else [agent]))
    if result.returncode != 0:
        raise harness.CheckFailed(f"twsrt generate -w {agent} failed: "
                                  f"{harness.one_line(result.stderr)}")
    return env


def in_home(env, *argv: str):
    return env.run([env.client("codex"), "sandbox", "--", *argv], cwd=env.home)


def check_starts(env) -> list[str]:
    result = in_home(env, "cat", str(env.proj / "readme.txt"))
    if result.returncode != 0 or "twsrt-readme" not in result.stdout:
        return [f"codex sandbox -- cat readme.txt exited {result.returncode}: "
                f"{harness.one_line(result.stderr + result.stdout)}"]
    return []


def check_held(env) -> list[str]:
    """Each guard file stays uncreatable/unwritable; a new HOME file is written."""
    home = env.home
    lines = []
    for _, guard in GUARDS.values():
        path = home / guard
        lines.append(f"mkdir -p {path.parent} 2>/dev/null; echo x >> {path}; echo \"rc=$?\"")
    lines.append(f"echo x > {home}/made.txt; echo \"rc=$?\"")
    result = in_home(env, "sh", "-c", "; ".join(lines))
    codes = re.findall(r"rc=(\d+)", result.stdout)
    if len(codes) != len(GUARDS) + 1:
        return [f"unexpected output (exit {result.returncode}): "
                f"{harness.one_line(result.stderr + result.stdout)}"]
    failures = [f"~/{guard} was written inside the sandbox"
                for (_, guard), code in zip(GUARDS.values(), codes) if code == "0"]
    if codes[-1] != "0":
        failures.append(f"a new file under HOME could not be written: "
                        f"{harness.one_line(result.stderr)}")
    return failures


def check_appeared(env, twsrt_bin: Path) -> list[str]:
    """The directories appear after the write: Codex starts, the files hold,
    and diff keeps the entry written while they were missing."""
    for directory, _ in GUARDS.values():
        (env.home / directory).mkdir(parents=True, exist_ok=True)
    failures = check_starts(env) + check_held(env)
    diff = env.run([twsrt_bin, "-c", env.proj / "config.toml", "diff", "codex",
                    "--fail-on", "widening"])
    if diff.returncode != 0 or "codex: no drift" not in diff.stdout:
        failures.append(f"twsrt diff codex exited {diff.returncode}: {harness.one_line(diff.stdout)}")
    if "written while ~/.claude was missing" not in diff.stderr:
        failures.append(f"twsrt diff codex does not name the kept ~/.claude entry: "
                        f"{harness.one_line(diff.stderr)}")
    return failures


def homes() -> list[tuple[str, list[str], str]]:
    """(label, directories present, agent written) per HOME."""
    every = list(GUARDS)
    out = [("no agent's directory", [], "codex")]
    for missing in every:
        out.append((f"only ~/{GUARDS[missing][0]} missing",
                    [n for n in every if n != missing], "codex"))
    out.append(("every agent written", [], "all"))
    return out


def run(report, scratch: Path, bin_dir: Path, twsrt_bin: Path, mutants: bool = True) -> None:
    print("\nCodex starts whichever agents' directories are missing", flush=True)
    for i, (label, present, agent) in enumerate(homes()):
        start = time.monotonic()
        try:
            env = world_for(scratch / f"{CASE}-{i}", bin_dir, twsrt_bin, present, agent)
            failures = check_starts(env)
            failures += check_held(env) if not failures else []
        except harness.CheckFailed as e:
            failures = [str(e)]
        report.result(f"{CASE}: {label}: codex sandbox starts, the guards hold", failures,
                      time.monotonic() - start)
    start = time.monotonic()
    try:
        env = world_for(scratch / f"{CASE}-later", bin_dir, twsrt_bin, [])
        failures = check_appeared(env, twsrt_bin)
    except harness.CheckFailed as e:
        failures = [str(e)]
    report.result(f"{CASE}: the directories appear after the write", failures,
                  time.monotonic() - start)
    if not mutants:
        return
    start = time.monotonic()
    what = "the ~/.claude entries one by one, as 3.3.3 writes them"
    try:
        env = world_for(scratch / f"{CASE}-mutant", bin_dir, twsrt_bin, [])
        path = env.codex_home / "config.toml"
        text = path.read_text()
        if '"~/.claude" = "read"' not in text:
            raise harness.CheckFailed("the profile holds no ~/.claude entry")
        path.write_text(text.replace('"~/.claude" = "read"', ONE_BY_ONE))
        failures = check_starts(env)
    except harness.CheckFailed as e:
        report.result(f"mutant {CASE}: {what}", [str(e)], time.monotonic() - start)
        return
    if failures:
        report.result(f"mutant {CASE}", [], time.monotonic() - start, f"caught {what}: {failures[0]}")
    else:
        report.result(f"mutant {CASE}: {what}", ["the check passed on a broken output"],
                      time.monotonic() - start)
