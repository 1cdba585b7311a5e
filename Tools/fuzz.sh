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
# And JSON as peers send it (EngineCheck also reads every line as JSON and writes it back):
# gpsd's reports, a client's ?WATCH object, strings with escapes, surrogate pairs and UTF-8.
python3 - "$corpus" <<'PY'
import os, sys
seeds = [
    b'{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2024-06-15T03:12:07.000Z","lat":45.877567200,"lon":-170.500111300,"altHAE":61.200,"track":359.9999,"speed":0.010,"climb":-0.5e1}',
    b'{"class":"SKY","hdop":0.91,"nSat":2,"uSat":1,"satellites":[{"PRN":1,"el":45.0,"az":359.9,"ss":40.0,"used":true,"gnssid":0,"svid":1},{"PRN":201,"gnssid":5,"svid":9,"used":false}]}',
    b'{"enable":true,"json":true,"nmea":false,"raw":0,"device":"/dev/a;b\\\"c","scaled":null}',
    b'["\\ud83d\\ude00","\\u00e9\\/\\b\\f\\n\\r\\t","Z\xc3\xbcrich \xe6\x9d\xb1",-0,0.5,1E+2,[[[]]],{}]',
]
for i, seed in enumerate(seeds):
    open(os.path.join(sys.argv[1], "json-%02d" % i), "wb").write(b"\x00" + seed + b"\n")
PY
# No Swift backtracer: a crash must reach libFuzzer, which then keeps the input.
SWIFT_BACKTRACE=enable=no "$scratch/release/nmea-fuzz" "$corpus" \
  -max_total_time="$seconds" -max_len=4096 -artifact_prefix="$artifacts/" -print_final_stats=1
