#!/usr/bin/env bash
# Builds the gpsd line fuzz target (Fuzz/gpsd-fuzz) and runs it for N seconds, seeded from
# gpsd JSON that gpsfix writes for the project's captures and from lines no gpsd would send.
# A line that makes the installed libgps loop is a time-out (-timeout), kept as a reproducer.
# Usage: fuzz-gpsd.sh SECONDS [GPSFIX]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
gpsfix=${2:-.build/release/gpsfix}
scratch=.build/fuzz-gpsd
swift build --sanitize=fuzzer -Xswiftc -DFUZZING --product gpsd-fuzz --scratch-path "$scratch" -c release 2>&1 | cat
corpus=$scratch/corpus
artifacts=$scratch/artifacts
mkdir -p "$corpus" "$artifacts"
for capture in Captures/*.nmea; do
  "$gpsfix" watch --replay "$capture" --json --speed max 2>/dev/null | head -c 65536 | split -C 2048 - "$corpus/$(basename "$capture")-"
done
printf '%s\n' '{x"class":"TPV"}' '{"class":"TPV","mode":3,"lat":1' '{"class":"SKY","satellites":[{"PRN":65},{"gnssid":6,"svid":1}]}' \
  '{"class":"ATT","devices":[1,[2,[3,{"a":[4,5,{"b":null}]}]]]}' '$GPGGA,120000,5130.0,N,00007.5,W,1,08,0.9,55.2,M,45.2,M,,*4F' > "$corpus/hostile"
SWIFT_BACKTRACE=enable=no "$scratch/release/gpsd-fuzz" "$corpus" \
  -max_total_time="$seconds" -max_len=16384 -timeout=5 -artifact_prefix="$artifacts/" -print_final_stats=1
