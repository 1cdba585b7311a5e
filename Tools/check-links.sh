#!/usr/bin/env bash
# Usage: check-links.sh APP GPSFIX CAPTURE
# APP, an app built from the GPSSources product alone, replays CAPTURE and links neither libgps
# nor libmosquitto; GPSFIX, the CLI, links both (it has every source and feed).
set -euo pipefail
app=$1 gpsfix=$2 capture=$3
echo "ldd $app:"
ldd "$app" | sed 's/^/  /'
if ldd "$app" | grep -E 'libgps|libmosquitto'; then
  echo "check-links: $app links libgps or libmosquitto, but uses neither" >&2
  exit 1
fi
last=$("$app" "$capture" | tail -1)
case "$last" in
  *" fixes") [ "${last%% *}" -gt 0 ] || { echo "check-links: $app replayed no fixes" >&2; exit 1; } ;;
  *) echo "check-links: $app printed '$last'" >&2; exit 1 ;;
esac
echo "$app: $last from $capture, without libgps or libmosquitto"
links=$(ldd "$gpsfix")
for lib in libgps libmosquitto; do
  [[ $links == *"$lib.so"* ]] || { echo "check-links: $gpsfix does not link $lib" >&2; exit 1; }
done
echo "$gpsfix: links $(grep -oE '(libgps|libmosquitto)\.so\.[0-9]+' <<<"$links" | sort -u | tr '\n' ' ')"
