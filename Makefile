# OpenBench-style build: `make EXE=path/to/binary`.
EXE ?= tropa
RUSTFLAGS_NATIVE ?= -C target-cpu=native

all:
	RUSTFLAGS="$(RUSTFLAGS_NATIVE)" cargo build --release
	cp target/release/tropa $(EXE)

.PHONY: all
