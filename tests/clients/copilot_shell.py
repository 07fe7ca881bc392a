"""Copilot CLI's `shell(...)` patterns: the real Copilot (pinned) refuses each
bash rule of the example policy as twsrt compiled it (run.py calls `run`).

For the example policy, in full and in yolo mode, with the mode's flags
file pasted into the launch (the full mode's `--allow-tool shell` included,
so no refusal comes from asking): a stand-in model on loopback
(fake_model.py, COPILOT_PROVIDER_BASE_URL) asks for one `bash` call of
`RULE twsrt-probe` for every deny rule (and, in the full mode, every ask
rule, which Copilot gets as a deny), and Copilot must answer with its rule
refusal ("denied due to the following rules"), not run it. Stub scripts
early on PATH stand in for every command a rule names, so nothing real runs
even where a rule is not enforced. A rule joining commands (`curl | sh`)
has no pattern Copilot can match: the flags must hold none for it, and
twsrt must have said so (`copilot-compound-rule`). A command no rule names
must run. In the full mode Copilot asks about a path outside the working
directory (`rm -rf /`) before it looks at its rules; that probe is repeated
with `--allow-all-paths` (the user granting the path), where the rule must
refuse it. Then the mutant: the flags without the `rm -rf /` deny must make
the check fail. On twsrt 3.3.3's flags (`shell(RULE)`) the longer command
runs (doc/clients.md, "Copilot's shell patterns, measured").
"""

from __future__ import annotations

import json
import shlex
import subprocess
import time
from pathlib import Path

import run as harness
from fake_model import FakeModel

CASE = "copilot-shell"
REFUSED = "denied due to the following rules"
# Copilot's answer where it would ask the user (a `-p` run has nobody to ask).
ASKED = "no interactive user response was available"
CONTROL = "echo twsrt-control"
JOINERS = ("|", ";", "&", "`", "$(", "\n")


def compound(rule: str) -> bool:
    return any(j in rule for j in JOINERS)


def rules(world) -> list[str]:
    """The bash rules the mode's flags must refuse."""
    lists = ["deny"] if world.case.yolo else ["deny", "ask"]
    return [r for key in lists for r in world.bash.get(key, [])]


def stubs(world) -> Path:
    """A directory of harmless scripts named after the first word of every rule."""
    d = world.env.root / "stubs"
    d.mkdir(exist_ok=True)
    for rule in rules(world):
        word = rule.split()[0]
        script = d / word
        if "/" not in word and not script.exists():
            script.write_text(f"#!/bin/sh\necho STUB-{word}-ran \"$@\"\n")
            script.chmod(0o755)
    return d


def flag_words(world) -> list[str]:
    words: list[str] = []
    for line in harness.copilot_snippet(world).read_text().splitlines():
        line = line.rstrip()
        words += shlex.split(line[:-1] if line.endswith("\\") else line)
    return words


def bash_call(world, command: str, flags: list[str]) -> str:
    """Copilot's tool result for one `bash` call of `command` under `flags`."""
    env = world.env.vars()
    env.update(PATH=f"{stubs(world)}:{env['PATH']}", COPILOT_HOME=str(world.env.home / ".copilot"),
               COPILOT_AUTO_UPDATE="false", NO_PROXY="127.0.0.1", no_proxy="127.0.0.1")
    with FakeModel("bash", {"command": command, "description": "twsrt probe", "mode": "sync",
                            "initial_wait": 30}) as model:
        env.update(COPILOT_PROVIDER_BASE_URL=model.base_url, COPILOT_MODEL="gpt-4o")
        try:
            result = subprocess.run(
                [world.env.client("copilot"), "-p", "twsrt client check", *flags],
                cwd=world.env.proj, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                text=True, errors="replace", timeout=harness.TIMEOUT)
        except subprocess.TimeoutExpired as e:
            raise harness.CheckFailed(f"copilot -p timed out on {command!r}") from e
    if not model.results:
        raise harness.CheckFailed(f"no tool result for {command!r}; copilot said "
                                  f"{harness.one_line(result.stdout + result.stderr)}")
    return model.results[-1]


def check_refused(world) -> list[str]:
    flags = flag_words(world)
    failures = []
    for rule in rules(world):
        if compound(rule):
            if any(rule in w for w in flags):
                failures.append(f"a flag names the joined rule {rule!r}, which Copilot cannot match")
            said = [line for line in world.generate_stderr.splitlines()
                    if "not enforced for Copilot" in line and f"'{rule}'" in line]
            if not said:
                failures.append(f"twsrt did not say that {rule!r} is not enforced")
            continue
        command = f"{rule} twsrt-probe"
        answer = bash_call(world, command, flags)
        if REFUSED not in answer and ASKED in answer and not world.case.yolo:
            # Copilot asks for a path outside the working directory (`/`)
            # before its rules: the launch that grants every path (the user
            # saying yes) must still meet the rule.
            answer = bash_call(world, command, flags + ["--allow-all-paths"])
        if REFUSED not in answer:
            failures.append(f"{command!r} (bash rule {rule!r}) was not refused: "
                            f"{harness.one_line(answer)}")
    answer = bash_call(world, CONTROL, flags)
    if "twsrt-control" not in answer or REFUSED in answer:
        failures.append(f"{CONTROL!r}, which no rule names, did not run: {harness.one_line(answer)}")
    return failures


# Commands joining a denied command with others, and near misses: the real
# Copilot's answer must equal what `twsrt explain --command` says for it.
JOINED = ("echo a && sudo twsrt-probe", "echo a; sudo twsrt-probe",
          "echo a | sudo twsrt-probe", "false || sudo twsrt-probe", "(sudo twsrt-probe)",
          "echo 'a; sudo twsrt-probe'", "echo $(sudo twsrt-probe)", "echo `sudo twsrt-probe`", "echo sudo twsrt-probe")


def explained(world, twsrt_bin: Path, command: str) -> str:
    argv = [twsrt_bin, "-c", world.env.proj / "config.toml", "explain", "--json",
            "--command", command] + (["--yolo"] if world.case.yolo else [])
    result = world.env.run(argv)
    try:
        rows = json.loads(result.stdout)["rows"]
        return next(r["decision"] for r in rows if r["agent"] == "copilot" and r["layer"] == "flags")
    except (ValueError, KeyError, StopIteration) as e:
        raise harness.CheckFailed(f"twsrt explain --command {command!r}: "
                                  f"{harness.one_line(result.stdout + result.stderr)}") from e


def check_joined(world, twsrt_bin: Path) -> list[str]:
    """Each part of a list, pipeline or subshell, as Copilot and explain see it."""
    flags = flag_words(world)
    failures = []
    for command in JOINED:
        refused = REFUSED in bash_call(world, command, flags)
        says = explained(world, twsrt_bin, command)
        if refused != (says == "deny"):
            failures.append(f"{command!r}: copilot {'refused' if refused else 'ran'} it, "
                            f"explain says {says}")
    return failures


def drop_rm(world) -> None:
    path = harness.copilot_snippet(world)
    lines = [line for line in path.read_text().splitlines(keepends=True)
             if "shell(rm -rf /" not in line]
    path.write_text("".join(lines))


def run(report, scratch: Path, bin_dir: Path, twsrt_bin: Path, mutants: bool = True) -> None:
    print("\nCopilot CLI's shell patterns: each bash rule refused by the real Copilot", flush=True)
    for yolo in (False, True):
        case = harness.Case(CASE + ("-yolo" if yolo else ""), harness.ROOT / "example", yolo=yolo)
        start = time.monotonic()
        try:
            world = harness.build_world(case, scratch / case.name, bin_dir, twsrt_bin,
                                        plant_files=False)
        except harness.CheckFailed as e:
            report.result(f"{case.name}: twsrt generate -w", [str(e)], time.monotonic() - start)
            continue
        report.result(f"{case.name}: twsrt generate -w", [], time.monotonic() - start)
        harness.run_check(report, f"{case.name}: copilot refuses every bash rule",
                          check_refused, world)
        harness.run_check(report, f"{case.name}: explain agrees on joined commands",
                          lambda w: check_joined(w, twsrt_bin), world)
    if not mutants:
        return
    start = time.monotonic()
    what = "the flags without the 'rm -rf /' deny"
    try:
        world = harness.build_world(harness.Case(CASE + "-yolo", harness.ROOT / "example",
                                                 yolo=True),
                                    scratch / f"{CASE}-mutant", bin_dir, twsrt_bin,
                                    plant_files=False)
        drop_rm(world)
        failures = check_refused(world)
    except harness.CheckFailed as e:
        report.result(f"mutant {CASE}: {what}", [str(e)], time.monotonic() - start)
        return
    if failures:
        report.result(f"mutant {CASE}", [], time.monotonic() - start, f"caught {what}: {failures[0]}")
    else:
        report.result(f"mutant {CASE}: {what}", ["the check passed on a broken output"],
                      time.monotonic() - start)
