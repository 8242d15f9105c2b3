# Builds, installs and packages skdpack the way Swift command-line tools are (SwiftLint, swift-format):
#
#   make install [PREFIX=/usr/local]   the release binary (Swift and C++ runtimes linked in), its man page and its
#                                      bash, zsh and fish completions under PREFIX
#   make uninstall [PREFIX=...]        removes what install put there
#   make dist                          skdpack-VERSION-linux-ARCH.tar.gz: the same layout, README, LICENSE
#                                      and templates
#
# The binary says the commit it was built from (skdpack --version).

PREFIX ?= /usr/local
VERSION := $(shell sed -n 's/^ *static let current = "\(.*\)"$$/\1/p' Sources/skdpack/SKDPackCommand.swift)
COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
ARCH := $(shell uname -m)
SCRATCH := .build-release
# The same flags for every build in SCRATCH: a change of flags rebuilds everything. The release flags (C++
# runtime linked in, no run path, metadata without conformance scans) are those of scripts/release-build-flags,
# which says why.
SWIFT_FLAGS := -c release --scratch-path $(SCRATCH) --static-swift-stdlib -Xswiftc -DSKDPACK_BUILD_COMMIT \
    $(shell scripts/release-build-flags $(SCRATCH))
BIN_DIR = $(shell swift build $(SWIFT_FLAGS) --show-bin-path)
DIST := skdpack-$(VERSION)-linux-$(ARCH)

BASH_COMPLETION := share/bash-completion/completions/skdpack
ZSH_COMPLETION := share/zsh/site-functions/_skdpack
FISH_COMPLETION := share/fish/vendor_completions.d/skdpack.fish
MAN_PAGE := share/man/man1/skdpack.1

.PHONY: all build install uninstall dist clean

all: build

# The commit goes into a generated source, compiled in only with SKDPACK_BUILD_COMMIT defined.
Sources/skdpack/Generated/BuildCommit.swift: FORCE
	@mkdir -p $(@D)
	@printf '// Written by make: the commit this binary was built from.\n#if SKDPACK_BUILD_COMMIT\n    extension SKDPackVersion {\n        static let commit: String? = "%s"\n    }\n#endif\n' "$(COMMIT)" > $@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@

build: Sources/skdpack/Generated/BuildCommit.swift
	scripts/setup
	swift build $(SWIFT_FLAGS) --product skdpack
	swift build $(SWIFT_FLAGS) --product generate-manual
	mkdir -p $(SCRATCH)/share/man/man1
	# The man page from the binary's own help, by swift-argument-parser's generate-manual tool.
	$(BIN_DIR)/generate-manual $(BIN_DIR)/skdpack --date 2026-01-01 \
	    --authors "skdpack developers" --output-directory $(SCRATCH)/share/man/man1
	# The tool leaves the help's blank lines in the mdoc source, which man warns of: a paragraph macro instead.
	sed -i 's/^$$/.Pp/' $(SCRATCH)/share/man/man1/skdpack.1
	for shell in bash zsh fish; do \
	    $(BIN_DIR)/skdpack --generate-completion-script $$shell > $(SCRATCH)/completion.$$shell || exit 1; \
	done

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	    $(dir $(DESTDIR)$(PREFIX)/$(BASH_COMPLETION)) $(dir $(DESTDIR)$(PREFIX)/$(ZSH_COMPLETION)) \
	    $(dir $(DESTDIR)$(PREFIX)/$(FISH_COMPLETION))
	install -m 755 $(BIN_DIR)/skdpack $(DESTDIR)$(PREFIX)/bin/skdpack
	install -m 644 $(SCRATCH)/share/man/man1/skdpack.1 $(DESTDIR)$(PREFIX)/$(MAN_PAGE)
	install -m 644 $(SCRATCH)/completion.bash $(DESTDIR)$(PREFIX)/$(BASH_COMPLETION)
	install -m 644 $(SCRATCH)/completion.zsh $(DESTDIR)$(PREFIX)/$(ZSH_COMPLETION)
	install -m 644 $(SCRATCH)/completion.fish $(DESTDIR)$(PREFIX)/$(FISH_COMPLETION)

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/skdpack $(DESTDIR)$(PREFIX)/$(MAN_PAGE) $(DESTDIR)$(PREFIX)/$(BASH_COMPLETION) \
	    $(DESTDIR)$(PREFIX)/$(ZSH_COMPLETION) $(DESTDIR)$(PREFIX)/$(FISH_COMPLETION)

dist: build
	rm -rf $(SCRATCH)/dist && mkdir -p $(SCRATCH)/dist
	$(MAKE) --no-print-directory install PREFIX=$(CURDIR)/$(SCRATCH)/dist/$(DIST)
	cp README.md LICENSE $(SCRATCH)/dist/$(DIST)/
	cp -R templates $(SCRATCH)/dist/$(DIST)/templates
	tar -C $(SCRATCH)/dist -czf $(DIST).tar.gz $(DIST)
	@echo "$(DIST).tar.gz"

clean:
	rm -rf $(SCRATCH) Sources/skdpack/Generated $(DIST).tar.gz

FORCE:
