#!/usr/bin/env bash
# Replay speed of gpsfix against gpsd's own decoder on the same NMEA, end to end (process
# start, decode, JSON out). Input: every gpsd regression capture concatenated until the file
# is about 50 MB (read by path from ../shared; nothing is copied into the project), or the
# project's own captures when ../shared is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product gpsfix --static-swift-stdlib --experimental-lto-mode=full >/dev/null  # as 'make release' builds it
swift build -c release --product nmea-bench --experimental-lto-mode=full >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=../shared/captures/gpsd
if [ -d "$src" ]; then inputs=("$src"/*.log); else inputs=(Captures/*.nmea); fi
: > "$work/one"
for f in "${inputs[@]}"; do grep -av '^#' "$f" >> "$work/one" || true; done
: > "$work/big.nmea"
while [ "$(stat -c %s "$work/big.nmea")" -lt 50000000 ]; do cat "$work/one" >> "$work/big.nmea"; done
size=$(stat -c %s "$work/big.nmea")
echo "input: $size bytes"

best() { # best wall time of 3 runs, in seconds, stdin from $IN when set
  python3 - "$@" <<'PY'
import os, subprocess, sys, time
best = None
for _ in range(3):
    stdin = open(os.environ["IN"], "rb") if os.environ.get("IN") else None
    t = time.perf_counter()
    subprocess.run(sys.argv[1:], stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t = time.perf_counter() - t
    best = t if best is None else min(best, t)
print(f"{best:.3f}")
PY
}
g=$(best .build/release/gpsfix watch --replay "$work/big.nmea" --json --speed max)
echo "gpsfix watch --json --speed max: ${g}s, $(python3 -c "print(round($size/1e6/max($g,0.001)))") MB/s"
if command -v gpsdecode >/dev/null; then
  d=$(IN="$work/big.nmea" best gpsdecode)
  echo "gpsdecode:                       ${d}s, $(python3 -c "print(round($size/1e6/max($d,0.001)))") MB/s"
  echo "speed-up: $(python3 -c "print(round($d/max($g,0.001),1))")x"
else
  echo "gpsdecode not installed (apt-get install gpsd-clients) : no comparison"
fi
# The parse-only floor: minmea, a C parser that checks and parses every sentence it knows and
# assembles nothing (built by path from ../shared/baselines, never copied here).
base=../shared/baselines
if [ -f "$base/minmea-all.c" ] && command -v cc >/dev/null; then
  cc -O2 -I "$base/minmea" "$base/minmea-all.c" "$base/minmea/minmea.c" -o "$work/minmea-all"
  m=$(IN="$work/big.nmea" best "$work/minmea-all")
  echo "minmea (parse only, no epochs, no JSON): ${m}s, $(python3 -c "print(round($size/1e6/max($m,0.001)))") MB/s"
  echo "gpsfix / minmea: $(python3 -c "print(round($g/max($m,0.001),2))")x the time"
fi
.build/release/nmea-bench "$work/one" 50

# Instructions, not seconds: callgrind counts the same for the same binary and input whatever
# else the machine does, where the clock on a shared 2-core VM varies by a third from run to
# run. Opt in (it takes about a minute): INSTRUCTIONS=1 make bench.
if [ "${INSTRUCTIONS:-0}" = 1 ] && command -v valgrind >/dev/null && command -v gpsdecode >/dev/null; then
  for _ in 1 2 3 4 5; do cat "$work/one"; done > "$work/five.nmea"
  count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" < "$work/five.nmea" 2>&1 >/dev/null | sed -n 's/.*refs: *//p' | tr -d ,; }
  # A stripped copy: valgrind gives up on the full-LTO binary's debug info ("Possibly
  # corrupted debuginfo file"), and without this the line was silently missing.
  strip -o "$work/gpsfix" .build/release/gpsfix
  gi=$(count "$work/gpsfix" watch --replay "$work/five.nmea" --json --speed max)
  di=$(count gpsdecode)
  echo "instructions for $(stat -c %s "$work/five.nmea") bytes: gpsfix $gi, gpsdecode $di: $(python3 -c "print(round($di/$gi,1))")x fewer"
fi
