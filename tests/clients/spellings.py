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

- spell-claude: the real Claude Code with a stand-in model on loopback
  (fake_model.py, as claude_schema.py drives it) makes one Bash call per
  command in `--permission-mode bypassPermissions` (only a deny rule stops
  it): each harmless meant command is refused, a command no rule names runs.
- spell-copilot: the real Copilot CLI with a stand-in model (copilot_shell.py's
  launch) refuses the quoted rule's own spelling.

The quoted rule (`echo 'twsrt  quoted'`): Codex compares words, so every
quoting of the same words is forbidden; Claude Code, Copilot CLI, Gemini CLI
and OpenCode compare text, so the rule's own quoting is refused and another
(`echo "twsrt  quoted"`, `echo twsrt\\ \\ quoted`) passes. That is the limit
twsrt warns about for each of them (`*-quoted-rule`); the checks hold it in
both directions, so a client that starts comparing words shows up here.

Then each mutant puts back one rule as an as-typed compile wrote it, and
its check must fail.
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
# The quoted rule in its own quoting, and the same words quoted otherwise.
QUOTED_SAME = ["echo 'twsrt  quoted'", "echo 'twsrt  quoted' more"]
QUOTED_OTHER = ['echo "twsrt  quoted"', "echo twsrt\\ \\ quoted"]
# What Claude Code's Bash tool may run for real: `rm -rf` alone (no operand)
# is the command an exact-only `Bash(rm  -rf)` misses.
CLAUDE_DENIED = ["rm -rf", *HARMLESS_DENIED, *QUOTED_SAME]
CLAUDE_REFUSED = "has been denied"
DOMAIN_SPELLINGS = ["bücher.example.com", "xn--bcher-kva.example.com", "BÜCHER.example.com"]


def check_codex(run, world) -> list[str]:
    rules = world.config_path("codex_rules")
    codex = world.env.client("codex")
    failures = []
    for command in DENIED + ASKED + NOT_DENIED + QUOTED_SAME + QUOTED_OTHER:
        result = world.env.run([codex, "execpolicy", "check", "--rules", rules,
                                *shlex.split(command)])
        if result.returncode != 0:
            return [f"codex execpolicy check refused {rules}: {run.one_line(result.stderr)}"]
        decision = json.loads(result.stdout).get("decision") or "no match"
        if command in DENIED + QUOTED_SAME + QUOTED_OTHER:
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
    for command in QUOTED_SAME:
        expect(f"deny {command}", "run_shell_command", {"command": command}, "deny")
    for command in QUOTED_OTHER:
        # The measured limit twsrt warns about (gemini-quoted-rule).
        expect(f"quoted otherwise {command}", "run_shell_command", {"command": command},
               "not-deny")
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
    for command in HARMLESS_DENIED + QUOTED_SAME:
        result = bash(command)
        if OPENCODE_REFUSED not in result.stdout + result.stderr:
            failures.append(f"bash {command!r} was not refused: {run.one_line(result.stdout)}")
    for command in QUOTED_OTHER:
        # The measured limit twsrt warns about (opencode-quoted-rule).
        result = bash(command)
        if OPENCODE_REFUSED in result.stdout + result.stderr:
            failures.append(f"bash {command!r} was refused: the quoted-rule warning is stale")
    result = bash("echo twsrt-ran")
    if OPENCODE_REFUSED in result.stdout + result.stderr or "twsrt-ran" not in result.stdout:
        failures.append(f"bash 'echo twsrt-ran' did not run: "
                        f"{run.one_line(result.stdout + result.stderr)}")
    return failures


def check_claude(run, world) -> list[str]:
    import claude_schema  # tests/clients/claude_schema.py: the stand-in model's turn

    def bash(command: str) -> str:
        return claude_schema.turn(run, world, "Bash",
                                  {"command": command, "description": "twsrt check"},
                                  "bypassPermissions")

    failures = []
    for command in CLAUDE_DENIED:
        out = bash(command)
        if CLAUDE_REFUSED not in out:
            failures.append(f"Bash {command!r} was not refused: {run.one_line(out)}")
    for command in QUOTED_OTHER + ["echo twsrt-ran"]:
        # A command no rule names runs; the quoted rule's other quoting
        # passes too (the measured limit, claude-quoted-rule).
        out = bash(command)
        if CLAUDE_REFUSED in out:
            failures.append(f"Bash {command!r} was refused: {run.one_line(out)}")
    return failures


def check_copilot(run, world) -> list[str]:
    import copilot_shell  # tests/clients/copilot_shell.py: the stand-in model's launch

    flags = copilot_shell.flag_words(world) + ["--allow-tool", "shell"]
    failures = []
    for command in QUOTED_SAME[:1] + QUOTED_OTHER[:1]:
        answer = copilot_shell.bash_call(world, command, flags)
        refused = copilot_shell.REFUSED in answer
        if refused != (command in QUOTED_SAME):
            failures.append(f"copilot {'refused' if refused else 'ran'} {command!r}: "
                            f"{run.one_line(answer)}")
    return failures


CHECKS = {"spell-codex": check_codex, "spell-gemini": check_gemini,
          "spell-opencode": check_opencode, "spell-claude": check_claude,
          "spell-copilot": check_copilot}


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
    ("spell-claude", "the bare Bash rule alone as typed (`Bash(rm  -rf)`, no ` *` twin: Claude "
     "compares it exactly, blanks included)",
     lambda w: [as_typed(w.env.home / ".claude/settings.full.json", a, b) for a, b in
                [('"Bash(rm -rf *)"', '"Bash(rm  -rf)"'),
                 ('"Bash(rm -rf)"', '"Bash(rm  -rf)"')]]),
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
        client = {"spell-opencode": "opencode", "spell-claude": "claude",
                  "spell-copilot": "copilot"}.get(name)
        if client and not (bin_dir / client).exists():
            report.result(f"{case.name}: {name}", [f"{bin_dir / client} not found"], 0)
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
