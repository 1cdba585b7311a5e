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
# real peer the gpsd source is tested against.
TEST_DEPS  := pkg-config libgps-dev libmosquitto-dev mosquitto mosquitto-clients python3-paho-mqtt openssl python3 socat udev gpsd gpsd-clients python3-gps tmux gpsbabel python3-gpxpy
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
CONFORMANCE_MIN ?= 52
# Swift 6 mode with strict concurrency is set in Package.swift; here, any warning fails.
STRICT     := -Xswiftc -warnings-as-errors

.PHONY: run test build release deps-run deps-test conformance bench captures install-udev clean fuzz sanitize tsan

run: deps-run release
	.build/release/gpsfix watch --replay $(CAPTURE) --speed $(SPEED)

test: deps-test
	$(SWIFT) build --build-tests $(STRICT)
	# One test at a time: the pty, gpsd and pacing tests measure real time, and two cores
	# shared with parallel suites made them flaky (about 26 s in all).
	$(SWIFT) test --no-parallel $(STRICT)

build:
	$(SWIFT) build

# The Swift runtime linked in: a binary that runs where no toolchain is installed, and
# starts without resolving thousands of runtime symbols (about 14 M instructions a start).
# That link needs libstdc++'s development files, which Swift's own install instructions list;
# without them, the ordinary dynamic build is used.
release:
	$(SWIFT) build -c release --product gpsfix --static-swift-stdlib \
	  || { echo "gpsfix: static link failed (is libstdc++-dev installed?); linking dynamically"; $(SWIFT) build -c release --product gpsfix; }

# The gpsd regression captures beside the project, scored by gpsd's own expected output.
conformance: deps-test release
	Tools/conformance.sh $(SHARED)/captures/gpsd $(CONFORMANCE_MIN)

bench: release
	Benchmarks/bench.sh

captures:
	python3 Tools/make-captures.py

# libFuzzer over the whole engine and its formatters (Fuzz/EngineCheck), seeded from Captures/.
# A crash or broken invariant leaves its input in .build/fuzz/artifacts; `nmea-fuzz FILE`
# (the plain build) says what broke. Every one found becomes a test in Tests/HostileInputTests.
FUZZ_SECONDS ?= 60
fuzz:
	Tools/fuzz.sh $(FUZZ_SECONDS)

# The tests under AddressSanitizer, in a build of their own.
sanitize: deps-test
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan $(STRICT)
	GPSFIX_SANITIZER=address ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --no-parallel --skip-build --sanitize=address --scratch-path .build/asan

# The library suites under ThreadSanitizer; Tools/tsan/check.py passes only the reports that are
# Synchronization.Mutex's known false positive (its docstring says why) and fails on any other.
tsan: deps-test
	Tools/tsan/run.sh

# Stable /dev/gpsN names, group dialout, ModemManager kept away: for known GPS receivers only.
install-udev:
	$(SUDO) install -m 0644 udev/60-gpsfix.rules /etc/udev/rules.d/60-gpsfix.rules
	$(SUDO) udevadm control --reload-rules
	$(SUDO) udevadm trigger --action=add --subsystem-match=tty

deps-run:
	@Tools/apt-ensure.sh $(SUDO) $(RUN_DEPS)

deps-test:
	@Tools/apt-ensure.sh $(SUDO) $(TEST_DEPS)

clean:
	rm -rf .build
