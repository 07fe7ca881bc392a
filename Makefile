# Every target a developer or CI needs. `make test` is what CI runs.
CARGO ?= cargo
# The release binary: a static executable. On Linux it is built for musl
# (scripts/release-target.sh adds the target with rustup): glibc's start-up
# spends about a millisecond on CPUID instructions in a virtual machine,
# more than most twsrt runs take (doc/benchmarks.md). That build allocates
# with the dlmalloc crate (src/heap.rs). Without the musl target it falls
# back to glibc, linked statically (`+crt-static`; the `--target` keeps the
# flag off build scripts and proc macros, which must stay dynamic).
# Elsewhere it is a plain release build for the host.
# The musl binary is linked without PIE (`relocation-model=static`): the
# kernel maps its image at a fixed address, so start-up applies none of the
# 6,500 relocations a static-pie image needs (about a sixth of an everyday
# run's CPU time and 35 of its page faults, doc/benchmarks.md). The stack,
# the heap and every mapping stay randomised; the image itself does not.
HOST := $(shell rustc -vV | sed -n 's/^host: //p')
# Worked out once, when a recipe first needs it (rustup may download).
RELEASE_TARGET = $(eval RELEASE_TARGET := $$(shell bash scripts/release-target.sh))$(RELEASE_TARGET)
STATIC = $(if $(findstring linux-gnu,$(RELEASE_TARGET)),-C target-feature=+crt-static)$(if $(findstring musl,$(RELEASE_TARGET)), -C relocation-model=static)
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
BIN = $(TARGET_DIR)/$(RELEASE_TARGET)/release/twsrt

.PHONY: all build demo test lint fmt bench parity-record fuzz clean test-clients man

all: build

build:
	RUSTFLAGS="$(RUSTFLAGS) $(STATIC)" $(CARGO) build --release --target $(RELEASE_TARGET)
	@echo "built $(BIN)"

# Show the Claude settings the example policy compiles to. Writes nothing.
# Builds no second binary: it runs the release build (brought up to date by
# `make build`, a no-op when it is) when there is one, else the twsrt on
# PATH (`cargo install --locked --path .`), and builds the release binary
# only when there is neither.
demo:
	@if [ -x '$(BIN)' ] || ! command -v twsrt >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory build >&2 && bin='$(BIN)'; \
	else bin="$$(command -v twsrt)"; fi; \
	echo "demo: $$bin" >&2; "$$bin" -c example/config.toml generate claude

# Lint, then every test (unit, CLI scenarios, parity replay) with srt 0.0.78
# on the system Node, then the srt tests (tests/srt_*.rs, which find srt
# through TWSRT_SRT) again with npm's newest srt on Node 22 (both installed
# and cached by scripts/install-srt.sh), then, when the release build is a
# musl one, the CLI tests (`--test main`: every scenario runs the binary
# cargo names in CARGO_BIN_EXE_twsrt, here the musl one, with its own libc
# and dlmalloc as the heap) against a musl binary. The unit tests test the
# same code whatever the libc, so they run once, in the first pass.
test: lint
	TWSRT_SRT="$$(bash scripts/install-srt.sh)" $(CARGO) test --all-targets
	TWSRT_SRT="$$(bash scripts/install-srt.sh latest)" $(CARGO) test --test main srt_
	$(if $(findstring musl,$(RELEASE_TARGET)),TWSRT_SRT="$$(bash scripts/install-srt.sh)" $(CARGO) test --test main --target $(RELEASE_TARGET),@echo "release build is not musl: no second run")

# The command reference as man pages, generated from the clap definitions
# (examples/man.rs, clap_mangen): $(MAN_DIR)/twsrt.1 and one twsrt-NAME.1
# per subcommand. Read one with `man -l man/twsrt.1`.
MAN_DIR ?= man
man:
	$(CARGO) run --quiet --example man -- $(MAN_DIR)

# Check the generated files against the real Codex CLI, Claude Code and
# Copilot CLI (doc/clients.md). Not part of `make test`: the clients take
# about 1 GB. Installing them is the only step that uses the network. The
# checks run offline: in a network namespace of their own where the machine
# allows it, with every proxy variable pointed at a dead local port
# (127.0.0.1:9) in any case, and `codex doctor` is never run (it has no
# offline switch).
test-clients: build
	bin="$$(bash scripts/install-clients.sh)" && \
	python3 tests/clients/run.py --twsrt $(BIN) --bin "$$bin"

lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --all-targets -- -D warnings

fmt:
	$(CARGO) fmt --all

# Side-by-side benchmark against the reference (see doc/benchmarks.md).
bench: build
	python3 bench/run.py $(BIN)

# Re-record the parity fixtures from twsrt 3.3.3 (needs Python and PyPI).
parity-record:
	python3 tests/parity/record.py

# Run every fuzz target (fuzz/) for FUZZ_SECONDS each, one after another.
# Stable toolchain: cargo-fuzz needs -Z flags, which RUSTC_BOOTSTRAP=1
# unlocks (AddressSanitizer included). New corpus entries land in
# fuzz/corpus/<target>/ (only the seed-* files are committed); crashes in
# fuzz/artifacts/<target>/.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS := jsonc_parse compose_fragments config_load claude_merge codex_merge copilot_render codex_render
fuzz:
	RUSTC_BOOTSTRAP=1 $(CARGO) fuzz build
	set -e; for t in $(FUZZ_TARGETS); do \
		echo "== fuzz $$t for $(FUZZ_SECONDS) s"; \
		RUSTC_BOOTSTRAP=1 $(CARGO) fuzz run $$t -- \
			-max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -print_final_stats=1; \
	done

clean:
	$(CARGO) clean
