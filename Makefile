# The way OpenBench (and most engine-testing frameworks) build an engine: `make EXE=NAME`
# builds the release binary for this machine's CPU and copies it to NAME.
EXE ?= menagerie

.PHONY: all clean

all:
	cargo build --release
	cp target/release/menagerie $(EXE)

clean:
	cargo clean
