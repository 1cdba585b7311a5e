#!/usr/bin/env bash
# What PushedNMEAManager holds while its delegate is busy: the bytes feed() took before it
# waited, fed one 189-byte epoch at a time and 60 KB at a time (the README's figures), from
# PushedNMEAManagerTests, which asserts the bound (under 1 MiB) and prints what it measured.
# Then the binary size the LocalizedError conformance costs, when GPSFIX_BEFORE names a
# gpsfix built without it. Usage: Tools/probe/pushed-feed.sh (after swift build --build-tests)
set -euo pipefail
cd "$(dirname "$0")/../.."
swift test --skip-build --filter 'boundedWhileTheDelegateIsBusy' 2>&1 | grep -E 'PushedNMEAManager:|✘' || true
if [ -n "${GPSFIX_BEFORE:-}" ] && [ -x .build/release/gpsfix ]; then
  echo "gpsfix release binary: $(stat -c %s "$GPSFIX_BEFORE") bytes before, $(stat -c %s .build/release/gpsfix) bytes now"
fi
