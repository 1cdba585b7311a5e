#!/usr/bin/env bash
# Whether two gpsfix binaries say the same thing: every capture (the project's own and gpsd's
# regression captures beside it) replayed at full speed in each line format and as GPX, stdout
# and stderr compared byte for byte. A speed-up is honest only when this prints nothing but
# its summary. Usage: same-output.sh BEFORE AFTER [CAPTURE …]
set -uo pipefail
before=${1:?the binary before the change}
after=${2:?the binary after the change}
shift 2
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then
  captures=("$@")
else
  captures=(Captures/*.nmea)
  shopt -s nullglob
  captures+=(../shared/captures/gpsd/*.log)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
compared=0
differing=0
for f in "${captures[@]}"; do
  # Text lines, gpsd JSON, NMEA passthrough and GPX: every format that replays to a pipe.
  for format in "" --json --nmea --gpx; do
    for side in before after; do
      bin=$before
      [ "$side" = after ] && bin=$after
      # shellcheck disable=SC2086
      "$bin" watch --replay "$f" $format --speed max > "$work/$side.out" 2> "$work/$side.err"
      echo "exit $?" >> "$work/$side.err"
    done
    compared=$((compared + 1))
    if ! cmp -s "$work/before.out" "$work/after.out" || ! cmp -s "$work/before.err" "$work/after.err"; then
      differing=$((differing + 1))
      echo "differs: $f ${format:-(text)}"
      diff <(cat "$work/before.out" "$work/before.err") <(cat "$work/after.out" "$work/after.err") | head -5
    fi
  done
done
echo "same-output: $compared runs compared, $differing differ"
[ "$differing" -eq 0 ]
