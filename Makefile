# OpenBench-style build: `make EXE=path/to/binary`.
EXE ?= tropa
RUSTFLAGS_NATIVE ?= -C target-cpu=native

all:
	RUSTFLAGS="$(RUSTFLAGS_NATIVE)" cargo build --release
	cp target/release/tropa $(EXE)

.PHONY: all

# The deep perft counts (every count of the three suites up to depth 6; a benchmark, not a CI test).
SUITES = tests/data/perft/perftsuite.epd tests/data/perft/cpw_perft_positions.epd tests/data/perft/chess960_fischer.epd
perft-deep:
	cargo build --release
	./target/release/tropa perft-suite $(SUITES) --max-depth 6 --threads 2

.PHONY: perft-deep
