# The way OpenBench (and most engine-testing frameworks) build an engine: `make EXE=NAME`
# builds the release binary for this machine's CPU and copies it to NAME. `EVALFILE=PATH`
# embeds that network file as the default for every variant it fits (see engine/build.rs).
#
# ARCH picks the CPU level the binary is compiled for (docs/building.md):
#   native      this machine's CPU (the default; what `cargo build --release` makes)
#   x86-64-v4   AVX-512 (Intel Skylake-X and later servers, AMD Zen 4)
#   x86-64-v3   AVX2, BMI2, FMA (Intel Haswell 2013 and later, AMD Zen)
#   x86-64-v2   SSE4.2, POPCNT (Intel Nehalem 2008 and later, AMD Bulldozer)
#   x86-64      any 64-bit PC
# A binary started on a CPU that lacks its level's instructions says so and exits.
# FEATURES=tune builds the engine whose search numbers are options, for SPSA (docs/tuning.md).
# `make portable` builds every level as target/portable/menagerie-LEVEL, `make windows` the same
# for Windows (menagerie-LEVEL.exe).
EXE ?= menagerie
EVALFILE ?=
ARCH ?= native
FEATURES ?=
CARGO_FEATURES := $(if $(FEATURES),--features $(FEATURES))
LEVELS := x86-64 x86-64-v2 x86-64-v3 x86-64-v4
# OpenBench passes the engine's compiler as CC (CC=cargo); a C build step of a dependency (psm,
# under vampirc-uci's parser) would take it for a C compiler, so cargo gets the system's own.
unexport CC CXX

.PHONY: all portable windows clean

ifeq ($(ARCH),native)
all:
	MENAGERIE_EVALFILE="$(abspath $(EVALFILE))" cargo build --release $(CARGO_FEATURES)
	cp target/release/menagerie $(EXE)
else
# Each level in a target directory of its own, so that builds for two levels do not undo each
# other; RUSTFLAGS overrides .cargo/config.toml's target-cpu=native.
all:
	RUSTFLAGS="-C target-cpu=$(ARCH)" CARGO_TARGET_DIR=target/arch-$(ARCH) \
		MENAGERIE_EVALFILE="$(abspath $(EVALFILE))" cargo build --release $(CARGO_FEATURES)
	cp target/arch-$(ARCH)/release/menagerie $(EXE)
endif

portable:
	mkdir -p target/portable
	for level in $(LEVELS); do \
		$(MAKE) ARCH=$$level EXE=target/portable/menagerie-$$level || exit 1; \
	done

# Windows binaries for each level, cross-built here: needs `rustup target add
# x86_64-pc-windows-gnu` and MinGW-w64 (Debian: gcc-mingw-w64-x86-64).
windows:
	mkdir -p target/portable
	for level in $(LEVELS); do \
		RUSTFLAGS="-C target-cpu=$$level" CARGO_TARGET_DIR=target/windows-$$level \
			MENAGERIE_EVALFILE="$(abspath $(EVALFILE))" \
			cargo build --release --target x86_64-pc-windows-gnu || exit 1; \
		cp target/windows-$$level/x86_64-pc-windows-gnu/release/menagerie.exe \
			target/portable/menagerie-$$level.exe; \
	done

clean:
	cargo clean
