# gpsfix: the two commands a new machine needs are `make run` and `make test`.
# Both install what is missing with apt (through sudo when not root), then build.

SWIFT      ?= swift
CAPTURE    ?= Captures/drive-1hz.nmea
SPEED      ?= 10
SHARED     ?= ../shared
# What building and replaying needs beyond the Swift toolchain (GpsdManager links libgps,
# GPSMQTT libmosquitto).
RUN_DEPS   := pkg-config libgps-dev libmosquitto-dev
# What the tests and the conformance gate need: python3 runs gpsd's scorer, socat makes the
# pseudo-terminals the serial tests read, udev's udevadm checks the rules, gpsd is the
# real peer the gpsd source is tested against; man-db and groff-base render the man page,
# bash-completion and zsh load the completions as they would for a person, and the
# install test runs make; systemd's systemd-analyze checks the units and its
# systemd-socket-activate hands serve its socket as systemd does; mosquitto, its clients,
# paho and openssl are the broker, subscribers and CA of the MQTT tests; gdb shows the
# watchdog where a stuck test is; numpy checks gpsfix stats' figures, rsvg-convert draws its plots;
# chromium (driven over its DevTools socket by python3-websocket) opens serve --http's page,
# curl reads its event stream, and prometheus scrapes its metrics (promtool checks them).
TEST_DEPS  := pkg-config libgps-dev libmosquitto-dev mosquitto mosquitto-clients python3-paho-mqtt openssl python3 socat udev gpsd gpsd-clients python3-gps tmux gpsbabel python3-gpxpy \
              make man-db groff-base bash-completion zsh systemd chrony gdb python3-numpy librsvg2-bin \
              chromium python3-websocket prometheus curl
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
CONFORMANCE_MIN ?= 52
# Swift 6 mode with strict concurrency is set in Package.swift; here, any warning fails.
STRICT     := -Xswiftc -warnings-as-errors
# SwiftPM adds -color-diagnostics to every compile when its output is a terminal, and a changed
# command line rebuilds everything: `make run` in a terminal, then piped, rebuilt the whole
# release binary each time (about a minute). Its output always goes through a pipe instead, so
# the command lines are the same wherever make runs (pipefail keeps its exit status).
SHELL      := /bin/bash
.SHELLFLAGS := -o pipefail -c
PIPED      := 2>&1 | cat

.PHONY: run test build release docs check-links deps-run deps-test deps-distros distros conformance conformance-fields cgps-side-by-side bench pps-figures web-figures page captures install uninstall install-udev deb clean fuzz fuzz-gpsd sanitize tsan

run: deps-run release
	.build/release/gpsfix watch --replay $(CAPTURE) --speed $(SPEED)

test: deps-test
	$(SWIFT) build --build-tests $(STRICT) $(PIPED)
	# One test at a time: the pty, gpsd and pacing tests measure real time, and two cores
	# shared with parallel suites made them flaky (about 26 s in all). The watchdog names a
	# test stuck where its own time limit cannot reach, long before CI's limit (the whole run
	# takes about 6 minutes here).
	.ci/watchdog 45 $(SWIFT) test --no-parallel $(STRICT) $(PIPED)
	# The example app (Examples/FixApp): gpsfix by path, public API only, its own tests on the
	# GPSLocationTesting product, and the README's library example run exactly as written.
	cd Examples/FixApp && $(SWIFT) build --build-tests $(STRICT) $(PIPED) && $(SWIFT) test $(STRICT) $(PIPED)
	Examples/FixApp/.build/debug/ReadmeExample $(PIPED) | tail -n 2

build:
	$(SWIFT) build $(PIPED)

# The Swift runtime linked in: a binary that runs where no toolchain is installed, and
# starts without resolving thousands of runtime symbols (about 14 M instructions a start).
# That link needs libstdc++'s development files, which Swift's own install instructions list;
# without them, the ordinary dynamic build is used. Link-time optimisation lets the engine,
# the formatters and the CLI inline across modules: 7 % fewer instructions on make bench's
# corpus, the same output (Benchmarks/same-output.sh).
RELEASE_FLAGS ?= --experimental-lto-mode=full
release:
	$(SWIFT) build -c release --product gpsfix --static-swift-stdlib $(RELEASE_FLAGS) $(PIPED) \
	  || { echo "gpsfix: static link failed (is libstdc++-dev installed?); linking dynamically"; $(SWIFT) build -c release --product gpsfix $(RELEASE_FLAGS) $(PIPED); }
	@bin=$$($(SWIFT) build -c release $(RELEASE_FLAGS) --show-bin-path); \
	  [ "$$(realpath $$bin)" = "$$(realpath .build/release 2>/dev/null)" ] && bin=.build/release; \
	  echo "gpsfix: built $$bin/gpsfix (make install PREFIX=~/.local puts it on your PATH without root)"

# An app that only replays (Examples/ReplayFixes, built from the GPSSources product as any app
# would) must link neither libgps nor libmosquitto; gpsfix itself links both.
check-links: deps-run release
	cd Examples/ReplayFixes && $(SWIFT) build $(PIPED)
	Tools/check-links.sh Examples/ReplayFixes/.build/debug/ReplayFixes .build/release/gpsfix $(CAPTURE)

# The gpsd regression captures beside the project, scored by gpsd's own expected output.
conformance: deps-test release
	Tools/conformance.sh $(SHARED)/captures/gpsd $(CONFORMANCE_MIN)

# The same captures, field by field (eph, epx…, magvar, every DOP, ATT's heading): the share of
# gpsd's positions for each field at which gpsfix reports the same value (within 1 %), each held
# to its floor in Tools/conformance/fields-floor.txt (a gate in .ci/run).
conformance-fields: release
	python3 Tools/conformance/fields.py --floor Tools/conformance/fields-floor.txt $(SHARED)/captures/gpsd

# cgps against gpsd and against gpsfix serve, side by side in tmux on one capture fed to both:
# the two screens as text in .build/cgps, and a failure for any row gpsd fills that gpsfix leaves n/a.
cgps-side-by-side: deps-test release
	Tools/cgps/side-by-side.sh $(CAPTURE) .build/cgps

# The build and the gpsd tests on each system gpsfix says it runs on: this machine (Debian 12,
# gpsd 3.22), and minimal Debian 13 (gpsd 3.25) and Debian unstable roots made with debootstrap
# in DISTROS_CACHE and kept between runs, each with its own libgps, gpsd and GCC, and the Swift
# toolchain on PATH bind-mounted in (Tools/distros.sh says how). About 11 minutes from nothing,
# a few once the roots and their builds are there; the Debian package is checked in the Debian 13
# root too (Tools/deb/root-check.sh). Needs root (sudo) for chroot and mounts.
DISTROS_CACHE  ?= /var/cache/gpsfix-distros
DISTROS_MIRROR ?= http://deb.debian.org/debian
DISTROS        ?= host trixie sid
distros: deps-test deps-distros
	DISTROS_CACHE=$(DISTROS_CACHE) DISTROS_MIRROR=$(DISTROS_MIRROR) SWIFT=$(SWIFT) STRICT="$(STRICT)" \
	  Tools/distros.sh $(DISTROS)

bench: release
	Benchmarks/bench.sh

# The PPS paths' figures on this machine (the kernel's interface stood in for as in the tests):
# the modem line's stamp latency and jitter, and chronyd's view of both paths. PPS_SECONDS each.
PPS_SECONDS ?= 120
pps-figures: deps-test release
	Benchmarks/pps.sh $(PPS_SECONDS)

# serve --http's cost to gpsd's clients: a gpsd client's latency alone and beside 200 event
# streams and one that never reads (Tools/probe/sse_load.py, a 10 Hz receiver on a pty).
web-figures: deps-test release
	python3 Tools/probe/sse_load.py --gpsfix .build/release/gpsfix --rounds 3 --seconds 10

# The web page's files (Sources/GPSServer/HTTP/Page/) built into the module as Swift text;
# the tests fail while the built-in copy differs from the files.
page:
	python3 Tools/web/embed.py

# DocC archives of every library product in .build/docs/ (open one with `docc preview` or serve
# it statically), built with the toolchain's own docc from the debug build's symbol graphs,
# warnings as errors; it fails, naming them, on public symbols with no documentation.
docs:
	$(SWIFT) build $(PIPED)
	Tools/docs/build.sh

captures:
	python3 Tools/make-captures.py

# libFuzzer over the whole engine and its formatters (Fuzz/EngineCheck), seeded from Captures/.
# A crash or broken invariant leaves its input in .build/fuzz/artifacts; `nmea-fuzz FILE`
# (the plain build) says what broke. Every one found becomes a test in Tests/HostileInputTests.
FUZZ_SECONDS ?= 60
fuzz:
	Tools/fuzz.sh $(FUZZ_SECONDS)

# The same for what a gpsd peer sends: the gpsd source's line checks and the installed libgps
# (a line that makes libgps loop is a time-out, and kept in .build/fuzz-gpsd/artifacts).
fuzz-gpsd: release
	Tools/fuzz-gpsd.sh $(FUZZ_SECONDS)

# The tests under AddressSanitizer, in a build of their own.
sanitize: deps-test
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan $(STRICT)
	GPSFIX_SANITIZER=address ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --no-parallel --skip-build --sanitize=address --scratch-path .build/asan

# The library suites under ThreadSanitizer; Tools/tsan/check.py passes only the reports that are
# Synchronization.Mutex's known false positive (its docstring says why) and fails on any other.
tsan: deps-test
	Tools/tsan/run.sh

# Where `make install` puts things. DESTDIR stages the whole tree elsewhere (a package, a test).
PREFIX         ?= /usr/local
BINDIR         ?= $(PREFIX)/bin
MANDIR         ?= $(PREFIX)/share/man
SYSCONFDIR     ?= /etc
# Where bash-completion (XDG_DATA_DIRS, /usr/local/share first) and zsh's default fpath look.
BASHCOMPDIR    ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR     ?= $(PREFIX)/share/zsh/site-functions
# udev reads rules from /etc/udev/rules.d and /usr/lib/udev/rules.d, never from under
# /usr/local: a local install puts them with the administrator's own, a /usr one with the
# distribution's.
UDEVRULESDIR   ?= $(if $(filter /usr,$(PREFIX)),/usr/lib/udev/rules.d,$(SYSCONFDIR)/udev/rules.d)
# systemd looks for system units in /usr/local/lib/systemd/system as well ('systemd-analyze
# unit-paths'): the place for software installed under /usr/local, below /etc/systemd/system,
# so an administrator's own unit or drop-in still wins.
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
# The binary installed: the release build, made first, unless another is named
# ('make install BINARY=.build/debug/gpsfix' installs one already built).
BINARY         ?= .build/release/gpsfix
SYSTEMD_SRC    ?= systemd
# Whatever of the units and their defaults is in the tree is installed.
UNITS          := $(wildcard $(SYSTEMD_SRC)/gpsfix.service $(SYSTEMD_SRC)/gpsfix.socket)
UNIT_DEFAULTS  := $(wildcard $(SYSTEMD_SRC)/gpsfix.default)
# The man page and completions, made by the binary from its own table of commands.
GENERATED      ?= .build/install-files
# A prefix in your home ('make install PREFIX=~/.local') is yours: no sudo, and only what works
# from there (the binary on ~/.local/bin, the man page, the completions); udev rules, systemd
# units and /etc/default/gpsfix are the system's, and are left to a system-wide install.
HOME_PREFIX    := $(if $(filter $(HOME)/%,$(abspath $(PREFIX))),yes)
# Root's rights for a live install, none for a staged one (DESTDIR) or one in your home:
# 'make install' is run as yourself, so the build stays yours.
ROOT           := $(if $(DESTDIR)$(HOME_PREFIX),,$(SUDO))
D              := $(DESTDIR)

# The binary, its man page and completions (made by the binary from its own table of
# commands), the udev rules, and whatever of the systemd units is in the tree: each unit's
# Exec lines name the binary this install put, and the options file (/etc/default/gpsfix) is
# installed only when there is none, for once it exists it is the administrator's. On the
# live system (no DESTDIR), udev and systemd are told to read what changed.
install: $(if $(filter .build/release/gpsfix,$(BINARY)),release)
	mkdir -p $(GENERATED)
	$(BINARY) --man > $(GENERATED)/gpsfix.1
	$(BINARY) completion bash > $(GENERATED)/gpsfix.bash
	$(BINARY) completion zsh > $(GENERATED)/_gpsfix
	$(ROOT) install -D -m 0755 $(BINARY) $(D)$(BINDIR)/gpsfix
	$(ROOT) install -D -m 0644 $(GENERATED)/gpsfix.1 $(D)$(MANDIR)/man1/gpsfix.1
	$(ROOT) install -D -m 0644 $(GENERATED)/gpsfix.bash $(D)$(BASHCOMPDIR)/gpsfix
	$(ROOT) install -D -m 0644 $(GENERATED)/_gpsfix $(D)$(ZSHCOMPDIR)/_gpsfix
	@if [ -n "$(HOME_PREFIX)" ]; then \
	  echo "gpsfix: installed for you alone in $(PREFIX): put $(BINDIR) on your PATH if it is not there; udev rules and systemd units need a system-wide install (make install)"; \
	else \
	  echo "install -D -m 0644 udev/60-gpsfix.rules $(D)$(UDEVRULESDIR)/60-gpsfix.rules"; \
	  $(ROOT) install -D -m 0644 udev/60-gpsfix.rules $(D)$(UDEVRULESDIR)/60-gpsfix.rules || exit 1; \
	fi
	@if [ -n "$(HOME_PREFIX)" ]; then exit 0; fi; \
	for unit in $(UNITS); do \
	  name=$${unit##*/}; \
	  sed -E 's#^(Exec[A-Za-z]*=[-@:+!]*)/[^ ]*/gpsfix( |$$)#\1$(BINDIR)/gpsfix\2#' $$unit > $(GENERATED)/$$name || exit 1; \
	  echo "install -D -m 0644 $$unit $(D)$(SYSTEMDUNITDIR)/$$name"; \
	  $(ROOT) install -D -m 0644 $(GENERATED)/$$name $(D)$(SYSTEMDUNITDIR)/$$name || exit 1; \
	done
	@if [ -n "$(UNIT_DEFAULTS)" ] && [ -z "$(HOME_PREFIX)" ]; then \
	  if [ -e $(D)$(SYSCONFDIR)/default/gpsfix ]; then echo "kept $(D)$(SYSCONFDIR)/default/gpsfix as it is"; \
	  else echo "install -D -m 0644 $(UNIT_DEFAULTS) $(D)$(SYSCONFDIR)/default/gpsfix"; \
	    $(ROOT) install -D -m 0644 $(UNIT_DEFAULTS) $(D)$(SYSCONFDIR)/default/gpsfix || exit 1; fi; \
	fi
	@if [ -z "$(DESTDIR)$(HOME_PREFIX)" ]; then \
	  if command -v udevadm >/dev/null; then $(ROOT) udevadm control --reload-rules || true; fi; \
	  if [ -d /run/systemd/system ] && [ -n "$(UNITS)" ]; then $(ROOT) systemctl daemon-reload || true; fi; \
	fi

# Removes what install put, and no more: the options file only while it is as installed
# (an edited one is the administrator's), the directories never (others use them).
uninstall:
	$(ROOT) rm -f $(D)$(BINDIR)/gpsfix $(D)$(MANDIR)/man1/gpsfix.1 $(D)$(BASHCOMPDIR)/gpsfix $(D)$(ZSHCOMPDIR)/_gpsfix \
	  $(if $(HOME_PREFIX),,$(D)$(UDEVRULESDIR)/60-gpsfix.rules $(D)$(SYSTEMDUNITDIR)/gpsfix.service $(D)$(SYSTEMDUNITDIR)/gpsfix.socket)
	@if [ -z "$(HOME_PREFIX)" ] && [ -e $(D)$(SYSCONFDIR)/default/gpsfix ]; then \
	  if [ -z "$(UNIT_DEFAULTS)" ]; then echo "kept $(D)$(SYSCONFDIR)/default/gpsfix: there is no $(SYSTEMD_SRC)/gpsfix.default to tell whether it was changed"; \
	  elif cmp -s $(UNIT_DEFAULTS) $(D)$(SYSCONFDIR)/default/gpsfix; then \
	    echo "rm -f $(D)$(SYSCONFDIR)/default/gpsfix"; $(ROOT) rm -f $(D)$(SYSCONFDIR)/default/gpsfix; \
	  else echo "kept $(D)$(SYSCONFDIR)/default/gpsfix: it has been changed since it was installed"; fi; \
	fi
	@if [ -z "$(DESTDIR)$(HOME_PREFIX)" ]; then \
	  if command -v udevadm >/dev/null; then $(ROOT) udevadm control --reload-rules || true; fi; \
	  if [ -d /run/systemd/system ]; then $(ROOT) systemctl daemon-reload || true; fi; \
	fi

# The udev rules alone, applied at once to receivers already plugged in: stable /dev/gpsN
# names, group dialout, ModemManager kept away, for known GPS receivers only.
install-udev:
	$(SUDO) install -D -m 0644 udev/60-gpsfix.rules $(UDEVRULESDIR)/60-gpsfix.rules
	$(SUDO) udevadm control --reload-rules
	$(SUDO) udevadm trigger --action=add --subsystem-match=tty

# A Debian package of the release binary, gpsfix_VERSION-DEB_REVISION_ARCH.deb in DEB_OUT, made by
# Tools/deb/build.sh from what 'make install' stages with Debian's directories; its Depends are
# the packages of the libraries the binary links, so it is for the release it was built on.
# SCRATCH is the build directory: a Debian root sharing this tree names its own
# (Tools/deb/root-check.sh uses .build/distro-CODENAME), apart from the host's .build. When
# lintian is installed, the package must pass it with no error or warning (DEB_LINTIAN=no skips).
SCRATCH      ?= .build
DEB_REVISION ?= 1
DEB_OUT      ?= .
DEB_LINTIAN  ?= yes
deb:
	$(MAKE) release RELEASE_FLAGS='$(RELEASE_FLAGS) $(if $(filter-out .build,$(SCRATCH)),--scratch-path $(SCRATCH))'
	Tools/deb/build.sh $(SCRATCH)/release/gpsfix $(SCRATCH)/deb $(DEB_OUT) $(DEB_REVISION)
	@if [ "$(DEB_LINTIAN)" = yes ] && command -v lintian >/dev/null; then \
	  deb=$$(ls -t $(DEB_OUT)/gpsfix_*_$$(dpkg --print-architecture).deb | head -n1); \
	  echo "lintian $$deb"; lintian --fail-on error,warning --info "$$deb"; \
	fi

deps-run:
	@Tools/apt-ensure.sh $(SUDO) $(RUN_DEPS)

deps-test:
	@Tools/apt-ensure.sh $(SUDO) $(TEST_DEPS)

deps-distros:
	@Tools/apt-ensure.sh $(SUDO) debootstrap

clean:
	rm -rf .build
