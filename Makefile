# statetui — build, run and check everything with the toolchain alone.
SWIFT ?= swift
PREFIX ?= /usr/local
TSAN_SCRATCH ?= .build-tsan

.PHONY: build release test test-tsan bench

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release

test:
	$(SWIFT) test

# ThreadSanitizer in its own scratch folder so it never invalidates the ordinary build.
test-tsan:
	$(SWIFT) test --sanitize=thread --scratch-path $(TSAN_SCRATCH)

# Release build of the benchmark executable, then one run: a table and a JSON line per group.
bench:
	$(SWIFT) build -c release --product Benchmarks
	./.build/release/Benchmarks
