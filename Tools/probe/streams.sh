#!/bin/sh
# LocationService's streams against a replay at full speed (issue 18), from the library
# products alone, release build:
#  - memory: a consumer taking 1 ms per fix, RSS once a second, with the default bound (100)
#    and with none (what the unbounded AsyncStream did: the issue measured +26 MiB in 12 s);
#  - cancel: how long after a task's cancellation, or a `break`, the replay is told to stop
#    and last reports (the bar: within 100 ms).
#   Tools/probe/streams.sh [SECONDS] [ROUNDS] [CAPTURE]
set -eu
cd "$(dirname "$0")/../.."
seconds=${1:-12}
rounds=${2:-5}
capture=${3:-Captures/multignss-10hz.nmea}
probe=Tools/probe/stream-consumer
swift build -c release --package-path "$probe" 2>&1 | tail -1
bin=$probe/.build/release/stream-consumer
"$bin" memory "$capture" "$seconds"
"$bin" memory "$capture" "$seconds" 0
"$bin" cancel "$capture" "$rounds"
