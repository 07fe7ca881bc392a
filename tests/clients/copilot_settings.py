"""Client check for `[targets] copilot_settings`: Copilot CLI reads the
settings.json twsrt merged its URL lists into (run.py calls `run`).

For the policy in policies/copilot-settings, in full and in yolo mode:
  1. a settings file of the user's own (a comment, a trailing comma, keys
     twsrt does not own) is in place, then `twsrt generate -w` merges into it;
  2. `copilot config --list --json` (no login needed) must show exactly the
     policy's URL lists under allowedUrls / deniedUrls, and the user's keys;
  3. `copilot -p` (no login: it stops at the login check) must load the file
     without a settings warning, on stderr or in its log;
  4. `twsrt generate -w` must refuse a settings file broken on purpose,
     naming its line, and leave it as it was;
  5. (in the harness's network namespace only: web_fetch resolves host
     names itself, past the dead proxies) with a stand-in model
     (fake_model.py) asking for web_fetch, every denied domain, over HTTPS
     and plain HTTP, is refused by Copilot although the launch allows every
     URL (`--allow-all-urls`, or `--yolo` in yolo mode), while a URL no rule
     names is not refused: the deny in the settings file is enforced;
  6. (likewise) the same with the settings file emptied to `{}` and the
     mode's flags file added to the launch: the `--deny-url` flags alone
     refuse every denied domain over both schemes (the http:// twin).
Then each mutant (a broken settings or flags file) must make step 2, 3, 5 or 6 fail, so
the check can fail. The yolo file is read through COPILOT_HOME, which is how
a second Copilot home is chosen (`copilot help environment`).
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import time
from pathlib import Path

import run as harness
from fake_model import FakeModel

# The twsrt binary under test (set by `run`; this module's copy of run.py
# has its own, unset TWSRT_BIN).
TWSRT = Path("twsrt")

CASE = "copilot-settings"
USER_FILE = (
    "// the user's own settings\n"
    "{\n"
    '  "theme": "dim", // kept\n'
    '  "companyAnnouncements": ["hello"],\n'
    '  "allowedUrls": ["stale.example"],\n'
    "}\n"
)
# What Copilot says when a settings entry or the file cannot be used.
COMPLAINT = re.compile(r"Ignoring invalid|Failed to load config|not valid JSON|"
                       r"\[userSettings\] Ignoring", re.I)


def expected(world) -> dict[str, list[str]]:
    """The URL lists the policy compiles to (the mapping in
    src/agent/copilot/settings.rs): allowed as written (none in yolo mode),
    each denied pattern without a scheme again with http://."""
    network = world.srt.get("network", {})
    denied: list[str] = []
    for d in network.get("deniedDomains", []):
        denied += [d] if "://" in d else [d, f"http://{d}"]
    allowed = [] if world.case.yolo else list(network.get("allowedDomains", []))
    return {"allowedUrls": allowed, "deniedUrls": denied}


def copilot_home(world) -> Path:
    key = "copilot_settings_yolo" if world.case.yolo else "copilot_settings"
    path = world.config_path(key)
    if path is None:
        raise harness.CheckFailed(f"the case sets no {key}")
    return path.parent


def copilot(world, *args: str, model: FakeModel | None = None):
    env = world.env.vars()
    env["COPILOT_HOME"] = str(copilot_home(world))
    env["COPILOT_AUTO_UPDATE"] = "false"
    if model is not None:
        env.update(COPILOT_PROVIDER_BASE_URL=model.base_url, COPILOT_MODEL="gpt-4o",
                   NO_PROXY="127.0.0.1", no_proxy="127.0.0.1")
    try:
        return subprocess.run(
            [world.env.client("copilot"), *args], cwd=world.env.proj, env=env,
            stdin=subprocess.DEVNULL, capture_output=True, text=True,
            errors="replace", timeout=harness.TIMEOUT)
    except subprocess.TimeoutExpired as e:
        raise harness.CheckFailed(f"copilot {' '.join(args)} timed out") from e


def check_reads(world) -> list[str]:
    """Copilot's own view of the file: the policy's lists, the user's keys."""
    result = copilot(world, "config", "--list", "--json")
    if result.returncode != 0:
        return [f"copilot config --list failed (exit {result.returncode}): "
                f"{harness.one_line(result.stdout + result.stderr)}"]
    try:
        seen = json.loads(result.stdout or "{}")
    except ValueError:
        return [f"copilot config --list --json printed {harness.one_line(result.stdout)}"]
    failures = [f"{key}: Copilot reads {seen.get(key)!r}, the policy compiles to {want!r}"
                for key, want in expected(world).items() if seen.get(key) != want]
    for key, want in (("theme", "dim"), ("companyAnnouncements", ["hello"])):
        if seen.get(key) != want:
            failures.append(f"the user's {key} was not kept: {seen.get(key)!r}")
    return failures


def check_loads(world) -> list[str]:
    """A session start (`-p`, no login) loads the file without a warning."""
    logs = copilot_home(world) / "logs"
    before = set(logs.glob("*.log")) if logs.exists() else set()
    result = copilot(world, "-p", "twsrt client check")
    text = result.stdout + result.stderr
    failures = [f"copilot: {line.strip()}" for line in text.splitlines() if COMPLAINT.search(line)]
    for log in sorted(set(logs.glob("*.log")) - before if logs.exists() else []):
        failures += [f"copilot log: {line.strip()[:200]}" for line in
                     log.read_text(errors="replace").splitlines() if COMPLAINT.search(line)]
    if "No authentication information found" not in text:
        failures.append(f"copilot did not reach the login check (exit {result.returncode}): "
                        f"{harness.one_line(text)}")
    return failures


# Copilot's web_fetch result for a URL its rules refuse (measured).
REFUSED = "Permission to access this URL was denied."


def probe_urls(pattern: str) -> list[str]:
    """URLs a denied pattern must cover: a host under a wildcard, and both
    schemes when the pattern names none."""
    scheme, _, host = pattern.rpartition("://")
    if host.startswith("*."):
        host = "twsrt-probe." + host[2:]
    schemes = [scheme] if scheme else ["https", "http"]
    return [f"{s}://{host}/twsrt" for s in schemes]


def fetch(world, url: str, flags: tuple[str, ...] = ()) -> str:
    """What Copilot answers a web_fetch of `url` under the widest launch of
    the mode, with `flags` (words) added to the launch."""
    wide = "--yolo" if world.case.yolo else "--allow-all-urls"
    extra = [w for w in flags if w != wide]
    with FakeModel("web_fetch", {"url": url}) as model:
        result = copilot(world, "-p", "twsrt client check", wide, *extra, model=model)
    if not model.results:
        return f"(no tool result; copilot said {harness.one_line(result.stdout + result.stderr)})"
    return model.results[-1]


def check_enforced(world, flags: tuple[str, ...] = ()) -> list[str]:
    """Each denied domain refused, a URL no rule names let through."""
    failures = []
    for pattern in world.srt.get("network", {}).get("deniedDomains", []):
        for url in probe_urls(pattern):
            answer = fetch(world, url, flags)
            if REFUSED not in answer:
                failures.append(f"{url} (denied {pattern!r}) was not refused: "
                                f"{harness.one_line(answer)}")
    control = f"https://{harness.CANARY_HOST}/twsrt"
    answer = fetch(world, control, flags)
    if REFUSED in answer or "(no tool result" in answer:
        failures.append(f"{control}, which no rule names, was not fetched: "
                        f"{harness.one_line(answer)}")
    return failures


def flag_words(world) -> tuple[str, ...]:
    """The mode's flags file as launch words: one flag a line, ` \\` at the end."""
    words: list[str] = []
    for line in harness.copilot_snippet(world).read_text().splitlines():
        line = line.rstrip()
        words += shlex.split(line[:-1] if line.endswith("\\") else line)
    return tuple(words)


def check_flags_enforced(world) -> list[str]:
    """The same refusals from the flags alone: the settings file emptied to
    `{}` for the while, the launch given the mode's flags (the bare
    `--deny-url` is HTTPS only to Copilot, so plain HTTP needs the http://
    twin twsrt adds)."""
    path = settings_file(world)
    saved = path.read_text()
    path.write_text("{}\n")
    try:
        return check_enforced(world, flag_words(world))
    finally:
        path.write_text(saved)


def isolated() -> bool:
    return harness.os.environ.get("TWSRT_CLIENTS_NETNS") == "1"


def check_refused(world) -> list[str]:
    """twsrt refuses a settings file it cannot parse, naming the line."""
    path = copilot_home(world) / "settings.json"
    broken = path.read_text().replace("\n}", "\n", 1)
    path.write_text(broken)
    result = harness.twsrt(world, TWSRT, "-w")
    failures = []
    if result.returncode == 0:
        failures.append("twsrt generate -w accepted a settings file without its closing brace")
    elif not re.search(re.escape(str(path)) + r":\d+:\d+: ", result.stderr):
        failures.append(f"the error names no position: {harness.one_line(result.stderr)}")
    if path.read_text() != broken:
        failures.append("the broken settings file was changed")
    return failures


def settings_file(world) -> Path:
    return copilot_home(world) / "settings.json"


# (the check that must catch it, what is broken, how). The first two are
# caught by Copilot's own warnings (stderr; its log), not by twsrt's
# comparison; a syntax error only `copilot config` reports (a session start
# is silent about it, measured), so that one is left to `check_reads`.
MUTANTS = [
    (check_loads, "a denied pattern Copilot cannot parse (it skips it, with a warning)",
     lambda w: harness.edit_text(settings_file(w), '"pastebin.com"', '"paste bin.com"')),
    (check_loads, "deniedUrls as a string (Copilot then drops the whole file)",
     lambda w: harness.edit_text(settings_file(w), '"deniedUrls": [', '"deniedUrls": "x", "y": [')),
    (check_reads, "the closing brace removed",
     lambda w: harness.edit_text(settings_file(w), "\n}", "\n")),
    (check_enforced, "the http:// twin of a denied domain removed",
     lambda w: harness.edit_text(settings_file(w), ',\n    "http://pastebin.com"', "")),
    (check_flags_enforced, "the --deny-url http:// twin removed from the flags",
     lambda w: harness.edit_text(harness.copilot_snippet(w),
                                 "--deny-url 'http://pastebin.com' \\\n", "")),
]


def world_for(case, root: Path, bin_dir: Path, twsrt_bin: Path):
    """The case built, the user's own file put in place and merged into."""
    world = harness.build_world(case, root, bin_dir, twsrt_bin, plant_files=False)
    path = settings_file(world)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(USER_FILE)
    result = harness.twsrt(world, twsrt_bin, "-w")
    if result.returncode != 0:
        raise harness.CheckFailed(f"twsrt generate -w failed: {harness.one_line(result.stderr)}")
    return world


def run(report, scratch: Path, bin_dir: Path, twsrt_bin: Path, mutants: bool = True) -> None:
    global TWSRT
    TWSRT = twsrt_bin
    print("\nCopilot CLI settings file ([targets] copilot_settings)", flush=True)
    source = harness.POLICIES / CASE
    for yolo in (False, True):
        case = harness.Case(CASE + ("-yolo" if yolo else ""), source, yolo=yolo)
        start = time.monotonic()
        try:
            world = world_for(case, scratch / case.name, bin_dir, twsrt_bin)
        except harness.CheckFailed as e:
            report.result(f"{case.name}: twsrt generate -w", [str(e)], time.monotonic() - start)
            continue
        report.result(f"{case.name}: twsrt generate -w", [], time.monotonic() - start)
        harness.run_check(report, f"{case.name}: copilot reads it", check_reads, world)
        harness.run_check(report, f"{case.name}: copilot loads it", check_loads, world)
        if isolated():
            harness.run_check(report, f"{case.name}: copilot refuses the denied URLs",
                              check_enforced, world)
            harness.run_check(report, f"{case.name}: the flags alone refuse them",
                              check_flags_enforced, world)
        else:
            print(f"SKIP  {case.name}: copilot refuses the denied URLs, from the settings "
                  "and from the flags (needs the network namespace: web_fetch resolves host "
                  "names itself)", flush=True)
        harness.run_check(report, f"{case.name}: twsrt refuses it broken", check_refused, world)
    for i, (catch, what, mutate) in enumerate(MUTANTS if mutants else []):
        if catch in (check_enforced, check_flags_enforced) and not isolated():
            continue
        start = time.monotonic()
        try:
            world = world_for(harness.Case(CASE, source), scratch / f"{CASE}-mutant-{i}",
                              bin_dir, twsrt_bin)
            mutate(world)
            failures = catch(world)
        except harness.CheckFailed as e:
            report.result(f"mutant {CASE}: {what}", [str(e)], time.monotonic() - start)
            continue
        if failures:
            report.result(f"mutant {CASE}", [], time.monotonic() - start,
                          f"caught {what}: {failures[0]}")
        else:
            report.result(f"mutant {CASE}: {what}", ["the check passed on a broken output"],
                          time.monotonic() - start)
