"""Spelling checks (issue 41), run by run.py (`--only spellings` runs just these).

The policy of tests/clients/policies/spellings writes its bash rules as a user
types them (`rm  -rf`, `curl *`, `npm publish:*`, a tab, `git  commit *`) and
denies an internationalized domain (`bücher.example.com`). `twsrt generate -w`
compiles it for every agent in a scratch HOME, and each agent's own matcher
is asked about the commands and hosts the user meant. The oracle is the
table below, written by hand, never twsrt's output:

- spell-codex: `codex execpolicy check` forbids each meant command and
  nothing else of the list (twsrt gives Codex no ask rule).
- spell-gemini: Gemini CLI's own engine (gemini_match.mjs) denies each meant
  command, asks for the ask rule, allows the others (never denies them), and
  denies web_fetch of the domain in its A-label and in its Unicode spelling.
- spell-opencode: the real OpenCode runs its bash tool without a model
  (`opencode debug agent build --tool bash`): each meant command is refused
  (each is harmless should a rule fail), and a command no rule names runs.

Then each mutant puts back one rule as an as-typed compile wrote it, and
its check must fail.

Claude Code is not measured here: it has no offline matcher (its rules are
checked by `claude doctor` in run.py's cases).
"""

from __future__ import annotations

import json
import shlex
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
OPENCODE_REFUSED = "prevents you from using this specific tool call"

# What the user meant: each command with the decision every agent must take.
DENIED = [
    "rm -rf twsrt-none",
    "rm -rf",
    "curl",
    "curl --version",
    "npm publish",
    "npm publish --dry-run twsrt-none",
    "git push --force twsrt-none",
]
ASKED = ["git commit -m twsrt", "git commit"]
NOT_DENIED = [
    "rm twsrt-none",
    "rm -r twsrt-none",
    "curly",
    "npm install",
    "npm publisher",
    "git push twsrt-none",
    "git status",
]
# What the bash tool may run for real: only the denied ones, which must not.
HARMLESS_DENIED = ["rm -rf twsrt-none", "curl --version", "npm publish --dry-run twsrt-none",
                   "git push --force twsrt-none"]
DOMAIN_SPELLINGS = ["bücher.example.com", "xn--bcher-kva.example.com", "BÜCHER.example.com"]


def check_codex(run, world) -> list[str]:
    rules = world.config_path("codex_rules")
    codex = world.env.client("codex")
    failures = []
    for command in DENIED + ASKED + NOT_DENIED:
        result = world.env.run([codex, "execpolicy", "check", "--rules", rules,
                                *shlex.split(command)])
        if result.returncode != 0:
            return [f"codex execpolicy check refused {rules}: {run.one_line(result.stderr)}"]
        decision = json.loads(result.stdout).get("decision") or "no match"
        if command in DENIED:
            want, good = "forbidden", decision == "forbidden"
        else:
            want, good = "no forbidden", decision != "forbidden"
        if not good:
            failures.append(f"{command}: codex says {decision}, the user meant {want}")
    return failures


def check_gemini(run, world) -> list[str]:
    calls = []

    def expect(label, tool, args, decision):
        calls.append({"label": label, "mode": "default", "tool": tool, "args": args,
                      "expect": decision})

    for command in DENIED:
        expect(f"deny {command}", "run_shell_command", {"command": command}, "deny")
    for command in ASKED:
        expect(f"ask {command}", "run_shell_command", {"command": command}, "ask_user")
    for command in NOT_DENIED:
        expect(f"no rule {command}", "run_shell_command", {"command": command}, "not-deny")
    for host in DOMAIN_SPELLINGS:
        expect(f"fetch {host}", "web_fetch", {"prompt": f"summarise https://{host}/x"}, "deny")
    expect("fetch a neighbour", "web_fetch", {"prompt": "summarise https://example.org/x"},
           "not-deny")
    cases_file = world.env.root / "spellings-gemini-calls.json"
    cases_file.write_text(json.dumps(calls))
    bundle = world.env.bin.parent / "@google/gemini-cli/bundle"
    result = world.env.run(["node", HERE / "gemini_match.mjs", bundle, cases_file],
                           cwd=world.env.proj)
    try:
        answer = json.loads(result.stdout)
    except ValueError:
        return [f"gemini_match.mjs failed (exit {result.returncode}): "
                f"{run.one_line(result.stderr)}"]
    failures = answer["failures"] + [f"loader: {run.one_line(f)}" for f in answer["feedback"]]
    if answer["checked"] != len(calls):
        failures.append(f"checked {answer['checked']} of {len(calls)} calls")
    return failures


def check_opencode(run, world) -> list[str]:
    opencode = world.env.client("opencode")

    def bash(command: str):
        params = json.dumps({"command": command, "description": "twsrt check"})
        return world.env.run([opencode, "debug", "agent", "build", "--tool", "bash",
                              "--params", params], timeout=120)

    failures = []
    for command in HARMLESS_DENIED:
        result = bash(command)
        if OPENCODE_REFUSED not in result.stdout + result.stderr:
            failures.append(f"bash {command!r} was not refused: {run.one_line(result.stdout)}")
    result = bash("echo twsrt-ran")
    if OPENCODE_REFUSED in result.stdout + result.stderr or "twsrt-ran" not in result.stdout:
        failures.append(f"bash 'echo twsrt-ran' did not run: "
                        f"{run.one_line(result.stdout + result.stderr)}")
    return failures


CHECKS = {"spell-codex": check_codex, "spell-gemini": check_gemini,
          "spell-opencode": check_opencode}


def as_typed(path: Path, canonical: str, typed: str) -> None:
    """Put back in a generated file a rule as typed, as twsrt once wrote it."""
    text = path.read_text()
    if canonical not in text:
        raise RuntimeError(f"{path} lacks {canonical!r}")
    path.write_text(text.replace(canonical, typed))


# Each check must fail on the file an as-typed compile wrote.
MUTANTS = [
    ("spell-codex", "a prefix_rule pattern of the words as typed (`curl *`)",
     lambda w: [as_typed(w.env.home / ".codex/rules/twsrt.rules", a, b) for a, b in
                [('pattern = ["curl"]', 'pattern = ["curl", "*"]'),
                 ('match = ["curl"]', 'match = ["curl *"]')]]),
    ("spell-gemini", "a commandPrefix as typed (`rm  -rf`)",
     lambda w: as_typed(w.env.home / ".gemini/policies/twsrt.toml",
                        'commandPrefix = "rm -rf"', 'commandPrefix = "rm  -rf"')),
    ("spell-gemini", "a web_fetch rule for the A-label only",
     lambda w: as_typed(w.env.home / ".gemini/policies/twsrt.toml",
                        "|[bB][üÜ][cC][hH][eE][rR]", "|[bB][üÜ][cC][hH][eE][rR]-never")),
    ("spell-opencode", "a bash pattern as typed (`npm publish:*`)",
     lambda w: as_typed(w.env.home / ".config/opencode/opencode.json",
                        '"npm publish *"', '"npm publish:* *"')),
]


def run_checks(run, report, scratch: Path, bin_dir: Path, mutants: bool) -> None:
    case = run.Case("spellings", run.POLICIES / "spellings")
    start = time.monotonic()
    try:
        world = run.build_world(case, scratch / case.name, bin_dir, run.TWSRT_BIN)
    except run.CheckFailed as e:
        report.result(f"{case.name}: twsrt generate -w", [str(e)], time.monotonic() - start)
        return
    report.result(f"{case.name}: twsrt generate -w", [], time.monotonic() - start)
    for name, fn in CHECKS.items():
        if name == "spell-opencode" and not (bin_dir / "opencode").exists():
            report.result(f"{case.name}: {name}", [f"{bin_dir / 'opencode'} not found"], 0)
            continue
        run.run_check(report, f"{case.name}: {name}", lambda w, fn=fn: fn(run, w), world)
    if not mutants:
        return
    for i, (check, what, mutate) in enumerate(MUTANTS):
        start = time.monotonic()
        try:
            world = run.build_world(case, scratch / f"spellings-mutant-{i}", bin_dir,
                                    run.TWSRT_BIN)
            mutate(world)
            failures = CHECKS[check](run, world)
        except (run.CheckFailed, RuntimeError) as e:
            report.result(f"mutant {check}: {what}", [str(e)], time.monotonic() - start)
            continue
        if failures:
            report.result(f"mutant {check}", [], time.monotonic() - start,
                          f"caught {what}: {failures[0]}")
        else:
            report.result(f"mutant {check}: {what}", ["the check passed on a broken output"],
                          time.monotonic() - start)
