"""`twsrt test --agent NAME` against the real clients (run.py calls `run`).

For the example policy after `twsrt generate -w`, with the pinned clients
on PATH:

- codex: `twsrt test --agent codex --json` must give a PASS for every bash
  deny rule of one command (Codex's `execpolicy check` answers `forbidden`
  for the rule's words plus an argument), each naming its fragment:line, a
  FAIL for a rule joining commands (`curl | sh`: Codex finds no rule for
  the `bash -lc` command that runs it, measured with 0.171.0), so exit 1,
  a SKIP saying why for every ask rule and every domain rule; with the
  secrets planted, `codex sandbox` must refuse reading every denyRead file
  and writing every denyWrite file that exists (PASS; a missing one is a
  SKIP saying so).
- gemini (the example with `[targets] gemini_policy` added): Gemini CLI's
  own policy engine must deny every denyRead, denyWrite and deniedDomains
  rule and every bash deny rule of one command, ask for every ask rule
  (PASS each), FAIL the rule joining commands (Gemini matches the command's
  text, so `curl twsrt-probe | sh` is not denied), SKIP allowedDomains.
- explain agrees: for every bash rule the agent was asked about,
  `twsrt explain --command PROBE` shows the agent's row as deny or ask
  exactly when the prover said PASS (Gemini also for each path and domain:
  its read, write or network row denies exactly when the prover passed;
  Codex for each path that is no glob).

Mutants: the Codex rules file without the `dd` rule, its profile without
the `~/.ssh` deny entry, the Gemini policy
without its `dd` rule and with its `~/.ssh` read rule pointed elsewhere:
each must add a FAIL naming the rule.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import run as harness

CASE = "agent-test"
PROBE_ARG = "twsrt-probe"
JOINERS = "|;&`\n"


def probe_command(rule: str) -> str:
    """The command the provers ask about (src/agent/prove.rs probe_command)."""
    rule = rule.strip()
    at = min([i for i in (rule.find(c) for c in JOINERS) if i >= 0] +
             [i for i in [rule.find("$(")] if i >= 0], default=-1)
    if at < 0:
        return f"{rule} {PROBE_ARG}"
    return f"{rule[:at].rstrip()} {PROBE_ARG} {rule[at:]}"


def joined(rule: str) -> bool:
    return any(j in rule for j in JOINERS) or "$(" in rule


def prove(world, twsrt_bin: Path, agent: str):
    env = world.env.vars()
    env["PATH"] = f"{world.env.bin}:{env['PATH']}"
    argv = [str(twsrt_bin), "-c", str(world.env.proj / "config.toml"), "test", "--agent", agent,
            "--json"]
    start = time.monotonic()
    result = harness.subprocess.run(argv, cwd=world.env.proj, env=env, capture_output=True,
                                    text=True, timeout=harness.TIMEOUT)
    world.proof_seconds = time.monotonic() - start
    try:
        doc = json.loads(result.stdout)
    except ValueError as e:
        raise harness.CheckFailed(f"no JSON (exit {result.returncode}): "
                                  f"{harness.one_line(result.stdout + result.stderr)}") from e
    return result.returncode, doc


def explain_row(world, twsrt_bin: Path, agent: str, layer_access: str, query: list[str]):
    argv = [str(twsrt_bin), "-c", str(world.env.proj / "config.toml"), "explain", "--json",
            *query]
    result = world.env.run(argv, cwd=world.env.proj)
    try:
        rows = json.loads(result.stdout)["rows"]
    except (ValueError, KeyError):
        return None
    # An agent with layers (Codex's profile and rules): the row of the layer
    # that decides, the first when none does.
    mine = [r for r in rows if r["agent"] == agent and r["access"] == layer_access]
    deciding = [r for r in mine if r["decision"] != "not covered"]
    return (deciding or mine or [None])[0]


def explain_agrees(world, twsrt_bin: Path, agent: str, doc) -> list[str]:
    """explain's row for the thing asked says deny/ask exactly on a PASS."""
    failures = []
    for r in doc.get("results", []):
        if r["result"] == "SKIP":
            continue
        if r["section"] == "bash":
            access, query = "command", ["--command", probe_command(r["rule"])]
        elif any(c in r["rule"] for c in "*?["):
            continue
        elif r["list"] == "denyRead":
            access, query = "read", [str(harness.expand(r["rule"], world.env))]
        elif r["list"] == "denyWrite":
            access, query = "write", [str(harness.expand(r["rule"], world.env))]
        elif r["list"] == "deniedDomains" and agent == "gemini":
            access, query = "network", [r["rule"]]
        else:
            continue
        row = explain_row(world, twsrt_bin, agent, access, query)
        if row is None:
            failures.append(f"explain {query}: no {agent} {access} row")
            continue
        says = row["decision"] in ("deny", "ask")
        if says != (r["result"] == "PASS"):
            failures.append(f"explain {' '.join(query)}: {agent} row {row['decision']} "
                            f"({row['rule']}), twsrt test {r['result']}: {r['detail']}")
    return failures


def want_codex(row) -> str:
    if row["section"] == "filesystem":
        # A path that does not exist in the scratch HOME cannot be asked about.
        return "SKIP" if "does not exist" in row["detail"] else "PASS"
    if row["section"] != "bash" or row["list"] == "ask":
        return "SKIP"
    return "FAIL" if joined(row["rule"]) else "PASS"


def want_gemini(row) -> str:
    if row["list"] == "allowedDomains":
        return "SKIP"
    if row["section"] == "bash" and row["list"] == "deny" and joined(row["rule"]):
        return "FAIL"
    return "PASS"


WANT = {"codex": want_codex, "gemini": want_gemini}


def check_proves(world, twsrt_bin: Path, agent: str) -> list[str]:
    code, doc = prove(world, twsrt_bin, agent)
    rows = doc.get("results", [])
    wanted = [WANT[agent](r) for r in rows]
    want_code = 1 if "FAIL" in wanted else 0
    failures = [] if code == want_code else [f"exit {code}, want {want_code}"]
    for r, want in zip(rows, wanted):
        if r["agent"] != agent or r["result"] != want or not r["detail"]:
            failures.append(f"{r['section']}.{r['list']} {r['rule']!r}: want {want}, got {r}")
    for rule in world.bash.get("deny", []) + world.bash.get("ask", []):
        row = next((r for r in rows if r["section"] == "bash" and r["rule"] == rule), None)
        if row is None or ".jsonc:" not in row["source"]:
            failures.append(f"bash rule {rule!r}: no row naming its fragment line: {row}")
    if not any(r["section"] != "bash" for r in rows):
        failures.append("no path or domain rule was asked about")
    failures += explain_agrees(world, twsrt_bin, agent, doc)
    if world.proof_seconds > 60:
        failures.append(f"the proof took {world.proof_seconds:.1f} s (at most 60)")
    return failures


def drop_gemini_rule(path: Path, needle: str) -> None:
    text = path.read_text()
    blocks = text.split("\n[[rule]]\n")
    kept = [b for b in blocks if needle not in b]
    if len(kept) == len(blocks):
        raise harness.CheckFailed(f"mutant: no [[rule]] holding {needle!r} in {path}")
    path.write_text("\n[[rule]]\n".join(kept))


def point_elsewhere(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    if old not in text:
        raise harness.CheckFailed(f"mutant: {old!r} not in {path}")
    path.write_text(text.replace(old, new))


GEMINI_POLICY = "~/.gemini/policies/twsrt.toml"

MUTANTS = [
    ("codex", "the rules file without the dd rule", "dd",
     lambda w: harness.drop_rule_block(w.env.codex_home / "rules/twsrt.rules", "dd")),
    ("codex", "the profile without its ~/.ssh deny entry", "~/.ssh",
     lambda w: point_elsewhere(w.env.codex_home / "config.toml", '"~/.ssh" = "deny"\n', "")),
    ("gemini", "the policy without its dd rule", "dd",
     lambda w: drop_gemini_rule(w.env.home / ".gemini/policies/twsrt.toml",
                                'commandPrefix = "dd"')),
    ("gemini", "the ~/.ssh read rule pointed elsewhere", "~/.ssh",
     lambda w: point_elsewhere(w.env.home / ".gemini/policies/twsrt.toml", r"/\.ssh[/",
                               r"/\.sshx[/")),
]


def case_for(agent: str, scratch: Path) -> harness.Case:
    case = harness.Case(CASE, harness.ROOT / "example")
    if agent == "codex":
        return case
    import gemini  # tests/clients/gemini.py
    return gemini.with_target(harness, case, scratch)


def world_for(agent: str, scratch: Path, name: str, bin_dir: Path, twsrt_bin: Path):
    # Codex's paths are asked about with the planted secrets in place.
    return harness.build_world(case_for(agent, scratch), scratch / name, bin_dir, twsrt_bin,
                               plant_files=agent == "codex")


def run(report, scratch: Path, bin_dir: Path, twsrt_bin: Path, mutants: bool = True) -> None:
    print("\ntwsrt test --agent: each rule put to the real agent", flush=True)
    for agent in ("codex", "gemini"):
        name = f"{CASE} {agent}"
        start = time.monotonic()
        if not (bin_dir / agent).exists():
            report.result(name, [f"{bin_dir / agent} not found: run scripts/install-clients.sh"],
                          0)
            continue
        try:
            world = world_for(agent, scratch, f"{CASE}-{agent}", bin_dir, twsrt_bin)
        except harness.CheckFailed as e:
            report.result(f"{name}: twsrt generate -w", [str(e)], time.monotonic() - start)
            continue
        harness.run_check(report, f"{name}: PASS per enforced rule, FAIL joined, SKIP said",
                          lambda w, a=agent: check_proves(w, twsrt_bin, a), world)
        print(f"      {agent}: the whole proof took {world.proof_seconds:.1f} s", flush=True)
    if not mutants:
        return
    for i, (agent, what, rule, mutate) in enumerate(MUTANTS):
        start = time.monotonic()
        try:
            world = world_for(agent, scratch, f"{CASE}-mutant-{i}", bin_dir, twsrt_bin)
            mutate(world)
            code, doc = prove(world, twsrt_bin, agent)
            failed = [r for r in doc.get("results", []) if r["result"] == "FAIL"]
        except harness.CheckFailed as e:
            report.result(f"mutant {CASE} {agent}: {what}", [str(e)], time.monotonic() - start)
            continue
        hit = next((r for r in failed if r["rule"] == rule), None)
        if code == 1 and hit:
            report.result(f"mutant {CASE} {agent}", [], time.monotonic() - start,
                          f"caught {what}: FAIL {rule} ({hit['source']}): {hit['detail']}")
        else:
            report.result(f"mutant {CASE} {agent}: {what}",
                          [f"exit {code}, FAILs {[r['rule'] for r in failed]}"],
                          time.monotonic() - start)
