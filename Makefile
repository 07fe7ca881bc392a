# Every target a developer or CI needs. `make test` is what CI runs.
CARGO ?= cargo
BIN := target/release/twsrt

.PHONY: all build demo test lint fmt bench parity-record fuzz clean

all: build

build:
	$(CARGO) build --release

# Show the Claude settings the example policy compiles to. Writes nothing.
demo:
	$(CARGO) run --quiet -- -c example/config.toml generate claude

# Lint, then every test (unit, CLI scenarios, parity replay).
test: lint
	bash scripts/install-srt.sh
	$(CARGO) test --all-targets

lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings

fmt:
	$(CARGO) fmt

# Side-by-side benchmark against the reference (see doc/benchmarks.md).
bench:
	$(CARGO) build --release
	python3 bench/run.py $${CARGO_TARGET_DIR:-target}/release/twsrt

# Re-record the parity fixtures from twsrt 1.0.0 (needs Python and PyPI).
parity-record:
	python3 tests/parity/record.py

clean:
	$(CARGO) clean
