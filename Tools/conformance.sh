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
echo "$out"
passed=$(echo "$out" | sed -n 's/^\([0-9]*\) passed, [0-9]* failed$/\1/p' | tail -1)
if [ -z "$passed" ] || [ "$passed" -lt "$min" ]; then
  echo "conformance: ${passed:-no} captures passed; at least $min must" >&2
  exit 1
fi
echo "conformance: $passed passed (gate: $min)"
