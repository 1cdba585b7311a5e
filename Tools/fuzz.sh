#!/usr/bin/env bash
# Builds the libFuzzer target (Fuzz/nmea-fuzz) and runs it for N seconds on both cores' worth
# of one job, seeded from the project's captures split into epochs. Usage: fuzz.sh SECONDS
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
scratch=.build/fuzz
swift build --sanitize=fuzzer -Xswiftc -DFUZZING --product nmea-fuzz --scratch-path "$scratch" -c release
corpus=$scratch/corpus
artifacts=$scratch/artifacts
mkdir -p "$corpus" "$artifacts"
# Seeds: each capture cut into pieces of about 2 kB at line ends, after a control byte
# (EngineCheck's first byte chooses the chunking).
python3 - "$corpus" Captures/*.nmea <<'PY'
import os, sys
out = sys.argv[1]
for path in sys.argv[2:]:
    data = open(path, "rb").read()
    lines = data.splitlines(keepends=True)
    piece, n = b"", 0
    for line in lines:
        piece += line
        if len(piece) > 2048:
            open(os.path.join(out, "%s-%03d" % (os.path.basename(path), n)), "wb").write(bytes([n & 0xFF]) + piece)
            piece, n = b"", n + 1
    if piece:
        open(os.path.join(out, "%s-%03d" % (os.path.basename(path), n)), "wb").write(bytes([n & 0xFF]) + piece)
PY
# No Swift backtracer: a crash must reach libFuzzer, which then keeps the input.
SWIFT_BACKTRACE=enable=no "$scratch/release/nmea-fuzz" "$corpus" \
  -max_total_time="$seconds" -max_len=4096 -artifact_prefix="$artifacts/" -print_final_stats=1
