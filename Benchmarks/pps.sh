#!/bin/sh
# The PPS paths' figures on this machine, with the kernel's interface stood in for as the tests
# do (Tests/StandIns/pps-standin.c): edges PHASE after each second of the system clock, a
# receiver on a socat pty writing each epoch 200 ms after its second.
#
#   Benchmarks/pps.sh [SECONDS]        (default 120; needs cc, socat, python3, chronyd, chronyc)
#
# 1. The modem-line path: 'gpsfix timing --pps dcd --json' for SECONDS: how late the stamp is
#    against the injected edge (the thread's wake-up), and its jitter p50/p99.
# 2. chronyd's view (chronyd -x, never touching the clock) of both paths for SECONDS each:
#    'serve --pps /dev/pps0' (kernel) and '--pps dcd' (modem line) to a SOCK refclock with
#    'lock NMEA', both noselect (chronyd -x would otherwise take the PPS as its clock and show
#    each later sample near 0), 'chronyc sources' and 'sourcestats' at the end.
set -eu
SECONDS_EACH=${1:-120}
PHASE_NS=250000
root=$(cd "$(dirname "$0")/.." && pwd)
gpsfix=${GPSFIX:-$root/.build/release/gpsfix}
[ -x "$gpsfix" ] || gpsfix=$root/.build/debug/gpsfix
work=$(mktemp -d)
chmod 700 "$work"
pids=""
cleanup() { for p in $pids; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT INT TERM

cc -shared -fPIC -O2 -o "$work/standin.so" "$root/Tests/StandIns/pps-standin.c" -ldl -lpthread
python3 - "$work/edges" "$PHASE_NS" "$SECONDS_EACH" <<'PY'
import sys, time
path, phase, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
first = int(time.time()) + 1
with open(path, 'w') as f:
    for i in range(3 * seconds + 60):
        f.write('%d.%09d\n' % (first + i, phase))
PY

socat pty,raw,echo=0,link="$work/gps0" pty,raw,echo=0,link="$work/feed" & pids="$pids $!"
while [ ! -e "$work/feed" ]; do sleep 0.05; done
python3 - "$work/feed" <<'PY' & pids="$pids $!"
import datetime, sys, time
def line(body):
    check = 0
    for byte in body.encode(): check ^= byte
    return '$%s*%02X\r\n' % (body, check)
with open(sys.argv[1], 'wb', buffering=0) as out:
    while True:
        now = time.time()
        second = int(now - 0.2) + 1
        time.sleep(max(0, second + 0.2 - now))
        t = datetime.datetime.fromtimestamp(second, datetime.timezone.utc)
        hms, dmy = t.strftime('%H%M%S') + '.00', t.strftime('%d%m%y')
        out.write((line('GPGGA,%s,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,' % hms)
                   + line('GPRMC,%s,A,4807.038,N,01131.000,E,000.0,000.0,%s,,,A' % (hms, dmy))).encode())
PY
export LD_PRELOAD="$work/standin.so" GPSFIX_STANDIN_EDGES="$work/edges" GPSFIX_STANDIN_PPS=/dev/pps0 GPSFIX_STANDIN_MODEM=dcd

echo "== modem line (DCD), gpsfix timing for $SECONDS_EACH s; edges injected $((PHASE_NS / 1000)) µs after each second"
"$gpsfix" timing --device "$work/gps0" --baud 9600 --pps dcd --seconds "$SECONDS_EACH" --json 2>/dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin); p = r["pps"]
print("paired %d, stamp late by %.1f µs (median), jitter p50 %.1f µs, p99 %.1f µs; NMEA %.1f ms after the pulse" % (
    p["paired"], p["phase_ms"] * 1000 - '"$PHASE_NS"' / 1000, p["jitter_p50_us"], p["jitter_p99_us"], r["offset_ms"]))'
unset LD_PRELOAD

for path in /dev/pps0 dcd; do
    conf="$work/chrony-$(basename $path).conf"
    cat > "$conf" <<EOF2
refclock SOCK $work/nmea.sock refid NMEA poll 2 noselect
refclock SOCK $work/pps.sock refid PPS poll 2 lock NMEA noselect
bindcmdaddress $work/cmd.sock
cmdport 0
port 0
pidfile $work/chronyd.pid
EOF2
    chronyd -d -x -u root -f "$conf" >/dev/null 2>&1 & chrony=$!
    while [ ! -e "$work/pps.sock" ]; do sleep 0.05; done
    LD_PRELOAD="$work/standin.so" "$gpsfix" serve --no-listen --device "$work/gps0" --baud 9600 --chrony-sock "$work/nmea.sock" \
        --time-offset 0.2 --pps "$path" --chrony-pps-sock "$work/pps.sock" 2>/dev/null & serve=$!
    sleep "$SECONDS_EACH"
    echo "== chronyd, --pps $path, after $SECONDS_EACH s (the PPS offset should be +$((PHASE_NS / 1000)) µs: the system clock ahead of the pulses)"
    chronyc -h "$work/cmd.sock" -n sources | tail -n +3
    chronyc -h "$work/cmd.sock" -n sourcestats | tail -n +3
    kill "$serve" "$chrony"; wait "$serve" "$chrony" 2>/dev/null || true
    rm -f "$work/nmea.sock" "$work/pps.sock" "$work/cmd.sock"
done
