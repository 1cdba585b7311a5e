#!/usr/bin/env bash
# A fleet on one broker: PUBLISHERS gpsfix publishers (serve --no-listen --mqtt, QoS 1), each
# replaying Captures/drive-1hz.nmea at 10x (10 TPV a second, 180 in 18 s), into one mosquitto
# on a free loopback port, with one subscriber at QoS 1 on fleet/#. Reports whether every TPV
# arrived, and each publisher's CPU time and resident memory (from /proc, just before its
# replay ends). Usage: Benchmarks/mqtt-fleet.sh [PUBLISHERS] (default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
PUBLISHERS=${1:-20}
GPSFIX=${GPSFIX:-.build/release/gpsfix}
CAPTURE=Captures/drive-1hz.nmea
SPEED=10
[ -x "$GPSFIX" ] || { echo "build it first: swift build -c release --product gpsfix (or GPSFIX=path)"; exit 1; }
work=$(mktemp -d)
chmod 755 "$work"
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
# The daemons are ended with SIGKILL at the end: no job-control chatter about it.
set +m

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
printf 'listener %s 127.0.0.1\nallow_anonymous true\nmax_queued_messages 100000\n' "$port" > "$work/m.conf"
mosquitto -c "$work/m.conf" > "$work/broker.log" 2>&1 & broker=$!; pids+=("$broker")
sleep 0.5
mosquitto_sub -p "$port" -q 1 -v -t 'fleet/+/tpv' > "$work/sub.txt" & sub=$!; pids+=("$sub")
sleep 0.5
expected_each=$("$GPSFIX" watch --replay "$CAPTURE" --json --speed max 2>/dev/null | grep -c '"class":"TPV"')

start=$(date +%s.%N)
for i in $(seq 1 "$PUBLISHERS"); do
  "$GPSFIX" serve --no-listen --replay "$CAPTURE" --speed "$SPEED" --mqtt-qos 1 \
    --mqtt "mqtt://127.0.0.1:$port/fleet/v$i" 2> "$work/pub$i.err" & p=$!; pids+=("$p"); echo "$p" > "$work/pub$i.pid"
done
# Sample each publisher a little before its replay ends (180 epochs at 10x: 18 s).
sleep 17
tick=$(getconf CLK_TCK)
total_cpu=0; max_rss=0; sum_rss=0
for i in $(seq 1 "$PUBLISHERS"); do
  p=$(cat "$work/pub$i.pid")
  read -r ut st < <(awk '{print $14, $15}' "/proc/$p/stat")
  rss=$(awk '/VmRSS/ {print $2}' "/proc/$p/status")
  cpu=$(echo "scale=3; ($ut + $st) / $tick" | bc)
  total_cpu=$(echo "$total_cpu + $cpu" | bc)
  sum_rss=$((sum_rss + rss)); [ "$rss" -gt "$max_rss" ] && max_rss=$rss
done
elapsed=$(echo "$(date +%s.%N) - $start" | bc)
# Let the replays end and the last reports arrive.
for i in $(seq 1 "$PUBLISHERS"); do wait "$(cat "$work/pub$i.pid")" 2>/dev/null || true; done
sleep 1
received=$(grep -c '"class":"TPV"' "$work/sub.txt" || true)
expected=$((expected_each * PUBLISHERS))
missing=0
for i in $(seq 1 "$PUBLISHERS"); do
  got=$(grep -c "^fleet/v$i/tpv " "$work/sub.txt" || true)
  [ "$got" -lt "$expected_each" ] && missing=$((missing + expected_each - got))
done
bcpu=$(awk '{print ($14 + $15)}' "/proc/$broker/stat")
echo "publishers:            $PUBLISHERS, each $expected_each TPV at $SPEED Hz (QoS 1), plus SKY"
echo "TPV received:          $received of $expected (missing $missing)"
echo "publisher CPU:         $(awk -v c="$total_cpu" -v n="$PUBLISHERS" -v e="$elapsed" 'BEGIN { printf "%.2f", 100 * c / n / e }') % of a core each on average ($(awk -v c="$total_cpu" 'BEGIN { printf "%.2f", c }') s in all over ${elapsed%.*} s)"
echo "publisher RSS:         $((sum_rss / PUBLISHERS)) kB average, $max_rss kB largest"
echo "mosquitto CPU:         $(awk -v c="$bcpu" -v t="$tick" 'BEGIN { printf "%.2f", c / t }') s"
[ "$received" -ge "$expected" ] && [ "$missing" -eq 0 ]
