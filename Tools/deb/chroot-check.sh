#!/bin/sh
# Tools/deb/chroot-check.sh ROOT: Tools/deb/root-check.sh run in the Debian root ROOT (a
# debootstrap directory), from the host, as root. The project is bind-mounted at /src, the Swift
# toolchain (SWIFT_DIR, /opt/swift) at /opt/swift, with /proc, /dev and /dev/pts. All of it
# happens in a mount namespace of its own, so no mount outlives the check even if it is killed;
# the trap unmounts them anyway, on every way out.
set -eu
root=$(cd "${1:?usage: chroot-check.sh ROOT}" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
swift_dir=${SWIFT_DIR:-/opt/swift}
[ "$(id -u)" = 0 ] || { echo "chroot-check: run as root" >&2; exit 1; }
[ -x "$root/bin/sh" ] && [ -f "$root/etc/debian_version" ] || { echo "chroot-check: $root is not a Debian root" >&2; exit 1; }

if [ -z "${CHROOT_CHECK_NS:-}" ]; then
    CHROOT_CHECK_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi

mounted=""
cleanup() {
    for m in $mounted; do umount -l "$m" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
mountat() { # mountat TARGET MOUNT-ARGS...: mount, and remember to unmount (last mounted first)
    target=$1; shift
    mkdir -p "$target"
    mount "$@" "$target"
    mounted="$target $mounted"
}
mountat "$root/proc" -t proc proc
mountat "$root/dev" --bind /dev
mountat "$root/dev/pts" --bind /dev/pts
mountat "$root/opt/swift" --bind "$swift_dir"
mountat "$root/src" --bind "$top"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true

chroot "$root" /usr/bin/env -i PATH=/opt/swift/usr/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=dumb \
    ${DEB_SCRATCH:+DEB_SCRATCH=$DEB_SCRATCH} /bin/sh /src/Tools/deb/root-check.sh
