"""Claude Code's settings schema (issue 40; doc/clients.md, "The settings
schema Claude Code applies"): a value of the wrong type anywhere in a
settings file makes Claude Code drop the whole file, so every deny rule in
it is gone. With the settings `twsrt generate -w` writes, the Read tool
(driven by the stand-in model, fake_model.py, in
`--permission-mode bypassPermissions`) is refused a denied file; with one
value Claude Code refuses added, the same call reads it, and `twsrt diff
claude` must then report drift (exit 1). A value the schema takes (an
unknown key) keeps the file loaded: the check holds both directions."""

from __future__ import annotations

import subprocess
import time

# (label, change to the loaded settings, Claude Code drops the file)
CHANGES = [
    ("sandbox.enabled: 1", lambda d: d["sandbox"].__setitem__("enabled", 1), True),
    ("permissions.defaultMode: \"plan2\"",
     lambda d: d["permissions"].__setitem__("defaultMode", "plan2"), True),
    ("model: 5", lambda d: d.__setitem__("model", 5), True),
    ("cleanupPeriodDays: \"x\"", lambda d: d.__setitem__("cleanupPeriodDays", "x"), True),
    ("an unknown key", lambda d: d.__setitem__("fooBarTwsrt", 1), False),
]

DENIED = "denied by your permission settings"


def read_turn(run, world, path) -> str:
    """One Read call, with every prompt bypassed: only a deny rule stops it."""
    return turn(run, world, "Read", {"file_path": str(path)}, "bypassPermissions")


def turn(run, world, tool: str, arguments: dict, mode: str) -> str:
    """One tool call in `-p` with the permission mode `mode`."""
    from fake_model import FakeAnthropic  # tests/clients/fake_model.py
    env = dict(world.env.vars(), ANTHROPIC_API_KEY="sk-ant-twsrt-offline",
               NO_PROXY="127.0.0.1", no_proxy="127.0.0.1", IS_SANDBOX="1")
    with FakeAnthropic(tool, arguments) as model:
        env["ANTHROPIC_BASE_URL"] = model.base_url
        try:
            result = subprocess.run([world.env.client("claude"), "-p", "twsrt schema check",
                                     "--output-format", "json",
                                     "--permission-mode", mode],
                                    cwd=world.env.proj, env=env, stdin=subprocess.DEVNULL,
                                    capture_output=True, text=True, timeout=run.TIMEOUT)
        except subprocess.TimeoutExpired as e:
            raise run.CheckFailed(f"claude -p timed out after {run.TIMEOUT} s") from e
        if not model.results:
            raise run.CheckFailed(f"claude -p made no tool call (exit {result.returncode}): "
                                  f"{run.one_line(result.stdout + result.stderr)}")
        return "\n".join(model.results)


def twsrt_diff(run, world) -> int:
    result = world.env.run([run.TWSRT_BIN, "-c", world.env.proj / "config.toml", "diff",
                            "claude"])
    return result.returncode


def run_checks(run, report, scratch, bin_dir) -> None:
    start = time.monotonic()
    try:
        world = run.build_world(run.Case("claude-schema", run.ROOT / "example"),
                                scratch / "claude-schema", bin_dir, run.TWSRT_BIN)
    except run.CheckFailed as e:
        report.result("claude-schema: twsrt generate -w", [str(e)], time.monotonic() - start)
        return
    report.result("claude-schema: twsrt generate -w", [], time.monotonic() - start)
    secret = next(p for p in world.probes if p.kind == "secret"
                  and p.rule.startswith("~/.aws"))
    path = run.claude_settings(world)

    def baseline(w) -> list[str]:
        out = read_turn(run, w, secret.path)
        if secret.content in out or DENIED not in out:
            return [f"the generated settings did not deny {secret.path}: {out!r}"]
        return []
    run.run_check(report, "claude-schema: the generated deny holds", baseline, world)

    for label, change, drops in CHANGES:
        def changed(w, change=change, drops=drops) -> list[str]:
            saved = path.read_text()
            try:
                run.edit_json(path, change)
                out = read_turn(run, w, secret.path)
                rc = twsrt_diff(run, w)
            finally:
                path.write_text(saved)
            failures = []
            if drops and secret.content not in out:
                failures.append(f"Claude Code kept the file (the deny held): {out!r}")
            if not drops and (secret.content in out or DENIED not in out):
                failures.append(f"Claude Code dropped the file: {out!r}")
            if drops and rc != 1:
                failures.append(f"twsrt diff claude exited {rc}, not 1 (drift)")
            if not drops and rc != 0:
                failures.append(f"twsrt diff claude exited {rc} on a file Claude Code loads")
            return failures
        verdict = "drops the file" if drops else "keeps the file"
        run.run_check(report, f"claude-schema: {label}: Claude Code {verdict}", changed, world)

    def foreign_write(w) -> list[str]:
        """A hand-added bare `Write` allow lets the Write tool write outside
        the project without asking (in `-p`, an unlisted write is refused):
        a grant `twsrt diff` must report as widening drift."""
        target = w.env.home / "twsrt-foreign-write.txt"
        args = {"file_path": str(target), "content": "WROTE"}
        failures = []
        saved = path.read_text()
        try:
            turn(run, w, "Write", args, "default")
            if target.exists():
                failures.append(f"without an allow, the Write tool wrote {target}")
            run.edit_json(path, lambda d: d["permissions"]["allow"].append("Write"))
            turn(run, w, "Write", args, "default")
            if not target.exists():
                failures.append(f"with a bare Write allow, the Write tool did not write {target}")
            rc = twsrt_diff(run, w)
            if rc != 1:
                failures.append(f"twsrt diff claude exited {rc} with the Write allow, not 1")
        finally:
            path.write_text(saved)
            target.unlink(missing_ok=True)
        return failures
    run.run_check(report, "claude-schema: a bare Write allow writes outside the project unasked",
                  foreign_write, world)
