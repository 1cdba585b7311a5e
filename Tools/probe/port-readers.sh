#!/usr/bin/env bash
# Issue 17's "a port read twice" and "SIGHUP", shown on this machine: gpsd reads one end of a
# socat pty pair, and gpsfix is asked to read the same port (refused, naming gpsd's PID; how
# long the refusal takes with this many processes to look through); then record --gpx is sent
# SIGHUP and GPSBabel reads what it left. Every process is ended by its PID.
# Usage: Tools/probe/port-readers.sh [GPSFIX]   (default .build/debug/gpsfix; run as root)
set -euo pipefail
gpsfix=${1:-.build/debug/gpsfix}
for tool in socat /usr/sbin/gpsd gpsbabel; do command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 2; }; done
dir=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$dir"; }
trap cleanup EXIT

socat pty,raw,echo=0,link="$dir/gps0" pty,raw,echo=0,link="$dir/feed" & pids+=($!)
for _ in $(seq 50); do [ -e "$dir/gps0" ] && [ -e "$dir/feed" ] && break; sleep 0.1; done
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
/usr/sbin/gpsd -N -n -b -s 4800 -f 8N1 -S "$port" -F "$dir/gpsd.sock" "$dir/gps0" 2>/dev/null & gpsd=$!; pids+=($gpsd)
device=$(readlink -f "$dir/gps0")
for _ in $(seq 50); do ls -l /proc/"$gpsd"/fd 2>/dev/null | grep -q " $device\$" && break; sleep 0.1; done
ls -l /proc/"$gpsd"/fd | grep -q " $device\$" || { echo "gpsd did not open $device" >&2; exit 1; }
echo "processes to look through: $(ls -d /proc/[0-9]* | wc -l); gpsd is PID $gpsd"
start=$(date +%s%N)
set +e; timeout 10 "$gpsfix" watch --device "$dir/gps0" >"$dir/watch.out" 2>&1; status=$?; set -e
end=$(date +%s%N)
echo "watch --device on gpsd's port: exit $status after $(( (end - start) / 1000000 )) ms"
sed 's/^/  /' "$dir/watch.out"
kill "$gpsd"; wait "$gpsd" 2>/dev/null || true

# A receiver writing an epoch every 100 ms; record --gpx; SIGHUP; GPSBabel reads the file.
capture=$(dirname "$0")/../../Captures/drive-1hz.nmea
( while true; do grep -h '^\$' "$capture" | while read -r line; do printf '%s\r\n' "$line"; sleep 0.02; done; done > "$dir/feed" ) & pids+=($!)
"$gpsfix" record --gpx "$dir/track.gpx" --device "$dir/gps0" 2>"$dir/record.err" & record=$!; pids+=($record)
sleep 4
kill -HUP "$record"
set +e; wait "$record"; status=$?; set -e
gpsbabel -t -i gpx -f "$dir/track.gpx" -o unicsv -F "$dir/track.csv"
points=$(($(wc -l <"$dir/track.csv") - 1))
echo "record --gpx after SIGHUP: exit $status, $points track points read by GPSBabel, mode $(stat -c %a "$dir/track.gpx")"
