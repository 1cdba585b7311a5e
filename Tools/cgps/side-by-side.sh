#!/usr/bin/env bash
# cgps against gpsd and cgps against gpsfix serve, side by side in tmux, on one capture fed to
# both through pseudo-terminals at once: the screens each shows (captured as text), and a check
# that no row gpsd fills shows "n/a" for gpsfix.
#
# Usage: Tools/cgps/side-by-side.sh [CAPTURE] [OUTDIR]   (exit 1 when a row is n/a for gpsfix)
# Needs gpsd, cgps (gpsd-clients), tmux and a built gpsfix (GPSFIX, default .build/release/gpsfix).
set -euo pipefail
cd "$(dirname "$0")/../.."
capture=${1:-Captures/drive-1hz.nmea}
out=${2:-.build/cgps}
gpsfix=${GPSFIX:-.build/release/gpsfix}
for tool in gpsd cgps tmux python3; do
  command -v "$tool" >/dev/null || { echo "side-by-side: $tool is not installed (make deps-test)" >&2; exit 2; }
done
[ -x "$gpsfix" ] || { echo "side-by-side: no $gpsfix (make release)" >&2; exit 2; }
mkdir -p "$out"
work=$(mktemp -d)
session="gpsfix-cgps-$$"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
gpsd_port=$(free_port)
gpsfix_port=$(free_port)
pids=()
cleanup() {
  tmux kill-session -t "$session" 2>/dev/null || true
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

Tools/cgps/feed.py "$capture" "$work/gpsd-tty" "$work/gpsfix-tty" 1 > "$work/feed.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -e "$work/gpsfix-tty" ] && [ -e "$work/gpsd-tty" ] && break; sleep 0.1; done
gpsd -N -n -b -S "$gpsd_port" -F "$work/gpsd.sock" "$work/gpsd-tty" > "$work/gpsd.log" 2>&1 &
pids+=($!)
"$gpsfix" serve --device "$work/gpsfix-tty" --listen "127.0.0.1:$gpsfix_port" > "$work/gpsfix.log" 2>&1 &
pids+=($!)
sleep 2

# Two 80-column panes, as cgps is drawn for a terminal of 80.
tmux new-session -d -s "$session" -x 162 -y 30 "cgps -s 127.0.0.1:$gpsd_port"
tmux split-window -h -t "$session" "cgps -s 127.0.0.1:$gpsfix_port"
sleep "${SECONDS_TO_WATCH:-12}"
tmux capture-pane -p -t "$session:0.0" > "$out/cgps-gpsd.txt"
tmux capture-pane -p -t "$session:0.1" > "$out/cgps-gpsfix.txt"
paste -d'|' <(cut -c1-80 "$out/cgps-gpsd.txt") <(cut -c1-80 "$out/cgps-gpsfix.txt") > "$out/side-by-side.txt"
echo "gpsd (left) and gpsfix serve (right), cgps on $capture:"
cat "$out/side-by-side.txt"

# The left box's rows ("│ Label:  value │"): a label gpsd fills and gpsfix leaves n/a fails.
python3 - "$out/cgps-gpsd.txt" "$out/cgps-gpsfix.txt" <<'PY'
import re, sys
def rows(path):
    out = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        box = line[:80]
        m = re.match(r"^[│|x]\s*([^:│|]+?):\s*(.*?)\s*[│|x]", box)
        if m:
            out[m.group(1).strip()] = m.group(2).strip()
    return out
gpsd, ours = rows(sys.argv[1]), rows(sys.argv[2])
if not gpsd:
    print("side-by-side: no cgps rows captured from gpsd's screen", file=sys.stderr); sys.exit(1)
bad = [k for k, v in gpsd.items() if "n/a" not in v and v and "n/a" in ours.get(k, "n/a")]
for k in bad:
    print(f"side-by-side: {k!r}: gpsd {gpsd[k]!r}, gpsfix {ours.get(k)!r}", file=sys.stderr)
print(f"side-by-side: {len(gpsd)} rows; gpsd fills {sum(1 for v in gpsd.values() if 'n/a' not in v)}, "
      f"n/a for gpsfix where gpsd fills: {len(bad)}")
sys.exit(1 if bad else 0)
PY
