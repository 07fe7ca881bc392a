#!/usr/bin/env python3
"""Check twsrt's generated files against the real clients that read them.

`make test-clients` runs this after scripts/install-clients.sh. For every
policy case (the example policy, its yolo mode, and the edge policies in
tests/clients/policies/) it runs `twsrt generate -w` into a scratch HOME and
asks Codex CLI, Claude Code and Copilot CLI what they make of the result
(Gemini CLI's checks are in gemini.py, `--only gemini`; OpenCode's in
opencode.py, `--only opencode`; the managed files of `generate --scope
managed` in managed.py, `--only managed`; Claude Code's settings schema in
claude_schema.py, `--only claude-schema`; OpenCode's files around its config in
opencode_layers.py, `--only opencode-layers`).
It then measures the known Codex gaps twsrt warns about (each must still be
there, and the warning too), and finally breaks one generated file per check
(a "mutant") and requires that check to fail, so a check that cannot fail is
caught too. doc/clients.md says what each check proves.

Nothing may reach the network. The checks run in a network namespace of
their own (only a loopback interface) with a private /tmp, via
`unshare --net --mount`, when the machine allows it (root), and in any case
every proxy variable points at a dead local port
(http://127.0.0.1:9), Claude Code's non-essential traffic is switched off,
update checks are off, and `codex doctor` is never run (it has no offline
switch). The clients get a scrubbed environment: no API keys or tokens.

Usage: run.py --twsrt PATH [--bin DIR] [--only CASE] [--no-mutants] [--keep]
Exit status 0 when every check passed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import re
import shlex
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
POLICIES = Path(__file__).resolve().parent / "policies"
DEAD_PROXY = "http://127.0.0.1:9"
TIMEOUT = 90
# A host no allowedDomains entry of any case matches.
CANARY_HOST = "twsrt-canary.invalid"
# Stable fragment of twsrt's warning about Codex's network_proxy feature.
NETWORK_PROXY_WARNING = "experimental network_proxy feature"


@dataclass
class Case:
    name: str
    source: Path
    yolo: bool = False


CASES = [
    Case("example", ROOT / "example"),
    Case("yolo", ROOT / "example", yolo=True),
    Case("globs", POLICIES / "globs"),
    Case("relative", POLICIES / "relative"),
    Case("sockets", POLICIES / "sockets"),
    Case("overrides", POLICIES / "overrides"),
    Case("credentials", POLICIES / "credentials"),
]


class CheckFailed(Exception):
    pass


# --------------------------------------------------------------------------
# Network isolation


def bring_loopback_up() -> None:
    """`ip link set lo up` without needing iproute2."""
    siocgifflags, siocsifflags, iff_up = 0x8913, 0x8914, 0x1
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        ifreq = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(s, siocgifflags, ifreq))[1]
        fcntl.ioctl(s, siocsifflags, struct.pack("16sH14x", b"lo", flags | iff_up))


OLD_TMP: Path | None = None


def private_tmp() -> None:
    """Give this mount namespace an empty /tmp of its own.

    The example policy makes /tmp a Codex workspace root, and Codex walks
    every workspace root for the deny globs when a command starts; another
    program removing its temp files during that walk makes the command fail
    (a gap twsrt warns about). A private /tmp keeps the checks deterministic.
    The real /tmp stays reachable under OLD_TMP (for a twsrt binary or a
    client cache that lives there, and for the scratch tree)."""
    global OLD_TMP
    keep = Path(tempfile.mkdtemp(prefix="twsrt-clients-tmp-", dir="/run"))
    subprocess.run(["mount", "--bind", "/tmp", str(keep)], check=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "mode=1777", "twsrt-clients-tmp", "/tmp"],
                   check=True)
    OLD_TMP = keep


def release_private_tmp() -> None:
    if OLD_TMP is not None:
        subprocess.run(["umount", "-l", str(OLD_TMP)], capture_output=True)
        try:
            OLD_TMP.rmdir()
        except OSError:
            pass


def outside(path: Path) -> Path:
    """A path as seen from inside the private /tmp."""
    path = path.absolute()
    if OLD_TMP is not None and (path == Path("/tmp") or Path("/tmp") in path.parents):
        return OLD_TMP / path.relative_to("/tmp")
    return path


def isolate() -> str:
    """Re-run this script, once, in fresh network and mount namespaces (only a
    loopback interface, a private /tmp). Returns how the run is isolated."""
    if os.environ.get("TWSRT_CLIENTS_NETNS") == "1":
        bring_loopback_up()
        private_tmp()
        return "own network namespace (loopback only), private /tmp, dead proxies"
    unshare = shutil.which("unshare")
    flags = ["--net", "--mount", "--propagation", "private"]
    if os.environ.get("TWSRT_CLIENTS_NETNS") != "0" and unshare:
        probe = subprocess.run([unshare, *flags, "true"], capture_output=True)
        if probe.returncode == 0:
            env = dict(os.environ, TWSRT_CLIENTS_NETNS="1")
            sys.stdout.flush()
            os.execve(unshare, [unshare, *flags, sys.executable, *sys.argv], env)
    return ("dead proxies only (unshare --net --mount is not permitted here; "
            "a busy /tmp can make the example's Codex checks flaky)")


# --------------------------------------------------------------------------
# Environment and processes


@dataclass
class Env:
    """One scratch world: HOME, project directory and TMPDIR."""

    root: Path
    bin: Path

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def proj(self) -> Path:
        return self.root / "proj"

    @property
    def tmp(self) -> Path:
        # Outside HOME, so it never contains CODEX_HOME.
        return self.root / "tmp"

    @property
    def codex_home(self) -> Path:
        return self.home / ".codex"

    def vars(self) -> dict[str, str]:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "CODEX_HOME": str(self.codex_home),
            "TMPDIR": str(self.tmp),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
            "XDG_DATA_HOME": str(self.home / ".local/share"),
            "XDG_STATE_HOME": str(self.home / ".local/state"),
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "TERM": "xterm-256color",
            "NO_COLOR": "1",
            "RUST_BACKTRACE": "0",
            "NO_UPDATE_NOTIFIER": "1",
            "DISABLE_AUTOUPDATER": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "NO_PROXY": "",
            "no_proxy": "",
        }
        for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
            env[name] = env[name.lower()] = DEAD_PROXY
        return env

    def run(self, argv: list[str], cwd: Path | None = None, timeout: int = TIMEOUT):
        try:
            return subprocess.run(
                [str(a) for a in argv],
                cwd=cwd or self.proj,
                env=self.vars(),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                errors="replace",
                timeout=timeout,
            )
        except subprocess.TimeoutExpired as e:
            raise CheckFailed(f"timed out after {timeout} s: {shlex.join(map(str, argv))}") from e

    def client(self, name: str) -> str:
        return str(self.bin / name)


def one_line(text: str, limit: int = 300) -> str:
    text = " | ".join(line.strip() for line in text.strip().splitlines() if line.strip())
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --------------------------------------------------------------------------
# The policy under test and the files it plants


def expand(pattern: str, env: Env) -> Path:
    if pattern == "~" or pattern.startswith("~/"):
        return env.home / pattern[2:]
    if pattern.startswith("/"):
        return Path(pattern)
    while pattern.startswith("./"):
        pattern = pattern[2:]
    return env.proj / pattern


def is_glob(pattern: str) -> bool:
    return any(c in pattern for c in "*?[")


def glob_sample(pattern: str) -> str:
    """One concrete path the glob matches."""
    sample = pattern.replace("**/", "twsrt-sub/").replace("**", "twsrt-sub/twsrt-probe")
    sample = re.sub(r"\[([^\]]*)\]", lambda m: m.group(1).lstrip("!^")[:1] or "x", sample)
    return sample.replace("*", "twsrt-probe").replace("?", "x")


def looks_like_file(path: Path) -> bool:
    name = path.name
    return bool(re.search(r".\.[A-Za-z0-9]+$", name)) or name in {
        ".netrc", ".bashrc", ".zshrc", ".gitconfig", ".env", "Makefile", "credentials", "config",
    }


def under(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
        return True
    except ValueError:
        return False


@dataclass
class Probe:
    kind: str  # "secret" (unreadable), "readonly" (readable, not writable),
    # "writable" (a file can be created), "project" (readable)
    rule: str
    path: Path
    content: str = ""


@dataclass
class World:
    case: Case
    env: Env
    config: dict
    srt: dict = field(default_factory=dict)
    bash: dict = field(default_factory=dict)
    probes: list[Probe] = field(default_factory=list)
    generate_stderr: str = ""
    # (rule, path) of the agents' guard files, probed after the real run.
    guards: list = field(default_factory=list)

    def config_path(self, key: str, default: str | None = None) -> Path | None:
        value = self.config.get("targets", {}).get(key, default)
        if value is None:
            return None
        return expand(value, self.env) if value.startswith("~") else self.env.proj / value


def plant(world: World) -> None:
    """Create what the policy protects, so the checks have something to read."""
    env, fs = world.env, world.srt.get("filesystem", {})
    n = 0
    # The directories of the files the agents' targets write.
    guard_dirs = {expand(v, env).parent for v in world.config.get("targets", {}).values()
                  if isinstance(v, str)}

    def secret(rule: str, kind: str, path: Path, as_file: bool) -> None:
        nonlocal n
        if not under(path, env.root):
            return  # never touch anything outside the scratch tree
        n += 1
        # Content no path or error message can contain by chance.
        content = f"CONTENT-{kind.upper()}-{n}-{os.urandom(4).hex()}"
        target = path if as_file else path / "twsrt-secret"
        if target.exists() and target.is_dir():
            target = target / "twsrt-secret"
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            # A planted settings file must stay one its agent loads (Claude
            # Code refuses every project setting beside a file that is not
            # JSON): the marker goes into a key that changes nothing.
            planted = json.dumps({"$schema": content}) if target.suffix == ".json" else content
            target.write_text(planted + "\n")
        else:
            # An existing file (a policy file twsrt write-denies): the probe
            # reads its first 200 bytes, so a prefix of them identifies it.
            content = target.read_text()[:120]
        world.probes.append(Probe(kind, rule, target, content))

    def glob_samples(rule: str) -> list[Path]:
        """A match in a subdirectory and, for `**/`, one at the top too."""
        samples = [expand(glob_sample(rule), env)]
        if "**/" in rule:
            samples.append(expand(glob_sample(rule.replace("**/", "", 1)), env))
        return samples

    for rule in fs.get("denyRead", []):
        if is_glob(rule):
            for sample in glob_samples(rule):
                secret(rule, "secret", sample, True)
        else:
            path = expand(rule, env)
            secret(rule, "secret", path, looks_like_file(path) and not path.is_dir())
    # srt's declared credential files: a read deny of every agent (issue 33).
    for entry in world.srt.get("credentials", {}).get("files", []):
        path = expand(entry["path"], env)
        secret(entry["path"], "secret", path, True)
    for rule in fs.get("denyWrite", []):
        if rule in fs.get("denyRead", []):
            continue  # denyRead implies denyWrite: probed above as unreadable
        if is_glob(rule):
            # Codex cannot make a glob read-only; twsrt compiles it to deny.
            for sample in glob_samples(rule):
                secret(rule, "secret", sample, True)
        else:
            path = expand(rule, env)
            if path.parent in guard_dirs and not path.exists():
                # An agent's own guard file (issue 27): `generate -w` writes
                # it, so it is probed once that run has written it.
                world.guards.append((rule, path))
                continue
            secret(rule, "readonly", path, not path.is_dir())
    denied = [expand(r, env) for r in fs.get("denyRead", []) + fs.get("denyWrite", [])
              if not is_glob(r)]
    for rule in fs.get("allowWrite", []):
        base = rule[:-3] if rule.endswith("/**") else rule
        if is_glob(base):
            continue  # twsrt skips it for Codex (and says so)
        path = expand(base, env)
        if not under(path, env.root) and path != Path("/tmp"):
            continue
        if any(under(path, d) for d in denied):
            continue  # an allowWrite inside a deny: the deny wins
        path.mkdir(parents=True, exist_ok=True)
        world.probes.append(Probe("writable", rule, path))
    project = env.proj / "twsrt-project.txt"
    content = f"CONTENT-PROJECT-{os.urandom(4).hex()}"
    project.write_text(content + "\n")
    world.probes.append(Probe("project", "(a project file)", project, content))


def twsrt(world: World, twsrt_bin: Path, *args: str):
    argv = [twsrt_bin, "-c", world.env.proj / "config.toml", "generate", *args]
    if world.case.yolo:
        argv.append("--yolo")
    return world.env.run(argv)


def build_world(case: Case, root: Path, bin_dir: Path, twsrt_bin: Path,
                plant_files: bool = True) -> World:
    env = Env(root, bin_dir)
    if root.exists():
        shutil.rmtree(root)
    for d in (env.home, env.tmp):
        d.mkdir(parents=True)
    shutil.copytree(case.source, env.proj, ignore=shutil.ignore_patterns("out"))
    config = tomllib.loads((env.proj / "config.toml").read_text())
    world = World(case, env, config)
    # A first, throwaway run yields the canonical srt and bash documents.
    first = twsrt(world, twsrt_bin, "-w")
    if first.returncode != 0:
        raise CheckFailed(f"twsrt generate -w failed: {one_line(first.stderr)}")
    sources = config["sources"]
    world.srt = json.loads((env.proj / sources["srt"]["output"]).read_text())
    world.bash = json.loads((env.proj / sources["bash"]["output"]).read_text())
    shutil.rmtree(env.home)
    env.home.mkdir()
    if plant_files:
        plant(world)
    # The run under test: the secrets exist, as they would for a user. With
    # -v, so its stderr holds the measured agent limits too (shown only
    # with -v since issue 30), which the gap checks look for.
    result = twsrt(world, twsrt_bin, "-w", "-v")
    if result.returncode != 0:
        raise CheckFailed(f"twsrt generate -w failed: {one_line(result.stderr)}")
    world.generate_stderr = result.stderr
    for rule, path in world.guards:
        if path.is_file() and not path.is_symlink():
            world.probes.append(Probe("readonly", rule, path, path.read_text()[:120]))
    return world


# --------------------------------------------------------------------------
# Codex


def codex_sandbox(world: World, *argv: str, extra: tuple[str, ...] = ()):
    return world.env.run([world.env.client("codex"), "sandbox", *extra, "--", *argv])


def check_codex_load(world: World) -> list[str]:
    """`codex sandbox -- true` loads config.toml and builds the twsrt profile."""
    result = codex_sandbox(world, "true")
    if result.returncode != 0:
        return [f"codex sandbox -- true exited {result.returncode}: "
                f"{one_line(result.stderr + result.stdout)}"]
    return []


def probe_script(probes: list[Probe]) -> str:
    lines = []
    for i, p in enumerate(probes):
        q = shlex.quote(str(p.path))
        lines.append(f"echo '@@{i} read'; head -c 200 -- {q} 2>&1; echo; echo \"@@rc=$?\"")
        if p.kind == "readonly":
            lines.append(f"echo '@@{i} write'; (: >> {q}) 2>&1; echo \"@@rc=$?\"")
        if p.kind == "writable":
            name = shlex.quote(str(p.path / f"twsrt-probe-{os.getpid()}-{i}"))
            lines.append(f"echo '@@{i} create'; (set -C; : > {name}) 2>&1; echo \"@@rc=$?\"")
    return "\n".join(lines) + "\n"


def parse_probe_output(text: str) -> dict[tuple[int, str], tuple[int, str]]:
    results = {}
    for block in re.split(r"^@@(?=\d+ )", text, flags=re.M)[1:]:
        header, _, rest = block.partition("\n")
        index, op = header.split()
        body, _, rc = rest.rpartition("@@rc=")
        results[(int(index), op)] = (int(rc.strip() or -1), body)
    return results


def check_codex_files(world: World) -> list[str]:
    """Inside `codex sandbox`, each denied path is unreadable, each denyWrite
    file readable but not writable, each allowWrite root writable, and a
    project file readable."""
    probes = [p for p in world.probes if p.kind != "writable" or p.path.is_dir()]
    result = codex_sandbox(world, "sh", "-c", probe_script(probes))
    if result.returncode != 0 and "@@" not in result.stdout:
        return [f"codex sandbox could not run the probes (exit {result.returncode}): "
                f"{one_line(result.stderr)}"]
    got = parse_probe_output(result.stdout)
    failures = []
    for i, p in enumerate(probes):
        rc, out = got.get((i, "read"), (-1, "(no result)"))
        leaked = p.content and p.content in out
        if p.kind == "secret" and leaked:
            failures.append(f"denied {p.rule}: {p.path} is readable in the sandbox")
        if p.kind in ("project", "readonly") and not leaked:
            failures.append(f"{p.rule}: {p.path} is not readable in the sandbox: {one_line(out)}")
        if p.kind == "readonly":
            rc, out = got.get((i, "write"), (-1, "(no result)"))
            if rc == 0:
                failures.append(f"denyWrite {p.rule}: {p.path} is writable in the sandbox")
        if p.kind == "writable":
            rc, out = got.get((i, "create"), (-1, "(no result)"))
            for leftover in p.path.glob(f"twsrt-probe-{os.getpid()}-{i}"):
                leftover.unlink()
            if rc != 0:
                failures.append(f"allowWrite {p.rule}: cannot create a file in {p.path}: "
                                f"{one_line(out)}")
    return failures


def rule_words(rule: str) -> list[str]:
    return shlex.split(rule)


def check_codex_rules(world: World) -> list[str]:
    """`codex execpolicy check` forbids every bash deny rule, alone and with
    arguments after it, and forbids no command outside the deny rules."""
    rules_path = world.config_path("codex_rules")
    if rules_path is None:
        return []
    deny = [rule_words(r) for r in world.bash.get("deny", [])]

    def expected(cmd: list[str]) -> bool:
        return any(cmd[: len(d)] == d for d in deny)

    commands = []
    for words in deny:
        commands += [words, words + ["--twsrt-extra", "arg"]]
        # Near misses: the rule without its last word, or with it changed.
        commands += [words[:-1] + ["twsrt-other"], words[:-1] + [words[-1] + "x"]]
    for rule in world.bash.get("allow", []) + world.bash.get("ask", []):
        commands.append(rule_words(rule) + ["arg"])
    commands += [["ls", "-la"], ["echo", "hello"], ["git", "status"], ["cat", "README.md"]]
    failures, seen = [], set()
    codex = world.env.client("codex")
    for cmd in commands:
        if not cmd or tuple(cmd) in seen:
            continue
        seen.add(tuple(cmd))
        result = world.env.run([codex, "execpolicy", "check", "--rules", rules_path, *cmd])
        if result.returncode != 0:
            return [f"codex execpolicy check refused {rules_path}: {one_line(result.stderr)}"]
        decision = json.loads(result.stdout).get("decision")
        forbidden = decision == "forbidden"
        if forbidden != expected(cmd):
            want = "forbidden" if expected(cmd) else "no match"
            failures.append(f"{shlex.join(cmd)}: codex says {decision or 'no match'}, "
                            f"the policy wants {want}")
    return failures


def check_codex_network(world: World) -> list[str]:
    """twsrt owns `[features] network_proxy = true` beside the domain lists
    (without it Codex ignores them and a sandboxed command reaches any host).
    With the file as twsrt wrote it, a plain `codex sandbox` routes traffic
    through Codex's proxy, which refuses the first denied domain and a host
    outside the allowlist (decided locally, nothing is sent); a connection
    around the proxy fails; and
    without the feature (the gap twsrt closes) no proxy is active."""
    failures = []
    network = world.srt.get("network", {})
    if NETWORK_PROXY_WARNING in world.generate_stderr:
        failures.append("twsrt generate still warns that Codex ignores the domain lists")
    config = codex_config(world)
    if not re.search(r"^\[features\]\nnetwork_proxy = true$", config.read_text(), re.M):
        failures.append("twsrt did not write [features] network_proxy = true")
    result = world.env.run([world.env.client("codex"), "features", "list"])
    if not re.search(r"^network_proxy\s.*\btrue\s*$", result.stdout, re.M):
        failures.append(f"codex features list does not show network_proxy on: "
                        f"{one_line(result.stderr)}")
    probe = "printf 'proxy=%s\\n' \"${CODEX_NETWORK_PROXY_ACTIVE:-off}\""
    if "proxy=off" in codex_sandbox(world, "sh", "-c", probe).stdout:
        failures.append("with the file twsrt wrote, Codex routes nothing through its proxy")
    hosts = [(h, "blocked-by-denylist") for h in network.get("deniedDomains", [])[:1]]
    hosts.append((CANARY_HOST, "blocked-by-allowlist"))
    for host, verdict in hosts:
        host = host.replace("*.", "twsrt-probe.")
        curl = f"curl -sS -o /dev/null -D - --max-time 10 https://{host}/ 2>&1"
        result = codex_sandbox(world, "sh", "-c", curl)
        if verdict not in result.stdout.lower():
            failures.append(f"Codex's proxy did not answer {host} with {verdict}: "
                            f"{one_line(result.stdout + result.stderr)}")
    around = "curl --noproxy '*' -sS -o /dev/null --max-time 5 http://127.0.0.1:9/ 2>&1; echo rc=$?"
    result = codex_sandbox(world, "sh", "-c", around)
    if "rc=0" in result.stdout:
        failures.append("a connection around Codex's proxy succeeded")
    # The gap twsrt closes: the same file without the feature has no proxy.
    text = config.read_text()
    config.write_text(text.replace("[features]\nnetwork_proxy = true\n\n", "", 1))
    result = codex_sandbox(world, "sh", "-c", probe)
    config.write_text(text)
    if "proxy=off" not in result.stdout:
        failures.append("gap closed? without network_proxy Codex now routes sandboxed traffic "
                        f"through its proxy ({one_line(result.stdout + result.stderr)}): "
                        "re-measure and revisit twsrt's ownership of the feature")
    return failures


# --------------------------------------------------------------------------
# Claude Code

TMUX_SOCKET: Path | None = None


def run_in_tmux(env: Env, argv: list[str], tag: str) -> tuple[int, str]:
    """Run argv on a terminal (a detached tmux pane) and return its exit status
    and output. tmux runs on a private socket, so the pane inherits this
    process's network namespace, never another tmux server's."""
    out, rc_file, script = (env.root / f"{tag}.{s}" for s in ("out", "rc", "sh"))
    for f in (out, rc_file):
        f.unlink(missing_ok=True)
    exports = "".join(f"export {k}={shlex.quote(v)}\n" for k, v in env.vars().items())
    script.write_text(
        f"{exports}cd {shlex.quote(str(env.proj))}\n"
        f"{shlex.join(argv)} > {shlex.quote(str(out))} 2>&1\n"
        f"echo $? > {shlex.quote(str(rc_file))}\n"
        f"tmux -S {shlex.quote(str(TMUX_SOCKET))} wait-for -S {tag}\n"
    )
    tmux = ["tmux", "-S", str(TMUX_SOCKET), "-f", "/dev/null"]
    subprocess.run([*tmux, "new-session", "-d", "-x", "200", "-y", "50", "sh", str(script)],
                   check=True, env=env.vars())
    try:
        subprocess.run([*tmux, "wait-for", tag], timeout=TIMEOUT, check=True)
    except subprocess.TimeoutExpired as e:
        raise CheckFailed(f"timed out after {TIMEOUT} s in tmux: {shlex.join(argv)}") from e
    return int(rc_file.read_text().strip() or -1), out.read_text(errors="replace")


def check_claude_doctor(world: World) -> list[str]:
    """`claude doctor` (on a terminal) lists no invalid setting and no skipped
    rule for the settings twsrt wrote (settings.json, the symlink)."""
    rc, out = run_in_tmux(world.env, [world.env.client("claude"), "doctor"], "doctor")
    if "Claude Code doctor" not in out:
        return [f"claude doctor did not run (exit {rc}): {one_line(out)}"]
    failures = []
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if line.strip() == "Invalid settings":
            for item in lines[i + 1:]:
                if not item.strip():
                    break
                failures.append(f"claude doctor: {item.strip()}")
    for line in lines:
        if re.search(r"was skipped|did not load|Invalid permission rule", line) and \
                f"claude doctor: {line.strip()}" not in failures:
            failures.append(f"claude doctor: {line.strip()}")
    return failures


CLAUDE_COMPLAINT = re.compile(
    r"rule|setting|permission|sandbox|skipped|invalid|did not load|known tool", re.I)


def check_claude_print(world: World) -> list[str]:
    """`claude -p` (no login) reaches the login check and warns about nothing
    in the settings: no rule that matches no known tool, no skipped entry."""
    result = world.env.run([world.env.client("claude"), "-p", "twsrt client check"])
    text = result.stdout + result.stderr
    failures = [f"claude -p: {line.strip()}" for line in result.stderr.splitlines()
                if CLAUDE_COMPLAINT.search(line)]
    if "Not logged in" not in text:
        failures.append(f"claude -p did not reach the login check (exit {result.returncode}): "
                        f"{one_line(text)}")
    return failures


# --------------------------------------------------------------------------
# Copilot CLI


def copilot_snippet(world: World) -> Path:
    key = "copilot_output_yolo" if world.case.yolo else "copilot_output"
    default = None
    path = world.config_path(key, default)
    if path is None and world.case.yolo:
        base = world.config_path("copilot_output")
        path = base.with_name(base.stem + ".yolo" + base.suffix) if base else None
    if path is None:
        raise CheckFailed(f"the case sets no {key}")
    return path


def check_copilot_flags(world: World) -> list[str]:
    """The flag snippet, pasted into a launch command as documented, parses:
    without a login Copilot stops at the login error, not at a flag error."""
    snippet = copilot_snippet(world).read_text()
    script = world.env.root / "copilot-launch.sh"
    script.write_text('exec "$1" \\\n' + snippet + "  -p 'twsrt client check'\n")
    result = world.env.run(["bash", script, world.env.client("copilot")])
    text = result.stdout + result.stderr
    failures = [f"copilot: {line.strip()}" for line in text.splitlines()
                if re.search(r"invalid|unknown option|error: (?!no authentication)", line, re.I)]
    if "No authentication information found" not in text:
        failures.append(f"copilot did not reach the login check (exit {result.returncode}): "
                        f"{one_line(text)}")
    return failures


# --------------------------------------------------------------------------
# Known gaps: what Codex does wrong with a valid profile. Each one must still
# be there (else twsrt's warning and SECURITY_CONCEPT.md need revisiting) and
# twsrt must warn about it.


def gap_new_glob_file(world: World) -> tuple[bool, str]:
    script = "echo CONTENT-NEW > twsrt-new.pem && cat twsrt-new.pem"
    result = codex_sandbox(world, "sh", "-c", script)
    (world.env.proj / "twsrt-new.pem").unlink(missing_ok=True)
    present = "CONTENT-NEW" in result.stdout
    return present, ("a new file matching the deny glob **/*.pem was created and read back"
                     if present else f"refused: {one_line(result.stdout + result.stderr)}")


def gap_sandbox_fails(world: World) -> tuple[bool, str]:
    result = codex_sandbox(world, "true")
    return sandbox_failure(result)


def gap_sandbox_fails_in_home(world: World) -> tuple[bool, str]:
    """Codex started in HOME, which makes HOME its workspace: the rules
    relative to it under the missing `kube` then need a mount point."""
    codex = world.env.client("codex")
    return sandbox_failure(world.env.run([codex, "sandbox", "--", "true"], cwd=world.env.home))


def sandbox_failure(result) -> tuple[bool, str]:
    present = result.returncode != 0 and "bwrap" in result.stderr
    return present, (one_line(result.stderr) if present else
                     f"codex sandbox -- true exited {result.returncode}")


GAPS = [
    ("gap-glob", "expands deny globs only when a command starts", gap_new_glob_file),
    ("gap-parent", "two or more rules lie under one directory that does not exist",
     gap_sandbox_fails_in_home),
    ("gap-protected", "keeps .git, .codex and .agents read-only", gap_sandbox_fails),
]


def run_gaps(report: Report, scratch: Path, bin_dir: Path) -> None:
    for name, warning, measure in GAPS:
        start = time.monotonic()
        failures, note = [], ""
        try:
            world = build_world(Case(name, POLICIES / name), scratch / name, bin_dir, TWSRT_BIN,
                                plant_files=False)
            if warning not in world.generate_stderr:
                failures.append(f"twsrt generate no longer warns about it ({warning!r})")
            present, detail = measure(world)
            if present:
                note = f"still there: {detail}"
            else:
                failures.append(f"gap closed? {detail}: re-measure, then drop or reword twsrt's "
                                "warning and the SECURITY_CONCEPT.md entry")
        except CheckFailed as e:
            failures.append(str(e))
        report.result(f"codex {name}", failures, time.monotonic() - start, note)


# --------------------------------------------------------------------------
# The launch guard: `twsrt audit`'s grammar tables against the real --help,
# and `twsrt run` starting each real client in a harmless mode


# The agents whose tables are compared here (Gemini's yargs pages are read by
# gemini_launch.py). Every table `--dump-grammar` prints is compared with the
# --help page of its command line (`codex exec resume` -> `codex exec resume
# --help`): the top level, each session subcommand and each group.
AGENTS = ["codex", "claude", "copilot"]
HELP_OPTION = re.compile(r"^( {2,6})(-.*)$")
HELP_VALUE = re.compile(r"^(<[^>]*>(\.\.\.)?|\[[^\]]*\](\.\.\.)?)")


def help_arity(rest: str) -> str:
    """The arity a --help line shows after the option's spellings."""
    m = HELP_VALUE.match(rest)
    if not m:
        return "flag"
    token = m.group(0)
    many = token.endswith("...") or "...>" in token or "...]" in token
    if token.startswith("["):
        return "optional-many" if many else "optional"
    return "many" if many else "value"


def help_grammar(text: str) -> tuple[set[tuple[str, str]], set[str]]:
    """(spellings, arity) of every option, and every subcommand name, of a --help page."""
    options, commands, section = set(), set(), None
    for line in text.splitlines():
        if re.match(r"^\S.*:$", line):
            section = line[:-1]
            continue
        if section == "Commands":
            m = re.match(r"^  (\S+)", line)
            if m:
                commands.update(m.group(1).split("|"))
            commands.update(a.strip() for found in re.findall(r"\[aliases: ([^\]]+)\]", line)
                            for a in found.split(","))
            continue
        m = HELP_OPTION.match(line) if section == "Options" else None
        if not m:
            continue
        body, names = m.group(2), []
        while (nm := re.match(r"^(-[-A-Za-z0-9]+)(, )?", body)):
            names.append(nm.group(1))
            body = body[nm.end():]
            if not nm.group(2):
                break
        if names:
            rest = "" if body.startswith("  ") else body.lstrip(" ")
            options.add((",".join(sorted(names)), help_arity(rest)))
    return options, commands


def table_grammar(dump: str, table: str) -> tuple[set[tuple[str, str]], set[str], list[str]]:
    """The same sets from `twsrt audit --dump-grammar`, plus the hidden spellings.
    A subcommand line is `TABLE command NAMES KIND` (table, pass or refuse)."""
    options, commands, hidden = set(), set(), []
    for line in dump.splitlines():
        parts = line.split("\t")
        if parts[0] != table:
            continue
        if parts[1] == "command":
            commands.update(parts[2].split(","))
        elif len(parts) > 3 and parts[3] == "hidden":
            hidden.append(parts[1])
        else:
            options.add((",".join(sorted(parts[1].split(","))), parts[2]))
    return options, commands, hidden


def dumped_tables(dump: str) -> list[str]:
    """Every table name of a dump, in order."""
    names: list[str] = []
    for line in dump.splitlines():
        name = line.split("\t")[0]
        if name not in names:
            names.append(name)
    return names


def compare_grammar(table: str, help_text: str, dump: str) -> list[str]:
    want_opts, want_cmds = help_grammar(help_text)
    have_opts, have_cmds, _ = table_grammar(dump, table)
    failures = []
    for what, want, have in (("option", want_opts, have_opts), ("subcommand", want_cmds, have_cmds)):
        for item in sorted(want - have):
            failures.append(f"{table}: --help has {what} {item} that the grammar table lacks")
        for item in sorted(have - want):
            failures.append(f"{table}: the grammar table has {what} {item} that --help lacks")
    return failures


def check_grammar(env: Env, agent: str) -> tuple[list[str], str]:
    dump = env.run([TWSRT_BIN, "audit", "--dump-grammar", agent], cwd=env.root)
    if dump.returncode != 0:
        return [f"twsrt audit --dump-grammar {agent} exited {dump.returncode}"], ""
    failures, counted = [], 0
    tables = dumped_tables(dump.stdout)
    for table in tables:
        sub = table.split()[1:]
        page = env.run([env.client(agent), *sub, "--help"], cwd=env.root)
        if page.returncode != 0:
            failures.append(f"{table} --help exited {page.returncode}")
            continue
        found = compare_grammar(table, page.stdout, dump.stdout)
        failures += found
        # The comparison can fail: a table without its first option must.
        mine = [line for line in dump.stdout.splitlines() if line.split("\t")[0] == table]
        mutated = "\n".join(line for line in dump.stdout.splitlines() if line != mine[0])
        if not found and not compare_grammar(table, page.stdout, mutated):
            failures.append(f"{table}: the comparison missed a removed option")
        counted += len(table_grammar(dump.stdout, table)[0])
        # Hidden spellings are not in --help: the client must still accept
        # them (clap and commander refuse an unknown option before --help).
        for spelling in table_grammar(dump.stdout, table)[2]:
            probe = env.run([env.client(agent), *sub, spelling, "--help"], cwd=env.root)
            if probe.returncode != 0:
                failures.append(f"{table}: hidden {spelling} is refused now: "
                                f"{one_line(probe.stderr)}")
    return failures, f"{counted} options of {len(tables)} tables match --help"


def check_run(world: World, agent: str) -> list[str]:
    """`twsrt run -- AGENT --version`: the files are written, the audit passes
    (Copilot's generated flags appended), and the real client starts."""
    client = world.env.client(agent)
    argv = [TWSRT_BIN, "-c", world.env.proj / "config.toml", "run", "--", client, "--version"]
    result = world.env.run(argv)
    failures = []
    if result.returncode != 0 or not re.search(r"\d+\.\d+\.\d+", result.stdout):
        failures.append(f"twsrt run -- {agent} --version exited {result.returncode}: "
                        f"{one_line(result.stdout + result.stderr)}")
    if re.search(r"^(Error|Warning): ", result.stderr, re.M):
        failures.append(f"twsrt run said more than it should: {one_line(result.stderr)}")
    twsrt_flags, risky = RISKY[agent]
    refused = world.env.run([TWSRT_BIN, "-c", world.env.proj / "config.toml", "run",
                             *twsrt_flags, "--", client, risky, "--version"])
    if refused.returncode != 1 or refused.stdout:
        failures.append(f"twsrt run -- {agent} {risky} was not refused "
                        f"(exit {refused.returncode}): {one_line(refused.stdout)}")
    return failures


# Subcommands `twsrt run` starts with the real client: (argv, what the client
# prints). Sessions are audited and started (`--help` keeps them from
# starting a model turn); the others pass through untouched.
SUBCOMMAND_RUNS = [
    (["codex", "resume", "--help"], "Usage: codex resume"),
    (["codex", "fork", "--help"], "Usage: codex fork"),
    (["codex", "exec", "resume", "--help"], "Usage: codex exec resume"),
    (["codex", "mcp", "list"], "No MCP servers configured"),
    (["claude", "mcp", "list"], "No MCP servers configured"),
    (["claude", "mcp", "--help"], "Usage: claude mcp"),
    (["copilot", "mcp", "--help"], "Usage: copilot mcp"),
]


def check_run_subcommands(world: World) -> list[str]:
    failures = []
    for argv, said in SUBCOMMAND_RUNS:
        client = world.env.client(argv[0])
        result = world.env.run([TWSRT_BIN, "-c", world.env.proj / "config.toml", "run", "--",
                                client, *argv[1:]])
        if result.returncode != 0 or said not in result.stdout + result.stderr:
            failures.append(f"twsrt run -- {' '.join(argv)} exited {result.returncode}: "
                            f"{one_line(result.stdout + result.stderr)}")
    # A subcommand twsrt cannot audit is refused before the client starts.
    refused = world.env.run([TWSRT_BIN, "-c", world.env.proj / "config.toml", "run", "--",
                             world.env.client("codex"), "app-server"])
    if refused.returncode != 2 or "command codex app-server" not in refused.stderr:
        failures.append(f"twsrt run -- codex app-server was not refused with the bypass hint "
                        f"(exit {refused.returncode}): {one_line(refused.stderr)}")
    return failures


# A launch `twsrt run` must refuse, so the client never starts: (run's own
# flags, the client flag). Copilot always gets its deny flags, so only
# --strict turns its widening flags into a refusal.
RISKY = {
    "codex": ([], "--dangerously-bypass-approvals-and-sandbox"),
    "claude": ([], "--restricted"),
    "copilot": (["--strict"], "--allow-all"),
}


def run_launch_guard(report: Report, scratch: Path, bin_dir: Path) -> None:
    env = Env(scratch / "grammar", bin_dir)
    for d in (env.home, env.tmp):
        d.mkdir(parents=True, exist_ok=True)
    for agent in AGENTS:
        start = time.monotonic()
        try:
            failures, note = check_grammar(env, agent)
        except CheckFailed as e:
            failures, note = [str(e)], ""
        report.result(f"grammar {agent}", failures, time.monotonic() - start, note)
    try:
        world = build_world(CASES[0], scratch / "launch", bin_dir, TWSRT_BIN, plant_files=False)
    except CheckFailed as e:
        report.result("twsrt run", [str(e)], 0.0)
        return
    for agent in AGENTS:
        run_check(report, f"twsrt run {agent}", lambda w, a=agent: check_run(w, a), world)
    run_check(report, "twsrt run subcommands", check_run_subcommands, world)
    import gemini_launch  # tests/clients/gemini_launch.py: Gemini CLI's yargs grammar

    gemini_launch.run_checks(sys.modules[__name__], report, scratch, bin_dir, True)


# --------------------------------------------------------------------------
# Mutants: one deliberately broken output per check


def edit_text(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    if old not in text:
        raise CheckFailed(f"mutant: {old!r} not found in {path}")
    path.write_text(text.replace(old, new, 1))


def edit_json(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2) + "\n")


def codex_config(w: World) -> Path:
    return w.config_path("codex_config", "~/.codex/config.toml")


def claude_settings(w: World) -> Path:
    return w.env.home / ".claude/settings.json"


def drop_rule_block(path: Path, first_word: str) -> None:
    text = path.read_text()
    block = re.search(r'\nprefix_rule\(\n    pattern = \["%s"\],.*?\n\)\n' % first_word, text, re.S)
    if not block:
        raise CheckFailed(f"mutant: no prefix_rule for {first_word} in {path}")
    path.write_text(text.replace(block.group(0), "\n", 1))


MUTANTS = [
    ("codex-load", "an access value Codex does not know ('readwrite')",
     lambda w: edit_text(codex_config(w), '"~/.ssh" = "deny"', '"~/.ssh" = "readwrite"')),
    ("codex-files", "the filesystem table misspelled (Codex ignores unknown keys)",
     lambda w: edit_text(codex_config(w), "[permissions.twsrt.filesystem]",
                         "[permissions.twsrt.filesytem]")),
    ("codex-files", "the project file denied",
     lambda w: edit_text(codex_config(w), '[permissions.twsrt.filesystem.":workspace_roots"]\n',
                         '[permissions.twsrt.filesystem.":workspace_roots"]\n'
                         '"twsrt-project.txt" = "deny"\n')),
    ("codex-rules", "the prefix_rule for sudo removed",
     lambda w: drop_rule_block(w.config_path("codex_rules"), "sudo")),
    ("codex-rules", "the git push --force rule cut to git push",
     lambda w: edit_text(w.config_path("codex_rules"), 'pattern = ["git", "push", "--force"]',
                         'pattern = ["git", "push"]')),
    ("codex-network", "a denied domain dropped from network.domains",
     lambda w: edit_text(codex_config(w), '"pastebin.com" = "deny"\n', "")),
    ("codex-network", "the network_proxy feature left out",
     lambda w: edit_text(codex_config(w), "[features]\nnetwork_proxy = true\n\n", "")),
    ("claude-doctor", "sandbox.enabled as a string",
     lambda w: edit_json(claude_settings(w),
                         lambda d: d["sandbox"].__setitem__("enabled", "false"))),
    ("claude-doctor", "a lower-case tool name in a deny rule",
     lambda w: edit_json(claude_settings(w),
                         lambda d: d["permissions"]["deny"].append("bash(rm)"))),
    ("claude-print", "a deny rule for a tool that does not exist",
     lambda w: edit_json(claude_settings(w),
                         lambda d: d["permissions"]["deny"].append("Reed(~/.aws)"))),
    ("copilot-flags", "an unbalanced parenthesis in a --deny-tool value",
     lambda w: edit_text(copilot_snippet(w), "'shell(sudo:*)'", "'shell(sudo:*'")),
]

CHECKS = {
    "codex-load": check_codex_load,
    "codex-files": check_codex_files,
    "codex-rules": check_codex_rules,
    "codex-network": check_codex_network,
    "claude-doctor": check_claude_doctor,
    "claude-print": check_claude_print,
    "copilot-flags": check_copilot_flags,
}


# --------------------------------------------------------------------------
# The guard hook (`[targets] claude_hook = true`)


def run_hook_checks(report: Report, scratch: Path, bin_dir: Path) -> None:
    """The settings with twsrt's PreToolUse entry pass `claude doctor` and
    `claude -p`; the entry's own command, run as Claude Code runs it (through
    a shell, the event on stdin), denies a read of a denyRead path; a
    crashing hook blocks the call only with the entry's onFailure; the
    sandbox mode runs opaque commands inside srt (run_sandbox_checks); and a
    broken entry makes `claude doctor` fail, so the check can fail.
    TWSRT_HOOK_DEBUG=1 prints every tool result Claude Code sent back."""
    case = Case("hook", POLICIES / "hook")
    start = time.monotonic()
    try:
        world = build_world(case, scratch / "hook", bin_dir, TWSRT_BIN)
        entries = json.loads(claude_settings(world).read_text())["hooks"]["PreToolUse"]
        command = next(h["command"] for e in entries for h in e["hooks"]
                       if "hook claude" in h["command"])
    except (CheckFailed, KeyError, StopIteration, ValueError) as e:
        report.result("hook: twsrt generate -w", [f"no hook entry: {e}"], time.monotonic() - start)
        return
    report.result("hook: twsrt generate -w", [], time.monotonic() - start)
    for name in ("claude-doctor", "claude-print"):
        run_check(report, f"hook: {name}", CHECKS[name], world)

    def answer(w: World) -> list[str]:
        event = {"session_id": "s", "transcript_path": "", "cwd": str(w.env.proj),
                 "permission_mode": "default", "hook_event_name": "PreToolUse",
                 "tool_name": "Bash", "tool_input": {"command": "cat ~/.ssh/id_rsa"},
                 "tool_use_id": "t"}
        result = subprocess.run(["sh", "-c", command], input=json.dumps(event), text=True,
                                capture_output=True, env=w.env.vars(), timeout=TIMEOUT)
        try:
            out = json.loads(result.stdout)["hookSpecificOutput"]
        except (ValueError, KeyError):
            return [f"hook command answered {result.stdout!r} (exit {result.returncode}): "
                    f"{one_line(result.stderr)}"]
        return [] if out.get("permissionDecision") == "deny" else [f"not denied: {out}"]
    run_check(report, "hook: the entry's command denies cat ~/.ssh/id_rsa", answer, world)

    run_check(report, "hook: a failing hook blocks the call (onFailure)", check_hook_failure, world)
    run_sandbox_checks(report, scratch, bin_dir)

    start = time.monotonic()
    edit_json(claude_settings(world), lambda d: d["hooks"]["PreToolUse"][0]["hooks"][0]
              .__setitem__("type", "comand"))
    failures = check_claude_doctor(world)
    if failures:
        report.result("mutant claude-doctor", [], time.monotonic() - start,
                      f"caught a hook of an unknown type: {failures[0]}")
    else:
        report.result("mutant claude-doctor: a hook of an unknown type",
                      ["the check passed on a broken output"], time.monotonic() - start)


def claude_turn(world: World, tool: str, arguments: dict, extra_env: dict | None = None) -> str:
    """One `claude -p` turn against the stand-in model (fake_model.py), whose
    only move is the one tool call: the text Claude Code sent back as the
    tool's result (the command's output, or why it did not run)."""
    from fake_model import FakeAnthropic  # tests/clients/fake_model.py
    env = dict(world.env.vars(), ANTHROPIC_API_KEY="sk-ant-twsrt-offline",
               NO_PROXY="127.0.0.1", no_proxy="127.0.0.1", **(extra_env or {}))
    with FakeAnthropic(tool, arguments) as model:
        env["ANTHROPIC_BASE_URL"] = model.base_url
        try:
            result = subprocess.run([world.env.client("claude"), "-p", "twsrt hook check",
                                     "--output-format", "json"],
                                    cwd=world.env.proj, env=env, stdin=subprocess.DEVNULL,
                                    capture_output=True, text=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired as e:
            raise CheckFailed(f"claude -p timed out after {TIMEOUT} s") from e
        if not model.results:
            raise CheckFailed(f"claude -p made no tool call (exit {result.returncode}): "
                              f"{one_line(result.stdout + result.stderr)}")
        if os.environ.get("TWSRT_HOOK_DEBUG"):
            print(f"      tool result: {model.results!r}", flush=True)
        return "\n".join(model.results)


def with_hook(world: World, change) -> None:
    """Change twsrt's hook in the settings (`change(hook)`, the hook object)."""
    edit_json(claude_settings(world), lambda d: change(d["hooks"]["PreToolUse"][0]["hooks"][0]))


def check_hook_failure(world: World) -> list[str]:
    """The generated entry's `onFailure: "block"` makes Claude Code refuse the
    call when the hook dies (here: a hook command that crashes), and without
    it the same crash lets the call run: the setting is what closes it."""
    path = claude_settings(world)
    saved = path.read_text()
    failures = []
    try:
        with_hook(world, lambda h: h.__setitem__("command", "echo crashed >&2; exit 1"))
        blocked = claude_turn(world, "Bash", {"command": "echo RAN-UNCHECKED"})
        if "RAN-UNCHECKED" in blocked or "onFailure" not in blocked:
            failures.append(f"a crashing hook with onFailure block did not block: {blocked!r}")
        with_hook(world, lambda h: h.pop("onFailure"))
        ran = claude_turn(world, "Bash", {"command": "echo RAN-UNCHECKED"})
        if "RAN-UNCHECKED" not in ran:
            failures.append(f"without onFailure the crash did not let the call run (the check "
                            f"would prove nothing): {ran!r}")
    finally:
        path.write_text(saved)
    return failures


def run_sandbox_checks(report: Report, scratch: Path, bin_dir: Path) -> None:
    """`claude_hook = "sandbox"` with the real Claude Code and the real srt:
    an opaque read (`cat $(echo FILE)`) of a denyRead file is allowed by the
    hook with its command rewritten, Claude Code runs the rewritten command,
    and srt keeps the file unreadable; the same read of a project file
    succeeds. A stand-in hook that allows the same read unwrapped shows the
    file is readable without srt."""
    srt = os.environ.get("TWSRT_SRT") or str(
        Path(os.environ.get("TWSRT_SRT_CACHE", Path.home() / ".cache/twsrt-srt"))
        / "node_modules/.bin/srt")
    start = time.monotonic()
    if not Path(srt).exists():
        report.result("hook sandbox: srt", [f"{srt} not found: run scripts/install-srt.sh"],
                      time.monotonic() - start)
        return
    try:
        world = build_world(Case("hook-sandbox", POLICIES / "hook-sandbox"),
                            scratch / "hook-sandbox", bin_dir, TWSRT_BIN)
    except CheckFailed as e:
        report.result("hook sandbox: twsrt generate -w", [str(e)], time.monotonic() - start)
        return
    report.result("hook sandbox: twsrt generate -w", [], time.monotonic() - start)
    secret = next(p for p in world.probes if p.kind == "secret" and p.rule == "~/.ssh")
    project = next(p for p in world.probes if p.kind == "project")
    use_srt = {"TWSRT_SRT": srt}

    def wrapped(w: World) -> list[str]:
        failures = []
        out = claude_turn(w, "Bash", {"command": f"cat $(echo {secret.path})"}, use_srt)
        if secret.content in out:
            failures.append(f"the wrapped read of {secret.path} printed the secret: {out!r}")
        if "cat:" not in out:
            # srt's own refusal (e.g. settings it rejects) or the hook's
            # deny would prove nothing: cat must have run and failed.
            failures.append(f"cat did not run inside srt and fail: {out!r}")
        out = claude_turn(w, "Bash", {"command": f"cat $(echo {project.path.name})"}, use_srt)
        if project.content not in out:
            failures.append(f"the wrapped read of a project file did not print it: {out!r}")
        return failures
    run_check(report, "hook sandbox: Claude Code runs the rewritten command in srt",
              wrapped, world)

    dd = "dd if=$(echo /dev/null) of=/dev/null"

    def held(w: World) -> list[str]:
        # bash.jsonc denies `dd`; dd prints "0+0 records in" when it runs.
        out = claude_turn(w, "Bash", {"command": dd}, use_srt)
        return [f"a command under a bash deny rule ran: {out!r}"] if "records in" in out else []
    run_check(report, "hook sandbox: a bash deny rule still holds", held, world)

    def rewritten_escapes(w: World) -> list[str]:
        # Why the hook does not wrap it: a stand-in hook that rewrites the
        # same command into srt makes Claude Code match Bash(dd *) against
        # the rewritten text, and dd runs.
        settings = w.env.proj / w.config["sources"]["srt"]["output"]
        wrapped = f"{shlex.quote(srt)} -s {shlex.quote(str(settings))} -c {shlex.quote(dd)}"
        answer = json.dumps({"hookSpecificOutput": {
            "hookEventName": "PreToolUse", "permissionDecision": "allow",
            "permissionDecisionReason": "stand-in", "updatedInput": {"command": wrapped}}})
        path = claude_settings(w)
        saved = path.read_text()
        try:
            with_hook(w, lambda h: h.__setitem__("command",
                                                 f"cat >/dev/null; echo {shlex.quote(answer)}"))
            out = claude_turn(w, "Bash", {"command": dd})
        finally:
            path.write_text(saved)
        if "records in" not in out:
            return [f"rewritten, dd did not run (Claude Code applied its deny rule to the "
                    f"original after all; the hook's rule check may be relaxed): {out!r}"]
        return []
    run_check(report, "hook sandbox: gap: a rewritten command escapes Bash(dd *)",
              rewritten_escapes, world)

    def control(w: World) -> list[str]:
        path = claude_settings(w)
        saved = path.read_text()
        allow = json.dumps({"hookSpecificOutput": {
            "hookEventName": "PreToolUse", "permissionDecision": "allow",
            "permissionDecisionReason": "stand-in"}})
        try:
            with_hook(w, lambda h: h.__setitem__("command", f"cat >/dev/null; echo {shlex.quote(allow)}"))
            out = claude_turn(w, "Bash", {"command": f"cat $(echo {secret.path})"})
        finally:
            path.write_text(saved)
        if secret.content not in out:
            return [f"unwrapped, the read did not print the secret (so srt proved nothing): {out!r}"]
        return []
    run_check(report, "hook sandbox: control: unwrapped, the same read succeeds", control, world)

    start = time.monotonic()
    # Plain analysis (`claude_hook = "analysis"`): since the sandbox mode is
    # the default wherever srt runs, only --analysis turns the wrap off.
    with_hook(world, lambda h: h.__setitem__(
        "command", h["command"].replace(" --sandbox", " --analysis")))
    try:
        failures = wrapped(world)
    except CheckFailed as e:
        failures = [str(e)]
    if failures:
        report.result("mutant hook sandbox", [], time.monotonic() - start,
                      f"caught the entry with --analysis: {failures[0][:120]}")
    else:
        report.result("mutant hook sandbox: the entry with --analysis",
                      ["the check passed on a broken output"], time.monotonic() - start)


# --------------------------------------------------------------------------
# Driver


TWSRT_BIN: Path = Path("twsrt")


class Report:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def result(self, label: str, failures: list[str], seconds: float, note: str = "") -> None:
        status = "FAIL" if failures else "PASS"
        if failures:
            self.failed += 1
        else:
            self.passed += 1
        print(f"{status}  {label:<42} {seconds:5.1f} s{('  ' + note) if note else ''}", flush=True)
        for line in failures:
            print(f"      {line}", flush=True)


def run_check(report: Report, label: str, fn, world: World) -> None:
    start = time.monotonic()
    try:
        failures = fn(world)
    except CheckFailed as e:
        failures = [str(e)]
    report.result(label, failures, time.monotonic() - start)


def versions(bin_dir: Path, env: Env) -> str:
    out = []
    for name in ("codex", "claude", "copilot"):
        result = env.run([bin_dir / name, "--version"], cwd=env.root)
        out.append(f"{name} {one_line(result.stdout.splitlines()[0] if result.stdout else '?')}")
    return ", ".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--twsrt", required=True, type=Path)
    cache = Path(os.environ.get("TWSRT_CLIENTS_CACHE", Path.home() / ".cache/twsrt-clients"))
    parser.add_argument("--bin", type=Path, default=cache / "node_modules/.bin")
    parser.add_argument("--only", action="append", help="run only this case (repeatable)")
    parser.add_argument("--no-mutants", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the scratch directory")
    args = parser.parse_args()
    twsrt_arg, bin_arg = args.twsrt.absolute(), args.bin.absolute()
    isolation = isolate()
    try:
        return run_all(args, isolation, outside(twsrt_arg).resolve(), outside(bin_arg).resolve())
    finally:
        release_private_tmp()


def run_all(args, isolation: str, twsrt_bin: Path, bin_dir: Path) -> int:
    global TWSRT_BIN, TMUX_SOCKET
    TWSRT_BIN = twsrt_bin
    for name in ("codex", "claude", "copilot"):
        if not (bin_dir / name).exists():
            print(f"{bin_dir / name} not found: run scripts/install-clients.sh", file=sys.stderr)
            return 2
    if not shutil.which("tmux"):
        print("tmux not found: run scripts/install-clients.sh", file=sys.stderr)
        return 2

    started = time.monotonic()
    scratch = Path(tempfile.mkdtemp(prefix="twsrt-clients-", dir=outside(Path(tempfile.gettempdir()))))
    TMUX_SOCKET = scratch / "tmux.sock"
    report = Report()
    try:
        probe_env = Env(scratch / "versions", bin_dir)
        for d in (probe_env.home, probe_env.tmp):
            d.mkdir(parents=True)
        print(f"clients: {versions(bin_dir, probe_env)}")
        print(f"network: {isolation}")
        print(f"scratch: {scratch}\n", flush=True)
        cases = [c for c in CASES if not args.only or c.name in args.only]
        for case in cases:
            start = time.monotonic()
            try:
                world = build_world(case, scratch / case.name, bin_dir, TWSRT_BIN)
            except CheckFailed as e:
                report.result(f"{case.name}: twsrt generate -w", [str(e)], time.monotonic() - start)
                continue
            mode = " --yolo" if case.yolo else ""
            report.result(f"{case.name}: twsrt generate{mode} -w", [], time.monotonic() - start,
                          f"({len(world.probes)} probes planted)")
            for name, fn in CHECKS.items():
                run_check(report, f"{case.name}: {name}", fn, world)
        if not args.only or "hook" in args.only:
            print("\nthe guard hook", flush=True)
            run_hook_checks(report, scratch, bin_dir)
        if not args.only or "copilot-settings" in args.only:
            import copilot_settings  # tests/clients/copilot_settings.py
            copilot_settings.run(report, scratch, bin_dir, TWSRT_BIN, not args.no_mutants)
        if not args.only or "copilot-sandbox" in args.only:
            import copilot_sandbox  # tests/clients/copilot_sandbox.py
            copilot_sandbox.run(report, scratch, bin_dir, TWSRT_BIN, not args.no_mutants)
        if not args.only or "agent-test" in args.only:
            import agent_test  # tests/clients/agent_test.py
            agent_test.run(report, scratch, bin_dir, TWSRT_BIN, not args.no_mutants)
        if not args.only or "codex-missing" in args.only:
            import codex_missing  # tests/clients/codex_missing.py
            codex_missing.run(report, scratch, bin_dir, TWSRT_BIN, not args.no_mutants)
        if not args.only or "codex-targets" in args.only:
            import codex_targets  # tests/clients/codex_targets.py
            codex_targets.run(report, scratch, bin_dir, TWSRT_BIN, not args.no_mutants)
        if not args.only or "copilot-shell" in args.only:
            import copilot_shell  # tests/clients/copilot_shell.py
            copilot_shell.run(report, scratch, bin_dir, TWSRT_BIN, not args.no_mutants)
        if not args.only or "gemini" in args.only:
            print("\nGemini CLI: the policy file loads and its engine decides as the policy says",
                  flush=True)
            import gemini  # tests/clients/gemini.py
            gemini.run_checks(sys.modules[__name__], report, scratch, bin_dir, not args.no_mutants)
        if not args.only or "managed" in args.only:
            print("\nmanaged policy files: each client at its real /etc path (an overlay in a "
                  "mount namespace)", flush=True)
            import managed  # tests/clients/managed.py
            managed.run_checks(sys.modules[__name__], report, scratch, bin_dir)
        if not args.only or "allow-read" in args.only:
            print("\nsrt's allowRead: Claude Code's sandbox re-opens the file, its Read tool "
                  "does not", flush=True)
            import allow_read  # tests/clients/allow_read.py
            allow_read.run_checks(sys.modules[__name__], report, scratch, bin_dir,
                                  not args.no_mutants)
        if not args.only or "opencode" in args.only:
            print("\nOpenCode: the merged config loads and the client refuses what it denies",
                  flush=True)
            import opencode  # tests/clients/opencode.py
            opencode.run_checks(sys.modules[__name__], report, scratch, bin_dir,
                                not args.no_mutants)
        if not args.only or "spellings" in args.only:
            print("\nspellings: each agent's own matcher decides what a rule typed loosely "
                  "meant", flush=True)
            import spellings  # tests/clients/spellings.py
            spellings.run_checks(sys.modules[__name__], report, scratch, bin_dir,
                                 not args.no_mutants)
        if not args.only or "claude-schema" in args.only:
            print("\nClaude Code's settings schema: a value it refuses drops the whole file",
                  flush=True)
            import claude_schema  # tests/clients/claude_schema.py
            claude_schema.run_checks(sys.modules[__name__], report, scratch, bin_dir)
        if not args.only or "opencode-layers" in args.only:
            print("\nOpenCode: the files around twsrt's opencode.json", flush=True)
            import opencode_layers  # tests/clients/opencode_layers.py
            opencode_layers.run_checks(sys.modules[__name__], report, scratch, bin_dir)
        if not args.only:
            print("\nknown Codex gaps: twsrt warns, and the gap is still there", flush=True)
            run_gaps(report, scratch, bin_dir)
        if not args.only or "launch" in args.only:
            print("\nlaunch guard: grammar tables against --help, twsrt run with each client",
                  flush=True)
            run_launch_guard(report, scratch, bin_dir)
        if not args.no_mutants and (not args.only or "example" in args.only):
            print("\nmutants: each check must fail on a deliberately broken output", flush=True)
            example = CASES[0]
            for i, (check, what, mutate) in enumerate(MUTANTS):
                start = time.monotonic()
                try:
                    world = build_world(example, scratch / f"mutant-{i}", bin_dir, TWSRT_BIN)
                    mutate(world)
                    failures = CHECKS[check](world)
                except CheckFailed as e:
                    report.result(f"mutant {check}: {what}", [str(e)], time.monotonic() - start)
                    continue
                if failures:
                    report.result(f"mutant {check}", [], time.monotonic() - start,
                                  f"caught {what}: {failures[0]}")
                else:
                    report.result(f"mutant {check}: {what}",
                                  ["the check passed on a broken output"],
                                  time.monotonic() - start)
    finally:
        subprocess.run(["tmux", "-S", str(TMUX_SOCKET), "kill-server"], capture_output=True)
        if args.keep:
            shown = scratch
            if OLD_TMP is not None and OLD_TMP in scratch.parents:
                shown = Path("/tmp") / scratch.relative_to(OLD_TMP)
            print(f"\nkept {shown}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    print(f"\nclient checks: {time.monotonic() - started:.0f} s")
    print(f"{report.passed} passed, {report.failed} failed")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
