#!/bin/sh
# Whether GPSSystem's typed descriptor costs nothing on the hot paths: in the release build,
# the files that read and write for every report (the stream reader's streams, the server's
# loop and queues) must call read/recv/send themselves, with no FileDescriptor or
# TCPConnection wrapper call between. Prints each object's system calls and wrapper calls;
# exits 1 if any wrapper call is left.
#
# Usage: Tools/probe/inlined-io.sh   (after `swift build -c release`)
set -eu
cd "$(dirname "$0")/../.."
build=.build/release
status=0
for object in \
    GPSSources.build/ReplayInput.swift.o \
    GPSSources.build/SerialPort.swift.o \
    GPSSources.build/NMEATCPManager.swift.o \
    GPSServer.build/OutputQueue.swift.o \
    GPSServer.build/ServerLoop+Requests.swift.o; do
    path="$build/$object"
    [ -f "$path" ] || { echo "$path: not built (swift build -c release)"; exit 2; }
    calls=$(nm -u "$path" | awk '$2 ~ /^(read|recv|send|write)$/ { print $2 }' | sort -u | tr '\n' ' ')
    wrappers=$(nm -u "$path" | swift demangle | grep -c -E '(FileDescriptor|TCPConnection)\.(read|receive|send|write)\(' || true)
    echo "$object: calls ${calls:-none}; wrapper calls: $wrappers"
    [ "$wrappers" -eq 0 ] || status=1
done
exit $status
