# statetui — build, run and check everything with the toolchain alone.
SWIFT ?= swift
PREFIX ?= /usr/local
TSAN_SCRATCH ?= .build-tsan
TSAN_REPORTS = $(abspath $(TSAN_SCRATCH))/reports
FUZZ_SCRATCH ?= .build-fuzz
# The toolchain's own tools, found next to `swift` on PATH (no xcrun): docc and swift-format ship with it.
# Symlinks are resolved so a `swift` linked into /usr/bin still finds its toolchain; PATH is the fallback.
TOOLCHAIN_BIN := $(shell dirname "$$(readlink -f "$$(command -v $(SWIFT))")" 2>/dev/null)
DOCC ?= $(firstword $(wildcard $(TOOLCHAIN_BIN)/docc) docc)
SWIFT_FORMAT ?= $(firstword $(wildcard $(TOOLCHAIN_BIN)/swift-format) swift-format)
FORMAT_PATHS := Sources Tests Package.swift
DOCS_SITE ?= docs-site
DOC_MODULES := StateMachineKit StateMachineTesting StateMachineDiagrams StateMachineInspector
# Release builds link the Swift runtime and FoundationEssentials into the binary on Linux: only what it uses is
# loaded (statetui --version 14.8 -> 11.4 MB resident, the idle dashboard 19.5 -> 16.3 MB) and the installed
# binary runs without a Swift toolchain. Darwin has no static Swift runtime. Package.swift also links the release
# statetui with lld, packed relative relocations and libstdc++.a, and libcrypto is opened by the first hash: the
# loader maps neither libcrypto nor libstdc++ at exec (statetui --version 12.9 -> 9.1 MB, the idle dashboard
# 17.8 -> 14.0 MB, medians of alternated runs on copies of the binaries).
RELEASE := -c release $(if $(filter Linux,$(shell uname -s)),--static-swift-stdlib)

.PHONY: build release run test keys-docs test-inspect test-dashboard test-screens test-ux test-demos casts test-tsan test-install test-compile-fail test-copy test-copy-progress test-inspect-screens test-adopt test-completions test-config bench diagrams format lint docs install uninstall fuzz fuzz-smoke

build:
	$(SWIFT) build

# The release binary. Only the products: the static SDK has no `Testing` module, which the test helper
# library TerminalUITesting imports, so building every target with --static-swift-stdlib fails.
release:
	$(SWIFT) build $(RELEASE) --product statetui

# Builds the release binary and opens the dashboard in this terminal (q quits, ? lists the keys).
run:
	@echo "Building the release binary first: the first build takes about two minutes."
	$(SWIFT) build $(RELEASE) --product statetui
	"$$($(SWIFT) build $(RELEASE) --show-bin-path)/statetui"

test:
	$(SWIFT) test
	$(MAKE) test-compile-fail
	$(MAKE) test-copy
	$(MAKE) test-copy-progress
	$(MAKE) test-inspect
	$(MAKE) test-inspect-screens
	$(MAKE) test-install
	$(MAKE) test-dashboard
	$(MAKE) test-screens
	$(MAKE) test-ux
	$(MAKE) test-demos
	$(MAKE) test-adopt
	$(MAKE) test-completions
	$(MAKE) test-config

# The man page's KEYS section and the README's key table, rewritten from the key tables (KeyDocsTests fails
# while they differ).
keys-docs:
	STATETUI_RECORD=1 $(SWIFT) test --filter KeyDocsTests

# Every bundled demo through the binary, headless: an expect that fails stops make.
DEMOS := transfer upload load tour
test-demos:
	$(SWIFT) build --product statetui
	for demo in $(DEMOS); do \
	  "$$($(SWIFT) build --show-bin-path)/statetui" demo $$demo --headless > /dev/null || exit 1; \
	done

# Re-records the asciicast files Resources/demos/NAME.cast from the headless demos.
casts:
	$(SWIFT) build --product statetui
	for demo in $(DEMOS); do \
	  "$$($(SWIFT) build --show-bin-path)/statetui" demo $$demo --headless --record Resources/demos/$$demo.cast > /dev/null || exit 1; \
	done

# Every screen but Transfers, and the interactive demo, driven in tmux.
test-screens:
	SWIFT=$(SWIFT) Tests/EndToEnd/screens.sh

# Issue 17 in tmux: statetui copy of a tree with a failing file (size, rate, ETA, the detail pane's whole error),
# a click on a row and on a tab, History's search, and `s p` typed fast on the dashboard.
test-ux:
	SWIFT=$(SWIFT) Tests/EndToEnd/ux.sh

# statetui inspect against a real statetui copy --inspectable: list, --headless JSON lines, kill -9, bad clients.
test-inspect:
	SWIFT=$(SWIFT) Tests/EndToEnd/inspect.sh

# The real dashboard in tmux: keys, screens, resize, and the terminal restored on every way out.
test-dashboard:
	SWIFT=$(SWIFT) Tests/EndToEnd/dashboard.sh

# Misuse of the StagedFile typestate (commit twice, use after discard) must not compile.
test-compile-fail:
	SWIFT=$(SWIFT) ./Tests/compile-fail.sh

# statetui inspect's screens end to end in tmux: list, the screens following a copy, --headless, kill -9.
test-inspect-screens:
	SWIFT=$(SWIFT) Tests/EndToEnd/inspect-screens.sh

# statetui copy --headless end to end on real files: kill -9 and restart, the fault cases, signals.
test-copy:
	SWIFT=$(SWIFT) Tests/EndToEnd/copy.sh

# Issue 23's output of statetui copy --headless: lines written as they happen (live, through a pipe, after kill -9),
# a total line at most once a second, the summary; replay answering through a pipe.
test-copy-progress:
	SWIFT=$(SWIFT) Tests/EndToEnd/copy-progress.sh

# ThreadSanitizer in its own scratch folder so it never invalidates the ordinary build.
# One test at a time: under ThreadSanitizer's slowdown, CPU-bound tests (model checks, large copies) can hold both
# threads of a 2-core machine's cooperative pool for longer than a demo's stall limit (60 s without a wake-up), so a
# demo whose effects wait for a thread ends as stalled. Serial, every test has the pool to itself.
# Its reports go to files under $(TSAN_SCRATCH)/reports and are printed when the run ends, each race's summary and
# the top of its two stacks last: a CI log that keeps only its tail still names the race.
test-tsan:
	rm -rf $(TSAN_REPORTS) && mkdir -p $(TSAN_REPORTS)
	status=0; TSAN_OPTIONS="log_path=$(TSAN_REPORTS)/tsan $${TSAN_OPTIONS:-}" \
		$(SWIFT) test --sanitize=thread --no-parallel --scratch-path $(TSAN_SCRATCH) || status=$$?; \
	if ls $(TSAN_REPORTS)/tsan.* >/dev/null 2>&1; then \
		cat $(TSAN_REPORTS)/tsan.*; \
		echo "test-tsan: the races ThreadSanitizer reported, in short:"; \
		grep -hE '^(WARNING|SUMMARY): ThreadSanitizer|^  (Write|Read|Previous|Location)|^    #[0-2] ' $(TSAN_REPORTS)/tsan.*; \
		exit 1; \
	fi; \
	exit $$status

# statetui completions: bash's completion function answers through compgen as a user's Tab would; the zsh and
# fish scripts load (and fish completes) where those shells are installed.
test-completions:
	SWIFT=$(SWIFT) Tests/EndToEnd/completions.sh

# The configuration file in tmux: a config.toml under XDG_CONFIG_HOME remaps quit and pause and colours a phase;
# --config names another file, and a bad one exits 2 naming the file and the line.
test-config:
	SWIFT=$(SWIFT) Tests/EndToEnd/config.sh

# Installs the release binary and the man page into a temporary prefix and removes them again.
test-install:
	Tests/EndToEnd/install.sh

# Rewrites every Swift file in place to the style in .swift-format.
format:
	$(SWIFT_FORMAT) format --in-place --parallel --recursive $(FORMAT_PATHS)

# Fails on any finding, formatting or rule, so CI keeps the style that `make format` writes.
lint:
	$(SWIFT_FORMAT) lint --strict --parallel --recursive $(FORMAT_PATHS)
	Tests/check-conditional-imports.sh
	Tests/check-foundation-imports.sh

# Another package depends on a tagged release of this repository (its committed tree, tagged 0.1.0) by version and
# builds and runs all four library products (StateMachineKit, StateMachineTesting, StateMachineMacros,
# StateMachineInspector). Commit first: only committed files are in the release.
test-adopt:
	SWIFT=$(SWIFT) Tests/EndToEnd/adopt.sh

# DocC archives for the libraries, as static sites in $(DOCS_SITE)/<Module>, from the symbol graphs SwiftPM
# dumps (no documentation plugin package is available here). Any docc warning fails the build.
docs:
	@mkdir -p .build
	$(SWIFT) package dump-symbol-graph --minimum-access-level public --skip-synthesized-members \
		> .build/dump-symbol-graph.log 2>&1 || { cat .build/dump-symbol-graph.log >&2; exit 1; }
	@graphs="$$(dirname "$$($(SWIFT) build --show-bin-path)")/symbolgraph"; \
	test -d "$$graphs" || { echo "make docs: no symbol graphs in $$graphs" >&2; exit 1; }; \
	rm -rf $(DOCS_SITE) .build/docs-graphs; mkdir -p $(DOCS_SITE); \
	for module in $(DOC_MODULES); do \
		mkdir -p .build/docs-graphs/$$module; \
		cp "$$graphs"/$$module.symbols.json "$$graphs"/$$module@*.symbols.json .build/docs-graphs/$$module/ 2>/dev/null; \
		test -f .build/docs-graphs/$$module/$$module.symbols.json || { echo "make docs: no symbol graph for $$module" >&2; exit 1; }; \
		echo "docc convert $$module"; \
		$(DOCC) convert Sources/$$module/$$module.docc \
			--additional-symbol-graph-dir .build/docs-graphs/$$module \
			--fallback-display-name $$module --fallback-bundle-identifier statetui.$$module \
			--transform-for-static-hosting --hosting-base-path $$module \
			--output-path $(DOCS_SITE)/$$module --warnings-as-errors > .build/docc-$$module.log 2>&1; \
		status=$$?; \
		if [ $$status -ne 0 ] || grep -q -i -E 'warning:|error:' .build/docc-$$module.log; then \
			cat .build/docc-$$module.log >&2; echo "make docs: docc reported problems for $$module" >&2; exit 1; \
		fi; \
	done; \
	printf '%s\n' '<!doctype html><meta charset="utf-8"><title>statetui documentation</title>' \
		'<ul><li><a href="StateMachineKit/documentation/statemachinekit/">StateMachineKit</a></li>' \
		'<li><a href="StateMachineTesting/documentation/statemachinetesting/">StateMachineTesting</a></li>' \
		'<li><a href="StateMachineDiagrams/documentation/statemachinediagrams/">StateMachineDiagrams</a></li>' \
		'<li><a href="StateMachineInspector/documentation/statemachineinspector/">StateMachineInspector</a></li></ul>' \
		> $(DOCS_SITE)/index.html; \
	echo "documentation in $(DOCS_SITE)/ (serve that folder; each module lives under its own name)"

# Where `make install` puts the shell completion scripts (`statetui completions SHELL` writes them), under
# $(PREFIX): the places bash-completion, zsh's site-functions and fish's vendor completions are read from.
BASH_COMPLETION_DIR = $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETION_DIR = $(PREFIX)/share/zsh/site-functions
FISH_COMPLETION_DIR = $(PREFIX)/share/fish/vendor_completions.d

# Installs the release `statetui` binary, its man page and its shell completions under $(PREFIX); DESTDIR
# stages a package.
install:
	$(SWIFT) build $(RELEASE) --product statetui
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/man/man1" "$(DESTDIR)$(BASH_COMPLETION_DIR)" \
	  "$(DESTDIR)$(ZSH_COMPLETION_DIR)" "$(DESTDIR)$(FISH_COMPLETION_DIR)"
	install -m 755 "$$($(SWIFT) build $(RELEASE) --show-bin-path)/statetui" "$(DESTDIR)$(PREFIX)/bin/statetui"
	install -m 644 Resources/statetui.1 "$(DESTDIR)$(PREFIX)/share/man/man1/statetui.1"
	"$(DESTDIR)$(PREFIX)/bin/statetui" completions bash > "$(DESTDIR)$(BASH_COMPLETION_DIR)/statetui"
	"$(DESTDIR)$(PREFIX)/bin/statetui" completions zsh > "$(DESTDIR)$(ZSH_COMPLETION_DIR)/_statetui"
	"$(DESTDIR)$(PREFIX)/bin/statetui" completions fish > "$(DESTDIR)$(FISH_COMPLETION_DIR)/statetui.fish"
	chmod 644 "$(DESTDIR)$(BASH_COMPLETION_DIR)/statetui" "$(DESTDIR)$(ZSH_COMPLETION_DIR)/_statetui" \
	  "$(DESTDIR)$(FISH_COMPLETION_DIR)/statetui.fish"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/statetui" "$(DESTDIR)$(PREFIX)/share/man/man1/statetui.1" \
	  "$(DESTDIR)$(BASH_COMPLETION_DIR)/statetui" "$(DESTDIR)$(ZSH_COMPLETION_DIR)/_statetui" \
	  "$(DESTDIR)$(FISH_COMPLETION_DIR)/statetui.fish"

# Regenerates the checked-in Mermaid diagrams of the three models (DiagramTests fail when they differ) and,
# where Graphviz's dot is installed, their SVGs; without dot it says so and writes none.
DIAGRAMS := transfer upload load
diagrams:
	$(SWIFT) build --product statetui
	mkdir -p Resources/diagrams
	for model in $(DIAGRAMS); do \
	  "$$($(SWIFT) build --show-bin-path)/statetui" graph $$model --format mermaid > Resources/diagrams/$$model.mmd.tmp \
	    && mv Resources/diagrams/$$model.mmd.tmp Resources/diagrams/$$model.mmd || exit 1; \
	done
	@if command -v dot >/dev/null 2>&1; then \
	  for model in $(DIAGRAMS); do \
	    "$$($(SWIFT) build --show-bin-path)/statetui" graph $$model --format dot | dot -Tsvg > Resources/diagrams/$$model.svg.tmp \
	      && mv Resources/diagrams/$$model.svg.tmp Resources/diagrams/$$model.svg || exit 1; \
	    echo "wrote Resources/diagrams/$$model.svg"; \
	  done; \
	else \
	  echo "graphviz 'dot' not found: SVGs not written (apt-get install graphviz)"; \
	fi

# Release build of the benchmark executable, then one run: a table and a JSON line per group.
bench:
	$(SWIFT) build $(RELEASE) --product Benchmarks
	$(SWIFT) build $(RELEASE) --product statetui
	./.build/release/Benchmarks $(GROUPS)

# libFuzzer executables, one per parser of outside input (Tests/Fuzz/<Name>/main.swift; the entries are FuzzTarget
# in Commands), built with the fuzzer and AddressSanitizer in their own scratch folder. Package.swift declares them
# only when STATETUI_FUZZ=1, so no other build sees them. Run one by hand on a copy of its seeds, e.g.
#   cp -r Tests/Fuzz/Corpus/FuzzReplay /tmp/replay && .build-fuzz/debug/FuzzReplay /tmp/replay
FUZZ_TARGETS := $(patsubst Tests/Fuzz/%/main.swift,%,$(wildcard Tests/Fuzz/*/main.swift))
FUZZ_BUILD := STATETUI_FUZZ=1 $(SWIFT) build --scratch-path $(FUZZ_SCRATCH) -Xswiftc -sanitize=fuzzer,address
FUZZ_SECONDS ?= 20
fuzz:
	for target in $(FUZZ_TARGETS); do $(FUZZ_BUILD) --product $$target || exit 1; done

# Each fuzzer for FUZZ_SECONDS on a temporary copy of its seed corpus (the checked-in one stays as it is); any
# crash, timeout (10 s per input) or memory blow-up (2 GiB) fails, and its reproducer is kept in
# $(FUZZ_SCRATCH)/artifacts for Tests/Fuzz/Crashes/<Name>/. Prints each target's executions and final corpus.
fuzz-smoke: fuzz
	@bin="$$($(FUZZ_BUILD) --show-bin-path)"; work="$$(mktemp -d)"; trap 'rm -rf "$$work"' EXIT; \
	mkdir -p $(FUZZ_SCRATCH)/artifacts; failed=""; \
	for target in $(FUZZ_TARGETS); do \
	  mkdir -p "$$work/$$target"; cp Tests/Fuzz/Corpus/$$target/* "$$work/$$target/"; \
	  "$$bin/$$target" "$$work/$$target" -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -timeout=10 \
	    -print_final_stats=1 -artifact_prefix="$(FUZZ_SCRATCH)/artifacts/$$target-" > "$$work/$$target.log" 2>&1; \
	  status=$$?; \
	  runs="$$(sed -n 's/^stat::number_of_executed_units: *//p' "$$work/$$target.log")"; \
	  corpus="$$(ls "$$work/$$target" | wc -l)"; \
	  echo "$$target: $${runs:-?} executions in $(FUZZ_SECONDS) s, corpus $$(ls Tests/Fuzz/Corpus/$$target | wc -l) seeds -> $$corpus inputs, exit $$status"; \
	  if [ $$status -ne 0 ]; then tail -40 "$$work/$$target.log"; failed="$$failed $$target"; fi; \
	done; \
	if [ -n "$$failed" ]; then echo "make fuzz-smoke: failed:$$failed (reproducers in $(FUZZ_SCRATCH)/artifacts)" >&2; exit 1; fi
