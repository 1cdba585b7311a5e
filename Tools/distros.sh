#!/usr/bin/env bash
# make distros: gpsfix built, and its gpsd tests run against each system's own gpsd and libgps,
# on this machine (the host) and in minimal Debian roots made with debootstrap.
#
# Usage: Tools/distros.sh [SYSTEM...]   SYSTEM: host, or a Debian suite (trixie, sid); default all three
# Environment (the Makefile sets these):
#   DISTROS_CACHE   where the roots are kept between runs (/var/cache/gpsfix-distros)
#   DISTROS_MIRROR  the Debian archive (http://deb.debian.org/debian)
#   SWIFT           the swift on PATH; its toolchain is bind-mounted into each root at the same path
#   STRICT          the flags every build gets (-Xswiftc -warnings-as-errors)
#
# Each root is made once (debootstrap --variant=minbase) and kept; the packages it needs are
# recorded in it, and apt-get is run again only when that list changes. A root that must be
# made or updated while the archive cannot be reached is a failure, said as such: never a pass.
# Inside a root the project is at /src, built with a scratch path of its own
# (.build/distro-SUITE), as the user running this script; everything mounted is unmounted on
# every way out.
set -euo pipefail
cd "$(dirname "$0")/.."
project=$(pwd)

CACHE=${DISTROS_CACHE:-/var/cache/gpsfix-distros}
MIRROR=${DISTROS_MIRROR:-http://deb.debian.org/debian}
SWIFT=${SWIFT:-swift}
STRICT=${STRICT:--Xswiftc -warnings-as-errors}
systems=("$@")
[ ${#systems[@]} -gt 0 ] || systems=(host trixie sid)

# Every test that runs a real gpsd, reads through one with GpsdManager, or gives gpsfix --gpsd:
# GpsdManager's suites and this system's libgps decoding what gpsfix writes (GPSSourcesTests.Gpsd*),
# the CLI against gpsd on a pty (GpsdLiveTests)
# or on no port (GpsdCLITests), the system's gpsd clients (gpspipe, cgps, python3-gps, libgps)
# reading serve (ServeCommandTests), gpsd reading serve's NMEA feeds, serve --gpsd waiting for
# gpsd, and the usage checks that name --gpsd. A test skipped (a tool missing) fails the run.
GPSD_TESTS='GPSSourcesTests\.Gpsd|GPSFixCLITests\.(GpsdLiveTests|GpsdCLITests|ServeCommandTests|ServeNMEAFeedTests|ServeWaitsTests)|NetworkSourceTests/failures|SeveralSourcesTests/refusals|DemoModeTests/simulated'

# The packages a root needs: the libraries gpsfix links and the gpsd it is tested against, the
# tests' tools (gpsd's clients, python3-gps, socat, tmux for cgps), and what the Swift toolchain needs to build and link there (its clang takes
# the C runtime, libgcc and libstdc++ from the system's GCC: the version the system's g++ is).
# swift-build, swift-test and lld link libxml2.so.2: sid's libxml2-dev is libxml2.so.16
# (libxml2-16), and only its package libxml2 still has the old soname.
ROOT_PACKAGES="libgps-dev libmosquitto-dev gpsd gpsd-clients socat pkg-config libc6-dev binutils \
libcurl4-openssl-dev libxml2-dev libxml2 zlib1g-dev libsqlite3-0 tzdata python3 python3-gps tmux make ca-certificates"

# sid's Release file is valid for a week only: a mirror (or a clock) a few weeks apart makes
# apt refuse it as expired. Its signature is still checked; only the date is not.
APT_UPDATE_OPTIONS="-o Acquire::Check-Valid-Until=false"

logs=$project/.build/distros
mkdir -p "$logs"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
user="$(id -u):$(id -g)"

toolchain_of() {
  local swift driver
  swift=$(command -v "$SWIFT") || { echo "distros: '$SWIFT' is not on PATH" >&2; return 1; }
  driver=$(readlink -f "$swift")
  case "$driver" in
    */usr/bin/*) echo "${driver%/usr/bin/*}" ;;
    *) echo "distros: cannot tell the toolchain of $driver (expected …/usr/bin/swift)" >&2; return 1 ;;
  esac
}
toolchain=$(toolchain_of)

unreachable() {
  echo "distros: the Debian archive $MIRROR cannot be reached, and the $1 root must be $2." >&2
  echo "distros: FAILED: no network to the archive; this is not a pass (the roots are kept in $CACHE once made)." >&2
  exit 1
}

reachable() {
  curl -fsS --max-time 20 -o /dev/null "$MIRROR/dists/$1/InRelease" 2>/dev/null
}

# --- mounts: a stack, unmounted in reverse on every exit ------------------------------------
mounted=()
current_root=""

stop_root_processes() {
  # What the tests left running inside the root (a gpsd, a socat): ended by PID.
  local root=$1 p pid
  [ -n "$root" ] || return 0
  for p in /proc/[0-9]*; do
    [ "$($SUDO readlink "$p/root" 2>/dev/null)" = "$root" ] || continue
    pid=${p#/proc/}
    echo "distros: ending process $pid left in $root" >&2
    $SUDO kill -KILL "$pid" 2>/dev/null || true
  done
}

unmount_all() {
  local i
  stop_root_processes "$current_root"
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    $SUDO umount "${mounted[i]}" 2>/dev/null || { sleep 1; $SUDO umount -l "${mounted[i]}" || echo "distros: could not unmount ${mounted[i]}" >&2; }
  done
  mounted=()
  current_root=""
}
trap unmount_all EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mount_in() { # TARGET MOUNT-ARGS...
  local target=$1; shift
  $SUDO mkdir -p "$target"
  $SUDO mount "$@" "$target"
  mounted+=("$target")
}

# A run killed before its trap ran (SIGKILL) can leave mounts in a root: they are unmounted
# before the root is entered again or removed, and nothing is removed while any is left, for
# rm -rf would go through a bind mount into /dev or the project.
unmount_stale() { # DIR
  local dir=$1
  if grep -q " $dir/" /proc/mounts; then
    echo "distros: $dir has mounts left from an earlier run; unmounting them" >&2
    grep " $dir/" /proc/mounts | awk '{print $2}' | sort -r | while read -r m; do $SUDO umount -l "$m"; done
  fi
  ! grep -q " $dir/" /proc/mounts || { echo "distros: $dir still has mounts; not touching it" >&2; return 1; }
}

remove_root() { # DIR
  [ -e "$1" ] || return 0
  unmount_stale "$1" || return 1
  $SUDO rm -rf --one-file-system "$1"
}

enter() { # ROOT: the system's view a build and its tests need
  local root=$1
  unmount_stale "$root" || exit 1
  current_root=$root
  mount_in "$root/proc" -t proc proc
  mount_in "$root/sys" --bind -o ro /sys
  mount_in "$root/dev" --bind /dev
  mount_in "$root/dev/pts" --bind /dev/pts      # socat's pseudo-terminals
  mount_in "$root/dev/shm" -t tmpfs -o mode=1777 tmpfs
  mount_in "$root/tmp" -t tmpfs -o mode=1777 tmpfs
  mount_in "$root$toolchain" --bind -o ro "$toolchain"
  mount_in "$root/src" --bind "$project"
}

in_root() { # ROOT USER COMMAND: a shell command, run in the root from /src
  local root=$1 spec=$2; shift 2
  $SUDO chroot --userspec="$spec" "$root" /usr/bin/env -i HOME=/tmp LANG=C.UTF-8 ${TERM:+TERM=$TERM} \
    PATH="$toolchain/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    /bin/bash -c "cd /src && $1"
}

# --- roots ----------------------------------------------------------------------------------
ensure_root() { # SUITE
  local suite=$1 root=$CACHE/$1 gcc packages
  if [ ! -e "$root/.gpsfix-root" ]; then
    reachable "$suite" || unreachable "$suite" "made"
    echo "distros: making the $suite root in $root (debootstrap --variant=minbase)"
    $SUDO mkdir -p "$CACHE"
    remove_root "$root.new" || return 1
    $SUDO debootstrap --variant=minbase "$suite" "$root.new" "$MIRROR" > "$logs/$suite-debootstrap.log" 2>&1 \
      || { tail -20 "$logs/$suite-debootstrap.log" >&2; reachable "$suite" || unreachable "$suite" "made"; echo "distros: debootstrap $suite failed" >&2; return 1; }
    # Installing gpsd (or anything) in the root starts no daemon on this machine.
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$root.new/usr/sbin/policy-rc.d" > /dev/null
    $SUDO chmod 0755 "$root.new/usr/sbin/policy-rc.d"
    $SUDO touch "$root.new/.gpsfix-root"
    remove_root "$root" || return 1
    $SUDO mv "$root.new" "$root"
  fi
  gcc=$($SUDO chroot "$root" apt-cache depends g++ 2>/dev/null | sed -n 's/^ *Depends: g++-\([0-9][0-9]*\)$/\1/p' | head -1)
  [ -n "$gcc" ] || { echo "distros: cannot tell $suite's GCC version (apt-cache depends g++)" >&2; return 1; }
  packages="$ROOT_PACKAGES libgcc-$gcc-dev libstdc++-$gcc-dev"
  if [ "$($SUDO cat "$root/.gpsfix-packages" 2>/dev/null)" != "$packages" ]; then
    reachable "$suite" || unreachable "$suite" "updated (its package list changed)"
    echo "distros: installing in the $suite root: $packages"
    $SUDO cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
    if ! $SUDO chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
          sh -c "apt-get update -qq $APT_UPDATE_OPTIONS && apt-get install -y -qq --no-install-recommends $packages" > "$logs/$suite-apt.log" 2>&1; then
      tail -20 "$logs/$suite-apt.log" >&2
      reachable "$suite" || unreachable "$suite" "updated"
      echo "distros: apt-get install in the $suite root failed (log: $logs/$suite-apt.log)" >&2
      return 1
    fi
    echo "$packages" | $SUDO tee "$root/.gpsfix-packages" > /dev/null
  fi
}

# --- what each system has, and the runs --------------------------------------------------------
declare -A gpsd_version libgps_version api build tests
failed=0

describe() { # NAME ROOT-or-empty
  local name=$1 root=$2 q
  q() { if [ -n "$root" ]; then $SUDO chroot "$root" dpkg-query "$@"; else dpkg-query "$@"; fi; }
  gpsd_version[$name]=$(q -W -f='${Version}' gpsd 2>/dev/null || echo none)
  libgps_version[$name]=$(q -W -f='${Package} ${Version}\n' 'libgps[0-9]*' 2>/dev/null | awk '$2 != "" {print $1 " " $2}' | head -1)
  [ -n "${libgps_version[$name]}" ] || libgps_version[$name]=none
  api[$name]=$(awk '/#define[ \t]+GPSD_API_MAJOR_VERSION/ {print $3}' "$root/usr/include/gps.h" 2>/dev/null || true)
  [ -n "${api[$name]}" ] || api[$name]="?"
}

# The count of tests that passed, from swift-testing's closing line and its failure lines;
# none selected, or any skipped (gpsd or socat missing), is a failure too.
count_tests() { # LOG NAME -> sets tests[NAME], returns non-zero unless all passed
  local log=$1 name=$2 total failed_n skipped
  total=$(sed -n 's/.*Test run with \([0-9][0-9]*\) tests\{0,1\} .*/\1/p' "$log" | tail -1)
  failed_n=$(grep -E '✘ Test .* failed after' "$log" | grep -vc '✘ Test run with' || true)
  skipped=$(grep -cE '➜ (Test|Suite) .* skipped' "$log" || true)
  if [ -z "$total" ] || [ "$total" = 0 ]; then tests[$name]="none run"; return 1; fi
  tests[$name]="$((total - failed_n - skipped))/$total passed"
  [ "$skipped" = 0 ] || tests[$name]+=", $skipped skipped"
  [ "$failed_n" = 0 ] && [ "$skipped" = 0 ] && grep -q 'Test run with .* passed' "$log"
}

run_host() {
  local name="host (Debian $(cut -d. -f1 /etc/debian_version))"
  order+=("$name")
  describe "$name" ""
  echo "distros: $name: building (host build, .build)"
  local t=$SECONDS
  if $SWIFT build --build-tests $STRICT > "$logs/host-build.log" 2>&1; then
    build[$name]=ok
  else
    build[$name]=FAILED; tests[$name]="not run"; failed=1
    grep -E '^[^ ]+:[0-9]+:[0-9]+: error:' "$logs/host-build.log" | sort -u | head -20 | grep . || tail -15 "$logs/host-build.log"
    return
  fi
  echo "distros: $name: built in $((SECONDS - t)) s; gpsd tests"
  t=$SECONDS
  $SWIFT test --skip-build --no-parallel --filter "$GPSD_TESTS" > "$logs/host-test.log" 2>&1 || true
  count_tests "$logs/host-test.log" "$name" || { failed=1; grep -E '✘|error:' "$logs/host-test.log" | head -40; }
  echo "distros: $name: ${tests[$name]} in $((SECONDS - t)) s"
}

run_root() { # SUITE
  local suite=$1 root=$CACHE/$1 name scratch=.build/distro-$1
  name="$suite"
  local t=$SECONDS
  if ! ensure_root "$suite"; then
    order+=("$name"); build[$name]="no root"; tests[$name]="not run"; failed=1; return
  fi
  name="$suite (Debian $($SUDO cat "$root/etc/debian_version"))"
  order+=("$name")
  describe "$name" "$root"
  enter "$root"
  echo "distros: $name: root ready in $((SECONDS - t)) s; building in $root ($scratch)"
  t=$SECONDS
  if in_root "$root" "$user" "swift build --build-tests --scratch-path $scratch $STRICT" > "$logs/$suite-build.log" 2>&1; then
    build[$name]=ok
    echo "distros: $name: built in $((SECONDS - t)) s; gpsd tests"
    t=$SECONDS
    in_root "$root" "$user" "swift test --skip-build --no-parallel --scratch-path $scratch --filter '$GPSD_TESTS'" \
      > "$logs/$suite-test.log" 2>&1 || true
    count_tests "$logs/$suite-test.log" "$name" || { failed=1; grep -E '✘|error:' "$logs/$suite-test.log" | head -40; }
    echo "distros: $name: ${tests[$name]} in $((SECONDS - t)) s"
  else
    build[$name]=FAILED; tests[$name]="not run"; failed=1
    # Each error once, where it is; the log's end when there is none (the toolchain did not run).
    grep -E '^[^ ]+:[0-9]+:[0-9]+: error:' "$logs/$suite-build.log" | sort -u | head -20 | grep . \
      || tail -15 "$logs/$suite-build.log"
  fi
  # The Debian package, built, installed, run and purged in this system (Tools/deb, when there).
  if [ "$suite" = trixie ] && [ -f Tools/deb/root-check.sh ]; then
    echo "distros: $name: Tools/deb/root-check.sh"
    t=$SECONDS
    if in_root "$root" 0:0 "bash Tools/deb/root-check.sh" > "$logs/$suite-deb.log" 2>&1; then
      deb_check="passed"
    else
      deb_check="FAILED (log: .build/distros/$suite-deb.log)"; failed=1
      tail -30 "$logs/$suite-deb.log"
    fi
    deb_root=$name
    echo "distros: $name: Debian package $deb_check in $((SECONDS - t)) s"
  fi
  unmount_all
}

order=()
deb_check=""
deb_root=""
start=$SECONDS
for system in "${systems[@]}"; do
  case "$system" in
    host) run_host ;;
    *) run_root "$system" ;;
  esac
done

echo
printf '%-24s %-18s %-28s %-4s %-7s %s\n' system gpsd libgps API build "gpsd tests"
for name in "${order[@]}"; do
  printf '%-24s %-18s %-28s %-4s %-7s %s\n' "$name" "${gpsd_version[$name]:-?}" "${libgps_version[$name]:-?}" \
    "${api[$name]:-?}" "${build[$name]}" "${tests[$name]}"
done
if [ -n "$deb_root" ]; then
  echo "Debian package in $deb_root (Tools/deb/root-check.sh): $deb_check"
fi
echo "tests selected: swift test --filter '$GPSD_TESTS'"
echo "logs: .build/distros/; roots: $CACHE; $((SECONDS - start)) s"
if [ "$failed" != 0 ]; then
  echo "distros: FAILED"
  exit 1
fi
echo "distros: all passed"
