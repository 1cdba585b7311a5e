#!/usr/bin/env bash
# ThreadSanitizer over the library suites, with every report judged by check.py: the known
# false positive of Synchronization.Mutex (see check.py) passes, any other race fails.
# The CLI suites are left out: they run the gpsfix binary and read its stderr, where a
# sanitized child's reports would land. Usage: run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
out=.build/tsan-logs
mkdir -p "$out"
# First the checker itself: the Mutex program's report must pass and a real race must not.
swiftc -sanitize=thread -g Tools/tsan/mutex-counter.swift -o "$out/mutex-counter" || exit 1
swiftc -sanitize=thread -g Tools/tsan/racy-counter.swift -o "$out/racy-counter" || exit 1
"$out/mutex-counter" 2> "$out/mutex-counter.log"
python3 Tools/tsan/check.py "$out/mutex-counter.log" > /dev/null || { echo "tsan: check.py rejects the Mutex false positive" >&2; exit 1; }
"$out/racy-counter" 2> "$out/racy-counter.log"
if python3 Tools/tsan/check.py "$out/racy-counter.log" > /dev/null; then echo "tsan: check.py missed a real race" >&2; exit 1; fi
swift build --build-tests --sanitize=thread --scratch-path .build/tsan || exit 1
# A sanitized test run exits 1 when TSan reported anything; the tests' own verdict and
# check.py's decide instead.
GPSFIX_SANITIZER=thread swift test --no-parallel --skip-build --sanitize=thread --scratch-path .build/tsan \
  --filter 'NMEATests|GPSSystemTests|GPSLocationTests|GPSSourcesTests|GPSServerTests|GPSOutputTests|HostileInputTests' > "$out/tests.log" 2>&1
tail -1 "$out/tests.log"
grep -q "^✔ Test run with .* passed" "$out/tests.log" || { echo "tsan: tests failed (see $out/tests.log)" >&2; exit 1; }
python3 Tools/tsan/check.py "$out/tests.log"
