"""OpenCode 1.18.33's reading of the files around twsrt's opencode.json
(issue 40; doc/clients.md, "OpenCode: the files beside twsrt's"), measured
with the real `opencode debug config` and its Read tool (`debug agent
build`): a second `permission` key in the file replaces the first (the
later one is loaded and a denyRead file is read), `opencode.jsonc` beside
it is merged above it (its `permission` wins), `config.json` below it (it
adds keys twsrt's file lacks), `config.jsonc` is not loaded. For each
twsrt must say so: `audit -- opencode` an error, `diff opencode` drift."""

from __future__ import annotations

import json
import time


def loaded(oc, world) -> dict:
    result = oc.opencode(world, "debug", "config")
    try:
        return json.loads(result.stdout[result.stdout.index("{"):])
    except ValueError as e:
        raise RuntimeError(f"opencode debug config printed no JSON: {result.stdout[:200]}") from e


def twsrt(run, world, *args: str):
    return world.env.run([run.TWSRT_BIN, "-c", world.env.proj / "config.toml", *args])


def run_checks(run, report, scratch, bin_dir) -> None:
    import opencode as oc  # tests/clients/opencode.py
    if not (bin_dir / "opencode").exists():
        report.result("opencode-layers", [f"{bin_dir / 'opencode'} not found"], 0)
        return
    case = run.Case("opencode-layers", run.ROOT / "example")
    start = time.monotonic()
    try:
        world = run.build_world(oc.with_target(run, case, scratch), scratch / case.name, bin_dir,
                                run.TWSRT_BIN)
    except run.CheckFailed as e:
        report.result("opencode-layers: twsrt generate -w", [str(e)], time.monotonic() - start)
        return
    report.result("opencode-layers: twsrt generate -w", [], time.monotonic() - start)
    path = oc.config_file(world)
    original = path.read_text()

    def duplicate(w) -> list[str]:
        failures = []
        body = original.rstrip()[:-1].rstrip()
        path.write_text(body + ',\n  "permission": {"*": "allow"}\n}\n')
        try:
            if loaded(oc, w).get("permission") != {"*": "allow"}:
                failures.append("OpenCode did not load the later permission key")
            if oc.secret_read(run, w) is None:
                failures.append("with the later permission allowing all, no denyRead file was read")
            audit = twsrt(run, w, "audit", "--", "opencode")
            if audit.returncode != 1 or "duplicate key" not in audit.stdout:
                failures.append(f"audit did not report the duplicate (exit {audit.returncode}): "
                                f"{run.one_line(audit.stdout)}")
        finally:
            path.write_text(original)
        return failures
    run.run_check(report, "opencode-layers: a second permission key wins", duplicate, world)

    for name, wins, is_loaded in [("opencode.jsonc", True, True), ("config.json", False, True),
                                  ("config.jsonc", False, False)]:
        def sibling(w, name=name, wins=wins, is_loaded=is_loaded) -> list[str]:
            failures = []
            other = path.parent / name
            other.write_text('{"permission": {"read": "allow", "todowrite": "deny"}}\n')
            try:
                got = loaded(oc, w).get("permission", {})
                if is_loaded != (got.get("todowrite") == "deny"):
                    failures.append(f"{name} loaded: {got.get('todowrite') == 'deny'}, "
                                    f"expected {is_loaded}")
                if wins != (got.get("read") == "allow"):
                    failures.append(f"{name}'s read wins: {got.get('read') == 'allow'}, "
                                    f"expected {wins}")
                diff = twsrt(run, w, "diff", "opencode")
                if is_loaded and (diff.returncode != 1 or f"layer:{other}" not in diff.stdout):
                    failures.append(f"diff did not report {name} (exit {diff.returncode})")
                if not is_loaded and diff.returncode != 0:
                    failures.append(f"diff reported {name}, which OpenCode does not load")
            finally:
                other.unlink()
            return failures
        verdict = ("loaded above twsrt's" if wins else "loaded below twsrt's") if is_loaded \
            else "not loaded"
        run.run_check(report, f"opencode-layers: {name} beside it is {verdict}", sibling, world)
