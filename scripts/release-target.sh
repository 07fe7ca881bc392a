#!/usr/bin/env bash
# Prints the Rust target `make build` compiles the release binary for.
#
# On Linux with glibc that is the same CPU's musl target, added with rustup
# when it is missing: a static musl binary starts about a millisecond sooner,
# because glibc's start-up asks the CPU about its caches with about a hundred
# CPUID instructions, each an exit to the hypervisor in a virtual machine
# (doc/benchmarks.md, src/heap.rs). When the musl target cannot be had (no
# rustup, no network), it prints the host target instead, which the
# Makefile links statically against glibc. Anywhere else: the host target.
set -euo pipefail

host=$(rustc -vV | sed -n 's/^host: //p')
case "$host" in
    *-unknown-linux-gnu) musl=${host%-gnu}-musl ;;
    *) echo "$host"; exit 0 ;;
esac

if command -v rustup >/dev/null 2>&1; then
    if rustup target list --installed 2>/dev/null | grep -qx "$musl"; then
        echo "$musl"
        exit 0
    fi
    if timeout 300 rustup target add "$musl" >&2; then
        echo "$musl"
        exit 0
    fi
fi
echo "release-target: $musl is not available; building for $host (glibc, static)" >&2
echo "$host"
