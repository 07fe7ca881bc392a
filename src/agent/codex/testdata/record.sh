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
both='codex_config = "~/.codex/config.toml"
codex_rules = "~/.codex/rules/twsrt.rules"'
for case_dir in "$data"/*/; do
    case=$(basename "$case_dir")
    home=$(mktemp -d)
    cfg="$home/.config/twsrt"
    mkdir -p "$cfg/srt" "$cfg/bash"
    sed "s#{D}#$home#g" "$case_dir/srt.jsonc" >"$cfg/srt/base.jsonc"
    cp "$case_dir/bash.jsonc" "$cfg/bash/base.jsonc"
    if [ -f "$case_dir/targets.toml" ]; then
        targets=$(cat "$case_dir/targets.toml")
    else
        targets=$both
    fi
    cat >"$cfg/config.toml" <<TOML
schema_version = 1
default_profile = "default"

[sources.srt.fragments.base]
path = "srt/base.jsonc"

[sources.bash.fragments.base]
path = "bash/base.jsonc"

[profiles.default]
srt = ["base"]
bash = ["base"]

[targets]
$targets

[sandbox_overrides.yolo]
enabled = true
autoAllowBashIfSandboxed = true
allowUnsandboxedCommands = false

[sandbox_overrides.full]
enabled = false
TOML
    if [ -f "$case_dir/home.txt" ]; then
        while read -r kind path; do
            case $kind in
                dir) mkdir -p "$home/$path" ;;
                file) printf 'secret\n' >"$home/$path" ;;
            esac
        done <"$case_dir/home.txt"
    fi
    run() { (cd "$home" && HOME="$home" "$ref" -c "$cfg/config.toml" "$@"); }
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
