#!/bin/sh
# Re-records every case from the reference twsrt, run as a black box in a
# scratch HOME that `{D}` stands for in the recorded files. Per case it saves
# the compiled documents the unit tests feed the Codex agent (srt.json,
# bash.json), the `generate codex` output (preview.txt, without the final
# newline) and its stderr (stderr.txt, the facts the warnings must carry);
# for `merge` also the config.toml a fresh `generate codex -w` writes
# (fragment.toml). Usage: record.sh [REF_BIN]
set -eu
ref=${1:-$HOME/.cache/twsrt-ref33/bin/twsrt}
data=$(cd "$(dirname "$0")" && pwd)
. "$data/../../../../scripts/lib/reference-case.sh"
both='codex_config = "~/.codex/config.toml"
codex_rules = "~/.codex/rules/twsrt.rules"'
for case_dir in "$data"/*/; do
    case=$(basename "$case_dir")
    if [ -f "$case_dir/targets.toml" ]; then
        targets=$(cat "$case_dir/targets.toml")
    else
        targets=$both
    fi
    case_home "$case_dir" "[targets]
$targets

[sandbox_overrides.yolo]
enabled = true
autoAllowBashIfSandboxed = true
allowUnsandboxedCommands = false

[sandbox_overrides.full]
enabled = false"
    placeholder() { sed "s#$home#{D}#g"; }
    run show srt | placeholder >"$case_dir/srt.json"
    run show bash | placeholder >"$case_dir/bash.json"
    run generate codex 2>"$home/stderr" | placeholder | head -c -1 >"$case_dir/preview.txt"
    placeholder <"$home/stderr" >"$case_dir/stderr.txt"
    if [ "$case" = merge ]; then
        run generate codex -w >/dev/null 2>&1
        cp "$home/.codex/config.toml" "$case_dir/fragment.toml"
    fi
    rm -rf "$home"
done
