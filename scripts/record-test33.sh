#!/usr/bin/env bash
# Re-record tests/fixtures/test33/table.out: twsrt 3.3.3's `twsrt test` table
# for tests/fixtures/test33/base.jsonc, run with srt 0.0.78 in a HOME built
# as tests/srt_real.rs builds it (the config of tests/support's BASE_CONFIG,
# a token file, a symlink to it, two writable directories, a write-protected
# file), with the control's requests sent to a dead proxy. Timings become
# `MS`, the probe file and witness directory names `PID` and `*`.
#
#   TWSRT_REF  the 3.3.3 venv (default ~/.cache/twsrt-ref33, see tests/parity/README.md)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
ref="${TWSRT_REF:-$HOME/.cache/twsrt-ref33}/bin/twsrt"
srt="$(bash "$root/scripts/install-srt.sh")"
home="$(mktemp -d /tmp/twsrt-test33.XXXXXX)"
trap 'rm -rf "$home"' EXIT
mkdir -p "$home/.config/twsrt/srt" "$home/.config/twsrt/bash" "$home/secrets" "$home/work" \
    "$home/vault/aws" "$home/bin"
cat >"$home/.config/twsrt/config.toml" <<'TOML'
schema_version = 1
default_profile = "default"

[sources.srt]
output = "~/.srt-settings.json"

[sources.srt.fragments.base]
path = "srt/base.jsonc"

[sources.bash]
output = "bash-rules.json"

[sources.bash.fragments.base]
path = "bash/base.jsonc"

[profiles.default]
srt = ["base"]
bash = ["base"]
TOML
cp "$root/tests/fixtures/test33/base.jsonc" "$home/.config/twsrt/srt/base.jsonc"
printf '%s' '{"ask": ["git push"], "deny": ["rm"]}' >"$home/.config/twsrt/bash/base.jsonc"
printf 'ghp_planted\n' >"$home/secrets/token.txt"
ln -s secrets/token.txt "$home/.tok"
printf 'keep me\n' >"$home/work/locked.cfg"
ln -s "$srt" "$home/bin/srt"
run() { (cd "$home" && env -i HOME="$home" PATH="$home/bin:/usr/bin:/bin" NO_COLOR=1 \
    https_proxy=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9 \
    "$ref" -c "$home/.config/twsrt/config.toml" "$@"); }
run generate -w >/dev/null 2>&1
set +e
run test >"$home/out" 2>/dev/null
set -e
python3 - "$home" "$home/out" >"$root/tests/fixtures/test33/table.out" <<'PY'
import re, sys
home, path = sys.argv[1], sys.argv[2]
lines = open(path).read().replace(home, "{HOME}").split("\n")
at = next(l for l in lines if l.endswith("PROBE")).index("PROBE")
out = []
for l in lines:
    if re.match(r"(PASS|FAIL|INVALID|ERROR|SKIP) ", l) and l[at - 8:at - 2].strip().isdigit():
        l = l[:at - 8] + "    MS" + l[at - 2:]
    l = re.sub(r"\.twsrt-test-[^/ ]+", ".twsrt-test-*", l)
    l = re.sub(r"\.twsrt-probe-\d+", ".twsrt-probe-PID", l)
    out.append(l)
sys.stdout.write("\n".join(out))
PY
echo "wrote tests/fixtures/test33/table.out" >&2
