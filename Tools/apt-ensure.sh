#!/usr/bin/env bash
# Installs, with apt, the Debian packages named that are not installed yet.
# Usage: apt-ensure.sh [sudo] PACKAGE...
set -euo pipefail
sudo=""
if [ "${1:-}" = sudo ]; then sudo=sudo; shift; fi
missing=()
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null
