# statetui — build, run and check everything with the toolchain alone.
SWIFT ?= swift
PREFIX ?= /usr/local
TSAN_SCRATCH ?= .build-tsan
# The toolchain's own tools, found next to `swift` on PATH (no xcrun): docc and swift-format ship with it.
# Symlinks are resolved so a `swift` linked into /usr/bin still finds its toolchain; PATH is the fallback.
TOOLCHAIN_BIN := $(shell dirname "$$(readlink -f "$$(command -v $(SWIFT))")" 2>/dev/null)
DOCC ?= $(firstword $(wildcard $(TOOLCHAIN_BIN)/docc) docc)
SWIFT_FORMAT ?= $(firstword $(wildcard $(TOOLCHAIN_BIN)/swift-format) swift-format)
FORMAT_PATHS := Sources Tests Package.swift
DOCS_SITE ?= docs-site
DOC_MODULES := StateMachineKit StateMachineTesting

.PHONY: build release test test-tsan bench diagrams test-compile-fail

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release

test:
	$(SWIFT) test
	$(MAKE) test-compile-fail

# Misuse of the StagedFile typestate (commit twice, use after discard) must not compile.
test-compile-fail:
	SWIFT=$(SWIFT) ./Tests/compile-fail.sh

# ThreadSanitizer in its own scratch folder so it never invalidates the ordinary build.
test-tsan:
	$(SWIFT) test --sanitize=thread --scratch-path $(TSAN_SCRATCH)

# Regenerates the checked-in Mermaid diagrams of the three models; DiagramTests fail when they differ.
DIAGRAMS := transfer upload load
diagrams:
	$(SWIFT) build --product statetui
	mkdir -p Resources/diagrams
	for model in $(DIAGRAMS); do \
	  "$$($(SWIFT) build --show-bin-path)/statetui" graph $$model --format mermaid > Resources/diagrams/$$model.mmd.tmp \
	    && mv Resources/diagrams/$$model.mmd.tmp Resources/diagrams/$$model.mmd || exit 1; \
	done

# Release build of the benchmark executable, then one run: a table and a JSON line per group.
bench:
	$(SWIFT) build -c release --product Benchmarks
	./.build/release/Benchmarks
