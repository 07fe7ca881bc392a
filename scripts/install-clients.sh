#!/usr/bin/env bash
# Install the real agent clients `make test-clients` checks twsrt's output
# against: Codex CLI (npm @openai/codex), Claude Code (npm
# @anthropic-ai/claude-code), Copilot CLI (npm @github/copilot) and Gemini
# CLI (npm @google/gemini-cli, pinned: its bundle is what
# tests/clients/gemini_match.mjs imports the policy engine from) and OpenCode
# (npm opencode-ai, pinned: doc/clients.md's OpenCode section measured that
# version's permission matcher), into one
# npm prefix, plus tmux, curl and Copilot's sandbox tools with apt when they
# are missing. The clients
# are large (about 1 GB together), so this is not part of `make test`.
#
# Idempotent: installs only what is missing. Prints the directory holding the
# binaries (node_modules/.bin) on stdout; everything else goes to stderr.
# This is the only step that uses the network (the npm registry, Debian's
# archive); the checks themselves run offline.
#
#   TWSRT_CLIENTS_CACHE    npm prefix (default ~/.cache/twsrt-clients)
#   TWSRT_CODEX_VERSION    npm version spec for each client (default: latest).
#   TWSRT_CLAUDE_VERSION   A set spec that differs from the installed version
#   TWSRT_COPILOT_VERSION  reinstalls that client.
#   TWSRT_GEMINI_VERSION   (default 0.61.0, the version doc/clients.md read)
#   TWSRT_OPENCODE_VERSION (default 1.18.33, the version doc/clients.md read)
#   TWSRT_CLIENTS_UPDATE=1 reinstall every client at its spec (latest when
#                          unset): the step after an agent upgrade.
#
# Node: the three packages ship native binaries and only use Node for a small
# launcher, so Node 20 runs them. Claude Code 2.1.x declares engines
# node >= 22 (npm prints an EBADENGINE warning) but its `claude` is the native
# binary itself, copied in place by its postinstall script. Gemini CLI is
# JavaScript (a bundle) and declares engines node >= 20.
set -euo pipefail

cache="${TWSRT_CLIENTS_CACHE:-$HOME/.cache/twsrt-clients}"
bin="$cache/node_modules/.bin"

log() { printf 'install-clients: %s\n' "$*" >&2; }
# shellcheck source=lib/packages.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/packages.sh"

# tmux: `claude doctor` gets a terminal; curl: the Codex network probe;
# unshare (util-linux): the checks run in a network namespace of their own;
# bwrap, slirp4netns, iptables (with nsenter from util-linux): Copilot CLI's
# command sandbox on Linux (`copilot help sandbox`), which
# tests/clients/copilot_sandbox.py runs.
need_commands tmux=tmux curl=curl unshare=util-linux bwrap=bubblewrap \
    slirp4netns=slirp4netns iptables=iptables

if ! command -v npm >/dev/null 2>&1; then
    log "npm not found: install Node.js >= 20 first"
    exit 1
fi

# The version npm installed for a package, empty when it is absent.
installed_version() {
    local manifest="$cache/node_modules/$1/package.json"
    [ -f "$manifest" ] || return 0
    node -e 'process.stdout.write(require(process.argv[1]).version)' "$manifest"
}

# package  binary  version spec
clients=(
    "@openai/codex codex ${TWSRT_CODEX_VERSION:-}"
    "@anthropic-ai/claude-code claude ${TWSRT_CLAUDE_VERSION:-}"
    "@github/copilot copilot ${TWSRT_COPILOT_VERSION:-}"
    "@google/gemini-cli gemini ${TWSRT_GEMINI_VERSION:-0.61.0}"
    "opencode-ai opencode ${TWSRT_OPENCODE_VERSION:-1.18.33}"
)
specs=()
for entry in "${clients[@]}"; do
    read -r pkg cmd version <<<"$entry"
    have="$(installed_version "$pkg")"
    if [ -n "${TWSRT_CLIENTS_UPDATE:-}" ] || [ ! -x "$bin/$cmd" ] || [ -z "$have" ] ||
        { [ -n "$version" ] && [ "$version" != "$have" ]; }; then
        specs+=("$pkg@${version:-latest}")
    fi
done

if ((${#specs[@]})); then
    log "npm install ${specs[*]} into $cache (several hundred MB; be patient)"
    mkdir -p "$cache"
    npm install --no-audit --no-fund --loglevel=error --prefix "$cache" "${specs[@]}" >&2
fi

# Claude Code's bin/claude.exe is a placeholder until its postinstall copies
# the native binary over it; an npm that skipped install scripts leaves the
# placeholder, so run the script by hand then.
if ! "$bin/claude" --version >/dev/null 2>&1; then
    log "running Claude Code's postinstall (npm skipped it)"
    (cd "$cache/node_modules/@anthropic-ai/claude-code" && node install.cjs >&2)
fi

for cmd in codex claude copilot gemini opencode; do
    if ! version="$(NO_UPDATE_NOTIFIER=1 DISABLE_AUTOUPDATER=1 "$bin/$cmd" --version 2>/dev/null | head -n1)"; then
        log "$cmd at $bin/$cmd does not run"
        exit 1
    fi
    log "$cmd: $version"
done
printf '%s\n' "$bin"
