"""The launch guard against the real Gemini CLI, run by run.py with the other
launch-guard checks (`--only launch`), or on its own:

    python3 tests/clients/gemini_launch.py --twsrt PATH [--bin DIR]

- grammar gemini: `twsrt audit --dump-grammar gemini` against `gemini --help`
  (yargs' format: `[boolean]` is a flag, `[string]` a value or an optional
  value, `[array]` one value per occurrence), with a mutant table that
  lacks an option, which the comparison must catch; each hidden option is
  accepted by the real parser.
- spellings gemini: for each argv in SPELLINGS, twsrt's audit and the real
  yargs agree on whether the argv parses (a refused one stops gemini with
  exit 1 and its usage before anything else) and on whether it turns yolo
  on (gemini prints "YOLO mode is enabled"). With `-l` gemini lists its
  extensions or stops at the missing auth method: no session starts and
  nothing reaches the network. A mutant
  verdict (one argv's yolo answer flipped) must be caught.
- precedence gemini: Gemini's own policy engine (gemini_precedence.mjs
  imports it from the bundle) decides a twsrt-denied and a twsrt-asked
  shell command with the generated file in ~/.gemini/policies: deny and
  ask_user in the default, yolo and auto_edit modes and with
  `--allowed-tools run_shell_command`; not deny once `--policy` names another
  directory; allow once `--admin-policy` adds an allow rule. The mutant asks
  about a command twsrt does not deny, which must fail.
- twsrt run gemini: `twsrt run -- gemini --version` writes the policy file
  and starts the real client; `twsrt run -- gemini --sandbox --version` is
  refused before gemini starts.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

# A refused argv: yargs' failure prints the usage and gemini exits 1.
USAGE = "Usage: gemini [options]"
YOLO_ON = "YOLO mode is enabled"
TWSRT_YOLO = "runs every tool call no rule matches without asking"
TARGET = "~/.gemini/policies/twsrt.toml"

# Argv words put before `-l`, each spelled as a user might.
SPELLINGS = [
    ["--yolo"], ["-y"], ["-yd"], ["--YOLO-"], ["-y", "true"], ["-y", "fix"],
    ["--approval-mode", "yolo"], ["--approval-mode=yolo"], ["--approvalMode", "yolo"],
    ["--APPROVAL-MODE", "yolo"], ["-py"],
    ["--no-yolo"], ["-y", "false"], ["--yolo=false"], ["--no-YOLO-"],
    ["--approval-mode", "plan"], ["-m/x"], ["--is-command"], ["--skipTrust"],
    ["-p", "--yolo"], ["--Yolo"], ["--approval_mode", "yolo"], ["-pfoo"], ["--policy", "-"],
    ["--bogus"],
]

HELP_TYPE = re.compile(r"\[(boolean|string|array|number|count)\]")
TABLE_TYPE = {"flag": "boolean", "value": "string", "optional": "string", "many": "array"}


def help_grammar(text: str) -> tuple[set[tuple[str, str]], set[str]]:
    """(spellings, yargs type) of every option and every subcommand name of
    `gemini --help`."""
    options, commands, section = set(), set(), None
    for line in text.splitlines():
        if re.match(r"^\S.*:$", line):
            section = line[:-1]
            continue
        if section == "Commands":
            m = re.match(r"^  gemini (\S+)", line)
            if m and not m.group(1).startswith("["):
                commands.add(m.group(1))
                for found in re.findall(r"\[aliases: ([^\]]+)\]", line):
                    commands.update(a.strip() for a in found.split(","))
        elif section == "Options":
            m = re.match(r"^\s+((?:-[-A-Za-z0-9]+(?:, )?)+)\s", line)
            kind = HELP_TYPE.search(line)
            if m and kind:
                names = [n.strip() for n in m.group(1).split(",") if n.strip()]
                options.add((",".join(sorted(names)), kind.group(1)))
    return options, commands


def table_grammar(dump: str) -> tuple[set[tuple[str, str]], set[str], list[str]]:
    options, commands, hidden = set(), set(), []
    for line in dump.splitlines():
        parts = line.split("\t")
        if parts[0] != "gemini":
            continue
        if parts[1] == "command":
            commands.update(parts[2].split(","))
        elif len(parts) > 3 and parts[3] == "hidden":
            hidden.append(parts[1])
        else:
            options.add((",".join(sorted(parts[1].split(","))), TABLE_TYPE.get(parts[2], parts[2])))
    return options, commands, hidden


def compare(help_text: str, dump: str) -> list[str]:
    want_opts, want_cmds = help_grammar(help_text)
    have_opts, have_cmds, _ = table_grammar(dump)
    failures = []
    for what, want, have in (("option", want_opts, have_opts), ("subcommand", want_cmds, have_cmds)):
        failures += [f"gemini: --help has {what} {i} that the grammar table lacks"
                     for i in sorted(want - have)]
        failures += [f"gemini: the grammar table has {what} {i} that --help lacks"
                     for i in sorted(have - want)]
    return failures


def gemini_verdict(env, client: str, words: list[str]) -> tuple[bool, bool]:
    """(parses, yolo on) as the real gemini says."""
    result = env.run([client, *words, "-l"], cwd=env.root)
    text = result.stdout + result.stderr
    return not (result.returncode == 1 and USAGE in text), YOLO_ON in text


def twsrt_verdict(run, env, config: Path, words: list[str]) -> tuple[bool, bool]:
    result = env.run([run.TWSRT_BIN, "-c", config, "audit", "--", "gemini", *words, "-l"],
                     cwd=env.root)
    return result.returncode != 2, TWSRT_YOLO in result.stdout


def check_grammar(run, env, client: str) -> tuple[list[str], str]:
    dump = env.run([run.TWSRT_BIN, "audit", "--dump-grammar", "gemini"], cwd=env.root)
    page = env.run([client, "--help"], cwd=env.root)
    if dump.returncode != 0 or page.returncode != 0:
        return [f"--dump-grammar exited {dump.returncode}, gemini --help {page.returncode}"], ""
    failures = compare(page.stdout, dump.stdout)
    first = next(line for line in dump.stdout.splitlines() if line.startswith("gemini\t"))
    mutated = "\n".join(line for line in dump.stdout.splitlines() if line != first)
    if not failures and not compare(page.stdout, mutated):
        failures.append("gemini: the comparison missed a removed option")
    for spelling in table_grammar(dump.stdout)[2]:
        if not gemini_verdict(env, client, [spelling])[0]:
            failures.append(f"gemini: hidden {spelling} is refused now")
    return failures, f"{len(table_grammar(dump.stdout)[0])} options match --help"


def spelling_verdicts(run, env, client: str, config: Path):
    """(argv, gemini's verdict, twsrt's verdict) for each of SPELLINGS."""
    return [(words, gemini_verdict(env, client, words), twsrt_verdict(run, env, config, words))
            for words in SPELLINGS]


def spelling_failures(verdicts, mutant: bool = False) -> list[str]:
    failures = []
    for i, (words, real, mine) in enumerate(verdicts):
        if mutant and i == 0:
            mine = (mine[0], not mine[1])
        if real != mine:
            failures.append(f"gemini {' '.join(words)} -l: gemini (parses, yolo) = {real}, "
                            f"twsrt audit = {mine}")
    return failures


# What Gemini's engine must decide in each scenario of gemini_precedence.mjs.
PRECEDENCE = {
    "default: denied": "deny", "default: asked": "ask_user",
    "yolo: denied": "deny", "yolo: asked": "ask_user",
    "auto_edit: denied": "deny", "auto_edit: asked": "ask_user",
    "--policy elsewhere: denied": "ask_user",
    "--admin-policy allow: denied": "allow",
    "--allowed-tools shell: denied": "deny", "--allowed-tools shell: asked": "ask_user",
}


def check_precedence(run, world, mutant: bool = False) -> list[str]:
    deny = next(c for c in world.bash["deny"] if "|" not in c)
    ask = world.bash["ask"][0]
    denied = "true twsrt-probe" if mutant else f"{deny} twsrt-probe"
    script = Path(__file__).resolve().parent / "gemini_precedence.mjs"
    bundle = world.env.bin.parent / "@google/gemini-cli/bundle"
    result = world.env.run(["node", script, bundle, denied, f"{ask} twsrt-probe"])
    if result.returncode != 0:
        return [f"gemini_precedence.mjs exited {result.returncode}: {run.one_line(result.stderr)}"]
    got = json.loads(result.stdout)
    return [f"{label}: Gemini decides {got.get(label)}, expected {want}"
            for label, want in PRECEDENCE.items() if got.get(label) != want]


def check_run(run, world) -> list[str]:
    env, client = world.env, world.env.client("gemini")
    config = env.proj / "config.toml"
    result = env.run([run.TWSRT_BIN, "-c", config, "run", "--", client, "--version"])
    failures = []
    if result.returncode != 0 or "0." not in result.stdout:
        failures.append(f"twsrt run -- gemini --version exited {result.returncode}: "
                        f"{run.one_line(result.stdout + result.stderr)}")
    if re.search(r"^(Error|Warning): ", result.stderr, re.M):
        failures.append(f"twsrt run said more than it should: {run.one_line(result.stderr)}")
    if not (env.home / ".gemini/policies/twsrt.toml").is_file():
        failures.append("twsrt run did not write ~/.gemini/policies/twsrt.toml")
    refused = env.run([run.TWSRT_BIN, "-c", config, "run", "--", client, "--sandbox", "--version"])
    if refused.returncode != 1 or refused.stdout:
        failures.append(f"twsrt run -- gemini --sandbox was not refused (exit "
                        f"{refused.returncode}): {run.one_line(refused.stdout)}")
    return failures


def world_with_target(run, scratch: Path, bin_dir: Path):
    """The example policy with `gemini_policy` in [targets], generated."""
    source = scratch / "gemini-launch-src"
    run.shutil.copytree(run.ROOT / "example", source, ignore=run.shutil.ignore_patterns("out"))
    config = source / "config.toml"
    config.write_text(config.read_text().replace(
        "\n[targets]\n", f'\n[targets]\ngemini_policy = "{TARGET}"\n', 1))
    case = run.Case("gemini-launch", source)
    return run.build_world(case, scratch / "gemini-launch", bin_dir, run.TWSRT_BIN, plant_files=False)


def run_checks(run, report, scratch: Path, bin_dir: Path, mutants: bool) -> None:
    client = bin_dir / "gemini"
    if not client.exists():
        report.result("grammar gemini", [f"{client} not found: run scripts/install-clients.sh"], 0)
        return
    start = time.monotonic()
    try:
        world = world_with_target(run, scratch, bin_dir)
    except run.CheckFailed as e:
        report.result("gemini launch: twsrt generate -w", [str(e)], time.monotonic() - start)
        return
    env, config = world.env, world.env.proj / "config.toml"
    start = time.monotonic()
    try:
        failures, note = check_grammar(run, env, str(client))
    except run.CheckFailed as e:
        failures, note = [str(e)], ""
    report.result("grammar gemini", failures, time.monotonic() - start, note)
    start = time.monotonic()
    try:
        verdicts = spelling_verdicts(run, env, str(client), config)
        failures = spelling_failures(verdicts)
    except run.CheckFailed as e:
        verdicts, failures = [], [str(e)]
    report.result("spellings gemini", failures, time.monotonic() - start,
                  f"{len(verdicts)} command lines agree" if verdicts and not failures else "")
    if mutants and verdicts:
        caught = spelling_failures(verdicts, mutant=True)
        report.result("mutant spellings gemini", [] if caught else ["a flipped verdict passed"],
                      0.0, f"caught: {caught[0]}" if caught else "")
    run.run_check(report, "precedence gemini", lambda w: check_precedence(run, w), world)
    if mutants:
        start = time.monotonic()
        caught = check_precedence(run, world, mutant=True)
        report.result("mutant precedence gemini", [] if caught else ["a command twsrt does not "
                      "deny passed as denied"], time.monotonic() - start,
                      f"caught: {caught[0]}" if caught else "")
    run.run_check(report, "twsrt run gemini", lambda w: check_run(run, w), world)


def main() -> int:
    import argparse
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import run  # tests/clients/run.py

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--twsrt", required=True, type=Path)
    parser.add_argument("--bin", type=Path,
                        default=Path.home() / ".cache/twsrt-clients/node_modules/.bin")
    parser.add_argument("--no-mutants", action="store_true")
    args = parser.parse_args()
    run.TWSRT_BIN = args.twsrt.resolve()
    report = run.Report()
    with tempfile.TemporaryDirectory(prefix="twsrt-gemini-launch-") as scratch:
        run_checks(run, report, Path(scratch), args.bin.resolve(), not args.no_mutants)
    print(f"{report.passed} passed, {report.failed} failed")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
