# statetui — build, run and check everything with the toolchain alone.
SWIFT ?= swift
PREFIX ?= /usr/local
TSAN_SCRATCH ?= .build-tsan

.PHONY: build release test test-tsan bench test-compile-fail

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
