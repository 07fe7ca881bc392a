#!/usr/bin/env python3
"""Side-by-side benchmark of the twsrt port against the reference twsrt 3.3.3.

    python3 bench/run.py target/release/twsrt [--sizes 1000,16000,64000] [--runs N]
                         [--ref-64k] [--no-check] [--out doc/benchmarks.md]

Python 3.11 standard library only. `make bench` builds the release binary and runs this.

What it does
- Installs the reference (`pip install twsrt==3.3.3`) into a venv at
  ${TWSRT_REF_VENV:-~/.cache/twsrt-ref33}, or reuses it when it already holds 3.3.3.
- Builds scratch HOMEs, one per policy and tool, so each tool reads and writes only its
  own files: the repository's example/ copied to ~/.config/twsrt/, and policies of N
  entries over 8 overlapping fragments per kind from bench/gen_policy.py.
- Runs every command for both tools, alternating (port, ref, port, ref, ...), with
  HOME=<scratch>, NO_COLOR=1 and `-c <scratch>/.config/twsrt/config.toml`, stdin from
  /dev/null and stdout/stderr to files. `diff` runs after one untimed `generate -w`.
- Wall time: time.perf_counter() around a direct spawn and wait (no wrapper).
  Peak RSS: GNU /usr/bin/time -f %M in separate runs. Not os.wait4(): a child spawned
  by this Python process inherits the harness's own high-water RSS (the kernel keeps the
  pre-exec mm's peak), which would inflate a small binary's figure to ~14 MB. The wrapper
  costs a few ms of wall time, so it is kept out of the timed runs.
- One untimed warm-up run per tool and command comes first (it is also an RSS sample).
  A tool whose warm-up takes longer than --slow seconds is measured through the wrapper
  for both time and memory, and its warm-up counts as the first timed run (a few ms of
  wrapper are noise next to seconds).
- Reports medians, ratios (ref/port), checks the four floors of issue 15, prints one
  Markdown table and writes it with the machine description to doc/benchmarks.md.
  Exit status 1 when a target fails (unless --no-check); a command that exits with an
  unexpected status is recorded as "error (exit N)" instead of stopping the run.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.dont_write_bytecode = True  # no bench/__pycache__ in the work tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_policy  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
REF_VERSION = "3.3.3"
GNU_TIME = "/usr/bin/time"
TOOLS = ("port", "ref")

# (label, arguments, acceptable exit codes, untimed preparation)
EVERYDAY = [
    ("generate", ["generate"], {0}, None),
    ("generate -w", ["generate", "-w"], {0}, None),
    ("diff", ["diff"], {0, 1}, ["generate", "-w"]),
]
# The commands that look at a policy (issue 17): each must answer on the
# everyday policy within a few milliseconds, measured beside the reference.
INSPECT = [
    ("show", ["show"], {0}, None),
    ("doctor", ["doctor"], {0, 1}, None),
]
INSPECT_MS = 5.0
# Not a target: what starting a process costs each tool on this machine, the
# floor under every other port time.
STARTUP = [
    ("--version", ["--version"], {0}, None),
]
SIZED = [
    ("generate claude", ["generate", "claude"], {0}, None),
    ("generate codex", ["generate", "codex"], {0}, None),
    ("diff", ["diff"], {0, 1}, ["generate", "-w"]),
]

# The floors of issue 15 (simplify the pipeline), as ratios measured in the same run.
EVERYDAY_SPEEDUP = 100.0
SIZE_16K_SPEEDUP = 50.0
LINEAR_64K = 5.0
MEMORY_RATIO = 3.0


# --------------------------------------------------------------------------- running


@dataclass
class Sample:
    wall: float
    rc: int
    rss_kb: int | None = None


@dataclass
class ToolRun:
    walls: list[float] = field(default_factory=list)
    rss: list[int] = field(default_factory=list)
    rcs: list[int] = field(default_factory=list)
    prep_rc: int | None = None
    error: str | None = None  # "error (exit N)" when a run exits unexpectedly
    message: str = ""  # last stderr line of the failing run
    skipped: str | None = None  # why it was not measured
    slow: bool = False
    stdout_digest: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.skipped is None and bool(self.walls)

    @property
    def wall(self) -> float | None:
        return statistics.median(self.walls) if self.ok else None

    @property
    def peak_kb(self) -> float | None:
        return statistics.median(self.rss) if self.ok and self.rss else None


@dataclass
class Row:
    policy: str
    command: str
    runs: int
    tools: dict[str, ToolRun]

    def speedup(self) -> float | None:
        p, r = self.tools["port"].wall, self.tools["ref"].wall
        return r / p if p and r else None

    def memory_ratio(self) -> float | None:
        p, r = self.tools["port"].peak_kb, self.tools["ref"].peak_kb
        return r / p if p and r else None


class Runner:
    def __init__(self, work: Path, use_gnu_time: bool):
        self.work = work
        self.use_gnu_time = use_gnu_time
        self.out = work / "stdout"
        self.err = work / "stderr"
        self.rss_file = work / "rss"

    def run(self, argv: list[str], home: Path, measure_rss: bool) -> Sample:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "NO_COLOR": "1",
            "LANG": "C.UTF-8",
            "TERM": "dumb",
        }
        wrapped = measure_rss and self.use_gnu_time
        if wrapped:
            self.rss_file.unlink(missing_ok=True)
            argv = [GNU_TIME, "-f", "%M", "-o", str(self.rss_file), "--", *argv]
        with open(self.out, "wb") as out, open(self.err, "wb") as err:
            start = time.perf_counter()
            proc = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env, cwd=home
            )
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.perf_counter() - start
        proc.returncode = rc = os.waitstatus_to_exitcode(status)
        rss = None
        if wrapped:
            # GNU time writes "Command exited with non-zero status N" before %M.
            lines = self.rss_file.read_text().split()
            rss = int(lines[-1]) if lines and lines[-1].isdigit() else None
        elif measure_rss:
            rss = usage.ru_maxrss  # fallback: inflated by the harness's own peak
        return Sample(wall, rc, rss)

    def last_stderr_line(self) -> str:
        lines = [l for l in self.err.read_text(errors="replace").splitlines() if l.strip()]
        return lines[-1].strip()[:160] if lines else ""

    def stdout_digest(self, home: Path) -> str:
        data = self.out.read_bytes().replace(str(home).encode(), b"~")
        return hashlib.sha256(data).hexdigest()


def measure(
    runner: Runner,
    policy: str,
    label: str,
    args: list[str],
    ok_codes: set[int],
    prep: list[str] | None,
    homes: dict[str, Path],
    commands: dict[str, list[str]],
    runs: int,
    skip: dict[str, str],
    slow_s: float,
    rss_runs: int,
) -> Row:
    tools = {tool: ToolRun(skipped=skip.get(tool)) for tool in TOOLS}

    def argv(tool: str, a: list[str]) -> list[str]:
        config = homes[tool] / ".config" / "twsrt" / "config.toml"
        return [*commands[tool], "-c", str(config), *a]

    def record(tool: str, s: Sample) -> None:
        t = tools[tool]
        t.rcs.append(s.rc)
        if s.rc not in ok_codes:
            t.error = f"error (exit {s.rc})"
            t.message = runner.last_stderr_line()

    # Preparation and warm-up, one tool after the other.
    for tool in TOOLS:
        t = tools[tool]
        if t.skipped:
            continue
        if prep:
            t.prep_rc = runner.run(argv(tool, prep), homes[tool], False).rc
            if t.prep_rc != 0:
                # Without its files the command measures an error path: not comparable.
                t.error = f"error (`{' '.join(prep)}` exit {t.prep_rc})"
                t.message = runner.last_stderr_line()
                progress(f"  {policy} / {label} / {tool}: preparation exited {t.prep_rc}")
                continue
        warm = runner.run(argv(tool, args), homes[tool], True)
        record(tool, warm)
        t.stdout_digest = runner.stdout_digest(homes[tool])
        if warm.rss_kb is not None:
            t.rss.append(warm.rss_kb)
        if warm.wall > slow_s:
            t.slow = True
            t.walls.append(warm.wall)
        progress(f"  {policy} / {label} / {tool}: warm-up {fmt_time(warm.wall)}, exit {warm.rc}")

    # Timed runs, alternating.
    for _ in range(runs):
        for tool in TOOLS:
            t = tools[tool]
            if t.skipped or t.error or len(t.walls) >= runs:
                continue
            s = runner.run(argv(tool, args), homes[tool], t.slow)
            record(tool, s)
            t.walls.append(s.wall)
            if s.rss_kb is not None:
                t.rss.append(s.rss_kb)

    # Memory runs for the fast tools (kept out of the timed runs), alternating.
    for _ in range(rss_runs - 1):
        for tool in TOOLS:
            t = tools[tool]
            if t.skipped or t.error or t.slow:
                continue
            s = runner.run(argv(tool, args), homes[tool], True)
            record(tool, s)
            if s.rss_kb is not None:
                t.rss.append(s.rss_kb)

    row = Row(policy, label, runs, tools)
    p, r = tools["port"], tools["ref"]
    progress(
        f"{policy:>14} | {label:<16} | port {cell_time(p):>16} | ref {cell_time(r):>16}"
        f" | x{fmt_ratio(row.speedup())}"
    )
    return row


# `twsrt run` (issue 18): what it costs before the exec on the everyday policy
# when nothing is stale, against exec'ing the stand-in agent directly. The
# stand-in is /bin/true under the name `codex`; the port alone (3.3.3 has no
# `run`).
RUN_OVERHEAD_MS = 3.0


def measure_run_overhead(runner: Runner, port: Path, work: Path, runs: int) -> Check:
    home = work / "run-overhead"
    shutil.copytree(REPO / "example", home / ".config" / "twsrt")
    (home / "bin").mkdir()
    stand_in = home / "bin" / "codex"
    stand_in.symlink_to("/bin/true")
    config = str(home / ".config" / "twsrt" / "config.toml")
    launch = [str(port), "-c", config, "run", "--", str(stand_in)]
    target = f"≤ {RUN_OVERHEAD_MS:.0f} ms over the agent"
    if runner.run([str(port), "-c", config, "generate", "-w"], home, False).rc != 0 \
            or runner.run(launch, home, False).rc != 0:
        return Check("run before the exec (port)", target, runner.last_stderr_line(), "FAIL")
    # Paired, alternating runs; the median of the differences decides.
    pairs = max(runs, 15) * 3
    diffs = [runner.run(launch, home, False).wall - runner.run([str(stand_in)], home, False).wall
             for _ in range(pairs)]
    ms = statistics.median(diffs) * 1000
    progress(f"  run -- codex (stand-in): {ms:.2f} ms before the exec, {pairs} pairs")
    return Check("run before the exec (port)", target, f"`run -- codex` +{ms:.2f} ms",
                 "PASS" if ms <= RUN_OVERHEAD_MS else "FAIL")


def linearity_pairs(runs: int) -> int:
    """How many 16,000/64,000 pairs the linearity check runs: three per timed run, at
    least 27. The port's runs take milliseconds, so a few seconds buy a median that a
    burst of load on the host cannot move far: with 9 pairs, one such burst swung the
    `generate codex` ratio from its usual 3.5x-3.7x to 4.5x in one run."""
    return max(3 * runs, 27)


def measure_linearity(runner: Runner, small: dict[str, Path], big: dict[str, Path],
                      port: list[str], runs: int) -> dict[str, float]:
    """The port's time at 64,000 entries over its time at 16,000, per command: the
    two sizes run alternately, so both medians come from the same minutes of the
    machine (the rows above are measured minutes apart, and a host that slows
    down in between would read as non-linear growth). The homes already hold
    the files each command's preparation wrote."""
    ratios = {}
    for label, a, _ok, _prep in SIZED:
        walls: dict[int, list[float]] = {16000: [], 64000: []}
        for _ in range(runs):
            for size, homes in ((16000, small), (64000, big)):
                home = homes["port"]
                config = home / ".config" / "twsrt" / "config.toml"
                walls[size].append(runner.run([*port, "-c", str(config), *a], home, False).wall)
        ratios[label] = statistics.median(walls[64000]) / statistics.median(walls[16000])
        progress(f"  linearity / {label}: 64,000 / 16,000 entries = {ratios[label]:.2f}x")
    return ratios


# --------------------------------------------------------------------------- setup


def ensure_reference(venv: Path) -> Path:
    python = venv / "bin" / "python"
    if not python.exists():
        progress(f"creating the reference venv at {venv}")
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    probe = subprocess.run(
        [str(python), "-c", "import importlib.metadata as m; print(m.version('twsrt'))"],
        capture_output=True,
        text=True,
    )
    if probe.returncode != 0 or probe.stdout.strip() != REF_VERSION:
        progress(f"installing twsrt=={REF_VERSION} into {venv}")
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", f"twsrt=={REF_VERSION}"],
            check=True,
        )
    return venv / "bin" / "twsrt"


def make_homes(root: Path, name: str, populate) -> dict[str, Path]:
    """One scratch HOME per tool with the policy at ~/.config/twsrt/."""
    template = root / name / "template"
    populate(template)
    homes = {}
    for tool in TOOLS:
        home = root / name / tool
        shutil.copytree(template, home / ".config" / "twsrt")
        homes[tool] = home
    return homes


# --------------------------------------------------------------------------- report


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    if seconds < 0.01:
        return f"{seconds * 1000:.2f} ms"
    if seconds < 1:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds:.2f} s"


def fmt_mb(kb: float | None) -> str:
    return "—" if kb is None else f"{kb / 1024:.1f} MB"


def fmt_ratio(x: float | None) -> str:
    if x is None:
        return "—"
    return f"{x:.0f}" if x >= 10 else f"{x:.2f}" if x < 1 else f"{x:.1f}"


def cell_time(t: ToolRun) -> str:
    if t.skipped:
        return t.skipped
    if t.error:
        return t.error
    return fmt_time(t.wall)


def cell_mem(t: ToolRun) -> str:
    if t.skipped or t.error:
        return "—"
    return fmt_mb(t.peak_kb)


def cell_runs(t: ToolRun) -> str:
    if t.skipped:
        return "0"
    return str(len(t.walls)) + ("ʷ" if t.slow else "")


def table(rows: list[Row]) -> str:
    head = (
        "| policy | command | runs port/ref | port median | reference median | speed-up "
        "| port peak RSS | reference peak RSS | memory ratio | exit port/ref | same stdout |\n"
        "|---|---|---|---:|---:|---:|---:|---:|---:|---|---|\n"
    )
    lines = []
    for row in rows:
        p, r = row.tools["port"], row.tools["ref"]
        same = "—"
        if p.rcs and r.rcs and not p.error and not r.error:
            same = "yes" if p.stdout_digest == r.stdout_digest else "no"
        exits = f"{rc_cell(p)}/{rc_cell(r)}"
        lines.append(
            f"| {row.policy} | `{row.command}` | {cell_runs(p)}/{cell_runs(r)} "
            f"| {cell_time(p)} | {cell_time(r)} | {speed_cell(row.speedup())} "
            f"| {cell_mem(p)} | {cell_mem(r)} | {speed_cell(row.memory_ratio())} "
            f"| {exits} | {same} |"
        )
    return head + "\n".join(lines) + "\n"


def rc_cell(t: ToolRun) -> str:
    if not t.rcs:
        return "—"
    codes = sorted(set(t.rcs))
    return ",".join(map(str, codes))


def speed_cell(x: float | None) -> str:
    return "—" if x is None else f"{fmt_ratio(x)}x"


@dataclass
class Check:
    name: str
    target: str
    measured: str
    status: str  # PASS, FAIL, NOT RUN


def check_targets(rows: list[Row], sizes: list[int], everyday_run: bool,
                  linear: dict[str, float]) -> list[Check]:
    checks = []

    def find(policy: str, command: str) -> Row | None:
        return next((r for r in rows if r.policy == policy and r.command == command), None)

    def ratio_check(name: str, target: str, policy: str, labels, threshold: float):
        parts, ok = [], True
        for label in labels:
            row = find(policy, label)
            x = row.speedup() if row else None
            if x is None:
                ok = False
                parts.append(f"`{label}` {why_missing(row)}")
            else:
                ok &= x >= threshold
                parts.append(f"`{label}` {fmt_ratio(x)}x")
        checks.append(Check(name, target, ", ".join(parts), "PASS" if ok else "FAIL"))

    everyday_labels = [label for label, *_ in EVERYDAY]
    sized_labels = [label for label, *_ in SIZED]
    if everyday_run:
        ratio_check("everyday commands", f"≥ {EVERYDAY_SPEEDUP:.0f}x faster", "example",
                    everyday_labels, EVERYDAY_SPEEDUP)
    else:
        checks.append(Check("everyday commands", f"≥ {EVERYDAY_SPEEDUP:.0f}x faster",
                            "example policy not run", "NOT RUN"))
    if everyday_run:
        parts, ok = [], True
        for label, *_ in INSPECT:
            row = find("example", label)
            wall = row.tools["port"].wall if row else None
            if wall is None:
                ok = False
                parts.append(f"`{label}` {why_missing(row, 'port')}")
            else:
                ok &= wall * 1000 <= INSPECT_MS
                parts.append(f"`{label}` {fmt_time(wall)}")
        checks.append(Check("show and doctor (port)", f"≤ {INSPECT_MS:.0f} ms",
                            ", ".join(parts), "PASS" if ok else "FAIL"))
    else:
        checks.append(Check("show and doctor (port)", f"≤ {INSPECT_MS:.0f} ms",
                            "example policy not run", "NOT RUN"))
    if 16000 in sizes:
        ratio_check("16,000 entries", f"≥ {SIZE_16K_SPEEDUP:.0f}x faster", policy_name(16000),
                    sized_labels, SIZE_16K_SPEEDUP)
    else:
        checks.append(Check("16,000 entries", f"≥ {SIZE_16K_SPEEDUP:.0f}x faster",
                            "size 16000 not run", "NOT RUN"))

    if 16000 in sizes and 64000 in sizes:
        parts, ok = [], True
        for label in sized_labels:
            small, big = find(policy_name(16000), label), find(policy_name(64000), label)
            a = small.tools["port"].wall if small else None
            b = big.tools["port"].wall if big else None
            if a is None or b is None:
                ok = False
                parts.append(f"`{label}` {why_missing(big if b is None else small, 'port')}")
            elif label in linear:
                # The paired runs decide; the rows' medians are shown beside.
                ok &= linear[label] <= LINEAR_64K
                parts.append(f"`{label}` {linear[label]:.2f}x (rows {b / a:.2f}x)")
            else:
                ok &= b / a <= LINEAR_64K
                parts.append(f"`{label}` {b / a:.2f}x")
        checks.append(Check("64,000 vs 16,000 entries (port)", f"≤ {LINEAR_64K:.0f}x the time",
                            ", ".join(parts), "PASS" if ok else "FAIL"))
    else:
        checks.append(Check("64,000 vs 16,000 entries (port)", f"≤ {LINEAR_64K:.0f}x the time",
                            "sizes 16000 and 64000 not both run", "NOT RUN"))

    measured = [(r, r.memory_ratio()) for r in rows if r.memory_ratio() is not None]
    failed_port = [r for r in rows if r.tools["port"].error]
    if measured:
        worst_row, worst = min(measured, key=lambda item: item[1])
        ok = worst >= MEMORY_RATIO and not failed_port
        text = (f"lowest ref/port {fmt_ratio(worst)}x (`{worst_row.command}`, "
                f"{worst_row.policy}) over {len(measured)} rows")
        if failed_port:
            text += f"; {len(failed_port)} rows where the port failed"
        checks.append(Check("peak memory", f"≤ 1/{MEMORY_RATIO:.0f} of the reference", text,
                            "PASS" if ok else "FAIL"))
    else:
        checks.append(Check("peak memory", f"≤ 1/{MEMORY_RATIO:.0f} of the reference",
                            "no row with both tools measured", "FAIL"))
    return checks


def why_missing(row: Row | None, tool: str | None = None) -> str:
    if row is None:
        return "not run"
    for name in ([tool] if tool else TOOLS):
        t = row.tools[name]
        if t.error:
            return f"{name} {t.error}"
        if t.skipped:
            return f"{name} skipped"
    return "not measured"


def checks_table(checks: list[Check]) -> str:
    lines = ["| target | required | measured | result |", "|---|---|---|---|"]
    for c in checks:
        lines.append(f"| {c.name} | {c.target} | {c.measured} | **{c.status}** |")
    return "\n".join(lines) + "\n"


def notes(rows: list[Row]) -> list[str]:
    out = []
    for row in rows:
        for name in TOOLS:
            t = row.tools[name]
            if t.error:
                out.append(f"- {row.policy} `{row.command}`, {name}: {t.error}: `{t.message}`")
            if t.skipped:
                out.append(f"- {row.policy} `{row.command}`, {name}: not run (`--ref-64k` off)"
                           f"{estimate(rows, row.command, row.policy)}")
    return out


def capture(argv: list[str]) -> str:
    try:
        result = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        return (result.stdout or result.stderr).strip().splitlines()[0]
    except (OSError, IndexError, subprocess.SubprocessError):
        return "unknown"


def machine(port: Path, ref_python: Path) -> list[tuple[str, str]]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor() or "unknown"
    memory = "unknown"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    commit = capture(["git", "-C", str(REPO), "describe", "--always", "--dirty"])
    return [
        ("date", dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")),
        ("uname -a", capture(["uname", "-a"])),
        ("CPU", cpu),
        ("cores", f"{usable} usable ({os.cpu_count()} online)"),
        ("memory", memory),
        ("rustc", capture(["rustc", "--version"])),
        ("harness Python", sys.version.split()[0]),
        ("reference", f"twsrt {REF_VERSION} on {capture([str(ref_python), '--version'])}"),
        ("port", f"{port} ({capture([str(port), '--version'])}, commit {commit})"),
        ("load average (1/5/15 min) at start, at end",
         f"{LOAD_AT_START}, {' '.join(f'{x:.2f}' for x in os.getloadavg())}"),
    ]


def document(info, rows, checks, options: str, extra_notes: list[str]) -> str:
    lines = [
        "# Benchmarks",
        "",
        "Generated by `make bench` (`bench/run.py`); do not edit by hand, run it again.",
        f"The port (this crate's release binary) and the reference (twsrt {REF_VERSION} from PyPI,",
        "in a venv) run the same commands on the same policy, alternating, each in its own",
        "scratch HOME with `NO_COLOR=1`. Times are medians of wall time of a direct spawn,",
        "after one untimed warm-up; peak RSS is the median of GNU `time -f %M` runs. The",
        "speed-up and memory ratio are reference / port. `diff` compares against files",
        "written by one untimed `generate -w`, so exit 0 (no drift) is expected.",
        "`generate -w` runs again over the files its warm-up run wrote, as a launch wrapper",
        "does before every agent start: the port renders and checks everything, then leaves",
        "alone each file whose bytes would not change (the reference rewrites them).",
        "The machine is not isolated: compare the load average below before trusting",
        "small differences. The 64,000 vs 16,000 check runs the port at both sizes",
        "alternately (three pairs per timed run, at least 27) after the rows, so both sides of the ratio",
        "come from the same minutes; the ratio of the rows' medians is shown beside it.",
        "The `--version` row is not a target: it is what",
        "starting a process costs each tool here, the floor under every port time.",
        "Generated policies (`bench/gen_policy.py`): N rule-list entries in total over 8 srt",
        "and 8 bash fragments whose windows overlap the next fragment's by half.",
        "",
        f"Options: `{options}`",
        "",
        "## Machine",
        "",
    ]
    lines += [f"- {k}: `{v}`" for k, v in info]
    lines += ["", "## Results", "", table(rows).rstrip("\n"), ""]
    lines += ["ʷ: slower than the warm-up threshold: timed through GNU `time` together with",
              "memory, warm-up counted as the first run.", ""]
    lines += ["## Floors (issue 15)", "", checks_table(checks).rstrip("\n"), ""]
    all_notes = notes(rows) + extra_notes + load_notes()
    if all_notes:
        lines += ["## Notes", ""] + all_notes + [""]
    # What each design choice measured, written by hand where it was measured
    # (bench/choices.md), carried into every report.
    choices = REPO / "bench" / "choices.md"
    if choices.exists():
        lines += [choices.read_text().rstrip("\n"), ""]
    return "\n".join(lines)


def load_notes() -> list[str]:
    """A warning when the machine was busy: short runs suffer most from waiting
    for a core, so ratios of milliseconds against seconds read low."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    start = float(LOAD_AT_START.split()[0])
    end = os.getloadavg()[0]
    # The harness keeps about one core busy itself (and `make bench` builds
    # just before), so only more than that counts as other load.
    if start < 0.75 * cores and end < cores:
        return []
    return [f"- The machine was loaded (1-minute load average {start:.2f} at start, {end:.2f} "
            f"at the end, on {cores} cores): other processes competed for the cores. Fast "
            "commands of a few milliseconds lose the most to that; rerun on an idle machine "
            "before trusting small ratios."]


# --------------------------------------------------------------------------- the guard hook

HOOK_MS = 3.0
# The floor of a JavaScript hook: start Node, read the event, parse it, say nothing.
NODE_HOOK = ("let s='';process.stdin.on('data',d=>s+=d);"
             "process.stdin.on('end',()=>{JSON.parse(s)})")


def measure_hook(work: Path, port: Path, runs: int) -> tuple[list[str], Check]:
    """`twsrt hook claude` on one Bash event (policy compiled included) on the
    example policy, beside a Node hook that only parses the event (issue 19)."""
    home = work / "hook"
    shutil.copytree(REPO / "example", home / ".config" / "twsrt")
    event = home / "event.json"
    event.write_text('{"session_id":"s","transcript_path":"","cwd":"%s",'
                     '"permission_mode":"default","hook_event_name":"PreToolUse",'
                     '"tool_name":"Bash","tool_input":{"command":"cat ~/.ssh/id_rsa | base64"},'
                     '"tool_use_id":"t"}' % home)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "NO_COLOR": "1"}
    config = str(home / ".config" / "twsrt" / "config.toml")
    sides = {"twsrt hook claude": [str(port), "-c", config, "hook", "claude"]}
    if shutil.which("node"):
        sides["node (parse only)"] = ["node", "-e", NODE_HOOK]
    # One untimed run with its answer read: the timed runs must measure a deny.
    with open(event, "rb") as stdin:
        answer = subprocess.run(sides["twsrt hook claude"], stdin=stdin, capture_output=True,
                                env=env, cwd=home)
    if b'"deny"' not in answer.stdout:
        return ([f"- hook claude did not deny (exit {answer.returncode})"],
                Check("hook claude on the everyday policy", f"≤ {HOOK_MS:.0f} ms",
                      "did not deny", "FAIL"))
    walls: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(runs + 1):  # the first round is a warm-up
        for name, argv in sides.items():
            with open(event, "rb") as stdin:
                start = time.perf_counter()
                proc = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, env=env, cwd=home)
                os.wait4(proc.pid, 0)
                walls[name].append(time.perf_counter() - start)
    medians = {name: statistics.median(w[1:]) for name, w in walls.items()}
    port_ms = medians["twsrt hook claude"] * 1000
    shown = ", ".join(f"{name} {m * 1000:.2f} ms" for name, m in medians.items())
    note = f"- Guard hook, one Bash event on the example policy, median of {runs}: {shown}."
    status = "PASS" if port_ms <= HOOK_MS else "FAIL"
    notes = [note] + measure_hook_modes(home, port, env, config, event, runs)
    return notes, Check("hook claude on the everyday policy (compile included)",
                        f"≤ {HOOK_MS:.0f} ms", f"{port_ms:.2f} ms", status)


HOOK_VS_VERSION = 2.5


def timed(argv: list[str], stdin_path: Path | None, env: dict, cwd: Path, runs: int) -> float:
    """The median wall time of `argv` over `runs` runs after one warm-up."""
    walls = []
    for _ in range(runs + 1):
        with open(stdin_path or os.devnull, "rb") as stdin:
            start = time.perf_counter()
            proc = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL, env=env, cwd=cwd)
            os.wait4(proc.pid, 0)
            walls.append(time.perf_counter() - start)
    return statistics.median(walls[1:])


def measure_hook_modes(home: Path, port: Path, env: dict, config: str, event: Path,
                       runs: int) -> list[str]:
    """The hook's per-event time for an analysed Bash command (answered by
    the analysis: a deny) and a sandboxed one (answered with the command
    wrapped in srt: the hook's answer only, not srt's run), side by side with
    `twsrt --version` on the same machine; the analysed event within
    HOOK_VS_VERSION times of it. The sandbox mode needs srt (TWSRT_SRT or on
    PATH) and the srt output written, which `generate -w` does here."""
    env = dict(env)
    if os.environ.get("TWSRT_SRT"):
        env["TWSRT_SRT"] = os.environ["TWSRT_SRT"]
    subprocess.run([str(port), "-c", config, "generate", "-w"], env=env, cwd=home,
                   capture_output=True)
    wrapped = home / "event-wrapped.json"
    wrapped.write_text(event.read_text().replace("cat ~/.ssh/id_rsa | base64", "make -s test"))
    hook = [str(port), "-c", config, "hook", "claude"]
    with open(wrapped, "rb") as stdin:
        answer = subprocess.run(hook, stdin=stdin, capture_output=True, env=env, cwd=home)
    version = timed([str(port), "--version"], None, env, home, runs)
    analysed = timed(hook, event, env, home, runs)
    lines = [f"- Guard hook per event beside `twsrt --version` ({version * 1000:.2f} ms), "
             f"median of {runs}: analysed (deny) {analysed * 1000:.2f} ms "
             f"({analysed / version:.2f}x, target within {HOOK_VS_VERSION}x: "
             f"{'PASS' if analysed <= HOOK_VS_VERSION * version else 'FAIL'})"]
    if b'"updatedInput"' in answer.stdout:
        sandboxed = timed(hook, wrapped, env, home, runs)
        lines[0] += f", sandboxed (wrapped in srt) {sandboxed * 1000:.2f} ms."
    else:
        lines[0] += ("; the sandboxed event was not wrapped (no usable srt: set TWSRT_SRT "
                     "or put srt on PATH).")
    return lines


def policy_name(size: int) -> str:
    return f"{size:,} entries"


# --------------------------------------------------------------------------- main


LOAD_AT_START = " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(
        description="Benchmark the twsrt port against the reference twsrt 3.3.3."
    )
    parser.add_argument("port", type=Path, help="the port binary, e.g. target/release/twsrt")
    parser.add_argument("--sizes", default="1000,16000,64000",
                        help="generated policy sizes, comma-separated (default %(default)s)")
    parser.add_argument("--runs", type=int,
                        help="timed runs per tool and command (default 9)")
    parser.add_argument("--rss-runs", type=int, default=3,
                        help="GNU time runs for peak RSS of fast commands (default 3)")
    parser.add_argument("--ref-64k", action="store_true",
                        help="also run the reference on policies above 16,000 entries "
                             "(quadratic: minutes per command); off by default")
    parser.add_argument("--no-example", action="store_true", help="skip the example policy")
    parser.add_argument("--slow", type=float, default=2.0,
                        help="warm-up seconds above which a tool counts as slow (default 2)")
    parser.add_argument("--ref-venv", type=Path,
                        default=Path(os.environ.get("TWSRT_REF_VENV",
                                                    Path.home() / ".cache" / "twsrt-ref33")))
    parser.add_argument("--out", type=Path, default=REPO / "doc" / "benchmarks.md",
                        help="Markdown report to write (default doc/benchmarks.md)")
    parser.add_argument("--no-check", action="store_true",
                        help="exit 0 even when a target fails")
    parser.add_argument("--keep", action="store_true", help="keep the scratch directory")
    args = parser.parse_args()

    port = args.port.resolve()
    if not os.access(port, os.X_OK):
        parser.error(f"port binary not found or not executable: {port}")
    sizes = [int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()]
    ref = ensure_reference(args.ref_venv)
    use_gnu_time = os.access(GNU_TIME, os.X_OK)
    extra_notes = []
    if not use_gnu_time:
        extra_notes.append(f"- {GNU_TIME} not found: peak RSS from os.wait4(), which includes "
                           "the harness's own peak (overstates small binaries).")
    commands = {"port": [str(port)], "ref": [str(ref)]}

    work = Path(tempfile.mkdtemp(prefix="twsrt-bench-"))
    progress(f"scratch directory: {work}")
    runner = Runner(work, use_gnu_time)
    rows: list[Row] = []
    linear: dict[str, float] = {}
    run_check: Check | None = None
    try:
        if not args.no_example:
            homes = make_homes(work, "example",
                               lambda d: shutil.copytree(REPO / "example", d))
            for label, a, ok, prep in EVERYDAY + INSPECT + STARTUP:
                rows.append(measure(runner, "example", label, a, ok, prep, homes, commands,
                                    args.runs or 9, {}, args.slow, args.rss_runs))
            run_check = measure_run_overhead(runner, port, work, args.runs or 9)
            hook_notes, hook_check = measure_hook(work, port, args.runs or 9)
            extra_notes += hook_notes
        homes_by_size = {}
        for size in sizes:
            name = policy_name(size)
            homes = make_homes(work, f"n{size}",
                               lambda d, n=size: gen_policy.write_policy(n, d))
            homes_by_size[size] = homes
            # Nine runs: a port run takes milliseconds, so a single stall of
            # the machine moves a median of five; and the linearity check
            # compares the port's medians at 16,000 and 64,000 entries.
            runs = args.runs or 9
            skip = {}
            for label, a, ok, prep in SIZED:
                if size > 16000 and not args.ref_64k:
                    skip = {"ref": "skipped (--ref-64k)"}
                rows.append(measure(runner, name, label, a, ok, prep, homes, commands,
                                    runs, skip, args.slow, args.rss_runs))
        if 16000 in homes_by_size and 64000 in homes_by_size:
            linear = measure_linearity(runner, homes_by_size[16000], homes_by_size[64000],
                                       commands["port"], linearity_pairs(args.runs or 9))
    finally:
        if args.keep:
            progress(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)

    if any(r.tools["ref"].skipped for r in rows):
        extra_notes.append("- The reference is quadratic in policy size (mostly in tomlkit, "
                           "for `codex` and `diff`); above 16,000 entries it is skipped unless "
                           "`--ref-64k` is given.")
    checks = check_targets(rows, sizes, not args.no_example, linear)
    if run_check is not None:
        checks.append(run_check)
    if not args.no_example:
        checks.append(hook_check)
    options = " ".join(["bench/run.py", *sys.argv[1:]])
    text = document(machine(port, args.ref_venv / "bin" / "python"), rows, checks, options,
                    extra_notes)
    print(table(rows))
    print(checks_table(checks))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    progress(f"wrote {args.out}")
    failed = any(c.status == "FAIL" for c in checks)
    return 1 if failed and not args.no_check else 0


def estimate(rows: list[Row], label: str, policy: str) -> str:
    """A quadratic upper bound from the 16,000-entry reference median (not a measurement)."""
    size = int(policy.split()[0].replace(",", ""))
    base = next((r for r in rows if r.policy == policy_name(16000) and r.command == label), None)
    wall = base.tools["ref"].wall if base else None
    if wall is None:
        return ""
    return (f"; if quadratic, 16,000-entry median x {(size / 16000) ** 2:.0f} "
            f"≈ {wall * (size / 16000) ** 2:.0f} s (an estimate, not a measurement)")


if __name__ == "__main__":
    sys.exit(main())
