#!/usr/bin/env bash
# Scores gpsfix against gpsd's expected output for every capture in a folder, and fails
# when fewer than MIN captures pass. Usage: conformance.sh CAPTURE_DIR MIN
set -uo pipefail
dir=${1:?capture folder}
min=${2:?minimum passes}
scorer="$dir/../../conformance/run.py"
if [ ! -d "$dir" ] || [ ! -f "$scorer" ]; then
  echo "conformance: $dir or its scorer is missing; nothing to score" >&2
  exit 1
fi
out=$(python3 "$scorer" "$dir" -- .build/release/gpsfix watch --replay {} --json --speed max)
passed=$(echo "$out" | sed -n 's/^\([0-9]*\) passed, [0-9]* failed$/\1/p' | tail -1)
# The scorer's own closing line reads like a test runner's; say it in words of captures so
# that the test suite's summary stays the only "N passed" line of a CI run.
echo "$out" | sed 's/^\([0-9]*\) passed, \([0-9]*\) failed$/captures agreeing with gpsd: \1 (not agreeing: \2)/'
if [ -z "$passed" ] || [ "$passed" -lt "$min" ]; then
  echo "conformance: ${passed:-no} captures passed; at least $min must" >&2
  exit 1
fi
echo "conformance: $passed captures agree with gpsd (gate: $min)"
