#!/usr/bin/env python3
"""Record what the reference twsrt 3.3.3 does for every scenario in scenarios.py.

    python3 tests/parity/record.py [--only SUBSTRING] [--out DIR]

The reference runs as a black box from a venv (TWSRT_REF, default ~/.cache/twsrt-ref33;
created with `pip install twsrt==3.3.3` when missing). For each scenario the recorder
materialises the HOME tree in a fresh temp dir, runs any `prep` commands, applies
`edits`, stores that state as home/ (+ setup), then re-materialises home/ + setup into
another fresh temp dir exactly as the replay test does, runs the command there and writes
expected/. Stale scenario dirs are deleted. See README.md for the format.
"""

import argparse
import importlib.util
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.dont_write_bytecode = True  # loading scenarios.py must not leave __pycache__ behind
PLACEHOLDER = "{HOME}"
REF_VERSION = "3.3.3"
# The environment both sides run with (the replay test sets the same).
FIXED_ENV = {"NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "200", "LC_ALL": "C.UTF-8"}
# Reference-only knobs: deterministic Python, no bytecode written anywhere.
PY_ENV = {"PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONIOENCODING": "utf-8"}
TMP_PREFIX = "twsrt-parity-"
AGENTS = ("claude", "copilot", "codex")


# ---------------------------------------------------------------------------
# reference venv
# ---------------------------------------------------------------------------


def reference_binary():
    ref = Path(os.environ.get("TWSRT_REF", Path.home() / ".cache" / "twsrt-ref33"))
    exe = ref / "bin" / "twsrt"
    if not exe.exists():
        print(f"creating reference venv at {ref}", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(ref)], check=True)
        subprocess.run([str(ref / "bin" / "pip"), "install", "--quiet", f"twsrt=={REF_VERSION}"], check=True)
    out = subprocess.run([str(ref / "bin" / "python"), "-c",
                          "import importlib.metadata as m; print(m.version('twsrt'))"],
                         capture_output=True, text=True, check=True).stdout.strip()
    if out != REF_VERSION:
        sys.exit(f"reference at {ref} is twsrt {out}, expected {REF_VERSION}")
    return exe


# ---------------------------------------------------------------------------
# HOME trees
# ---------------------------------------------------------------------------


def sub_home(data, home):
    if isinstance(data, str):
        return data.replace(PLACEHOLDER, home).encode("utf-8")
    return data.replace(PLACEHOLDER.encode(), home.encode())


def unsub_home(data, homes):
    for h in homes:
        data = data.replace(h.encode(), PLACEHOLDER.encode())
    return data


def write_file(path, data, mode=0o644):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    os.chmod(path, mode)


def walk(root):
    """Every path under root (not root itself), sorted, without following symlinks."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            out.append(Path(dirpath) / name)
    return sorted(out, key=lambda p: str(p.relative_to(root)))


def materialise_from_spec(sc, home):
    """Author-time construction of the HOME tree from the scenario dict."""
    for rel, data in sc.get("files", {}).items():
        if data is None:
            continue
        write_file(home / rel, sub_home(data, str(home)))
    for rel, target in sc.get("symlinks", {}).items():
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target.replace(PLACEHOLDER, str(home)), home / rel)
    for rel, mode in sc.get("chmod", {}).items():
        os.chmod(home / rel, mode)


def apply_edits(sc, home):
    for rel, edit in sc.get("edits", {}).items():
        p = home / rel
        if edit is None:
            p.unlink()
        elif callable(edit):
            old = p.read_text(encoding="utf-8")
            new = edit(old.replace(str(home), PLACEHOLDER))
            if new.replace(PLACEHOLDER, str(home)) == old:
                raise SystemExit(f"{sc['name']}: edit of {rel} changed nothing")
            mode = stat.S_IMODE(p.stat().st_mode)
            write_file(p, sub_home(new, str(home)), mode)
        else:
            write_file(p, sub_home(edit, str(home)))


def store_home(home, dest):
    """Store a HOME tree as dest/home (plain files, mode 0644) + dest/setup."""
    homes = home_variants(home)
    setup = []
    for p in walk(home):
        rel = p.relative_to(home).as_posix()
        if p.is_symlink():
            target = os.readlink(p)
            setup.append(f"symlink\t{rel}\t{unsub_home(target.encode(), homes).decode()}")
        elif p.is_dir():
            mode = stat.S_IMODE(p.stat().st_mode)
            if not any(p.iterdir()) or mode != 0o755:
                setup.append(f"dir\t{oct(mode)[2:].zfill(4)}\t{rel}")
        else:
            mode = stat.S_IMODE(p.stat().st_mode)
            write_file(dest / "home" / rel, unsub_home(p.read_bytes(), homes))
            if mode != 0o644:
                setup.append(f"chmod\t{oct(mode)[2:].zfill(4)}\t{rel}")
    (dest / "home").mkdir(parents=True, exist_ok=True)
    if setup:
        (dest / "setup").write_text("\n".join(setup) + "\n", encoding="utf-8")


def materialise_stored(dest, home):
    """What the replay test does: copy home/ (files 0644, dirs 0755) and apply setup."""
    src = dest / "home"
    for p in walk(src):
        rel = p.relative_to(src)
        if p.is_dir():
            (home / rel).mkdir(parents=True, exist_ok=True)
            os.chmod(home / rel, 0o755)
        else:
            write_file(home / rel, sub_home(p.read_bytes(), str(home)))
    setup = dest / "setup"
    if setup.exists():
        for line in setup.read_text(encoding="utf-8").splitlines():
            kind, a, b = line.split("\t")
            if kind == "symlink":
                (home / a).parent.mkdir(parents=True, exist_ok=True)
                os.symlink(b.replace(PLACEHOLDER, str(home)), home / a)
            elif kind == "dir":
                (home / b).mkdir(parents=True, exist_ok=True)
                os.chmod(home / b, int(a, 8))
            elif kind == "chmod":
                os.chmod(home / b, int(a, 8))
            else:
                raise SystemExit(f"bad setup line {line!r}")


def home_variants(home):
    variants = {str(home), os.path.realpath(home)}
    return sorted(variants, key=len, reverse=True)


def manifest(home):
    lines = []
    homes = home_variants(home)
    for p in walk(home):
        rel = p.relative_to(home).as_posix()
        if p.is_symlink():
            target = unsub_home(os.readlink(p).encode(), homes).decode()
            lines.append(f"symlink\t-\t{rel}\t{target}")
        elif p.is_dir():
            lines.append(f"dir\t{oct(stat.S_IMODE(p.stat().st_mode))[2:].zfill(4)}\t{rel}")
        else:
            lines.append(f"file\t{oct(stat.S_IMODE(p.stat().st_mode))[2:].zfill(4)}\t{rel}")
    return lines


def strip_comment_lines(data, rel):
    """Drop whole-line comments (and blank runs) of a file compared parsed-equal only.

    Such files (the `config --init` starters) are reference prose; storing only their
    data keeps the prose out of the repository while the replay still compares values."""
    marker = "#" if rel.endswith(".toml") else "//"
    kept = [l for l in data.decode("utf-8").splitlines() if not l.lstrip().startswith(marker)]
    text = "\n".join(kept)
    text = re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"
    return text.encode("utf-8")


# ---------------------------------------------------------------------------
# running the reference
# ---------------------------------------------------------------------------


def run_ref(exe, home, args, extra_env):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), **FIXED_ENV, **PY_ENV}
    env.update({k: v.replace(PLACEHOLDER, str(home)) for k, v in extra_env.items()})
    args = [a.replace(PLACEHOLDER, str(home)) for a in args]
    return subprocess.run([str(exe), *args], cwd=home, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=120, preexec_fn=lambda: os.umask(0o022))


# ---------------------------------------------------------------------------
# facts
# ---------------------------------------------------------------------------

QUOTED = [re.compile(r"'([^'\n]+)'"), re.compile(r'"([^"\n]+)"'), re.compile(r"`([^`\n]+)`")]
PATHISH = re.compile(r"(?<![\w~.\-])((?:\{HOME\}|/)[^\s'\"`,;()\[\]]*)")
LOCATION = re.compile(r"(?:line|Line) (\d+),? (?:column|col) (\d+)")
DOTTED_KEY = re.compile(r"(?<![\w./{~\-])([A-Za-z_][\w\-]*(?:\.[A-Za-z_<>][\w<>\-]*)+)(?![\w/(])")
NUMBER = re.compile(r"(?<![\w./:\-])(\d+)(?![\w./\-]|:\d)")
# Short status lines are interface, not prose: the whole line is a fact.
STATUS_LINE = re.compile(r"^(?:Would write canonical|Would write agent target|Wrote canonical|Wrote"
                         r"|Info: Migrated|Info: (?:claude|copilot|codex) skipped): \S")


def jsonc_strings(text):
    """All string values of a JSONC document (best effort; None if it does not parse)."""
    text = re.sub(r'("(?:[^"\\\n]|\\.)*")|//[^\n]*|/\*.*?\*/', lambda m: m.group(1) or "", text, flags=re.S)
    try:
        doc = json.loads(text)
    except ValueError:
        return []
    out = []

    def rec(v):
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, list):
            for x in v:
                rec(x)
        elif isinstance(v, dict):
            for x in v.values():
                rec(x)

    rec(doc)
    return out


def scenario_names(home):
    """Names a message may cite, as (anywhere, in_errors).

    anywhere:  agent names and the string values of the JSONC fragments (rules, paths,
               domains) -- a warning that cites a rule should cite it in the port too;
    in_errors: profile, fragment and source-kind names -- looked for in Error lines only,
               because words like "default" or "bash" also occur in warning prose."""
    import tomllib

    anywhere = set(AGENTS)
    in_errors = {"srt", "bash"}
    for p in walk(home):
        if p.is_symlink() or not p.is_file():
            continue
        if p.suffix == ".toml":
            try:
                doc = tomllib.loads(p.read_text(encoding="utf-8"))
            except (ValueError, UnicodeDecodeError):
                continue
            if "sources" not in doc and "profiles" not in doc:
                continue
            profiles = doc.get("profiles")
            if isinstance(profiles, dict):
                in_errors |= set(profiles)
                for prof in profiles.values():
                    if isinstance(prof, dict):
                        for v in prof.values():
                            if isinstance(v, list):
                                in_errors |= {x for x in v if isinstance(x, str)}
            sources = doc.get("sources")
            if isinstance(sources, dict):
                for src in sources.values():
                    if isinstance(src, dict) and isinstance(src.get("fragments"), dict):
                        in_errors |= set(src["fragments"])
            if isinstance(doc.get("default_profile"), str):
                in_errors.add(doc["default_profile"])
        elif p.suffix == ".jsonc":
            try:
                anywhere |= set(jsonc_strings(p.read_text(encoding="utf-8")))
            except UnicodeDecodeError:
                pass

    def keep(names):
        return {n for n in names if re.search(r"\w", n) and len(n) >= 2}

    return keep(anywhere), keep(in_errors)


def bounded(hay, needle):
    """needle occurs in hay, not glued to a word character on a side where it has one."""
    start = 0
    while True:
        i = hay.find(needle, start)
        if i < 0:
            return False
        before = hay[i - 1] if i > 0 else " "
        after = hay[i + len(needle)] if i + len(needle) < len(hay) else " "
        ok_before = not (needle[0].isalnum() or needle[0] == "_") or not (before.isalnum() or before == "_")
        ok_after = not (needle[-1].isalnum() or needle[-1] == "_") or not (after.isalnum() or after == "_")
        if ok_before and ok_after:
            return True
        start = i + 1


def derive_facts(stderr, names):
    anywhere, in_errors = names
    facts = []

    def add(f):
        f = f.strip()
        if f and f not in facts and "\n" not in f:
            facts.append(f)

    for line in stderr.splitlines():
        m = re.match(r"^(Error|Warning):", line)
        is_error = bool(m) and m.group(1) == "Error"
        if m:
            add(m.group(0))
        if STATUS_LINE.match(line):
            add(line)
        for rx in QUOTED:
            for m in rx.finditer(line):
                add(m.group(1))
        for m in PATHISH.finditer(line):
            p = m.group(1).rstrip(".:")
            if p not in ("/", "{HOME}") and len(p) > 1:
                add(p)
        for m in LOCATION.finditer(line):
            add(m.group(1))
            add(m.group(2))
        for m in NUMBER.finditer(line):
            add(m.group(1))
        if is_error:
            for m in DOTTED_KEY.finditer(line):
                add(m.group(1))
        for n in sorted(anywhere | (in_errors if is_error else set())):
            if bounded(line, n):
                add(n)
    return facts


# ---------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------


def load_scenarios():
    spec = importlib.util.spec_from_file_location("parity_scenarios", HERE / "scenarios.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    names = [s["name"] for s in mod.SCENARIOS]
    dupes = {n for n in names if names.count(n) > 1}
    if dupes:
        sys.exit(f"duplicate scenario names: {sorted(dupes)}")
    return mod.SCENARIOS


def record(exe, sc, out_dir):
    dest = out_dir / sc["name"]
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    problems = []

    # 1. author the HOME tree (prep commands may write targets) and store it
    with tempfile.TemporaryDirectory(prefix=TMP_PREFIX) as tmp:
        home = Path(tmp)
        materialise_from_spec(sc, home)
        for args in sc.get("prep", []):
            r = run_ref(exe, home, args, sc.get("env", {}))
            if r.returncode != 0:
                problems.append(f"prep {args} exited {r.returncode}: {r.stderr.decode(errors='replace')[-300:]}")
        apply_edits(sc, home)
        store_home(home, dest)

    (dest / "cmd").write_text("".join(a + "\n" for a in sc["cmd"]), encoding="utf-8")
    if sc.get("port_cmd"):
        # the port's spelling of the same command (a deliberate divergence, README.md)
        (dest / "port_cmd").write_text("".join(a + "\n" for a in sc["port_cmd"]), encoding="utf-8")
    if sc.get("env"):
        (dest / "env").write_text("".join(f"{k}={v}\n" for k, v in sorted(sc["env"].items())), encoding="utf-8")

    # 2. run the command on a HOME rebuilt from the stored form, as the replay does
    exp = dest / "expected"
    exp.mkdir()
    with tempfile.TemporaryDirectory(prefix=TMP_PREFIX) as tmp:
        home = Path(tmp)
        materialise_stored(dest, home)
        names = scenario_names(home)
        r = run_ref(exe, home, sc["cmd"], sc.get("env", {}))
        homes = home_variants(home)
        stdout = unsub_home(r.stdout, homes)
        stderr = unsub_home(r.stderr, homes)
        (exp / "exit").write_text(f"{r.returncode}\n")
        (exp / "stdout").write_bytes(stdout)
        err_text = stderr.decode("utf-8", errors="replace")
        if "Traceback" in err_text:
            # never store reference internals; the scenario needs rework
            problems.append("reference printed a traceback (not stored)")
            stderr = b"(reference traceback omitted)\n"
            err_text = stderr.decode()
        (exp / "stderr").write_bytes(stderr)
        if "facts" in sc:
            facts = list(sc["facts"])
        else:
            facts = derive_facts(err_text, names)
            facts += [f for f in sc.get("facts_add", []) if f not in facts]
            facts = [f for f in facts if f not in sc.get("facts_drop", [])]
        (exp / "facts").write_text("".join(f + "\n" for f in facts), encoding="utf-8")
        (exp / "after.manifest").write_text("".join(l + "\n" for l in manifest(home)), encoding="utf-8")
        after = exp / "after"
        after.mkdir()
        parsed_only = {line.split(None, 1)[1] for line in sc.get("divergence", [])
                       if line.startswith("file-parsed-equal ")}
        for p in walk(home):
            if p.is_file() and not p.is_symlink():
                data = unsub_home(p.read_bytes(), homes)
                rel = p.relative_to(home).as_posix()
                if rel in parsed_only:
                    data = strip_comment_lines(data, rel)
                write_file(after / rel, data)
        if sc.get("divergence"):
            (exp / "divergence").write_text("".join(l + "\n" for l in sc["divergence"]), encoding="utf-8")
    return r.returncode, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="record only scenarios whose name contains this")
    ap.add_argument("--out", default=str(HERE / "scenarios"), help="output dir (default: tests/parity/scenarios)")
    opts = ap.parse_args()
    os.umask(0o022)
    exe = reference_binary()
    scenarios = load_scenarios()
    out_dir = Path(opts.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    if not opts.only:
        wanted = {s["name"] for s in scenarios}
        for stale in sorted(out_dir.iterdir()):
            if stale.name not in wanted:
                shutil.rmtree(stale) if stale.is_dir() else stale.unlink()
    failed = False
    for sc in scenarios:
        if opts.only and opts.only not in sc["name"]:
            continue
        code, problems = record(exe, sc, out_dir)
        print(f"{sc['name']}: exit {code}")
        for p in problems:
            failed = True
            print(f"  PROBLEM: {p}", file=sys.stderr)
    pending = HERE / "pending.txt"
    if pending.exists():
        names = {s["name"] for s in scenarios}
        for line in pending.read_text(encoding="utf-8").splitlines():
            line = line.split("#", 1)[0].strip()
            if line and line not in names:
                print(f"pending.txt names an unknown scenario: {line}", file=sys.stderr)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
