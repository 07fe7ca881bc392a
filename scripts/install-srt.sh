#!/usr/bin/env bash
# Install what `twsrt test` and the tests/srt_*.rs integration tests need:
# bubblewrap, socat, ripgrep and curl (apt), and the Sandbox Runtime (`srt`,
# npm @anthropic-ai/sandbox-runtime) into a cache directory.
#
# Idempotent: installs only what is missing; `apt-get update` runs only when
# an apt install is needed. Prints the path of the srt binary on stdout (all
# other output goes to stderr).
#
#   TWSRT_SRT_CACHE   npm prefix for srt (default ~/.cache/twsrt-srt)
#   TWSRT_SRT_VERSION npm version spec (default: latest)
set -euo pipefail

cache="${TWSRT_SRT_CACHE:-$HOME/.cache/twsrt-srt}"
spec="@anthropic-ai/sandbox-runtime${TWSRT_SRT_VERSION:+@$TWSRT_SRT_VERSION}"

log() { printf 'install-srt: %s\n' "$*" >&2; }
# shellcheck source=lib/packages.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/packages.sh"

need_commands bwrap=bubblewrap socat=socat rg=ripgrep curl=curl

srt="$cache/node_modules/.bin/srt"
if [ ! -x "$srt" ]; then
    if ! command -v npm >/dev/null 2>&1; then
        log "npm not found: install Node.js >= 20.11 first"
        exit 1
    fi
    log "npm install $spec into $cache"
    mkdir -p "$cache"
    npm install --silent --no-audit --no-fund --prefix "$cache" "$spec" >&2
fi
if [ ! -x "$srt" ]; then
    log "srt not found at $srt after npm install"
    exit 1
fi
printf '%s\n' "$srt"
