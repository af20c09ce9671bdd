# The way OpenBench (and most engine-testing frameworks) build an engine: `make EXE=NAME`
# builds the release binary for this machine's CPU and copies it to NAME. `EVALFILE=PATH`
# embeds that network file as the default for every variant it fits (see build.rs).
EXE ?= menagerie
EVALFILE ?=
# OpenBench passes the engine's compiler as CC (CC=cargo); a C build step of a dependency (psm,
# under vampirc-uci's parser) would take it for a C compiler, so cargo gets the system's own.
unexport CC CXX

.PHONY: all clean

all:
	MENAGERIE_EVALFILE="$(abspath $(EVALFILE))" cargo build --release
	cp target/release/menagerie $(EXE)

clean:
	cargo clean
