"""OpenCode checks, run by run.py (`--only opencode` runs just these).

For the example policy, with `[targets] opencode_config` added, a
hand-written ~/.config/opencode/opencode.json (a comment, a foreign key, a
foreign `"git *": "allow"` after nothing and a top-level `"*": "allow"`) is
merged by `twsrt generate opencode -w` in a scratch HOME, and:

- opencode-load: the real `opencode debug config` (offline, no login) loads
  the file and reports the merged `permission` object: exactly the file's,
  key for key and in order, with the foreign key and entries kept.
- opencode-deny: the real client runs its own tools without a model
  (`opencode debug agent build --tool read|write|bash`), through its own
  permission evaluation: every planted denyRead file (from the project
  directory, i.e. outside it) is refused, a sibling file in the project is
  read; a write to a denyWrite file in the project is refused; `sudo` and
  `dd` (harmless with `--version` should a rule fail) are refused while a
  foreign `git *` allow came after nothing.
- opencode-warned: `generate -v` warned that OpenCode runs commands
  unconfined and named `twsrt run --srt -- opencode`.
- opencode-layers: a `tools` map added by hand (`read`, `external_directory`,
  `*` true) and then an agents/build.md with `permission: {"*": allow}`
  each let the real client read a denyRead file (twsrt's model of the
  evaluation order), and `diff opencode` reports the first (exit 1),
  `generate -w` refuses to merge into it, `audit -- opencode` names the
  second.
- opencode-grammar: `twsrt audit --dump-grammar opencode` against
  `opencode --help` and `opencode run --help` (yargs: `[boolean]` a flag,
  `[string]`/`[number]` a value, `[array]` one value per occurrence): the
  same option spellings and subcommands, and the table without one option
  must fail the comparison; each hidden spelling is accepted (`opencode run
  --yolo --help` exits 0).

Then each mutant breaks the generated file and its check must fail. What
cannot be run without a model: an ask (the debug tool runner approves every
ask), a session's "always" answer, webfetch.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

TARGET = "~/.config/opencode/opencode.json"
REFUSED = "prevents you from using this specific tool call"
FOREIGN = """{
  // the user's own settings
  "autoupdate": false,
  "permission": {"bash": {"git *": "allow"}, "*": "allow"},
}
"""


def with_target(run, case, scratch: Path):
    """A copy of the case's policy whose [targets] also sets opencode_config."""
    source = scratch / f"src-{case.name}"
    if source.exists():
        shutil.rmtree(source)
    shutil.copytree(case.source, source, ignore=shutil.ignore_patterns("out"))
    config = source / "config.toml"
    text = config.read_text()
    if "\n[targets]\n" not in text:
        raise run.CheckFailed(f"{config} has no [targets] table")
    config.write_text(text.replace("\n[targets]\n", f'\n[targets]\nopencode_config = "{TARGET}"\n', 1))
    return run.Case(case.name, source, case.yolo)


def config_file(world) -> Path:
    return world.env.home / ".config/opencode/opencode.json"


def merge_foreign(run, world) -> None:
    """Put the user's own file in place and let twsrt merge into it."""
    path = config_file(world)
    path.write_text(FOREIGN)
    result = world.env.run([run.TWSRT_BIN, "-c", world.env.proj / "config.toml", "generate",
                            "opencode", "-w"])
    if result.returncode != 0:
        raise run.CheckFailed(f"twsrt generate opencode -w failed: {run.one_line(result.stderr)}")


def opencode(world, *args: str):
    return world.env.run([world.env.client("opencode"), *args], timeout=120)


def tool(world, name: str, params: dict):
    return opencode(world, "debug", "agent", "build", "--tool", name, "--params",
                    json.dumps(params))


# --------------------------------------------------------------------------
# The checks


def check_load(run, world) -> list[str]:
    result = opencode(world, "debug", "config")
    if result.returncode != 0:
        return [f"opencode debug config failed (exit {result.returncode}): "
                f"{run.one_line(result.stdout + result.stderr)}"]
    try:
        loaded = json.loads(result.stdout)
    except ValueError:
        return [f"opencode debug config printed no JSON: {run.one_line(result.stdout)}"]
    written = json.loads(config_file(world).read_text())
    failures = []
    # debug config shows "***" for the value of a key that names a secret
    # (`secrets.jsonc`): such a value counts as the file's.
    for key, entries in loaded.get("permission", {}).items():
        if isinstance(entries, dict):
            for pattern, action in entries.items():
                if action == "***":
                    entries[pattern] = written.get("permission", {}).get(key, {}).get(pattern)
    if loaded.get("permission") != written.get("permission"):
        failures.append("the loaded permission differs from the file's")
    elif list(loaded["permission"]) != list(written["permission"]):
        failures.append(f"the loaded permission keys come in another order: {list(loaded['permission'])}")
    if loaded.get("autoupdate") is not False:
        failures.append("the foreign key autoupdate was not kept")
    if loaded.get("permission", {}).get("bash", {}).get("git *") != "allow":
        failures.append("the foreign bash entry was not kept")
    return failures


def check_deny(run, world) -> list[str]:
    failures = []
    # The denyRead files only: a denyWrite glob is a "secret" for Codex.
    deny_read = world.srt.get("filesystem", {}).get("denyRead", [])
    secrets = [p for p in world.probes
               if p.kind == "secret" and p.rule in deny_read and p.path.is_file()]
    if not secrets:
        return ["no denyRead file was planted"]
    for probe in secrets:
        result = tool(world, "read", {"filePath": str(probe.path)})
        if REFUSED not in result.stdout + result.stderr:
            failures.append(f"read of {probe.path} ({probe.rule}) was not refused: "
                            f"{run.one_line(result.stdout)}")
            if getattr(world, "first_failure_only", False):
                return failures
    sibling = world.env.proj / "twsrt-sibling.txt"
    sibling.write_text("readable\n")
    result = tool(world, "read", {"filePath": str(sibling)})
    if result.returncode != 0 or "readable" not in result.stdout:
        failures.append(f"read of a project file was refused: {run.one_line(result.stdout + result.stderr)}")
    env_file = world.env.proj / ".env"
    result = tool(world, "write", {"filePath": str(env_file), "content": "x"})
    if REFUSED not in result.stdout + result.stderr:
        failures.append(f"write of {env_file} (**/.env) was not refused")
    for command in ["sudo --version", "dd --version"]:
        result = tool(world, "bash", {"command": command, "description": "twsrt check"})
        if REFUSED not in result.stdout + result.stderr:
            failures.append(f"bash {command!r} was not refused: {run.one_line(result.stdout)}")
    return failures


def check_warned(run, world) -> list[str]:
    failures = []
    for text in ["twsrt run --srt -- opencode",
                 "OpenCode matches bash rules against each command's text"]:
        if text not in world.generate_stderr:
            failures.append(f"generate did not warn {text!r}: {run.one_line(world.generate_stderr)}")
    return failures


def secret_read(run, world) -> str | None:
    """The path of a planted denyRead file the real client reads, if any."""
    deny_read = world.srt.get("filesystem", {}).get("denyRead", [])
    for probe in world.probes:
        if probe.kind == "secret" and probe.rule in deny_read and probe.path.is_file():
            result = tool(world, "read", {"filePath": str(probe.path)})
            if REFUSED not in result.stdout + result.stderr:
                return str(probe.path)
    return None


def check_layers(run, world) -> list[str]:
    """What OpenCode evaluates besides the `permission` object, as twsrt
    models it: a `tools` map added by hand to the generated file lets the
    real client read a denyRead file, and twsrt's diff reports it (exit 1)
    while generate -w refuses to merge into it; an agent file with its own
    permission lets the client read it, and audit names the file."""
    failures = []
    path = config_file(world)
    original = path.read_text()
    config = world.env.proj / "config.toml"
    try:
        doc = json.loads(original)
        doc["tools"] = {"read": True, "external_directory": True, "*": True}
        path.write_text(json.dumps(doc, indent=2))
        if secret_read(run, world) is None:
            failures.append("the tools map did not undo the read denies: twsrt's model is wrong")
        diff = world.env.run([run.TWSRT_BIN, "-c", config, "diff", "opencode"])
        if diff.returncode != 1 or "undone by" not in diff.stdout:
            failures.append(f"diff opencode did not report the tools map (exit {diff.returncode}): "
                            f"{run.one_line(diff.stdout)}")
        gen = world.env.run([run.TWSRT_BIN, "-c", config, "generate", "opencode", "-w"])
        if gen.returncode == 0:
            failures.append("generate -w merged into a file whose tools map undoes its entries")
        path.write_text(original)
        agent = path.parent / "agents" / "build.md"
        agent.parent.mkdir(parents=True, exist_ok=True)
        agent.write_text('---\npermission:\n  "*": allow\n---\nbuild\n')
        try:
            if secret_read(run, world) is None:
                failures.append("the agent file did not undo the read denies: twsrt's model is wrong")
            audit = world.env.run([run.TWSRT_BIN, "-c", config, "audit", "--", "opencode"])
            if str(agent) not in audit.stdout + audit.stderr:
                failures.append(f"audit did not name {agent}: {run.one_line(audit.stderr)}")
        finally:
            agent.unlink()
    finally:
        path.write_text(original)
    return failures


HELP_TYPE = re.compile(r"\[(boolean|string|array|number)\]")
TABLE_TYPES = {"flag": {"boolean"}, "value": {"string", "number"},
               "optional": {"string", "number"}, "many": {"array"}}


def help_grammar(text: str, prefix: str) -> tuple[set[tuple[str, str]], set[str]]:
    """(spellings, yargs type) of each option and each subcommand of a --help page."""
    options, commands, section, pending = set(), set(), None, None
    for line in text.splitlines():
        if re.match(r"^\S.*:$", line):
            section = line[:-1]
            continue
        if section == "Commands":
            m = re.match(rf"^  {re.escape(prefix)} (\S+)", line)
            if m and not m.group(1).startswith("["):
                commands.add(m.group(1))
                for found in re.findall(r"\[aliases: ([^\]]+)\]", line):
                    commands.update(a.strip() for a in found.split(","))
        elif section == "Options":
            # A long description wraps: the type ends the option's last line.
            m = re.match(r"^\s+((?:-[-A-Za-z0-9]+(?:, )?)+)\s", line)
            if m:
                pending = ",".join(sorted(n.strip() for n in m.group(1).split(",") if n.strip()))
            kind = HELP_TYPE.search(line)
            if kind and pending:
                options.add((pending, kind.group(1)))
                pending = None
    return options, commands


def check_grammar(run, world) -> list[str]:
    dump = world.env.run([run.TWSRT_BIN, "audit", "--dump-grammar", "opencode"])
    if dump.returncode != 0:
        return [f"twsrt audit --dump-grammar opencode exited {dump.returncode}"]
    failures = []
    for table in ("opencode", "opencode run"):
        rows = [line.split("\t") for line in dump.stdout.splitlines()
                if line.split("\t")[0] == table]
        mine = {(",".join(sorted(r[1].split(","))), r[2]) for r in rows
                if r[1] != "command" and (len(r) < 4 or r[3] != "hidden")}
        hidden = [r[1].split(",")[0] for r in rows if len(r) > 3 and r[3] == "hidden"]
        subs = {n for r in rows if r[1] == "command" for n in r[2].split(",")}
        page = world.env.run([world.env.client("opencode"), *table.split()[1:], "--help"])
        theirs, commands = help_grammar(page.stdout + page.stderr, table)
        if not theirs:
            failures.append(f"{table} --help listed no option (exit {page.returncode})")
            continue
        found = compare_options(table, mine, theirs)
        # The comparison can fail: the table without one option must.
        if not found and not compare_options(table, set(sorted(mine)[1:]), theirs):
            found.append(f"{table}: the comparison missed a removed option")
        failures += found
        if subs != commands and table == "opencode":
            failures.append(f"subcommands differ: table {sorted(subs - commands)}, "
                            f"--help {sorted(commands - subs)}")
        for spelling in hidden:
            probe = world.env.run([world.env.client("opencode"), *table.split()[1:], spelling,
                                   "--help"])
            if probe.returncode != 0:
                failures.append(f"{table}: hidden {spelling} is refused: {run.one_line(probe.stderr)}")
    return failures


def compare_options(table, mine, theirs) -> list[str]:
    """Every option of the table in --help with a matching type, and every
    option of --help in the table."""
    failures = []
    names = {n for n, _ in theirs}
    for name, arity in sorted(mine):
        kinds = {k for n, k in theirs if n == name}
        if not kinds:
            failures.append(f"{table}: {name} is not in --help")
        elif not kinds & TABLE_TYPES.get(arity, set()):
            failures.append(f"{table}: {name} is {arity} here, {kinds} in --help")
    for name in sorted(names - {n for n, _ in mine}):
        failures.append(f"{table}: --help lists {name}, the table does not")
    return failures


# --------------------------------------------------------------------------
# Mutants and the driver


def edit_json(world, change) -> None:
    path = config_file(world)
    doc = json.loads(path.read_text())
    change(doc["permission"])
    path.write_text(json.dumps(doc, indent=2))


def drop_ssh(permission) -> None:
    for key in ("read", "external_directory"):
        for pattern in [p for p in permission.get(key, {}) if ".ssh" in p]:
            del permission[key][pattern]


MUTANTS = [
    ("opencode-load", "an action OpenCode does not know",
     lambda run, w: edit_json(w, lambda p: p["bash"].update({"sudo *": "block"}))),
    ("opencode-deny", "the ~/.ssh entries dropped",
     lambda run, w: edit_json(w, drop_ssh)),
    ("opencode-deny", "a broad bash allow moved after the denies",
     lambda run, w: edit_json(w, lambda p: p["bash"].update({"*": "allow"}))),
    ("opencode-deny", "the read map undone by a wildcard key after it",
     lambda run, w: edit_json(w, lambda p: p.update({"r*": "allow"}))),
]

CHECKS = {"opencode-load": check_load, "opencode-deny": check_deny,
          "opencode-warned": check_warned, "opencode-grammar": check_grammar,
          "opencode-layers": check_layers}


def run_checks(run, report, scratch: Path, bin_dir: Path, mutants: bool) -> None:
    if not (bin_dir / "opencode").exists():
        report.result("opencode", [f"{bin_dir / 'opencode'} not found: run "
                                   "scripts/install-clients.sh"], 0)
        return
    case = run.Case("opencode-example", run.ROOT / "example")

    def world_at(root: Path):
        world = run.build_world(with_target(run, case, scratch), root, bin_dir, run.TWSRT_BIN)
        merge_foreign(run, world)
        return world

    start = time.monotonic()
    try:
        world = world_at(scratch / case.name)
    except run.CheckFailed as e:
        report.result(f"{case.name}: twsrt generate -w", [str(e)], time.monotonic() - start)
        return
    report.result(f"{case.name}: twsrt generate -w (merged into a foreign file)", [],
                  time.monotonic() - start)
    for name, fn in CHECKS.items():
        run.run_check(report, f"{case.name}: {name}", lambda w, fn=fn: fn(run, w), world)
    if not mutants:
        return
    for i, (check, what, mutate) in enumerate(MUTANTS):
        start = time.monotonic()
        try:
            world = world_at(scratch / f"opencode-mutant-{i}")
            mutate(run, world)
            world.first_failure_only = True
            failures = CHECKS[check](run, world)
        except run.CheckFailed as e:
            report.result(f"mutant {check}: {what}", [str(e)], time.monotonic() - start)
            continue
        if failures:
            report.result(f"mutant {check}", [], time.monotonic() - start,
                          f"caught {what}: {failures[0]}")
        else:
            report.result(f"mutant {check}: {what}", ["the check passed on a broken output"],
                          time.monotonic() - start)
