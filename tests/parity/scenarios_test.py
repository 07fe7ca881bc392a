"""`twsrt test` setup failures: each exits 2 before any probe runs, whether
or not srt is installed (PATH holds no srt here), so stdout is empty and the
outcome is the same on every machine. Probe runs need the real srt and vary
in timing: tests/srt_real.rs covers them."""

# srt is never on this PATH; the reference runs from its venv by absolute path.
NO_SRT = {"PATH": "/usr/bin:/bin"}


def _drop_ssh_read(text):
    """The settings file with `~/.ssh` taken out of denyRead by hand."""
    import json
    doc = json.loads(text)
    doc["filesystem"]["denyRead"].remove("~/.ssh")
    return json.dumps(doc, indent=2) + "\n"


def register(sc):
    drifted = {".srt-settings.json": _drop_ssh_read}
    sc.add("test_settings_missing", ["test"], env=NO_SRT)
    sc.add("test_settings_missing_json", ["test", "--json"], env=NO_SRT)
    sc.add("test_srt_not_found", ["test"], env=NO_SRT, prep=[["generate", "-w"]])
    sc.add("test_drift_then_srt_not_found", ["test", "--denyRead"], env=NO_SRT,
           prep=[["generate", "-w"]], edits=drifted)
    sc.add("test_config_missing", ["test"], base=False, env=NO_SRT)
    sc.add("test_unknown_profile", ["test", "-p", "nope"], env=NO_SRT,
           prep=[["generate", "-w"]])
