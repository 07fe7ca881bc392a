"""`twsrt test --agent codex` against the real Codex (run.py calls `run`).

For the example policy after `twsrt generate -w`: `twsrt test --agent codex
--json`, with the pinned Codex on PATH, must give a PASS for every bash deny
rule of one command (Codex's `execpolicy check` answers `forbidden` for the
rule's words plus an argument), each naming its fragment:line, a FAIL for a
rule joining commands (`curl | sh`: Codex finds no rule for the `bash -lc`
command that runs it, measured with 0.171.0), so exit 1, and a SKIP saying
why for every ask rule. The mutant (the rules file without the `dd` rule)
must add a FAIL naming `dd`.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import run as harness

CASE = "agent-test"


def prove(world, twsrt_bin: Path):
    env = world.env.vars()
    env["PATH"] = f"{world.env.bin}:{env['PATH']}"
    argv = [str(twsrt_bin), "-c", str(world.env.proj / "config.toml"), "test", "--agent", "codex",
            "--json"]
    result = harness.subprocess.run(argv, cwd=world.env.proj, env=env, capture_output=True,
                                    text=True, timeout=harness.TIMEOUT)
    try:
        doc = json.loads(result.stdout)
    except ValueError as e:
        raise harness.CheckFailed(f"no JSON (exit {result.returncode}): "
                                  f"{harness.one_line(result.stdout + result.stderr)}") from e
    return result.returncode, doc


def check_proves(world, twsrt_bin: Path) -> list[str]:
    code, doc = prove(world, twsrt_bin)
    joined = [r for r in world.bash.get("deny", []) if any(j in r for j in "|;&")]
    want = 1 if joined else 0
    failures = [] if code == want else [f"exit {code}, want {want}"]
    rows = {(r["list"], r["rule"]): r for r in doc.get("results", [])}
    for rule in world.bash.get("deny", []):
        row = rows.get(("deny", rule))
        result = "FAIL" if rule in joined else "PASS"
        if row is None or row["result"] != result or ".jsonc:" not in row["source"]:
            failures.append(f"deny {rule!r}: want {result}, got {row}")
    for rule in world.bash.get("ask", []):
        row = rows.get(("ask", rule))
        if row is None or row["result"] != "SKIP" or not row["detail"]:
            failures.append(f"ask {rule!r}: {row}")
    return failures


def run(report, scratch: Path, bin_dir: Path, twsrt_bin: Path, mutants: bool = True) -> None:
    print("\ntwsrt test --agent codex: each rule put to the real Codex", flush=True)
    case = harness.Case(CASE, harness.ROOT / "example")
    start = time.monotonic()
    try:
        world = harness.build_world(case, scratch / CASE, bin_dir, twsrt_bin, plant_files=False)
    except harness.CheckFailed as e:
        report.result(f"{CASE}: twsrt generate -w", [str(e)], time.monotonic() - start)
        return
    harness.run_check(report, f"{CASE}: deny rules PASS (joined: FAIL), ask SKIP",
                      lambda w: check_proves(w, twsrt_bin), world)
    if not mutants:
        return
    start = time.monotonic()
    what = "the rules file without the dd rule"
    try:
        world = harness.build_world(case, scratch / f"{CASE}-mutant", bin_dir, twsrt_bin,
                                    plant_files=False)
        harness.drop_rule_block(world.env.codex_home / "rules/twsrt.rules", "dd")
        code, doc = prove(world, twsrt_bin)
        failed = [r for r in doc.get("results", []) if r["result"] == "FAIL"]
    except harness.CheckFailed as e:
        report.result(f"mutant {CASE}: {what}", [str(e)], time.monotonic() - start)
        return
    if code == 1 and "dd" in [r["rule"] for r in failed]:
        dd = next(r for r in failed if r["rule"] == "dd")
        report.result(f"mutant {CASE}", [], time.monotonic() - start,
                      f"caught {what}: FAIL dd ({dd['source']}): {dd['detail']}")
    else:
        report.result(f"mutant {CASE}: {what}", [f"exit {code}, FAILs {failed}"],
                      time.monotonic() - start)
