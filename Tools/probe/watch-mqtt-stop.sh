#!/usr/bin/env bash
# Issue 18's "watch --mqtt -n N always waits out a 0.5 s stop timeout", measured: a mosquitto
# of its own on a free loopback port holds one retained TPV, and `gpsfix watch --mqtt URL
# --json -n 1` reads it and exits, ROUNDS times (default 10); prints each run's wall time
# and the median. The reader stops its MQTT client from the client's own thread (the -n
# limit is reached in the delivery): it used to wait 0.5 s for that very thread to end.
#   Tools/probe/watch-mqtt-stop.sh [ROUNDS]      GPSFIX=path picks the binary
set -eu
cd "$(dirname "$0")/../.."
rounds=${1:-10}
gpsfix=${GPSFIX:-.build/debug/gpsfix}
dir=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
printf 'listener %s 127.0.0.1\nallow_anonymous true\n' "$port" > "$dir/mosquitto.conf"
mosquitto -c "$dir/mosquitto.conf" > "$dir/broker.log" 2>&1 &
broker=$!
trap 'kill $broker 2>/dev/null; wait $broker 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 50); do mosquitto_pub -h 127.0.0.1 -p "$port" -t probe/ping -m x 2>/dev/null && break; sleep 0.1; done
mosquitto_pub -h 127.0.0.1 -p "$port" -r -q 1 -t van7/tpv \
    -m '{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"2026-01-01T00:00:00.000Z","lat":48.1,"lon":11.5}'
times=()
for i in $(seq "$rounds"); do
    start=$(date +%s.%N)
    "$gpsfix" watch --mqtt "mqtt://127.0.0.1:$port/van7" --json -n 1 > "$dir/out" 2> "$dir/err"
    end=$(date +%s.%N)
    grep -q '"class":"TPV"' "$dir/out" || { echo "round $i: no TPV read"; cat "$dir/err"; exit 1; }
    t=$(echo "$end - $start" | bc)
    times+=("$t")
    printf 'round %2d: %.3f s\n' "$i" "$t"
done
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "median of %d: %.3f s\n", NR, a[int((NR+1)/2)]}'
