"""Gemini CLI checks, run by run.py (`--only gemini` runs just these).

For each case (the example policy, its yolo mode, the globs and relative
edge policies), with `[targets] gemini_policy` added, `twsrt generate -w`
writes ~/.gemini/policies/twsrt.toml (twsrt.yolo.toml in yolo mode) into a
scratch HOME, and:

- gemini-load: the real `gemini -p` (no login) loads the file and reports no
  policy error or warning before it stops at the missing auth method. It
  prints every rule the loader rejects ("[USER] Policy file error in
  twsrt.toml"), so a rule Gemini would drop cannot pass.
- gemini-match: Gemini's own policy engine (tests/clients/gemini_match.mjs
  imports it from the installed bundle, with Gemini's built-in policies)
  decides tool calls built from the policy: every bash deny rule denies the
  command (also inside a compound command), an ask rule asks (and is gone
  in yolo mode), every denyRead path denies read_file, read_many_files,
  list_directory, glob and grep_search on the path and below it (and the
  implied denyWrite write_file and replace), denyWrite denies the writes but
  not a read, every denied domain denies web_fetch of a URL for it in any
  letter case, while a sibling path or host is not denied.
  A known gap is checked to still be there: `/usr/bin/CMD` escapes a CMD
  deny rule (twsrt warns about it).
- gemini-explain: `twsrt explain --json` decides its Gemini row the way the
  engine decides the same tool call (a read_file, write_file, web_fetch or
  run_shell_command built from the checks above): a deny or ask from a twsrt
  rule (the user tier, priority 4.x) is the row's deny or ask with that
  rule, and where no twsrt rule decides the row says so ("not covered", or
  "allow" in yolo mode).
- gemini-warned: `generate -v` warned that Gemini runs commands unconfined
  and named `twsrt run --srt -- gemini`, and that bash rules match the text
  (measured agent limits: shown with -v, listed by doctor).

Then each mutant breaks one generated file and its check must fail.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

TARGET = "~/.gemini/policies/twsrt.toml"
AUTH_STOP = "Please set an Auth method"
POLICY_COMPLAINT = "Policy file"
HERE = Path(__file__).resolve().parent


def cases(run):
    return [
        run.Case("gemini-example", run.ROOT / "example"),
        run.Case("gemini-yolo", run.ROOT / "example", yolo=True),
        run.Case("gemini-globs", run.POLICIES / "globs"),
        run.Case("gemini-relative", run.POLICIES / "relative"),
    ]


def with_target(run, case, scratch: Path):
    """A copy of the case's policy whose [targets] also sets gemini_policy."""
    source = scratch / f"src-{case.name}"
    if source.exists():
        shutil.rmtree(source)
    shutil.copytree(case.source, source, ignore=shutil.ignore_patterns("out"))
    config = source / "config.toml"
    text = config.read_text()
    if "\n[targets]\n" not in text:
        raise run.CheckFailed(f"{config} has no [targets] table")
    config.write_text(text.replace("\n[targets]\n", f'\n[targets]\ngemini_policy = "{TARGET}"\n', 1))
    return run.Case(case.name, source, case.yolo)


def policy_file(world) -> Path:
    name = "twsrt.yolo.toml" if world.case.yolo else "twsrt.toml"
    return world.env.home / ".gemini/policies" / name


def bundle(world) -> Path:
    return world.env.bin.parent / "@google/gemini-cli/bundle"


# --------------------------------------------------------------------------
# The checks


def check_load(run, world) -> list[str]:
    result = world.env.run([world.env.client("gemini"), "-p", "twsrt client check"])
    text = result.stdout + result.stderr
    failures = [f"gemini: {line.strip()}" for line in text.splitlines()
                if POLICY_COMPLAINT in line]
    if AUTH_STOP not in text:
        failures.append(f"gemini -p did not reach the auth check (exit {result.returncode}): "
                        f"{run.one_line(text)}")
    return failures


def check_warned(run, world) -> list[str]:
    failures = []
    for text in ["twsrt run --srt -- gemini", "Gemini CLI matches bash rules against the "
                 "command's text"]:
        if text not in world.generate_stderr:
            failures.append(f"generate did not warn {text!r}: "
                            f"{run.one_line(world.generate_stderr)}")
    return failures


def check_match(run, world) -> list[str]:
    calls = expectations(run, world)
    cases_file = world.env.root / "gemini-calls.json"
    cases_file.write_text(json.dumps(calls))
    result = world.env.run(["node", HERE / "gemini_match.mjs", bundle(world), cases_file],
                           cwd=world.env.proj)
    try:
        answer = json.loads(result.stdout)
    except ValueError:
        return [f"gemini_match.mjs failed (exit {result.returncode}): {run.one_line(result.stderr)}"]
    failures = answer["failures"] + [f"loader: {run.one_line(f)}" for f in answer["feedback"]]
    if answer["checked"] != len(calls) or not calls:
        failures.append(f"checked {answer['checked']} of {len(calls)} calls")
    return failures


def explain_queries(run, world) -> list[tuple[list[str], str, dict]]:
    """(explain arguments, the row's access, the tool call Gemini would
    make) for the paths, domains and commands the match check uses, in the
    one mode whose policy file the case wrote."""
    mode = "yolo" if world.case.yolo else "default"
    out = []
    for call in expectations(run, world):
        if call["mode"] != mode:
            continue
        tool, args = call["tool"], call["args"]
        if tool in ("read_file", "write_file") and args["file_path"].startswith("/"):
            path = args["file_path"]
            access = "read" if tool == "read_file" else "write"
            made = {"file_path": path} if access == "read" else {"content": "", "file_path": path}
            out.append(([path], access, {"tool": tool, "args": made}))
        elif tool == "run_shell_command":
            out.append((["--command", args["command"]], "command", {"tool": tool, "args": args}))
    for entry in world.srt.get("network", {}).get("deniedDomains", []):
        host = entry[2:] if entry.startswith("*.") else entry
        for query in {entry, host, f"twsrt{host}"}:
            if run.is_glob(query.removeprefix("*.")):
                continue
            named = f"twsrt-any.{query[2:]}" if query.startswith("*.") else query
            out.append(([query], "network",
                        {"tool": "web_fetch", "args": {"prompt": f"https://{named}/"}}))
    return out


def check_explain(run, world) -> list[str]:
    mode = "yolo" if world.case.yolo else "default"
    queries = explain_queries(run, world)
    calls = [dict(call, label=" ".join(q), mode=mode, expect="any") for q, _, call in queries]
    cases_file = world.env.root / "gemini-explain-calls.json"
    cases_file.write_text(json.dumps(calls))
    result = world.env.run(["node", HERE / "gemini_match.mjs", bundle(world), cases_file],
                           cwd=world.env.proj)
    try:
        decisions = json.loads(result.stdout)["decisions"]
    except (ValueError, KeyError):
        return [f"gemini_match.mjs failed (exit {result.returncode}): {run.one_line(result.stderr)}"]
    failures = []
    for (query, access, call), engine in zip(queries, decisions):
        argv = [run.TWSRT_BIN, "-c", world.env.proj / "config.toml", "explain", "--json"]
        if world.case.yolo:
            argv.append("--yolo")
        answer = world.env.run([*argv, *query], cwd=world.env.proj)
        try:
            rows = json.loads(answer.stdout)["rows"]
            row = next(r for r in rows if r["agent"] == "gemini" and r["access"] == access)
        except (ValueError, KeyError, StopIteration):
            failures.append(f"explain {query}: no gemini {access} row "
                            f"(exit {answer.returncode}): {run.one_line(answer.stderr)}")
            continue
        ours = engine["priority"] is not None and 4 <= engine["priority"] < 5
        if ours:
            wanted = {"deny": "deny", "ask_user": "ask", "allow": "allow"}[engine["decision"]]
            good = row["decision"] == wanted and row["rule"] is not None
        else:
            wanted = "allow" if world.case.yolo else "not covered"
            good = row["decision"] == wanted and row["rule"] is None
        if not good:
            failures.append(f"explain {' '.join(query)}: gemini {access} row says "
                            f"{row['decision']} ({row['rule']}), Gemini's engine "
                            f"{engine['decision']} at priority {engine['priority']} "
                            f"for {call['tool']} {json.dumps(call['args'])}")
    if not queries:
        failures.append("no explain query was built")
    return failures


# --------------------------------------------------------------------------
# The tool calls and what Gemini must decide


def expectations(run, world) -> list[dict]:
    modes = ["yolo"] if world.case.yolo else ["default", "yolo"]
    calls: list[dict] = []

    def expect(label, tool, args, decision, only=None):
        for mode in [only] if only else modes:
            calls.append({"label": label, "mode": mode, "tool": tool, "args": args,
                          "expect": decision})

    shell_expectations(world, expect)
    fs = world.srt.get("filesystem", {})
    for rule in fs.get("denyRead", []):
        for path in samples(run, world, rule):
            read_expectations(rule, path, expect)
            write_expectations(rule, path, expect)
    for rule in fs.get("denyWrite", []):
        if rule in fs.get("denyRead", []):
            continue
        for path in samples(run, world, rule):
            write_expectations(rule, path, expect)
            expect(f"denyWrite {rule}: still readable", "read_file", {"file_path": path},
                   "not-deny")
    for host in world.srt.get("network", {}).get("deniedDomains", []):
        fetch_expectations(host, expect)
    return calls


def shell_expectations(world, expect) -> None:
    for rule in world.bash.get("deny", []):
        expect(f"bash deny {rule}", "run_shell_command", {"command": f"{rule} twsrt"}, "deny")
        expect(f"bash deny {rule}: exact", "run_shell_command", {"command": rule}, "deny")
        if not any(op in rule for op in "|;&"):
            expect(f"bash deny {rule}: in a list", "run_shell_command",
                   {"command": f"echo ok && {rule} twsrt"}, "deny")
        expect(f"bash deny {rule}: a longer word", "run_shell_command",
               {"command": f"{rule}twsrt"}, "not-deny")
        # A known gap twsrt warns about: the rule matches the command's text,
        # so a path spelling of the command escapes it.
        if not any(op in rule for op in "|;&") and rule.split()[0] != "sudo":
            expect(f"bash deny {rule}: gap, /usr/bin spelling not denied", "run_shell_command",
                   {"command": f"/usr/bin/{rule} twsrt"}, "not-deny")
    denies = world.bash.get("deny", [])
    for rule in world.bash.get("ask", []):
        command = f"{rule} twsrt"
        if any(command.startswith(d + " ") for d in denies):
            continue
        if world.case.yolo:
            expect(f"bash ask {rule}: dropped in yolo", "run_shell_command",
                   {"command": command}, "allow", only="yolo")
        else:
            expect(f"bash ask {rule}", "run_shell_command", {"command": command}, "ask_user",
                   only="default")


def samples(run, world, rule: str) -> list[str]:
    """Absolute paths the rule covers (a glob's sample, at the top and below),
    plus the relative spelling of a relative rule."""
    patterns = [run.glob_sample(rule)] if run.is_glob(rule) else [rule]
    if "**/" in rule:
        patterns.append(run.glob_sample(rule.replace("**/", "", 1)))
    out = [str(run.expand(p, world.env)) for p in patterns]
    if not rule.startswith(("/", "~")) and not run.is_glob(rule):
        out.append(rule.removeprefix("./"))
    return out


def read_expectations(rule: str, path: str, expect) -> None:
    label = f"denyRead {rule}"
    expect(label, "read_file", {"file_path": path}, "deny")
    expect(f"{label}: below", "read_file", {"file_path": f"{path}/twsrt"}, "deny")
    expect(f"{label}: listed", "list_directory", {"dir_path": path}, "deny")
    expect(f"{label}: globbed", "glob", {"pattern": f"{path}/*"}, "deny")
    expect(f"{label}: glob root", "glob", {"pattern": "*", "dir_path": path}, "deny")
    expect(f"{label}: searched", "grep_search", {"pattern": "x", "dir_path": path}, "deny")
    expect(f"{label}: legacy search", "search_file_content", {"pattern": "x", "dir_path": path},
           "deny")
    expect(f"{label}: many", "read_many_files", {"include": ["README.md", path]}, "deny")
    if not any(c in rule for c in "*?["):
        # A glob's sample may lie inside what the glob covers, siblings too.
        expect(f"{label}: a sibling", "read_file", {"file_path": f"{path}-twsrt-sibling"},
               "not-deny")


def write_expectations(rule: str, path: str, expect) -> None:
    label = f"denyWrite {rule}"
    expect(label, "write_file", {"file_path": path, "content": "x"}, "deny")
    expect(f"{label}: edited", "replace",
           {"file_path": path, "instruction": "x", "old_string": "a", "new_string": "b"}, "deny")


def fetch_expectations(entry: str, expect) -> None:
    label = f"deniedDomains {entry}"
    host = entry[2:] if entry.startswith("*.") else entry
    named = f"twsrt.{host}" if entry.startswith("*.") else host
    fetch = lambda url: {"prompt": f"Summarize {url} please"}  # noqa: E731
    expect(label, "web_fetch", fetch(f"https://{named}/page"), "deny")
    expect(f"{label}: upper case", "web_fetch", fetch(f"HTTPS://{named.upper()}"), "deny")
    expect(f"{label}: userinfo", "web_fetch", fetch(f"https://me@{named}:8443/x"), "deny")
    expect(f"{label}: another host", "web_fetch",
           fetch(f"https://{named}.twsrt-canary.invalid/"), "not-deny")
    expect(f"{label}: a longer name", "web_fetch", fetch(f"https://twsrt{host}/"), "not-deny")


# --------------------------------------------------------------------------
# Mutants and the driver


def replace_once(run, path: Path, old: str, new: str) -> None:
    text = path.read_text()
    if old not in text:
        raise run.CheckFailed(f"mutant: {old!r} not in {path}")
    path.write_text(text.replace(old, new, 1))


MUTANTS = [
    ("gemini-load", "an argsPattern that does not compile",
     lambda run, w: replace_once(run, policy_file(w), "argsPattern = '", "argsPattern = '(")),
    ("gemini-load", "a decision Gemini does not know",
     lambda run, w: replace_once(run, policy_file(w), 'decision = "deny"', 'decision = "block"')),
    ("gemini-match", "the sudo deny rule cut to a longer word",
     lambda run, w: replace_once(run, policy_file(w), 'commandPrefix = "sudo"',
                                 'commandPrefix = "sudoo"')),
    ("gemini-explain", "the sudo deny rule cut, so explain and the file disagree",
     lambda run, w: replace_once(run, policy_file(w), 'commandPrefix = "sudo"',
                                 'commandPrefix = "sudoo"')),
    ("gemini-match", "the ~/.ssh read rule pointed elsewhere",
     lambda run, w: replace_once(run, policy_file(w), r"/\.ssh[/", r"/\.sshx[/")),
    ("gemini-match", "the pastebin.com fetch rule dropped its upper case",
     lambda run, w: replace_once(run, policy_file(w), "[pP][aA][sS][tT]", "past")),
]

CHECKS = {"gemini-load": check_load, "gemini-match": check_match,
          "gemini-explain": check_explain, "gemini-warned": check_warned}


def run_checks(run, report, scratch: Path, bin_dir: Path, mutants: bool) -> None:
    if not (bin_dir / "gemini").exists():
        report.result("gemini", [f"{bin_dir / 'gemini'} not found: run "
                                 "scripts/install-clients.sh"], 0)
        return
    for case in cases(run):
        start = time.monotonic()
        try:
            world = run.build_world(with_target(run, case, scratch), scratch / case.name,
                                    bin_dir, run.TWSRT_BIN)
        except run.CheckFailed as e:
            report.result(f"{case.name}: twsrt generate -w", [str(e)], time.monotonic() - start)
            continue
        report.result(f"{case.name}: twsrt generate{' --yolo' if case.yolo else ''} -w", [],
                      time.monotonic() - start)
        for name, fn in CHECKS.items():
            run.run_check(report, f"{case.name}: {name}", lambda w, fn=fn: fn(run, w), world)
    if not mutants:
        return
    example = cases(run)[0]
    for i, (check, what, mutate) in enumerate(MUTANTS):
        start = time.monotonic()
        try:
            world = run.build_world(with_target(run, example, scratch),
                                    scratch / f"gemini-mutant-{i}", bin_dir, run.TWSRT_BIN)
            mutate(run, world)
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
