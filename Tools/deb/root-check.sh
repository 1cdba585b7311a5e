#!/bin/sh
# Tools/deb/root-check.sh: the Debian package built, installed, run and purged, inside a Debian
# root (a chroot such as make distros makes, or a container), as root, from the project
# directory (mounted e.g. at /src; the Swift toolchain at /opt/swift or on PATH; /proc, /dev and
# /dev/pts mounted).
#
# It installs what building the package needs there, runs `make deb` with a build directory of
# the root's own (.build/distro-CODENAME, or DEB_SCRATCH), installs the .deb with apt-get, runs
# gpsfix --version, a replay and man gpsfix, reinstalls it over an edited /etc/default/gpsfix,
# enables the socket as an administrator would, then purges the package and checks that every
# path it had is gone and nothing named gpsfix is left in /etc, /usr, /var/lib/dpkg/info or
# deb-systemd-helper's state. It prints a transcript (also
# kept in SCRATCH/root-check.log) and exits non-zero at the first failure.
set -u

cd "$(dirname "$0")/../.." || exit 1
[ "$(id -u)" = 0 ] || { echo "root-check: run as root, inside the Debian root" >&2; exit 1; }
[ -f Makefile ] && [ -x Tools/deb/build.sh ] || { echo "root-check: not a gpsfix tree: $(pwd)" >&2; exit 1; }

. /etc/os-release
codename=${VERSION_CODENAME:-unknown}
SCRATCH=${DEB_SCRATCH:-.build/distro-$codename}
mkdir -p "$SCRATCH"
LOG=$SCRATCH/root-check.log
: > "$LOG"
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 HOME=${HOME:-/root}
command -v swift >/dev/null || PATH=/opt/swift/usr/bin:$PATH
export PATH

say() { printf '%s\n' "$*" | tee -a "$LOG"; }
fail() { say "root-check: FAIL: $*"; exit 1; }
# run CMD...: the command and its output in the transcript; its status returned.
run() {
    say "# $*"
    { "$@" 2>&1; echo $? > "$SCRATCH/.status"; } | tee -a "$LOG"
    return "$(cat "$SCRATCH/.status")"
}

say "root-check: $PRETTY_NAME ($(dpkg --print-architecture)), $(uname -r), in $(pwd), build directory $SCRATCH"
command -v swift >/dev/null || fail "no Swift toolchain on PATH or at /opt/swift"

# What building the package needs: the release build's libraries, dpkg-dev for dpkg-shlibdeps,
# man-db to read the page, lintian to check the package. A stale package list is refreshed once.
# libstdc++'s development files (those of the release's gcc) let make release link the Swift
# runtime in; without them it would link the toolchain's shared runtime, which build.sh refuses.
gcc=$(dpkg-query -W -f='${source:Package}' libstdc++6)
need="make pkg-config libgps-dev libmosquitto-dev libstdc++-${gcc#gcc-}-dev dpkg-dev binutils man-db lintian"
run apt-get -o Dpkg::Use-Pty=0 install -y --no-install-recommends $need \
  || { run apt-get update && run apt-get -o Dpkg::Use-Pty=0 install -y --no-install-recommends $need; } \
  || fail "apt-get could not install: $need"
if dpkg-query -W gpsfix >/dev/null 2>&1; then run apt-get -o Dpkg::Use-Pty=0 purge -y gpsfix || fail "could not purge an earlier gpsfix"; fi

# The package, built here against this release's libraries; make deb runs lintian on it and
# fails on an error or a warning.
rm -f "$SCRATCH"/gpsfix_*.deb
run make deb SCRATCH="$SCRATCH" DEB_OUT="$SCRATCH" || fail "make deb"
deb=$(ls "$SCRATCH"/gpsfix_*_"$(dpkg --print-architecture)".deb) || fail "make deb made no package"
run lintian --version
run lintian --info --show-overrides "$deb" || fail "lintian"
run dpkg-deb --info "$deb"
run dpkg-deb --contents "$deb"

# Installed as a person would, with apt resolving Depends.
run apt-get -o Dpkg::Use-Pty=0 install -y "$(pwd)/$deb" || fail "apt-get install ./$(basename "$deb")"
[ "$(command -v gpsfix)" = /usr/bin/gpsfix ] || fail "gpsfix on PATH is $(command -v gpsfix), not /usr/bin/gpsfix"
dpkg -L gpsfix > "$SCRATCH/.paths"
run cat "$SCRATCH/.paths"
run find /var/lib/systemd -name '*gpsfix*'

version=$(dpkg-deb --field "$deb" Version)
run gpsfix --version || fail "gpsfix --version"
[ "$(gpsfix --version)" = "gpsfix ${version%-*}" ] || fail "gpsfix --version does not print the package's version ${version%-*}"

run sh -c 'gpsfix watch --replay Captures/drive-1hz.nmea --speed max > "$0/.replay"' "$SCRATCH" || fail "gpsfix watch --replay"
fixes=$(grep -cE '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z +[0-9.]+ [NS] +[0-9.]+ [EW] .*(2D|3D)' "$SCRATCH/.replay")
run head -n 3 "$SCRATCH/.replay"
say "fix lines: $fixes of $(wc -l < "$SCRATCH/.replay") lines"
[ "$fixes" -gt 0 ] || fail "the replay printed no fix lines"

run sh -c 'MANWIDTH=80 man -P cat gpsfix | head -n 12' || fail "man gpsfix"
MANWIDTH=80 man -P cat gpsfix 2>/dev/null | grep -q 'gpsfix - position fixes' || fail "man gpsfix does not show gpsfix(1)"

# Installed again over itself, as an upgrade is: the options the administrator set stay, and
# the maintainer scripts run their upgrade path.
echo 'GPSFIX_OPTIONS="--device /dev/gps0"  # set by root-check' >> /etc/default/gpsfix
run apt-get -o Dpkg::Use-Pty=0 install -y --reinstall "$(pwd)/$deb" || fail "apt-get install --reinstall"
grep -q 'set by root-check' /etc/default/gpsfix || fail "reinstalling lost the edit to /etc/default/gpsfix"
say "the edited /etc/default/gpsfix was kept"

# Nothing enabled or started by the install; then the administrator enables the socket, as the
# README says, so purge has links of its own to remove.
[ ! -e /etc/systemd/system/sockets.target.wants/gpsfix.socket ] || fail "the install enabled gpsfix.socket"
if command -v systemctl >/dev/null; then
    run systemctl enable gpsfix.socket || fail "systemctl enable gpsfix.socket"
    run ls -l /etc/systemd/system/sockets.target.wants/gpsfix.socket || fail "no link made by systemctl enable"
else
    say "no systemctl in this root: the socket is not enabled before the purge"
fi

# Purged: every path the package had is gone (a directory may stay only while another package
# owns it), and no file named gpsfix is left.
run apt-get -o Dpkg::Use-Pty=0 purge -y gpsfix || fail "apt-get purge gpsfix"
dpkg-query -W -f='${Status}' gpsfix 2>/dev/null | grep -q installed && fail "gpsfix is still installed"
left=""
while read -r path; do
    [ "$path" = /. ] && continue
    if [ -d "$path" ] && [ ! -L "$path" ]; then
        dpkg-query -S "$path" >/dev/null 2>&1 || left="$left $path"
    elif [ -e "$path" ] || [ -L "$path" ]; then
        left="$left $path"
    fi
done < "$SCRATCH/.paths"
[ -z "$left" ] || fail "purge left:$left"
say "every path the package had is gone (directories other packages own stay)"
remains=$(find /etc /usr /var/lib/dpkg/info /var/lib/systemd -name '*gpsfix*' 2>/dev/null)
[ -z "$remains" ] || fail "left behind after purge: $remains"
say "nothing named gpsfix in /etc, /usr, /var/lib/dpkg/info, /var/lib/systemd"
say "root-check: PASS ($codename, $(basename "$deb"))"
