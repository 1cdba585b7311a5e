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

base=../shared/baselines
if [ -f "$base/minmea-all.c" ] && command -v cc >/dev/null; then
  cc -O2 -I "$base/minmea" "$base/minmea-all.c" "$base/minmea/minmea.c" -o "$work/minmea-all"
fi
# Best wall time of each, gpsfix and minmea taking turns, so that whatever else the shared
# machine does at the moment falls on both alike: a ratio of two bests taken a minute apart
# measured the neighbours as much as the programs. gpsdecode (twelve seconds a run) has three.
WORK="$work" SIZE="$size" python3 - <<'PY'
import os, shutil, subprocess, time
work, size = os.environ["WORK"], int(os.environ["SIZE"])
big = f"{work}/big.nmea"
def timed(argv, stdin):
    with open(stdin, "rb") if stdin else open(os.devnull, "rb") as f:
        t = time.perf_counter()
        subprocess.run(argv, stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - t
gpsfix = [".build/release/gpsfix", "watch", "--replay", big, "--json", "--speed", "max"]
minmea = f"{work}/minmea-all" if os.path.exists(f"{work}/minmea-all") else None
g, m = [], []
for _ in range(7):
    g.append(timed(gpsfix, None))
    if minmea: m.append(timed([minmea], big))
g = min(g)
rate = lambda t: round(size / 1e6 / max(t, 0.001))
print(f"gpsfix watch --json --speed max: {g:.3f}s, {rate(g)} MB/s")
if shutil.which("gpsdecode"):
    d = min(timed(["gpsdecode"], big) for _ in range(3))
    print(f"gpsdecode:                       {d:.3f}s, {rate(d)} MB/s")
    print(f"speed-up: {round(d / max(g, 0.001), 1)}x")
else:
    print("gpsdecode not installed (apt-get install gpsd-clients) : no comparison")
# The parse-only floor: minmea, a C parser that checks and parses every sentence it knows and
# assembles nothing (built by path from ../shared/baselines, never copied here).
if m:
    m = min(m)
    print(f"minmea (parse only, no epochs, no JSON): {m:.3f}s, {rate(m)} MB/s")
    print(f"gpsfix / minmea: {round(g / max(m, 0.001), 2)}x the time")
PY
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
  # The decoding thread alone: what the wall time follows when the JSON is written beside it.
  mkdir "$work/threads"
  valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$work/threads/cg" \
    "$work/gpsfix" watch --replay "$work/five.nmea" --json --speed max < /dev/null > /dev/null 2>&1
  longest=$(sed -n 's/^totals: *//p' "$work"/threads/cg* | sort -n | tail -1)
  echo "instructions on gpsfix's busiest thread: $longest: $(python3 -c "print(round($di/$longest,1))")x fewer than gpsdecode"
fi
