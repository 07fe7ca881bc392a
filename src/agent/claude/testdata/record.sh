#!/bin/sh
# Re-records the expected_* files (and the compiled srt.json / bash.json the
# unit tests feed the renderer) of every case from the reference twsrt,
# run as a black box in a scratch HOME. Usage: record.sh [REF_BIN]
set -eu
ref=${1:-$HOME/.cache/twsrt-ref33/bin/twsrt}
data=$(cd "$(dirname "$0")" && pwd)
. "$data/../../../../scripts/lib/reference-case.sh"
starter='[sandbox_overrides.yolo]
enabled = true
autoAllowBashIfSandboxed = true
allowUnsandboxedCommands = false

[sandbox_overrides.full]
enabled = false'
for case_dir in "$data"/*/; do
    if [ -f "$case_dir/overrides.toml" ]; then
        overrides=$(cat "$case_dir/overrides.toml")
    else
        overrides=$starter
    fi
    case_home "$case_dir" "[targets]
claude_settings = \"~/.claude/settings.full.json\"

$overrides"
    mkdir -p "$home/.claude"
    run show srt >"$case_dir/srt.json"
    run show bash >"$case_dir/bash.json"
    for mode in full yolo; do
        flag=; [ $mode = yolo ] && flag=--yolo
        run generate $flag claude 2>/dev/null | head -c -1 >"$case_dir/expected_$mode.json"
        target="$home/.claude/settings.$mode.json"
        if [ -f "$case_dir/existing.json" ]; then
            cp "$case_dir/existing.json" "$target"
            run generate $flag claude -w 2>/dev/null
            cp "$target" "$case_dir/expected_merged_$mode.json"
            rm -f "$target" "$home/.claude/settings.json"
        fi
        if [ -f "$case_dir/disk_$mode.json" ]; then
            cp "$case_dir/disk_$mode.json" "$target"
            run diff $flag claude 2>/dev/null | grep '^  [+-] ' \
                >"$case_dir/expected_diff_$mode.txt" || true
            rm -f "$target"
        fi
    done
    rm -rf "$home"
done
