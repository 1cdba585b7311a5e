# gpsfix: the two commands a new machine needs are `make run` and `make test`.
# Both install what is missing with apt (through sudo when not root), then build.

SWIFT      ?= swift
CAPTURE    ?= Captures/drive-1hz.nmea
SPEED      ?= 10
SHARED     ?= ../shared
# What building and replaying needs beyond the Swift toolchain.
RUN_DEPS   := pkg-config
# What the tests and the conformance gate need: python3 runs gpsd's scorer.
TEST_DEPS  := pkg-config python3
SUDO       := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
CONFORMANCE_MIN ?= 52
# Swift 6 mode with strict concurrency is set in Package.swift; here, any warning fails.
STRICT     := -Xswiftc -warnings-as-errors

.PHONY: run test build release deps-run deps-test conformance bench captures clean

run: deps-run release
	.build/release/gpsfix watch --replay $(CAPTURE) --speed $(SPEED)

test: deps-test
	$(SWIFT) build --build-tests $(STRICT)
	$(SWIFT) test $(STRICT)

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release --product gpsfix

# The gpsd regression captures beside the project, scored by gpsd's own expected output.
conformance: deps-test release
	Tools/conformance.sh $(SHARED)/captures/gpsd $(CONFORMANCE_MIN)

bench: release
	Benchmarks/bench.sh

captures:
	python3 Tools/make-captures.py

deps-run:
	@Tools/apt-ensure.sh $(SUDO) $(RUN_DEPS)

deps-test:
	@Tools/apt-ensure.sh $(SUDO) $(TEST_DEPS)

clean:
	rm -rf .build
