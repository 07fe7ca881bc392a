"""srt's `filesystem.allowRead` in Claude Code (issue 33; doc/clients.md,
"srt 0.0.83's credentials, strict allowlist and allowRead, read"): with the
settings `twsrt generate -w` writes and Claude Code's own sandbox on, the
Bash tool (driven by the stand-in model, fake_model.py) reads the file the
policy re-opens inside a denied directory and not its neighbour, while the
Read tool keeps its deny rule. A mutant without the generated
`sandbox.filesystem.allowRead` must make the re-opened read fail."""

from __future__ import annotations

import time


def run_checks(run, report, scratch, bin_dir, mutants: bool) -> None:
    start = time.monotonic()
    try:
        world = run.build_world(run.Case("allow-read", run.POLICIES / "allow-read"),
                                scratch / "allow-read", bin_dir, run.TWSRT_BIN)
    except run.CheckFailed as e:
        report.result("allow-read: twsrt generate -w", [str(e)], time.monotonic() - start)
        return
    report.result("allow-read: twsrt generate -w", [], time.monotonic() - start)
    denied = world.env.home / ".config/tool"
    opened = denied / "open.txt"
    content = "CONTENT-REOPENED-" + opened.parent.name
    opened.write_text(content + "\n")
    secret = next(p for p in world.probes if p.kind == "secret" and p.rule == "~/.config/tool")

    def commands(w) -> list[str]:
        out = run.claude_turn(w, "Bash", {"command": f"cat $(echo {opened}); "
                                                     f"cat $(echo {secret.path})"})
        failures = []
        if content not in out:
            failures.append(f"the re-opened {opened} was not read in the sandbox: {out!r}")
        if secret.content in out:
            failures.append(f"the denied {secret.path} was read in the sandbox: {out!r}")
        if "cat:" not in out:
            failures.append(f"cat did not run in the sandbox and fail on the denied file: {out!r}")
        return failures
    run.run_check(report, "allow-read: Claude's Bash reads the re-opened file only", commands,
                  world)

    def read_tool(w) -> list[str]:
        # Unlisted, a read in `-p` is refused for want of a grant; the deny
        # rule's own refusal is what shows the rule held.
        out = run.claude_turn(w, "Read", {"file_path": str(opened)})
        if content in out:
            return [f"the Read tool read the re-opened file: {out!r}"]
        if "denied by your permission settings" not in out:
            return [f"the Read tool was not refused by the deny rule: {out!r}"]
        return []
    run.run_check(report, "allow-read: Claude's Read tool keeps its deny", read_tool, world)

    if not mutants:
        return
    start = time.monotonic()
    path = run.claude_settings(world)
    saved = path.read_text()
    run.edit_json(path, lambda d: d["sandbox"]["filesystem"].pop("allowRead"))
    try:
        failures = commands(world)
    except run.CheckFailed as e:
        failures = [str(e)]
    finally:
        path.write_text(saved)
    if failures:
        report.result("mutant allow-read", [], time.monotonic() - start,
                      f"caught the settings without allowRead: {failures[0][:120]}")
    else:
        report.result("mutant allow-read: the settings without allowRead",
                      ["the check passed on a broken output"], time.monotonic() - start)
