#!/bin/sh
# What ?DEVICES and ?POLL cost gpsfix serve's loop at a fleet's size (issue 17): a server with
# N devices (default 5000) named with 64 characters, each with a TPV and a SKY; prints the
# cost of a rebuild after a change, of a request answered from the cache, of the old
# per-request encoding, and of asking and receiving a whole reply over loopback.
#   Tools/probe/listing-cost.sh [N] [debug|release]
set -eu
cd "$(dirname "$0")/../.."
devices=${1:-5000}
config=${2:-debug}
swift build -c "$config" --build-tests 2>&1 | tail -1
GPSFIX_PROBE_DEVICES=$devices swift test -c "$config" --skip-build --filter ListingProbe 2>&1 | grep -E "listing probe|✘|issue"
